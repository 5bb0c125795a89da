//! The fast exits: the answers for canonical input and the common links of
//! a page that skip the stages, each exact by construction (the stages
//! would give the same) and declining whatever it cannot decide in its one
//! pass. Only `api` calls them (`scripts/check-layers.py` fails otherwise);
//! no stage knows them, and the one thing a stage takes from them is a
//! hint, `hint::Stop`, handed over by `api`.
//!
//! - [`recognize`]: the recognizer of canonical input (`is_canonical`,
//!   `layout`, `scan_ascii`), which on input it rejects says how far it
//!   verified it; and the merge of a reference against a base known to be
//!   canonical (`merge_with`).
//! - [`own`]: resolution of a URL against the string it was parsed from,
//!   and the merge as a resolution.
//! - [`resume`]: the bulk call's resume road, the stages' component
//!   writers after the prefix the recognizer verified.
//!
//! Rejecting is always safe; accepting must mean that the stages give the
//! same result. The fast-exit differential (`tests/fast_exit_differential.rs`)
//! compares every interface with them on and off ([`on`]); the unit tests of
//! each file check its exit against the stages directly.

mod own;
mod recognize;
mod resume;

pub(crate) use own::resolve;
pub(crate) use recognize::{authority_stop, is_canonical, layout_or_stop, merge_with, scan_ascii};
pub(crate) use resume::canon_from;

/// Whether the fast exits may answer. Tests and the `differential` feature
/// (for the differential that compares the two roads) can turn them off on
/// a thread, so that every input takes the stages; in other builds they are
/// always on and the test costs nothing. `api` reads it; nothing else does.
#[cfg(any(test, feature = "differential"))]
mod switch {
    use std::cell::Cell;

    thread_local! {
        static ON: Cell<bool> = const { Cell::new(true) };
    }

    pub(crate) fn on() -> bool {
        ON.with(Cell::get)
    }

    pub(crate) fn set(on: bool) -> bool {
        ON.with(|c| c.replace(on))
    }
}

#[cfg(not(any(test, feature = "differential")))]
mod switch {
    #[inline(always)]
    pub(crate) const fn on() -> bool {
        true
    }
}

/// Turns the fast exits on or off on the calling thread and returns the
/// previous setting. For the differential of the fast exits against the
/// stages only (test builds and the `differential` feature): with them
/// off, every input takes the stages, and no record is marked canonical.
#[cfg(any(test, feature = "differential"))]
#[doc(hidden)]
pub fn set_fast_exits(on: bool) -> bool {
    switch::set(on)
}

/// Whether the fast exits may answer on this thread (see
/// [`set_fast_exits`]): the switch, read by `api` alone.
#[inline(always)]
pub(crate) fn on() -> bool {
    switch::on()
}
