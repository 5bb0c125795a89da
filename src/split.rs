//! Where each component lies in a canonical serialization: the one piece of URL knowledge that
//! [`rules`](crate::rules) and [`surt`](crate::surt) share (they read the string canonicalization
//! wrote). The rules are those of "steps to parse a URL" (`parse.rs`) restricted to a canonical
//! serialization: the scheme ends at the first `:`; an all-path scheme (`about:`, `data:`,
//! `javascript:`, `vbscript:`) is all path, and `mailto:` a path and, after the first `?`, a query;
//! otherwise `//` starts an authority, up to the first `/`, `?` or `#` (user-info to the last `@`,
//! port after the last `:` outside brackets; a `file:` URL's is all host); then the path runs to
//! the first `?` or `#`, the query to the first `#`. The unit tests check the ranges against the
//! record's components on every conformance input.

use std::ops::Range;

use memchr::{memchr, memchr2, memchr3, memrchr3};

use crate::scheme::{Scheme, SchemeKind};

/// The components of a serialization, as ranges of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Split {
    /// The scheme (without its `:`).
    pub scheme: Range<usize>,
    pub authority: Option<Authority>,
    pub path: Range<usize>,
    /// The query, without its `?`.
    pub query: Option<Range<usize>>,
    /// The fragment, without its `#`.
    pub fragment: Option<Range<usize>>,
    /// An all-path scheme or `mailto:` (no authority or fragment, no path of segments).
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
    let b = s.as_bytes();
    let colon = memchr(b':', b);
    let scheme = 0..colon.unwrap_or(0);
    let rest = colon.map_or(0, |c| c + 1);
    let kind = match colon {
        Some(_) => Scheme::of(&b[scheme.clone()]).kind,
        None => SchemeKind::Other,
    };
    let mut out = Split {
        scheme,
        authority: None,
        path: rest..b.len(),
        query: None,
        fragment: None,
        opaque: false,
    };
    if kind == SchemeKind::NonHierarchical {
        out.opaque = true;
        return out;
    }
    if kind == SchemeKind::Mailto {
        out.opaque = true;
        if let Some(q) = memchr(b'?', &b[rest..]).map(|i| rest + i) {
            out.path = rest..q;
            out.query = Some(q + 1..b.len());
        }
        return out;
    }
    let mut at = rest;
    if b[rest..].starts_with(b"//") {
        let start = rest + 2;
        let end = memchr3(b'/', b'?', b'#', &b[start..]).map_or(b.len(), |i| start + i);
        out.authority = Some(if kind == SchemeKind::File {
            Authority {
                all: start..end,
                userinfo: None,
                host: start..end,
                port: None,
            }
        } else {
            authority(b, start..end)
        });
        at = end;
    }
    let path_end = memchr2(b'?', b'#', &b[at..]).map_or(b.len(), |i| at + i);
    out.path = at..path_end;
    at = path_end;
    if b.get(at) == Some(&b'?') {
        let end = memchr(b'#', &b[at + 1..]).map_or(b.len(), |i| at + 1 + i);
        out.query = Some(at + 1..end);
        at = end;
    }
    if b.get(at) == Some(&b'#') {
        out.fragment = Some(at + 1..b.len());
    }
    out
}

/// Splits the authority `all` of `b` as `parse.rs`'s `split_authority` does (SURT uses it for a
/// `file:` URL's authority too).
pub(crate) fn authority(b: &[u8], all: Range<usize>) -> Authority {
    let a = &b[all.clone()];
    // One backward search for the last `@` and the last `:` and `]` after it.
    let (mut at, mut colon, mut close) = (None, None, None);
    let mut end = a.len();
    while let Some(i) = memrchr3(b'@', b':', b']', &a[..end]) {
        match a[i] {
            b'@' => {
                at = Some(i);
                break;
            }
            b':' => colon = colon.or(Some(i)),
            _ => close = close.or(Some(i)),
        }
        end = i;
    }
    let (userinfo, host_start) = match at {
        Some(i) => (Some(all.start..all.start + i), i + 1),
        None => (None, 0),
    };
    let bracketed =
        a.get(host_start) == Some(&b'[') && close.is_some_and(|c| colon.is_none_or(|k| k < c));
    let (host, port) = match colon {
        Some(k) if !bracketed => (
            all.start + host_start..all.start + k,
            Some(all.start + k + 1..all.end),
        ),
        _ => (all.start + host_start..all.end, None),
    };
    Authority {
        all,
        userinfo,
        host,
        port,
    }
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
