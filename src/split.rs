//! Where each component lies in a canonical serialization: the one piece
//! of URL knowledge that [`rules`](crate::rules) and [`surt`](crate::surt)
//! share. They work on the string that canonicalization wrote (a string
//! in, a string out), so they find its components again by "steps to parse
//! a URL" (`parse.rs`, the one home of the splitting rules) and turn the
//! parts it finds into ranges of the string.
//!
//! The unit tests check these ranges against the components of the
//! canonicalized record itself on every conformance input.

use std::ops::Range;

use crate::parse::parse_parts_into;
use crate::record::Parts;
use crate::scheme::Scheme;

/// The components of a serialization, as ranges of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Split {
    /// The scheme (without its `:`).
    pub scheme: Range<usize>,
    /// The authority, when the URL has one.
    pub authority: Option<Authority>,
    /// The path (possibly empty).
    pub path: Range<usize>,
    /// The query, without its `?`.
    pub query: Option<Range<usize>>,
    /// The fragment, without its `#`.
    pub fragment: Option<Range<usize>>,
    /// Whether the scheme is one whose URLs are all path, or `mailto:`
    /// (no authority, no fragment, and a path that is not a path of
    /// segments).
    pub opaque: bool,
}

/// The authority of a [`Split`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Authority {
    /// The whole authority, after `//`.
    pub all: Range<usize>,
    /// The user-info (user, and `:password` when present), without its `@`.
    pub userinfo: Option<Range<usize>>,
    /// The host (with its brackets when it is an IPv6 literal).
    pub host: Range<usize>,
    /// The port, without its `:`.
    pub port: Option<Range<usize>>,
}

/// Splits the serialization `s` (see the module comment).
pub(crate) fn split(s: &str) -> Split {
    // A canonical serialization never takes the two parsing rules that
    // write a path of their own (a drive letter scheme, `\\` at the start):
    // every part is a slice of `s`.
    let mut side = String::new();
    let mut p = Parts::default();
    parse_parts_into(s, &mut side, &mut p);
    let at = |part: &str| range_in(s, part);
    let scheme = p.scheme.map_or(0..0, at);
    let authority = p.authority.map(|all| {
        let all = at(all);
        let userinfo = p.user.map(at).map(|u| match p.password.map(at) {
            Some(pw) => u.start..pw.end,
            None => u,
        });
        Authority {
            host: p.host.map_or(all.start..all.start, at),
            port: p.port.map(at),
            userinfo,
            all,
        }
    });
    let rest = scheme.end + 1;
    Split {
        opaque: Scheme::of(s[scheme.clone()].as_bytes()).is_non_hierarchical(),
        scheme,
        authority,
        path: p.path.map_or(rest.min(s.len())..s.len(), at),
        query: p.query.map(at),
        fragment: p.fragment.map(at),
    }
}

/// Where `part`, a slice of `s`, lies in it.
fn range_in(s: &str, part: &str) -> Range<usize> {
    let start = (part.as_ptr() as usize).wrapping_sub(s.as_ptr() as usize);
    debug_assert!(start + part.len() <= s.len(), "{part:?} is not in {s:?}");
    // Never out of `s`, even for a part that were not in it.
    let start = start.min(s.len());
    start..(start + part.len()).min(s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(s: &str, r: &Option<Range<usize>>) -> Option<String> {
        r.clone().map(|r| s[r].to_owned())
    }

    /// On every conformance input, canonicalized: the ranges found in the
    /// serialization hold exactly the record's components (the user and
    /// password together, as `user[:password]`).
    #[test]
    fn split_finds_the_components_of_every_canonical_conformance_url() {
        let mut checked = 0;
        for input in crate::testutil::conformance_inputs() {
            let url = crate::canonicalize(&crate::resolve(&crate::parse(&input), &input), None);
            let Some(s) = url.serialize() else { continue };
            let sp = split(&s);
            let auth = sp.authority.as_ref();
            assert_eq!(Some(&s[sp.scheme.clone()]), url.scheme(), "{s}");
            let userinfo = match (url.user(), url.password()) {
                (None, None) => None,
                (u, None) => u.map(str::to_owned),
                (u, Some(p)) => Some(format!("{}:{p}", u.unwrap_or(""))),
            };
            assert_eq!(
                get(&s, &auth.and_then(|a| a.userinfo.clone())),
                userinfo,
                "{s}"
            );
            assert_eq!(auth.map(|a| &s[a.host.clone()]), url.host(), "{s}");
            assert_eq!(
                get(&s, &auth.and_then(|a| a.port.clone())).as_deref(),
                url.port(),
                "{s}"
            );
            assert_eq!(Some(&s[sp.path.clone()]), url.path(), "{s}");
            assert_eq!(get(&s, &sp.query).as_deref(), url.query(), "{s}");
            assert_eq!(get(&s, &sp.fragment).as_deref(), url.fragment(), "{s}");
            checked += 1;
        }
        assert!(checked > 1000, "{checked}");
    }
}
