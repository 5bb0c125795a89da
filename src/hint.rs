//! The one hint the fast exits hand to a stage: how far the recognizer of
//! canonical input (`fast`, run by `api` alone) verified an input, so that
//! the stage resumes after that prefix instead of reading it again
//! (`parse::parse_stages_from`, `parse::parse_resumed_at`). A stage only
//! reads it; which hint to give, if any, is `api`'s decision, and
//! `Stop::NONE` means the stages from the start.

/// How far the pass of the recognizer (`layout` in src/fast/recognize.rs)
/// got on a URL it rejected: the prefix it found canonical, ending at a
/// component boundary, up to the edits below.
/// `scheme_end` (0: none): `s[..scheme_end]` is a lowercase scheme other
/// than `file:`, of a hierarchical kind, followed by `://` (of any case
/// in the stops of its `authority_stop`). `host_end` (0:
/// none): moreover `s[..host_end]` is `scheme://host` with a host
/// CanonicalizeHost copies (lowercased when `host_upper`), found as parse
/// finds it (exactly two slashes before it). `path_start` (0: none):
/// moreover the port after the host, if any, is one the port rules copy
/// (or drop, when `port_dropped`), and the path begins at `path_start`:
/// with `/`, or it is empty (`s[path_start]` is `?`, `#` or the end), when
/// canonicalization writes `/` for it. `path_ok` (0: none): the path rules
/// copy `s[path_start..path_ok]` as it is; `path_ok` is the octet they do
/// not (or where the path ends), or `s.len()` when the query and the
/// fragment are canonical too (then only the edits are left to make).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stop {
    pub(crate) scheme_end: usize,
    pub(crate) host_end: usize,
    pub(crate) path_start: usize,
    pub(crate) path_ok: usize,
    /// The host has ASCII uppercase letters: CanonicalizeHost's fast path
    /// lowercases them (`host::push_plain`), and otherwise copies it.
    pub(crate) host_upper: bool,
    /// `s[host_end..path_start]` is `:` and a port the port rules drop
    /// (empty, or the scheme's default).
    pub(crate) port_dropped: bool,
}

impl Stop {
    /// No prefix found canonical: the stages from the start.
    pub(crate) const NONE: Stop = Stop {
        scheme_end: 0,
        host_end: 0,
        path_start: 0,
        path_ok: 0,
        host_upper: false,
        port_dropped: false,
    };
}

/// The one hint a record keeps: what the recognizer verified of its
/// serialization, for canonicalization to skip (`Url::canonical_prefix`,
/// `Url::is_known_canonical`). Not part of the URL's value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Verified {
    /// The serialization is its own canonical form (default options).
    pub(crate) canonical: bool,
    /// `ser[..prefix]` (0: none) is a hierarchical scheme other than
    /// `file:`, `://` and a host, which canonicalization copies, or
    /// ASCII-lowercases when `lower`.
    pub(crate) prefix: usize,
    pub(crate) lower: bool,
    /// With a prefix: where the path octets the path rules copy end (0:
    /// not known).
    pub(crate) path_ok: usize,
}

impl Verified {
    /// Nothing verified.
    pub(crate) const NONE: Verified = Verified {
        canonical: false,
        prefix: 0,
        lower: false,
        path_ok: 0,
    };
    /// The whole serialization is canonical.
    pub(crate) const CANONICAL: Verified = Verified {
        canonical: true,
        ..Verified::NONE
    };
}
