//! The hint the fast exits hand a stage: the prefix the recognizer (`fast`, run by `api` alone)
//! verified canonical, for the stage to resume after it (ARCHITECTURE.md, speed mechanisms, row 3).

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
/// (`Url::canonical_prefix`, `Url::is_known_canonical`). Not part of the URL's value.
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
}
