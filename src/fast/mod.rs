//! The fast exits (ARCHITECTURE.md, speed mechanisms, rows 1 to 4): [`recognize`], [`own`],
//! [`resume`], the resumed parse ([`parse`]) and the prefix road ([`canon`]), with what they note
//! ([`hint`]: the record's note is theirs alone). Each declines what it cannot decide; accepting
//! must mean the stages give the same result (`tests/fast_exit_differential.rs`, exits [`on`] and
//! off). Only `api` calls them; they call the stages' rule functions, never the other way.

mod block;
mod canon;
mod hint;
mod own;
mod parse;
mod recognize;
mod resume;

pub(crate) use canon::canonicalize;
pub(crate) use hint::noted;
pub(crate) use hint::{Stop, canonical_url};
pub(crate) use own::resolve;
pub(crate) use parse::{parse_from, parse_resumed_at};
#[cfg(feature = "differential")]
pub use recognize::{AGREE_BASES, runs_agree};
pub(crate) use recognize::{authority_stop, is_canonical, layout_or_stop, merge_with, scan_ascii};
pub(crate) use resume::canon_from;

/// Off on a thread in tests and the `differential` feature; always on otherwise.
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
    #[inline]
    pub(crate) const fn on() -> bool {
        true
    }
}

/// Turns the fast exits on or off on this thread (tests, `differential` feature); returns the
/// previous setting.
#[cfg(any(test, feature = "differential"))]
#[doc(hidden)]
pub fn set_fast_exits(on: bool) -> bool {
    switch::set(on)
}

/// Whether the fast exits may answer on this thread (see `set_fast_exits`).
#[inline]
pub(crate) fn on() -> bool {
    switch::on()
}
