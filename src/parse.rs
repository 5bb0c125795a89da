//! "Steps to parse a URL" (spec section "Parsing"), with the amended steps of [url-spec] for the
//! authority, user-info, host and port. Parsing splits, never canonicalizes: components are spans
//! of the preprocessed input (ARCHITECTURE.md, speed mechanisms, row 10) and the scheme keeps its
//! case. Only a drive URL's `/c:` prefix and a `file:\\\x` path's leading `/` are written, into a
//! side buffer.

use memchr::{memrchr, memrchr2};

use crate::preprocess::preprocess_into;
use crate::record::{InvalidReason, Parts, Url};
use crate::scan::{find1, find2, find4};
use crate::scheme::{Scheme, SchemeKind, scheme_len};

fn is_slash(b: u8) -> bool {
    b == b'/' || b == b'\\'
}

/// Parses `input` into a [`Url`] with raw, uncanonicalized components: the stages alone
/// (`wurl::parse` tries the fast exits first and gives the same value).
pub fn parse(input: &str) -> Url {
    parse_stages(input)
}

/// [`parse`]: the stages, which the tests and fuzz targets compare the fast exits with.
#[doc(hidden)]
pub fn parse_stages(input: &str) -> Url {
    crate::scratch::with(crate::scratch::Used::PARSE, |sc| {
        let s = preprocess_into(input, &mut sc.pre);
        let mut p = Parts::default();
        parse_parts_into(s, &mut sc.side, &mut p);
        crate::serialize::build_parsed(&p, s)
    })
}

/// [`parse_parts_into`] of the preprocessed `s` when it starts with a lowercase hierarchical scheme
/// `s[..n]` (not `file:`), then `://` and no third slash: the steps read the scheme, a slash, and
/// an authority after exactly two slashes ([`parse_hierarchical`]).
pub(crate) fn parse_after_scheme<'a>(s: &'a str, n: usize, url: &mut Parts<'a>) {
    debug_assert_eq!(Some(n), find_scheme(s));
    url.scheme = Some(&s[..n]);
    url.class = Scheme::of(&s.as_bytes()[..n]);
    url.hierarchical = true;
    let rest = parse_authority(&s[n + 3..], url);
    path_query_fragment(rest, url);
    debug_assert_is_the_steps(s, url);
}

/// Debug builds: `url`, parts of `s` found another way, are what [`parse_parts_into`] makes of it.
#[inline]
pub(crate) fn debug_assert_is_the_steps(s: &str, url: &Parts) {
    #[cfg(debug_assertions)]
    {
        let mut side = String::new();
        let mut want = Parts::default();
        parse_parts_into(s, &mut side, &mut want);
        debug_assert!(crate::record::Url::same_value(url, &want), "{s:?}");
    }
    #[cfg(not(debug_assertions))]
    let _ = (s, url);
}

/// [`parse_parts_into`] returning the parts, for tests.
#[cfg(test)]
pub(crate) fn parse_parts<'a>(s: &'a str, side: &'a mut String) -> Parts<'a> {
    let mut url = Parts::default();
    parse_parts_into(s, side, &mut url);
    url
}

/// Parses the preprocessed `s` into `url`, which it overwrites. The parts are slices of `s`, or of
/// `side` for a path parsing had to write.
pub(crate) fn parse_parts_into<'a>(s: &'a str, side: &'a mut String, url: &mut Parts<'a>) {
    *url = Parts::default();
    // "If /s/ begins with two or more U+005C REVERSE SOLIDUS characters".
    if s.starts_with("\\\\") {
        parse_unc(s, url);
        return;
    }
    let rest = match find_scheme(s) {
        Some(n) => {
            url.scheme = Some(&s[..n]);
            url.class = Scheme::of(&s.as_bytes()[..n]);
            &s[n + 1..]
        }
        None => {
            url.set_invalid(InvalidReason::NoScheme);
            url.hierarchical = true;
            s
        }
    };
    let kind = url.class.kind;
    if kind == SchemeKind::Drive {
        parse_drive(rest, url, side);
    } else if kind == SchemeKind::File {
        parse_file(rest, url, side);
    } else if kind == SchemeKind::Mailto {
        parse_mailto(rest, url);
    } else {
        let slash_follows = rest.as_bytes().first().is_some_and(|&b| is_slash(b));
        let non_hierarchical = kind == SchemeKind::NonHierarchical;
        let hierarchical = url.hierarchical || (slash_follows && !non_hierarchical);
        if hierarchical {
            url.hierarchical = true;
            parse_hierarchical(rest, url);
        } else if non_hierarchical {
            // about:, data:, javascript:, vbscript: keep `?` and `#` in
            // the path (the conformance data: `data:a?b#c` is one path).
            url.path = Some(rest);
        } else {
            let (rest, query, fragment) = split_query_fragment(rest);
            url.query = query;
            url.fragment = fragment;
            url.path = Some(rest);
        }
    }
}

/// "Steps to find the scheme": the length of the scheme when `s` begins with
/// one or more valid scheme characters followed by `:`.
fn find_scheme(s: &str) -> Option<usize> {
    scheme_len(s.as_bytes())
}

/// Splits off the fragment (after the first `#`), then the query (after the first `?` before it),
/// as the drive, `file:`, UNC and non-hierarchical steps do.
fn split_query_fragment(s: &str) -> (&str, Option<&str>, Option<&str>) {
    // A `#` first leaves no query; a `?` first starts the query, up to the next `#`.
    let Some(i) = find2(s.as_bytes(), b'?', b'#') else {
        return (s, None, None);
    };
    let rest = &s[i + 1..];
    if s.as_bytes()[i] == b'#' {
        return (&s[..i], None, Some(rest));
    }
    match find1(rest.as_bytes(), b'#') {
        Some(f) => (&s[..i], Some(&rest[..f]), Some(&rest[f + 1..])),
        None => (&s[..i], Some(rest), None),
    }
}

fn leading_slashes(s: &str) -> usize {
    s.bytes().take_while(|&b| is_slash(b)).count()
}

/// The offset of the first slash character (`/` or `\`), or the length.
fn slash_or_end(s: &str) -> usize {
    find2(s.as_bytes(), b'/', b'\\').unwrap_or(s.len())
}

/// "Parsing a drive URL": `c:\foo` is `file:///c:/foo`.
fn parse_drive<'a>(s: &'a str, url: &mut Parts<'a>, side: &'a mut String) {
    let (s, query, fragment) = split_query_fragment(s);
    url.query = query;
    url.fragment = fragment;
    let letter = url.scheme.unwrap_or_default();
    side.clear();
    side.push('/');
    side.push_str(letter);
    side.push(':');
    if !s.as_bytes().first().is_some_and(|&b| is_slash(b)) {
        side.push('/');
    }
    side.push_str(s);
    let side: &'a String = side;
    url.path = Some(side);
    url.scheme = Some("file");
    url.class = Scheme::FILE;
    // The empty host is the whole (empty) authority, so that resolution
    // against a `file:` base with a host does not bring that host in.
    url.authority = Some("");
    url.host = Some("");
    url.hierarchical = true;
}

/// "Parsing a `file:` URL": always hierarchical; the host after two or more slashes is also the
/// |authority| ("the host of `file:` URLs is always the entire authority").
fn parse_file<'a>(s: &'a str, url: &mut Parts<'a>, side: &'a mut String) {
    url.hierarchical = true;
    let (s, query, fragment) = split_query_fragment(s);
    url.query = query;
    url.fragment = fragment;
    let n = leading_slashes(s);
    if n == 3 {
        url.authority = Some("");
        url.host = Some("");
        // The path is `/` and what follows the three slashes.
        url.path = Some(if s.as_bytes()[2] == b'/' {
            &s[2..]
        } else {
            side.clear();
            side.push('/');
            side.push_str(&s[3..]);
            let side: &'a String = side;
            side
        });
    } else if n >= 2 {
        let rest = &s[n..];
        let h = slash_or_end(rest);
        url.authority = Some(&rest[..h]);
        url.host = Some(&rest[..h]);
        url.path = Some(&rest[h..]);
    } else {
        url.path = Some(s);
    }
}

/// "Parsing a UNC path": `\\host\path` is a `file:` URL with that host.
fn parse_unc<'a>(s: &'a str, url: &mut Parts<'a>) {
    let s = s.trim_start_matches('\\');
    let (s, query, fragment) = split_query_fragment(s);
    url.query = query;
    url.fragment = fragment;
    let h = slash_or_end(s);
    url.scheme = Some("file");
    url.class = Scheme::FILE;
    url.authority = Some(&s[..h]);
    url.host = Some(&s[..h]);
    url.path = Some(&s[h..]);
    url.hierarchical = true;
}

/// "Parsing a `mailto:` URL": only the query is split off; a `#` stays in
/// the path (the conformance data keeps `mailto:a#b` whole).
fn parse_mailto<'a>(s: &'a str, url: &mut Parts<'a>) {
    match find1(s.as_bytes(), b'?') {
        Some(i) => {
            url.path = Some(&s[..i]);
            url.query = Some(&s[i + 1..]);
        }
        None => url.path = Some(s),
    }
}

/// [url-spec] 3.2 "finding the authority, path, query, and fragment" as the spec amends it: exactly
/// three slashes give an empty host and authority; two or more an authority up to the first
/// authority terminating character; fewer none.
fn parse_hierarchical<'a>(s: &'a str, url: &mut Parts<'a>) {
    let n = leading_slashes(s);
    let rest = if n == 3 {
        url.authority = Some("");
        url.host = Some("");
        &s[2..]
    } else if n >= 2 {
        parse_authority(&s[n..], url)
    } else {
        s
    };
    path_query_fragment(rest, url);
}

/// The authority of a hierarchical URL, from `rest`, which follows the
/// two or more slashes before it; returns what follows the authority.
#[inline(always)]
fn parse_authority<'a>(rest: &'a str, url: &mut Parts<'a>) -> &'a str {
    // The first authority terminating character: `/`, `\`, `?`, `#` (not `;`).
    let end = find4(rest.as_bytes(), [b'/', b'\\', b'?', b'#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    url.authority = Some(authority);
    if find2(authority.as_bytes(), b'@', b':').is_some() {
        split_authority(authority, url);
    } else {
        url.host = Some(authority);
    }
    &rest[end..]
}

/// The path (to the first `?` or `#`), query (after a `?`, to the next `#`) and fragment of a
/// hierarchical URL, from `rest`, which follows its authority (or its scheme, when it has none).
#[inline(always)]
fn path_query_fragment<'a>(rest: &'a str, url: &mut Parts<'a>) {
    let (p, hash) = path_ends(rest.as_bytes());
    let end = hash.unwrap_or(rest.len());
    url.path = rest.get(..p);
    // Before the fragment's `#`, the first `?` or `#` is a `?`.
    if p < end {
        url.query = rest.get(p + 1..end);
    }
    if let Some(h) = hash {
        url.fragment = rest.get(h + 1..);
    }
}

/// Where the path of `rest` (after a hierarchical URL's authority) ends, and the first `#`, which
/// starts the fragment (a `?` after it is the fragment's).
#[inline(always)]
pub(crate) fn path_ends(rest: &[u8]) -> (usize, Option<usize>) {
    let Some(p) = find2(rest, b'?', b'#') else {
        return (rest.len(), None);
    };
    if rest[p] == b'#' {
        return (p, Some(p));
    }
    (p, find1(&rest[p + 1..], b'#').map(|f| p + 1 + f))
}

/// [url-spec] 3.3 "finding the user information, host, and port" and 3.4
/// "find the user name and password": the user-info ends at the *last* `@`,
/// the password starts after the first `:` of the user-info, and the port
/// after the last `:` unless that `:` is inside `[...]`.
pub(crate) fn split_authority<'a>(authority: &'a str, url: &mut Parts<'a>) {
    // One backward search for the last `@` or `:`; a `:` found first is the port's (or a
    // literal's), and the user-info, if any, ends before it.
    let b = authority.as_bytes();
    let (at, colon) = match memrchr2(b'@', b':', b) {
        None => (None, None),
        Some(i) if b[i] == b'@' => (Some(i), None),
        Some(i) => (memrchr(b'@', &b[..i]), Some(i)),
    };
    let host_start = match at {
        Some(at) => {
            let userinfo = &authority[..at];
            match userinfo.bytes().position(|c| c == b':') {
                Some(c) => {
                    url.user = Some(&userinfo[..c]);
                    url.password = Some(&userinfo[c + 1..]);
                }
                None => url.user = Some(userinfo),
            }
            at + 1
        }
        None => 0,
    };
    let hostport = &authority[host_start..];
    match colon {
        None => url.host = Some(hostport),
        Some(colon) => {
            let bracketed = hostport.starts_with('[')
                && memrchr(b']', hostport.as_bytes())
                    .is_some_and(|close| colon < host_start + close);
            if bracketed {
                url.host = Some(hostport);
            } else {
                url.host = Some(&authority[host_start..colon]);
                url.port = Some(&authority[colon + 1..]);
            }
        }
    }
}
