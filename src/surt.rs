//! SURT (Sort-friendly URI Reordering Transform) of a canonical serialization, as web archives
//! key their indexes: `http://www.example.com:8080/a/b?q#f` → `com,example,www:8080)/a/b?q#f`.
//! The conventions are those of the Internet Archive's `surt` package applied to the canonical
//! URL; docs/keys.md ("SURT") lists each rule and each difference from the package.

use crate::split::split;

/// Options of the SURT form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SurtOptions {
    /// Keep the scheme: `http://(com,example)/` rather than `com,example)/`.
    pub with_scheme: bool,
}

/// The SURT form of `canonical` (a serialization made by wurl's canonicalization), a new string.
/// ```
/// let s = wurl::surt::surt("http://www.a.com/b?q", &Default::default());
/// assert_eq!(s, "com,a,www)/b?q");
/// ```
pub fn surt(canonical: &str, opts: &SurtOptions) -> String {
    let mut out = String::with_capacity(canonical.len() + 2);
    surt_into(canonical, opts, &mut out);
    out
}

/// Appends the SURT form of `canonical` to `out`; allocates nothing beyond `out`'s growth.
pub fn surt_into(canonical: &str, opts: &SurtOptions, out: &mut String) {
    let s = canonical;
    let sp = split(s);
    // `file:`'s authority is all host to the 2012 algorithm; its SURT splits it as the others'.
    let auth = match &sp.authority {
        Some(a) if &s[sp.scheme.clone()] == "file" => {
            Some(crate::split::authority(s.as_bytes(), a.all.clone()))
        }
        a => a.clone(),
    };
    match &auth {
        None => out.push_str(&s[..sp.path.start]),
        // An empty host: `scheme:` alone, unless the path starts `//` (`https://u@//evil.com/`).
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
