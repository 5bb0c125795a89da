//! "Steps to parse a URL" (spec section "Parsing"), with the amended steps of
//! [url-spec] for the authority, user-info, host and port.
//!
//! Parsing splits; it never canonicalizes. Components keep the characters of
//! the input (after preprocessing), and the scheme keeps its case.

use crate::preprocess::preprocess;
use crate::record::{InvalidReason, Url, is_non_hierarchical_scheme, is_slash};

/// A *valid scheme character*: `A-Z a-z 0-9 + - .` (NOTES.md: no `_`, and a
/// scheme may start with a digit).
fn is_scheme_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')
}

/// Parses `input` into a [`Url`] with raw, uncanonicalized components.
pub fn parse(input: &str) -> Url {
    let s = preprocess(input);
    let mut url = Url::default();
    parse_preprocessed(&s, &mut url);
    url
}

pub(crate) fn parse_preprocessed(s: &str, url: &mut Url) {
    // "If /s/ begins with two or more U+005C REVERSE SOLIDUS characters".
    if s.starts_with("\\\\") {
        parse_unc(s, url);
        return;
    }
    let rest = match find_scheme(s) {
        Some(n) => {
            url.scheme = Some(s[..n].to_owned());
            &s[n + 1..]
        }
        None => {
            url.set_invalid(InvalidReason::NoScheme);
            url.hierarchical = true;
            s
        }
    };
    let scheme = url.scheme.as_deref();
    match scheme {
        Some(sc) if sc.len() == 1 && sc.as_bytes()[0].is_ascii_alphabetic() => {
            parse_drive(rest, url)
        }
        Some(sc) if sc.eq_ignore_ascii_case("file") => parse_file(rest, url),
        Some(sc) if sc.eq_ignore_ascii_case("mailto") => parse_mailto(rest, url),
        _ => {
            let slash_follows = rest.chars().next().is_some_and(is_slash);
            let hierarchical = url.hierarchical
                || (slash_follows && !is_non_hierarchical_scheme(scheme.unwrap_or("")));
            if hierarchical {
                url.hierarchical = true;
                parse_hierarchical(rest, url);
            } else if is_non_hierarchical_scheme(scheme.unwrap_or("")) {
                // about:, data:, javascript:, vbscript: keep `?` and `#` in
                // the path (the conformance data: `data:a?b#c` is one path).
                url.path = Some(rest.to_owned());
            } else {
                let (rest, query, fragment) = split_query_fragment(rest);
                url.query = query.map(str::to_owned);
                url.fragment = fragment.map(str::to_owned);
                url.path = Some(rest.to_owned());
            }
        }
    }
}

/// "Steps to find the scheme": the length of the scheme when `s` begins with
/// one or more valid scheme characters followed by `:`.
fn find_scheme(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let n = b.iter().position(|&c| !is_scheme_char(c))?;
    (n > 0 && b[n] == b':').then_some(n)
}

/// Splits off the fragment (after the first `#`) and then the query (after
/// the first `?` of what remains), as the drive, `file:`, UNC and
/// non-hierarchical steps do.
fn split_query_fragment(s: &str) -> (&str, Option<&str>, Option<&str>) {
    let (s, fragment) = match s.find('#') {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (s, query) = match s.find('?') {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    (s, query, fragment)
}

fn leading_slashes(s: &str) -> usize {
    s.bytes().take_while(|&b| b == b'/' || b == b'\\').count()
}

/// "Parsing a drive URL": `c:\foo` is `file:///c:/foo`.
fn parse_drive(s: &str, url: &mut Url) {
    let (s, query, fragment) = split_query_fragment(s);
    url.query = query.map(str::to_owned);
    url.fragment = fragment.map(str::to_owned);
    let letter = url.scheme.take().unwrap_or_default();
    let mut path = String::with_capacity(s.len() + 4);
    path.push('/');
    path.push_str(&letter);
    path.push(':');
    if !s.starts_with(['/', '\\']) {
        path.push('/');
    }
    path.push_str(s);
    url.path = Some(path);
    url.scheme = Some("file".to_owned());
    // The empty host is the whole (empty) authority, so that resolution
    // against a `file:` base with a host does not bring that host in.
    url.authority = Some(String::new());
    url.host = Some(String::new());
    url.hierarchical = true;
}

/// "Parsing a `file:` URL". A `file:` URL is always hierarchical. The host
/// found after two or more slashes is also the |authority|, which resolution
/// uses ("the host of `file:` URLs is always the entire authority").
fn parse_file(s: &str, url: &mut Url) {
    url.hierarchical = true;
    let (s, query, fragment) = split_query_fragment(s);
    url.query = query.map(str::to_owned);
    url.fragment = fragment.map(str::to_owned);
    let n = leading_slashes(s);
    if n == 3 {
        url.authority = Some(String::new());
        url.host = Some(String::new());
        url.path = Some(format!("/{}", &s[3..]));
    } else if n >= 2 {
        let rest = &s[n..];
        let h = rest.find(['/', '\\']).unwrap_or(rest.len());
        url.authority = Some(rest[..h].to_owned());
        url.host = Some(rest[..h].to_owned());
        url.path = Some(rest[h..].to_owned());
    } else {
        url.path = Some(s.to_owned());
    }
}

/// "Parsing a UNC path": `\\host\path` is a `file:` URL with that host.
fn parse_unc(s: &str, url: &mut Url) {
    let s = s.trim_start_matches('\\');
    let (s, query, fragment) = split_query_fragment(s);
    url.query = query.map(str::to_owned);
    url.fragment = fragment.map(str::to_owned);
    let h = s.find(['/', '\\']).unwrap_or(s.len());
    url.scheme = Some("file".to_owned());
    url.authority = Some(s[..h].to_owned());
    url.host = Some(s[..h].to_owned());
    url.path = Some(s[h..].to_owned());
    url.hierarchical = true;
}

/// "Parsing a `mailto:` URL": only the query is split off; a `#` stays in
/// the path (the conformance data keeps `mailto:a#b` whole).
fn parse_mailto(s: &str, url: &mut Url) {
    match s.find('?') {
        Some(i) => {
            url.path = Some(s[..i].to_owned());
            url.query = Some(s[i + 1..].to_owned());
        }
        None => url.path = Some(s.to_owned()),
    }
}

/// [url-spec] 3.2 "finding the authority, path, query, and fragment" as the
/// spec amends it: exactly three slashes give an empty host and authority;
/// two or more give an authority up to the first authority terminating
/// character (`/`, `\`, `?`, `#`; not `;`); fewer give none.
fn parse_hierarchical(s: &str, url: &mut Url) {
    let n = leading_slashes(s);
    let rest = if n == 3 {
        url.authority = Some(String::new());
        url.host = Some(String::new());
        &s[2..]
    } else if n >= 2 {
        let rest = &s[n..];
        let end = rest.find(['/', '\\', '?', '#']).unwrap_or(rest.len());
        let authority = &rest[..end];
        url.authority = Some(authority.to_owned());
        split_authority(authority, url);
        &rest[end..]
    } else {
        s
    };
    let p = rest.find(['?', '#']).unwrap_or(rest.len());
    url.path = Some(rest[..p].to_owned());
    let rest = &rest[p..];
    if let Some(q) = rest.strip_prefix('?') {
        match q.find('#') {
            Some(f) => {
                url.query = Some(q[..f].to_owned());
                url.fragment = Some(q[f + 1..].to_owned());
            }
            None => url.query = Some(q.to_owned()),
        }
    } else if let Some(f) = rest.strip_prefix('#') {
        url.fragment = Some(f.to_owned());
    }
}

/// [url-spec] 3.3 "finding the user information, host, and port" and 3.4
/// "find the user name and password": the user-info ends at the *last* `@`,
/// the password starts after the first `:` of the user-info, and the port
/// after the last `:` unless that `:` is inside `[...]`.
pub(crate) fn split_authority(authority: &str, url: &mut Url) {
    let hostport = match authority.rfind('@') {
        Some(at) => {
            let userinfo = &authority[..at];
            match userinfo.find(':') {
                Some(c) => {
                    url.user = Some(userinfo[..c].to_owned());
                    url.password = Some(userinfo[c + 1..].to_owned());
                }
                None => url.user = Some(userinfo.to_owned()),
            }
            &authority[at + 1..]
        }
        None => authority,
    };
    match hostport.rfind(':') {
        None => url.host = Some(hostport.to_owned()),
        Some(colon) => {
            let bracketed =
                hostport.starts_with('[') && hostport.rfind(']').is_some_and(|close| colon < close);
            if bracketed {
                url.host = Some(hostport.to_owned());
            } else {
                url.host = Some(hostport[..colon].to_owned());
                url.port = Some(hostport[colon + 1..].to_owned());
            }
        }
    }
}
