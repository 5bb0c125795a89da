//! wurl: the 2012 Web::URL::Canonicalize algorithm (`docs/url-canon-spec.txt`), a module per stage,
//! all entered through [`api`]; C ABI in [`ffi`]. Absent is `None`, present-and-empty `Some("")`.
//! ```
//! assert_eq!(wurl::url_to_canon_url("HTTP://A.com/x/../b", None, None).unwrap(), "http://a.com/b");
//! ```

#![forbid(unsafe_op_in_unsafe_fn)]

pub mod api;
pub mod bound;
pub mod canonicalize;
pub mod charset;
mod fast;
pub mod ffi;
pub mod host;
mod invalid;
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
pub mod state;
pub mod strict;
#[cfg(test)]
mod testutil;
pub mod trace;
mod utf8;

pub use api::{
    Model, canon_into, canon_into_resolved, canon_standard_into, canonicalize,
    canonicalize_resolved, canonicalize_with, own_base, own_base_reason, parse, resolve,
};
pub use bound::output_bound;
pub use canonicalize::{CanonOptions, ResolvedOptions};
pub use charset::{Charset, UnknownCharset};
pub use record::{Component, InvalidReason, Url};
pub use state::StateError;

/// The recognizer of canonical input (`fast`, through `api`), as earlier versions exported it.
pub mod canonical_form {
    /// The recognizer's block runs against its octet loops (the `recognize` fuzz target).
    #[cfg(feature = "differential")]
    #[doc(hidden)]
    pub use crate::api::runs_agree;
    #[cfg(feature = "differential")]
    pub use crate::api::set_fast_exits;
    /// Whether the stages (default options) give `s` back unchanged; `false` may mean "can't tell".
    pub fn is_canonical(s: &[u8]) -> bool {
        crate::api::is_canonical(s)
    }
}

/// The library version, as in `Cargo.toml`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The original module's `url_to_canon_url`: `input` resolved against `base` (or itself),
/// canonicalized with `charset` (`None`: UTF-8) and serialized; `None` when invalid.
pub fn url_to_canon_url(input: &str, base: Option<&str>, charset: Option<&str>) -> Option<String> {
    let base = parse(base.unwrap_or(input));
    let resolved = resolve(&base, input);
    canonicalize(&resolved, charset).serialize()
}

pub mod explain;
pub mod key;
pub mod rules;
mod split;
pub mod surt;

pub use explain::{Comparison, ExplainOptions, Trace, compare, explain};
pub use key::{
    KEY_VERSION, KeyOptions, key_into, key_into_resolved, key_of_into, key_of_model_into,
    key_of_url_into, key_standard_into,
};
pub use rules::{Rules, RulesError};
pub use trace::{Stage, Step};
