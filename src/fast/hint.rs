//! What the recognizer found, in the two forms the fast exits keep it: [`Stop`], how far it read an
//! input it rejected, for the resumed parse and the resume road; [`Verified`], what it verified of
//! a record's serialization, kept in the record's one opaque note (`record::Note`) for the
//! handle path's later steps (ARCHITECTURE.md, speed mechanisms, rows 1 and 3).

use crate::record::{Authority, Component, Flags, Note, Serialization, Span, Url};
use crate::scheme::Scheme;

/// Where the recognizer (`layout`, src/fast/recognize.rs) stopped on a URL it rejected; each field
/// 0 when not reached. `s[..scheme_end]`: a lowercase hierarchical scheme other than `file:`, then
/// `://`. `s[..host_end]`: `scheme://host` as parse splits it, a host CanonicalizeHost copies
/// (lowercases if `host_upper`). `path_start`: after a port the port rules copy (or drop,
/// `port_dropped`); the path starts with `/` or is empty (written `/`). The path rules copy
/// `s[path_start..path_ok]`; `path_ok == s.len()` when query and fragment are canonical too (only
/// the edits are left).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stop {
    pub(crate) scheme_end: usize,
    pub(crate) host_end: usize,
    pub(crate) path_start: usize,
    pub(crate) path_ok: usize,
    /// CanonicalizeHost's fast path lowercases the host (`host::push_plain`).
    pub(crate) host_upper: bool,
    /// `s[host_end..path_start]` is a port the port rules drop (empty or default).
    pub(crate) port_dropped: bool,
}

impl Stop {
    /// The stages from the start.
    pub(crate) const NONE: Stop = Stop {
        scheme_end: 0,
        host_end: 0,
        path_start: 0,
        path_ok: 0,
        host_upper: false,
        port_dropped: false,
    };
}

/// What the recognizer verified of a record's serialization, for canonicalization to skip
/// ([`canonical_prefix`], [`is_known_canonical`]). Not part of the URL's value; kept in the
/// record's note ([`Verified::note`], [`Verified::of`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Verified {
    /// Its own canonical form (default options).
    pub(crate) canonical: bool,
    /// `ser[..prefix]` (0: none): `scheme://host`, copied as is (ASCII-lowercased when `lower`).
    pub(crate) prefix: usize,
    pub(crate) lower: bool,
    /// With a prefix: where the path octets the path rules copy end (0: unknown).
    pub(crate) path_ok: usize,
}

/// The note's flags.
const CANONICAL: u8 = 1;
const LOWER: u8 = 2;

impl Verified {
    pub(crate) const NONE: Verified = Verified {
        canonical: false,
        prefix: 0,
        lower: false,
        path_ok: 0,
    };
    pub(crate) const CANONICAL: Verified = Verified {
        canonical: true,
        ..Verified::NONE
    };

    /// As the record keeps it: its two places in the serialization, and the flags.
    pub(crate) const fn note(self) -> Note {
        let flags = if self.canonical { CANONICAL } else { 0 } | if self.lower { LOWER } else { 0 };
        Note {
            places: [self.prefix, self.path_ok],
            flags,
        }
    }

    /// What the fast exits noted of `u`.
    #[inline]
    pub(crate) fn of(u: &Url) -> Verified {
        let n = u.note();
        Verified {
            canonical: n.flags & CANONICAL != 0,
            prefix: n.places[0],
            lower: n.flags & LOWER != 0,
            path_ok: n.places[1],
        }
    }
}

/// Whether `u` is known to be its own canonical form (default options).
#[inline]
pub(crate) fn is_known_canonical(u: &Url) -> bool {
    u.note().flags & CANONICAL != 0
}

/// Whether the fast exits noted anything of `u` (canonical, or a canonical prefix).
pub(crate) fn noted(u: &Url) -> bool {
    u.note() != Note::NONE
}

/// The serialization and spans of a record known canonical, for the merge.
#[inline]
pub(crate) fn canonical_base(u: &Url) -> Option<(&str, &[Span; 8])> {
    if !is_known_canonical(u) {
        return None;
    }
    Some((u.as_str()?, u.spans()))
}

/// When known: the serialization's prefix `scheme://host` that canonicalization copies
/// (ASCII-lowercased when the `bool` says so), the spans, and how many path octets the path rules
/// copy.
pub(crate) fn canonical_prefix(u: &Url) -> Option<(&str, &[Span; 8], bool, usize)> {
    let v = Verified::of(u);
    if v.prefix == 0 {
        return None;
    }
    let at = u.spans();
    let path_ok = at[Component::Path]
        .range()
        .map_or(0, |r| v.path_ok.saturating_sub(r.start));
    Some((u.as_str()?.get(..v.prefix)?, at, v.lower, path_ok))
}

/// The record of `prefix` + `rest`, a URL the recognizer found canonical with its components at
/// `at`: its serialization is that string, and so is its parse and canonical form (noted). The raw
/// authority is the host's span unless there is a port (then host and port, copied).
pub(crate) fn canonical_url(prefix: &str, rest: &str, at: &[Span; 8], class: Scheme) -> Url {
    let port = at[Component::Port];
    let authority = match port.range() {
        None => Authority::Host,
        Some(p) => {
            let h = at[Component::Host].range().map_or(p.start, |h| h.start);
            Authority::At(Span::new(h, p.end))
        }
    };
    Url::from_serialization(
        Serialization::Pieces([prefix, rest, ""]),
        at,
        authority,
        Flags::valid(class, true, true, Verified::CANONICAL.note()),
    )
}
