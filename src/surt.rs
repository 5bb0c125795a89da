//! SURT (Sort-friendly URI Reordering Transform) of a canonical
//! serialization, as web archives key their indexes (CDX): the host's
//! labels reversed and comma-joined, so that a site's URLs sort together.
//!
//! `http://www.example.com:8080/a/b?q#f` → `com,example,www:8080)/a/b?q#f`
//!
//! The conventions, those of the Internet Archive's `surt` package applied
//! to the canonical URL with its own canonicalizer turned off, except
//! where noted:
//!
//! * the scheme and its `://` are dropped (`http` and `https` share keys);
//!   with [`SurtOptions::with_scheme`] they are kept, with `(` after them:
//!   `http://(com,example,www)/`;
//! * the host's labels, split on `.`, are written last first, separated by
//!   `,`; an empty label stays empty (`example.com.` → `,com,example`);
//! * an IPv4 address is reversed like a domain name (`1.2.3.4` →
//!   `4,3,2,1`), as the Internet Archive's default is;
//! * an IPv6 literal is kept as it is, brackets included (`[::1]`) —
//!   unlike the Python package, which drops the brackets and makes
//!   `[::1]:81` and `[::1:81]` alike;
//! * the port, when the canonical URL has one (it never has the scheme's
//!   default), follows the host: `com,example:8080`;
//! * the user-info is dropped;
//! * a `file:` URL's authority (all host to the 2012 algorithm) is split
//!   as the others' are: `file://u:p@a.com:8080/x` → `com,a:8080)/x`;
//! * `)` follows the host and port (an empty port is dropped, as
//!   `http://a:/` has none), then come the path, query and fragment as the
//!   canonical URL has them, except that an empty fragment is dropped with
//!   its `#`, and an empty query followed by `#` with its `?`
//!   (`/x?#` → `/x`, `/x?#f` → `/x#f`, but `/x?` stays `/x?`);
//! * a URL with an empty host loses its authority: `file:///x` →
//!   `file:/x`, `https:///` → `https:/` (with or without the scheme
//!   option), except when its path starts with `//`, which would then read
//!   as an authority: `https://u@//evil.com/` → `https:////evil.com/`;
//! * a URL without an authority (`mailto:`, `data:`, `urn:x`) is its own
//!   SURT, but for the empty query and fragment rule above (which the
//!   all-path schemes `about:`, `data:`, `javascript:` and `vbscript:`,
//!   having neither, never meet).
//!
//! Where the Python package differs on URLs the benchmark data does not
//! hold: it keeps no `:0` port (wurl keeps it, as the canonical URL does);
//! on an empty host followed by a path it takes the path's first segment
//! for the host; it returns any URL starting with `filedesc` as it is
//! (`filedesc://a.b/` → wurl `b,a)/`); it drops an empty fragment of
//! `mailto:` and the all-path schemes, which have none in the 2012
//! algorithm (`mailto:x#` stays); wurl follows the rules above
//! (docs/keys.md lists each difference with an example).

use crate::split::split;

/// Options of the SURT form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SurtOptions {
    /// Keep the scheme: `http://(com,example)/` rather than `com,example)/`.
    pub with_scheme: bool,
}

/// The SURT form of `canonical` (a serialization made by wurl's
/// canonicalization), a new string.
///
/// ```
/// use wurl::surt::{SurtOptions, surt};
/// let s = surt("http://www.example.com/a/b?z=1&a=2", &SurtOptions::default());
/// assert_eq!(s, "com,example,www)/a/b?z=1&a=2");
/// ```
pub fn surt(canonical: &str, opts: &SurtOptions) -> String {
    let mut out = String::with_capacity(canonical.len() + 2);
    surt_into(canonical, opts, &mut out);
    out
}

/// Appends the SURT form of `canonical` to `out` (see the module
/// documentation); allocates nothing beyond `out`'s growth.
pub fn surt_into(canonical: &str, opts: &SurtOptions, out: &mut String) {
    let s = canonical;
    let sp = split(s);
    // A `file:` URL's authority is all host to the 2012 algorithm, but its
    // SURT follows the rules of the others: user-info dropped, port after
    // the host (as the Internet Archive's transform does).
    let auth = match &sp.authority {
        Some(a) if &s[sp.scheme.clone()] == "file" => {
            Some(crate::split::authority(s.as_bytes(), a.all.clone()))
        }
        a => a.clone(),
    };
    match &auth {
        // No authority: the URL as it is, up to its path.
        None => out.push_str(&s[..sp.path.start]),
        // An empty host: the scheme and `:`, without the authority — but
        // for a path that starts with `//`, which would then read as an
        // authority (`https://u@//evil.com/` is no URL of `evil.com`): its
        // empty authority stays.
        Some(a) if a.host.is_empty() => {
            out.push_str(&s[sp.scheme.clone()]);
            out.push(':');
            if s[sp.path.clone()].starts_with("//") {
                out.push_str("//");
            }
        }
        Some(a) => {
            if opts.with_scheme {
                out.push_str(&s[sp.scheme.clone()]);
                out.push_str("://(");
            }
            let host = &s[a.host.clone()];
            if host.starts_with('[') {
                out.push_str(host);
            } else {
                // The labels last first; a host is short, so a plain
                // backward scan for each dot.
                let mut end = host.len();
                while let Some(dot) = host.as_bytes()[..end].iter().rposition(|&c| c == b'.') {
                    out.push_str(&host[dot + 1..end]);
                    out.push(',');
                    end = dot;
                }
                out.push_str(&host[..end]);
            }
            if let Some(p) = a.port.clone().filter(|p| !p.is_empty()) {
                out.push(':');
                out.push_str(&s[p]);
            }
            out.push(')');
        }
    }
    out.push_str(&s[sp.path.clone()]);
    match &sp.query {
        // An empty query before a `#` goes (its `?` says nothing there).
        Some(q) if q.is_empty() && sp.fragment.is_some() => {}
        Some(q) => {
            out.push('?');
            out.push_str(&s[q.clone()]);
        }
        None => {}
    }
    if let Some(f) = sp.fragment.filter(|f| !f.is_empty()) {
        out.push('#');
        out.push_str(&s[f]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples() {
        let plain = SurtOptions::default();
        let scheme = SurtOptions { with_scheme: true };
        for (input, want, want_scheme) in [
            (
                "http://www.example.com/a/b?z=1&a=2",
                "com,example,www)/a/b?z=1&a=2",
                "http://(com,example,www)/a/b?z=1&a=2",
            ),
            (
                "https://example.com:8080/x#f",
                "com,example:8080)/x#f",
                "https://(com,example:8080)/x#f",
            ),
            ("http://1.2.3.4/", "4,3,2,1)/", "http://(4,3,2,1)/"),
            ("http://[::1]:81/", "[::1]:81)/", "http://([::1]:81)/"),
            ("http://u:p@a.b/", "b,a)/", "http://(b,a)/"),
            (
                "http://example.com./",
                ",com,example)/",
                "http://(,com,example)/",
            ),
            ("http://localhost/", "localhost)/", "http://(localhost)/"),
            ("file://host/x", "host)/x", "file://(host)/x"),
            (
                "file://u:p@a.com:8080/x",
                "com,a:8080)/x",
                "file://(com,a:8080)/x",
            ),
            ("file://u@a.com/x", "com,a)/x", "file://(com,a)/x"),
            ("file://@a/x", "a)/x", "file://(a)/x"),
            ("file://[::1]:8/x", "[::1]:8)/x", "file://([::1]:8)/x"),
            ("file:///x", "file:/x", "file:/x"),
            ("https:///", "https:/", "https:/"),
            (
                "https://u@//evil.com:443/",
                "https:////evil.com:443/",
                "https:////evil.com:443/",
            ),
            ("http://u@//", "http:////", "http:////"),
            ("file:///x?#f", "file:/x#f", "file:/x#f"),
            ("http://a/x#", "a)/x", "http://(a)/x"),
            ("http://a/x?", "a)/x?", "http://(a)/x?"),
            ("http://a/x?#", "a)/x", "http://(a)/x"),
            ("http://a/x?#f", "a)/x#f", "http://(a)/x#f"),
            ("http://a/x??#", "a)/x??", "http://(a)/x??"),
            ("foo://a:/x", "a)/x", "foo://(a)/x"),
            ("http://a:0/x", "a:0)/x", "http://(a:0)/x"),
            ("mailto:a?#", "mailto:a?#", "mailto:a?#"),
            ("urn:a:b?#", "urn:a:b", "urn:a:b"),
            ("data:,x?#", "data:,x?#", "data:,x?#"),
            ("mailto:a@b.c", "mailto:a@b.c", "mailto:a@b.c"),
            ("data:,x", "data:,x", "data:,x"),
            (
                "javascript://a.b/",
                "javascript://a.b/",
                "javascript://a.b/",
            ),
            ("foo:bar", "foo:bar", "foo:bar"),
        ] {
            assert_eq!(surt(input, &plain), want, "{input}");
            assert_eq!(surt(input, &scheme), want_scheme, "{input}");
        }
    }
}
