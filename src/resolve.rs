//! "Steps to resolve a URL" and "steps to resolve a relative URL" (spec
//! section "Resolution"), with RFC 3986 "merge paths" (5.2.3) on slash
//! characters and "remove dot-segments" (5.2.4) amended as the spec says:
//! `\` counts as `/`, and `%2E` / `%2e` count as `.`.

use crate::parse::parse_preprocessed;
use crate::percent::escape_at;
use crate::preprocess::preprocess;
use crate::record::{InvalidReason, Url, is_slash};

/// Resolves `input` against `base`. The result is not canonicalized.
pub fn resolve(base: &Url, input: &str) -> Url {
    // Step 4: nothing resolves against an invalid base.
    if base.is_invalid() {
        let mut r = Url::default();
        r.set_invalid(InvalidReason::InvalidBase);
        return r;
    }
    let s = preprocess(input);
    // Step 6: the empty string is the base without its fragment.
    if s.is_empty() {
        let mut r = base.clone();
        r.fragment = None;
        return r;
    }
    let mut r = Url::default();
    parse_preprocessed(&s, &mut r);
    let same_scheme = match (&r.scheme, &base.scheme) {
        (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
        _ => false,
    };
    if r.scheme.is_none() {
        // Step 8: no scheme, so a relative reference.
        resolve_relative(&mut r, base);
    } else if base.hierarchical && same_scheme {
        // Step 9.
        let only_scheme = r.authority.is_none()
            && r.host.is_none()
            && r.query.is_none()
            && r.fragment.is_none()
            && r.path.as_deref().is_none_or(str::is_empty);
        if only_scheme {
            let mut b = base.clone();
            b.fragment = None;
            return b;
        }
        resolve_relative(&mut r, base);
    } else if r.hierarchical {
        // Step 10.
        if let Some(p) = r.path.take() {
            let p = file_decode_if(&r, p);
            r.path = Some(remove_dot_segments(&p));
        }
    }
    r
}

fn is_file(u: &Url) -> bool {
    u.scheme
        .as_deref()
        .is_some_and(|s| s.eq_ignore_ascii_case("file"))
}

/// For `file:` URLs, percent-decode `%2F` and `%5C` (ASCII
/// case-insensitively) in the path, so that they act as separators.
fn file_decode_if(u: &Url, path: String) -> String {
    if is_file(u) {
        decode_file_slashes(path)
    } else {
        path
    }
}

pub(crate) fn decode_file_slashes(path: String) -> String {
    if !path.contains('%') {
        return path;
    }
    let b = path.as_bytes();
    let mut out = String::with_capacity(path.len());
    let mut i = 0;
    let mut last = 0;
    while i < b.len() {
        if let Some(v @ (b'/' | b'\\')) = escape_at(b, i) {
            out.push_str(&path[last..i]);
            out.push(char::from(v));
            i += 3;
            last = i;
            continue;
        }
        i += 1;
    }
    out.push_str(&path[last..]);
    out
}

fn copy_authority(r: &mut Url, base: &Url) {
    r.authority = base.authority.clone();
    r.user = base.user.clone();
    r.password = base.password.clone();
    r.host = base.host.clone();
    r.port = base.port.clone();
    // The base's canonical host, computed on the first resolution against
    // it and shared by every later one (`Url::host_cache`). `file:` hosts
    // go through the HOSTPATH loop, which may change them first, so they
    // are not cached.
    if let (Some(h), Some(s)) = (base.host.as_deref(), base.scheme.as_deref())
        && !s.eq_ignore_ascii_case("file")
    {
        let cache = &base.host_cache;
        let c = match &cache.known {
            Some(c) => c,
            None => cache
                .lock
                .get_or_init(|| crate::host::canonicalize_host(h, &s.to_ascii_lowercase())),
        };
        r.host_cache.known = Some(c.clone());
    }
}

/// "Steps to resolve a relative URL" (/resolved-url/ is `r`).
fn resolve_relative(r: &mut Url, base: &Url) {
    // Step 1.
    if !base.hierarchical {
        // The conformance data keeps no components in this case.
        *r = Url::default();
        r.invalid = Some(InvalidReason::RelativeToNonHierarchicalBase);
        return;
    }
    r.invalid = None;
    r.hierarchical = true;
    r.scheme = base.scheme.clone();
    let file = is_file(r);
    let path_empty = r.path.as_deref().is_none_or(str::is_empty);
    if r.authority.is_some() {
        // Step 2.
        if let Some(p) = r.path.take() {
            let p = if file { decode_file_slashes(p) } else { p };
            r.path = Some(remove_dot_segments(&p));
        }
        if file {
            r.host = r.authority.clone();
            r.user = None;
            r.password = None;
            r.port = None;
        }
    } else if r
        .path
        .as_deref()
        .is_some_and(|p| p.starts_with(['/', '\\']))
    {
        // Step 3.
        copy_authority(r, base);
        let p = r.path.take().unwrap_or_default();
        let p = if file { decode_file_slashes(p) } else { p };
        r.path = Some(remove_dot_segments(&p));
    } else if path_empty && r.query.is_some() {
        // Step 4.
        copy_authority(r, base);
        r.path = base.path.clone();
    } else if path_empty && r.fragment.is_some() {
        // Step 5.
        copy_authority(r, base);
        r.path = base.path.clone();
        r.query = base.query.clone();
    } else {
        // Step 6.
        copy_authority(r, base);
        let r_path = r.path.take().unwrap_or_default();
        let mut b_path = base.path.as_deref().unwrap_or("");
        let mut base_has_authority = base.authority.is_some() || base.host.is_some();
        let r_path = if file {
            let p = decode_file_slashes(r_path);
            if starts_with_drive_spec(&p) {
                r.authority = None;
                r.user = None;
                r.password = None;
                r.host = None;
                r.port = None;
                b_path = "";
                base_has_authority = false;
            }
            p
        } else {
            r_path
        };
        let merged = merge_paths(&r_path, b_path, base_has_authority);
        r.path = Some(remove_dot_segments(&merged));
    }
}

/// Whether `s` begins with a "drive specification" (a drive letter and a
/// drive suffix, each possibly percent-encoded) followed by a slash character
/// or the end of the string.
pub(crate) fn starts_with_drive_spec(s: &str) -> bool {
    drive_spec_len(s).is_some_and(|n| s[n..].is_empty() || s[n..].starts_with(['/', '\\']))
}

/// The length of a drive letter plus drive suffix at the start of `s`.
pub(crate) fn drive_spec_len(s: &str) -> Option<usize> {
    drive_spec_len_bytes(s.as_bytes())
}

/// [`drive_spec_len`] on bytes.
pub(crate) fn drive_spec_len_bytes(b: &[u8]) -> Option<usize> {
    let letter = if b.first()?.is_ascii_alphabetic() {
        1
    } else if escape_at(b, 0).is_some_and(|v| v.is_ascii_alphabetic()) {
        3
    } else {
        return None;
    };
    let rest = &b[letter..];
    let suffix = match rest.first() {
        Some(b':' | b'|') => 1,
        _ if matches!(escape_at(rest, 0), Some(b':' | b'|')) => 3,
        _ => return None,
    };
    Some(letter + suffix)
}

/// RFC 3986 5.2.3 "merge paths", on slash characters (`/` and `\`).
fn merge_paths(r_path: &str, b_path: &str, base_has_authority: bool) -> String {
    if base_has_authority && b_path.is_empty() {
        let mut s = String::with_capacity(r_path.len() + 1);
        s.push('/');
        s.push_str(r_path);
        return s;
    }
    match b_path.rfind(is_slash) {
        Some(i) => {
            let mut s = String::with_capacity(i + 1 + r_path.len());
            s.push_str(&b_path[..=i]);
            s.push_str(r_path);
            s
        }
        None => r_path.to_owned(),
    }
}

pub(crate) fn is_dot(seg: &[u8]) -> bool {
    seg == b"." || seg.eq_ignore_ascii_case(b"%2e")
}

pub(crate) fn is_dot_dot(seg: &[u8]) -> bool {
    match seg.len() {
        2 => seg == b"..",
        4 => seg.eq_ignore_ascii_case(b".%2e") || seg.eq_ignore_ascii_case(b"%2e."),
        6 => seg.eq_ignore_ascii_case(b"%2e%2e"),
        _ => false,
    }
}

/// RFC 3986 5.2.4 "remove dot-segments", with `\` read as `/` and `%2E` as
/// `.`. Linear: each output byte is appended once and scanned at most once
/// more when a `..` removes it.
pub fn remove_dot_segments(path: &str) -> String {
    let owned;
    let input: &str = if path.contains('\\') {
        owned = path.replace('\\', "/");
        &owned
    } else {
        path
    };
    let b = input.as_bytes();
    let n = b.len();
    let mut out = String::with_capacity(n);
    let mut i = 0;
    let seg_end = |from: usize| {
        b[from..]
            .iter()
            .position(|&c| c == b'/')
            .map_or(n, |p| from + p)
    };
    while i < n {
        if b[i] != b'/' {
            // Rules A and D: a leading "." or ".." segment is dropped.
            let end = seg_end(i);
            let seg = &b[i..end];
            if is_dot(seg) || is_dot_dot(seg) {
                i = if end < n { end + 1 } else { n };
                continue;
            }
            // Rule E.
            out.push_str(&input[i..end]);
            i = end;
            continue;
        }
        let end = seg_end(i + 1);
        let seg = &b[i + 1..end];
        if is_dot(seg) {
            // Rule B: "/./" or a final "/." becomes "/".
            if end < n {
                i = end;
            } else {
                out.push('/');
                i = n;
            }
        } else if is_dot_dot(seg) {
            // Rule C: drop the last output segment.
            let cut = out.rfind('/').unwrap_or(0);
            out.truncate(cut);
            if end < n {
                i = end;
            } else {
                out.push('/');
                i = n;
            }
        } else {
            out.push_str(&input[i..end]);
            i = end;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments() {
        assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
        assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
        assert_eq!(remove_dot_segments("/a/%2E%2e/b"), "/b");
        assert_eq!(remove_dot_segments("\\a\\.\\b\\.."), "/a/");
        assert_eq!(remove_dot_segments("../a"), "a");
        assert_eq!(remove_dot_segments("/.."), "/");
        assert_eq!(remove_dot_segments(".."), "");
    }

    #[test]
    fn file_slashes() {
        assert_eq!(decode_file_slashes("/a%2fb%5Cc%2".into()), "/a/b\\c%2");
    }
}

#[cfg(test)]
mod host_cache_tests {
    use crate::{CanonOptions, canon_into, canonicalize, parse, resolve};

    /// The base's canonical host, cached by the first resolution, gives the
    /// same results as computing it every time, for valid and invalid hosts
    /// alike, and is not part of a record's value.
    #[test]
    fn cached_host_gives_the_same_results() {
        for (base, link, want) in [
            (
                "http://EXAMPLE.com:80/a/b",
                "c?d#e",
                Some("http://example.com/a/c?d#e"),
            ),
            (
                "http://EXAMPLE.com:80/a/b",
                "/x",
                Some("http://example.com/x"),
            ),
            ("HTTP://%C3%A9.com/a", "", Some("http://xn--9ca.com/a")),
            ("http://a%/b", "c", None),
            ("http://[::1%]/b", "?q", None),
            ("foo://H/b", "#f", Some("foo://h/b#f")),
        ] {
            let b = parse(base);
            let fresh = parse(base);
            for _ in 0..3 {
                let r = resolve(&b, link);
                assert_eq!(r, resolve(&fresh, link), "{base} {link}");
                let c = canonicalize(&r, None);
                assert_eq!(c.serialize().as_deref(), want, "{base} {link}");
                let mut out = String::new();
                let got = canon_into(Some(&b), link, &CanonOptions::default(), &mut out);
                assert_eq!(got.ok().map(|()| out.as_str()), want, "{base} {link}");
            }
            assert_eq!(b, parse(base));
            // A canonical record made from a base that filled its cache
            // resolves like a fresh parse of its serialization.
            let c = canonicalize(&b, None);
            if let Some(y) = c.serialize() {
                let again = canonicalize(&resolve(&c, link), None).serialize();
                let fresh = canonicalize(&resolve(&parse(&y), link), None).serialize();
                assert_eq!(again, fresh, "{base} {link}");
            }
        }
    }
}
