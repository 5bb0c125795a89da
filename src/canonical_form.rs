//! Canonicalization's fast path for a URL that is already canonical
//! (issue 11): most of a crawler's input is (kasztp: 99.4 % of its lines,
//! node_files: 99.9 %), and for it every stage is the identity. Parsing it
//! finds components that serialize back to it, resolving it against its own
//! parse gives that parse back, and canonicalizing it writes each component
//! as it was. The stages would still do all their work to find that out:
//! preprocess, locate the components, build the parts, copy each into the
//! output, each with its own fixed cost, about a thousand instructions for
//! a 45-octet URL.
//!
//! `layout` (behind [`is_canonical`]) finds it in one pass over the octets instead, with the tests
//! each stage's own fast path uses to leave a component as it is: the host
//! is a host CanonicalizeHost copies (`host::canonical_plain_len`), each
//! path octet one the path rules copy (`canonicalize::PATH_COPY` and their
//! rules for `.` and `%`), the query and fragment octets outside their
//! percent-encode sets. It accepts only the common shape
//! `scheme://host[:port]/path[?query][#fragment]` of printable ASCII, for a
//! scheme that is neither `file:` nor in the non-hierarchical list, and
//! rejects anything it cannot decide in that pass (a segment that starts
//! with `.`, user information, ...): those take the stages.
//!
//! Rejecting is always safe; accepting must mean that the stages give the
//! input back. Tests check that on every conformance input and every line
//! of the benchmark datasets, and on the canonical form of each (the
//! `fast_path_is_exact` test below); the fuzz targets check it on every
//! input and on its canonical form (`tests/common/invariants.rs`).

use crate::canonicalize::{PATH_COPY, SchemeInfo, canonical_port};
use crate::parse::SchemeKind;
use crate::percent::{FRAGMENT, QUERY, escape_at, is_unreserved};
use crate::record::Span;

/// A path octet the path rules copy wherever it is ([`PATH_COPY`]), except
/// `?` and `#`, which end the path.
const PATH_OK: u8 = 1;
/// A query octet outside the query percent-encode set, except `#`, which
/// ends the query.
const QUERY_OK: u8 = 2;
/// A fragment octet outside the fragment percent-encode set.
const FRAGMENT_OK: u8 = 4;
/// A lowercase scheme octet (parse's scheme octets, which canonicalization
/// lowercases).
const SCHEME_OK: u8 = 8;

/// The classes of each octet. Only printable ASCII other than space has any:
/// preprocessing removes or strips the others (tab, line breaks, leading
/// and trailing controls and spaces), and the sets encode the rest.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0x21;
    while i < 0x7F {
        let c = i as u8;
        let mut k = 0;
        if PATH_COPY[i] && c != b'?' && c != b'#' {
            k |= PATH_OK;
        }
        if !QUERY.contains(c) && c != b'#' {
            k |= QUERY_OK;
        }
        if !FRAGMENT.contains(c) {
            k |= FRAGMENT_OK;
        }
        if c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.') {
            k |= SCHEME_OK;
        }
        t[i] = k;
        i += 1;
    }
    t
};

/// The end of the run of octets of `class` in `s` from `from` (at most
/// `s.len()`): one table lookup and test per octet.
#[inline(always)]
fn run(s: &[u8], from: usize, class: u8) -> usize {
    let mut i = from;
    while i < s.len() && CLASS[usize::from(s[i])] & class != 0 {
        i += 1;
    }
    i
}

/// Where the components of an already canonical URL are.
pub(crate) struct Layout {
    /// Scheme, user, password, host, port, path, query, fragment, in
    /// `wurl_component` order (user and password are always absent).
    pub(crate) at: [Span; 8],
    /// The raw authority: host and port.
    pub(crate) authority: Span,
}

/// Whether `s` is a URL that the stages (with the default options: UTF-8
/// query, not network-strict) give back unchanged, preprocessing, parsing,
/// resolution against its own parse and canonicalization. `false` means
/// only that this pass could not tell.
#[inline]
pub fn is_canonical(s: &[u8]) -> bool {
    layout(s).is_some()
}

/// [`is_canonical`], with the components' places when it is.
pub(crate) fn layout(s: &[u8]) -> Option<Layout> {
    let mut at = [Span::NONE; 8];
    // Scheme: lowercase, then `://` (parse's `find_scheme`: the scheme
    // octets up to the first other, which must be `:`).
    let n = s
        .iter()
        .position(|&c| CLASS[usize::from(c)] & SCHEME_OK == 0)?;
    if n == 0 || s.get(n..n + 3) != Some(b"://") {
        return None;
    }
    // Not a drive letter, `mailto:` or a non-hierarchical scheme: their
    // parse and canonicalization take other steps. `file:` takes a few
    // more, below.
    let file = match SchemeKind::of(&s[..n]) {
        SchemeKind::Other => false,
        SchemeKind::File => true,
        _ => return None,
    };
    at[0] = Span::new(0, n);
    // Host: exactly two slashes before it (more would be dropped) and a
    // host CanonicalizeHost leaves as it is (never empty).
    let h = n + 3;
    let h_end = h + crate::host::canonical_plain_len(&s[h..])?;
    // `file:`: HOSTPATH makes `localhost` the empty host.
    if file && &s[h..h_end] == b"localhost" {
        return None;
    }
    at[3] = Span::new(h, h_end);
    let mut i = h_end;
    // Port: a number that the port rules write back as it is: not the
    // scheme's default, in range, no leading zero. (A `file:` host runs up
    // to the path: its `:` is not a port's.)
    if s.get(i) == Some(&b':') && !file {
        let p = i + 1;
        let len = s[p..].iter().take_while(|c| c.is_ascii_digit()).count();
        let port = &s[p..p + len];
        let default = SchemeInfo::of_lowercase(&s[..n]).default_port;
        // ASCII digits, so `from_utf8` cannot fail.
        let v = canonical_port(std::str::from_utf8(port).ok(), default);
        if !matches!(v, Ok(Some(_))) || (len > 1 && port[0] == b'0') {
            return None;
        }
        at[4] = Span::new(p, p + len);
        i = p + len;
    }
    let authority = Span::new(h, i);
    // Path: present and starting with `/` (canonicalization writes `/` for
    // an empty one). The path rules copy each octet but: a `.` that starts
    // a segment (it may be a dot segment; rejected here, rare), a `%`
    // escape of an unreserved octet (decoded), `\` and the octets of the
    // path percent-encode set.
    if s.get(i) != Some(&b'/') {
        return None;
    }
    // `file:`: HOSTPATH rewrites a drive specification at the start of the
    // path (`/c:` and `/c|` become `/c:/`; `/c:/` stays, rare enough to
    // leave to the stages too).
    if file && s.get(i + 1).is_some_and(u8::is_ascii_alphabetic) && s.get(i + 2) == Some(&b':') {
        return None;
    }
    let p = i;
    i += 1;
    loop {
        i = run(s, i, PATH_OK);
        let Some(&c) = s.get(i) else { break };
        match c {
            b'.' if s[i - 1] != b'/' => {}
            // An escape of an unreserved octet is decoded; in `file:`, one
            // of `/` or `\` too (resolution's step for `file:` paths).
            b'%' => match escape_at(s, i) {
                Some(v) if is_unreserved(v) || (file && matches!(v, b'/' | b'\\')) => return None,
                _ => {}
            },
            b'?' | b'#' => break,
            _ => return None,
        }
        i += 1;
    }
    at[5] = Span::new(p, i);
    // Query, up to the first `#`.
    if s.get(i) == Some(&b'?') {
        let q = i + 1;
        i = run(s, q, QUERY_OK);
        at[6] = Span::new(q, i);
    }
    // Fragment: the rest.
    if s.get(i) == Some(&b'#') {
        let f = i + 1;
        i = run(s, f, FRAGMENT_OK);
        at[7] = Span::new(f, i);
    }
    (i == s.len()).then_some(Layout { at, authority })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonicalize::{CanonOptions, canon_into_stages, canonicalize};
    use crate::parse::{parse, parse_stages};
    use crate::record::Url;
    use crate::testutil::{conformance_inputs, each_sequence};

    /// Checks the fast path on `s`: when it accepts, the stages give `s`
    /// back and the record of the fast path has the value of the stages'
    /// parse. Returns whether it accepted.
    fn check(s: &str) -> bool {
        let Some(l) = layout(s.as_bytes()) else {
            return false;
        };
        let mut out = String::new();
        let r = canon_into_stages(None, s, &CanonOptions::default(), &mut out);
        assert!(
            r.is_ok() && out == s,
            "{s:?}: the stages give {r:?} {out:?}"
        );
        let slow = parse_stages(s);
        let fast = Url::build_canonical(s, &l);
        assert_eq!(fast, slow, "{s:?}");
        assert_eq!(parse(s), slow, "{s:?}");
        // `resolve` takes a record known to be canonical for its own
        // resolution without looking: the stages agree.
        assert_eq!(crate::resolve::resolve(&slow, s), slow, "{s:?}");
        assert_eq!(
            canonicalize(&slow, None).serialize().as_deref(),
            Some(s),
            "{s:?}"
        );
        true
    }

    fn lines(file: &str) -> Vec<String> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/data/").to_owned() + file;
        let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        String::from_utf8_lossy(&raw)
            .lines()
            .flat_map(|l| l.split('\t'))
            .map(str::to_owned)
            .collect()
    }

    /// Every conformance input and every line of the benchmark datasets
    /// (pages and links of links_synth), and the canonical form of each
    /// (as its own base). The fast path must accept most canonical URLs of
    /// the datasets, or it is not the fast path it is meant to be.
    #[test]
    fn fast_path_is_exact() {
        let mut inputs = conformance_inputs();
        for f in [
            "kasztp.txt",
            "node_files.txt",
            "idn_synth.txt",
            "links_synth.tsv",
        ] {
            inputs.extend(lines(f));
        }
        let (mut canonical, mut accepted) = (0, 0);
        for s in &inputs {
            check(s);
            let mut y = String::new();
            if canon_into_stages(None, s, &CanonOptions::default(), &mut y).is_ok() {
                canonical += 1;
                accepted += usize::from(check(&y));
            }
        }
        // 141,162 of 142,604 (99.0 %) when this was written: all but IP
        // addresses, user information, segments that start with `.`, ...
        assert!(accepted * 20 > canonical * 19, "{accepted} of {canonical}");
    }

    /// Every string of up to four octets of a pool that exercises each
    /// rule (case, dots, escapes, delimiters, ports, spaces) after a scheme
    /// and `//`, after a host and after a path.
    #[test]
    fn fast_path_is_exact_on_short_strings() {
        let pool: &[u8] = b"aA.%2e5/?#:08@\\ xfc|";
        let mut accepted = 0;
        for prefix in [
            "http://",
            "http://h",
            "http://h/",
            "foo://h/a",
            "https://h:44",
            "file://",
            "file://h/",
            "file://h/a",
        ] {
            each_sequence(pool, 4, |seq| {
                let mut s = prefix.to_owned();
                s.extend(seq.iter().map(|&b| char::from(b)));
                accepted += usize::from(check(&s));
            });
        }
        assert!(accepted > 10_000, "{accepted}");
    }

    /// The shapes it leaves to the stages, each for its reason.
    #[test]
    fn rejects() {
        for s in [
            "HTTP://h/",         // uppercase scheme
            "http://H/",         // uppercase host
            "http://h",          // no path: canonicalization writes `/`
            "http://h:80/",      // default port
            "http://h:080/",     // leading zero
            "http://h:/",        // empty port
            "http://h:99999/",   // out of range
            "http://u@h/",       // user information
            "http://1.2.3.4/",   // an `inet_addr()` number
            "http:///x",         // empty host
            "http:////h/",       // more than two slashes
            "http://h/./a",      // dot segment
            "http://h/a/..",     // dot segment
            "http://h/%41",      // escape of an unreserved octet
            "http://h/a b",      // path percent-encode set
            "http://h/a\\b",     // backslash
            "http://h/?a b",     // query percent-encode set
            "http://h/#a b",     // space
            "http://h/é",        // non-ASCII
            " http://h/",        // stripped by preprocessing
            "file://localhost/", // file: the empty host
            "file://h",          // file: no path
            "file://h:1/",       // file: a colon in the host
            "file://h/c:/",      // file: drive specification
            "file://h/c:",       // file: drive specification
            "file://h/a%2fb",    // file: an escaped slash
            "file://h/a%5Cb",    // file: an escaped backslash
            "file:///x",         // file: empty host
            "javascript://h/",   // non-hierarchical
            "c://h/",            // drive letter
        ] {
            assert!(!is_canonical(s.as_bytes()), "{s:?}");
        }
        for s in [
            "http://h/",
            "https://a.b-c_d/x.y/%20z?q=%41&r#f#g",
            "foo+1://h:81/",
            "file://h/a/b.c?q#f",
            "file://h//x",
        ] {
            assert!(check(s), "{s:?}");
        }
    }
}
