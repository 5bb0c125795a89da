//! wurl — URL parsing, resolution, canonicalization and serialization as
//! specified by the 2012 Web::URL::Canonicalize algorithm
//! (`docs/url-canon-spec.txt`), with a C ABI.
//!
//! The stages of the algorithm each live in a module named after them:
//!
//! * [`preprocess`] — "steps to preprocess a string";
//! * [`parse`](mod@parse) — "steps to parse a URL" (drive, `file:`, UNC, `mailto:`,
//!   hierarchical and non-hierarchical URLs);
//! * [`resolve`](mod@resolve) — "steps to resolve a URL", "merge path", "remove
//!   dot-segments";
//! * [`canonicalize`](mod@canonicalize) — "steps to canonicalize a URL", with [`host`]
//!   (CanonicalizeHost), [`ipv4`], [`ipv6`], [`nameprep`] and [`percent`];
//! * [`serialize`] — "steps to serialize a parsed URL";
//!
//! Every caller enters through [`api`], which chooses between the fast
//! exits (`fast`: the recognizer of canonical input, the merge of a page's
//! links, the resume road, known to `api` alone) and the stages; the
//! functions below ([`parse()`], [`resolve()`], [`canonicalize()`], ...)
//! are `api`'s. The C ABI is in [`ffi`] and holds no URL logic.
//! A second model, the WHATWG URL Standard's (opt-in, in [`standard`]), is
//! reached through the same layer and shares nothing with the stages.
//!
//! Absent and empty components are different everywhere: every component is
//! an `Option<&str>` where `None` is absent and `Some("")` present-and-empty.
//!
//! ```
//! let base = wurl::parse("http://EXAMPLE.com:80/x/y");
//! let url = wurl::canonicalize(&wurl::resolve(&base, "../a/./b"), None);
//! assert_eq!(url.serialize().as_deref(), Some("http://example.com/a/b"));
//! assert_eq!(url.query(), None);
//!
//! // The bulk path, for crawler loops: the same stages, writing into
//! // `out` and per-thread buffers (no allocation per call once warm).
//! let mut out = String::new();
//! wurl::canon_into(Some(&base), "?q", &wurl::CanonOptions::default(), &mut out).unwrap();
//! assert_eq!(out, "http://example.com/x/y?q");
//!
//! // Invalid is a state, with a reason.
//! let bad = wurl::canonicalize(&wurl::parse("http://a:99999/"), None);
//! assert_eq!(bad.invalid_reason().map(|r| r.as_str()), Some("port out of range"));
//! ```

#![forbid(unsafe_op_in_unsafe_fn)]

pub mod api;
pub mod canonicalize;
pub mod charset;
mod fast;
pub mod ffi;
pub(crate) mod hint;
pub mod host;
pub mod ipv4;
pub mod ipv6;
pub mod nameprep;
pub mod parse;
pub(crate) mod path;
pub mod percent;
pub mod preprocess;
pub mod punycode;
pub mod record;
pub mod resolve;
mod scan;
pub(crate) mod scheme;
mod scratch;
pub mod serialize;
pub mod standard;
pub mod strict;
#[cfg(test)]
mod testutil;
mod utf8;

pub use api::{
    Model, canon_into, canon_standard_into, canonicalize, canonicalize_with, own_base,
    own_base_reason, parse, resolve,
};
pub use canonicalize::CanonOptions;
pub use record::{Component, InvalidReason, Url};

/// The recognizer of canonical input, as earlier versions exported it
/// (`fast`, reached through `api`).
pub mod canonical_form {
    #[cfg(feature = "differential")]
    pub use crate::api::set_fast_exits;
    /// Whether `s` is a URL that the stages (with the default options:
    /// UTF-8 query, not network-strict) give back unchanged,
    /// preprocessing, parsing, resolution against its own parse and
    /// canonicalization. `false` means only that one pass could not tell.
    pub fn is_canonical(s: &[u8]) -> bool {
        crate::api::is_canonical(s)
    }
}

/// The library version, as in `Cargo.toml`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The one-call API of the original module, `url_to_canon_url(input, base,
/// charset)`: parse the base (or, without one, the input itself), resolve the
/// input against it, canonicalize with `charset` (`None` means UTF-8) and
/// serialize. `None` when the result is invalid.
pub fn url_to_canon_url(input: &str, base: Option<&str>, charset: Option<&str>) -> Option<String> {
    let base = parse(base.unwrap_or(input));
    let resolved = resolve(&base, input);
    canonicalize(&resolved, charset).serialize()
}

// Keys for crawlers and web archives: opt-in rules and SURT on
// the canonical serialization, which they read as a string (`split`).
pub mod key;
pub mod rules;
mod split;
pub mod surt;

pub use key::{KeyOptions, key_into, key_of_into, key_of_url_into, key_standard_into};
pub use rules::{Rules, RulesError};
