//! The bulk path's single-pass fast path, for the common crawler input: an
//! ASCII, absolute, hierarchical URL with a `//` authority and a plain host.
//!
//! It produces exactly what parse → resolve → canonicalize → serialize
//! produce, in one scan and without allocating (the caller's buffer is
//! reused), for the inputs it accepts; anything else makes it give up
//! (`None`) and the caller runs the stages. Why each shortcut is exact,
//! stage by stage:
//!
//! * preprocess: the input is ASCII without TAB, LF or CR, so only the
//!   VT/FF/SPACE trim applies.
//! * parse/resolve: with a `scheme://` input and a valid base, resolution
//!   keeps the input's own components and only removes dot-segments from the
//!   path ("resolve a relative URL" step 2, or "resolve a URL" step 10). The
//!   fast path gives up on any `.`/`..` segment (also `%2E` forms), so that
//!   step is the identity except that `\` becomes `/`.
//! * CanonicalizeHost on a host of `A-Z a-z 0-9 - . _ ~` that is not made only
//!   of IPv4 number characters: Nameprep is ASCII lowercasing, no label rule
//!   applies (nothing is non-ASCII), and no character is percent-encoded.
//! * the query of an ASCII string is the same bytes in every
//!   ASCII-compatible encoding (ISO-2022-JP included: ASCII needs no escape
//!   sequence), so the charset does not matter here.
//! * user, password, port, path, query and fragment rules are table lookups
//!   in [`CLASS`], built at compile time from the sets of [`crate::percent`].

use crate::canonicalize::default_port;
use crate::percent::{FRAGMENT, OctetSet, PATH, QUERY, USERINFO, hex_val, is_unreserved};
use crate::resolve::drive_spec_len_bytes;

/// Not handled by the fast path: TAB, LF, CR (preprocessing removes them).
const BAIL: u16 = 1;
/// A host character needing nothing but lowercasing: `A-Z a-z 0-9 - . _ ~`.
const HOST_PLAIN: u16 = 2;
/// A character an `inet_addr()` number can contain: hex digits, `x`, `.`.
const V4: u16 = 4;
const PATH_ENC: u16 = 8;
const QUERY_ENC: u16 = 16;
const FRAG_ENC: u16 = 32;
const USER_ENC: u16 = 64;
const SCHEME: u16 = 128;
/// A path byte copied as it is: not encoded, not `/ \ ? # %`.
const PATH_COPY: u16 = 256;
/// Ends the authority: `/ \ ? #`.
const AUTH_END: u16 = 512;
/// A host character that CanonicalizeHost step 30 percent-encodes, and that
/// no earlier step treats specially (so not NUL or `%`, which fail step 28).
const HOST_ENC: u16 = 1024;
/// A non-ASCII octet.
const NON_ASCII: u16 = 2048;

/// Octets the authority split has already consumed, or that need more than
/// a table lookup (`[`, `]` and `:` for IPv6 and ports).
const fn special_host(c: u8) -> bool {
    matches!(
        c,
        b'/' | b'\\' | b'?' | b'#' | b'@' | b'[' | b']' | b':' | b'\t' | b'\n' | b'\r'
    )
}

const fn class_of(c: u8, sets: [&OctetSet; 4]) -> u16 {
    let mut k = 0;
    if c == b'\t' || c == b'\n' || c == b'\r' {
        k |= BAIL;
    }
    if c >= 0x80 {
        k |= NON_ASCII;
    }
    if c < 0x80 && c != 0 && c != b'%' && crate::percent::HOST.contains(c) && !special_host(c) {
        k |= HOST_ENC;
    }
    if c.is_ascii_alphanumeric() || c == b'-' || c == b'.' || c == b'_' || c == b'~' || c == b'+' {
        k |= HOST_PLAIN;
    }
    if c.is_ascii_hexdigit() || c == b'.' || c == b'x' || c == b'X' {
        k |= V4;
    }
    if sets[0].contains(c) {
        k |= PATH_ENC;
    }
    if sets[1].contains(c) {
        k |= QUERY_ENC;
    }
    if sets[2].contains(c) {
        k |= FRAG_ENC;
    }
    if sets[3].contains(c) {
        k |= USER_ENC;
    }
    if c.is_ascii_alphanumeric() || c == b'+' || c == b'-' || c == b'.' {
        k |= SCHEME;
    }
    let special = c == b'/' || c == b'\\' || c == b'?' || c == b'#';
    if !sets[0].contains(c) && !special && c != b'%' {
        k |= PATH_COPY;
    }
    if special {
        k |= AUTH_END;
    }
    k
}

/// The class bits of every octet.
static CLASS: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = class_of(i as u8, [&PATH, &QUERY, &FRAGMENT, &USERINFO]);
        i += 1;
    }
    t
};

const HEX: &[u8; 16] = b"0123456789ABCDEF";

#[inline]
fn class(c: u8) -> u16 {
    CLASS[c as usize]
}

#[inline]
fn escape(out: &mut Vec<u8>, c: u8) {
    out.extend_from_slice(&[b'%', HEX[(c >> 4) as usize], HEX[(c & 15) as usize]]);
}

/// Appends `s` with the octets whose class has `enc` percent-encoded;
/// returns the OR of all classes seen (for the BAIL check).
#[inline]
fn push_encoded(out: &mut Vec<u8>, s: &[u8], enc: u16) -> u16 {
    let mut seen = 0;
    let mut last = 0;
    for (i, &c) in s.iter().enumerate() {
        let k = class(c);
        seen |= k;
        if k & enc != 0 {
            out.extend_from_slice(&s[last..i]);
            escape(out, c);
            last = i + 1;
        }
    }
    out.extend_from_slice(&s[last..]);
    seen
}

fn is_dot_segment(seg: &[u8]) -> bool {
    match seg.len() {
        1 => seg == b".",
        2 => seg == b"..",
        3 => seg.eq_ignore_ascii_case(b"%2e"),
        4 => seg.eq_ignore_ascii_case(b".%2e") || seg.eq_ignore_ascii_case(b"%2e."),
        6 => seg.eq_ignore_ascii_case(b"%2e%2e"),
        _ => false,
    }
}

fn is_non_hierarchical(lower_scheme: &[u8]) -> bool {
    matches!(
        lower_scheme,
        b"about" | b"data" | b"javascript" | b"mailto" | b"vbscript"
    )
}

/// Tries the fast path; on success the canonical URL has been appended to
/// `out` and `Some(())` is returned. On `None`, `out` may hold a partial
/// result: the caller truncates it. `utf8_query` says whether the query
/// encoding is UTF-8 (only then may a non-ASCII query take this path).
pub fn try_canon(input: &str, utf8_query: bool, out: &mut Vec<u8>) -> Option<()> {
    let all_bytes = input.as_bytes();
    let mut a = 0;
    let mut z = all_bytes.len();
    while a < z && matches!(all_bytes[a], 0x0B | 0x0C | 0x20) {
        a += 1;
    }
    while z > a && matches!(all_bytes[z - 1], 0x0B | 0x0C | 0x20) {
        z -= 1;
    }
    // Trimmed bytes are ASCII, so these are character boundaries.
    let s = &input[a..z];
    let b = s.as_bytes();
    let n = b.len();
    out.reserve(3 * n + 8);
    let base = out.len();
    // The OR of the classes of every octet looked at outside the host.
    let mut seen = 0;

    // Scheme: two or more scheme characters, then `:`, written lowercase.
    let mut i = 0;
    while i < n && class(b[i]) & SCHEME != 0 {
        i += 1;
    }
    if i < 2 || i == n || b[i] != b':' {
        return None;
    }
    out.extend_from_slice(&b[..i]);
    out[base..].make_ascii_lowercase();
    let scheme = std::str::from_utf8(&out[base..base + i]).ok()?;
    if is_non_hierarchical(scheme.as_bytes()) {
        return None;
    }
    let file = scheme == "file";
    let default = default_port(scheme);
    let host_scheme: &'static str = if file { "file" } else { "" };
    out.extend_from_slice(b"://");
    i += 1;

    let is_slash = |c: u8| c == b'/' || c == b'\\';
    if i + 2 <= n && is_slash(b[i]) && is_slash(b[i + 1]) && (i + 2 == n || !is_slash(b[i + 2])) {
        // `scheme://authority`.
        i += 2;
        let start = i;
        let mut last_at = None;
        while i < n {
            let c = b[i];
            if class(c) & AUTH_END != 0 {
                break;
            }
            if c == b'@' {
                last_at = Some(i);
            }
            i += 1;
        }
        let auth_end = i;
        if file && auth_end < n && !is_slash(b[auth_end]) {
            // A `file:` host runs to the first slash, past `?` and `#`.
            return None;
        }
        let host_start = match last_at {
            Some(at) => {
                if file {
                    return None;
                }
                let ui = &b[start..at];
                let (user, password) = match ui.iter().position(|&c| c == b':') {
                    Some(c) => (&ui[..c], Some(&ui[c + 1..]).filter(|p| !p.is_empty())),
                    None => (ui, None),
                };
                if !user.is_empty() || password.is_some() {
                    seen |= push_encoded(out, user, USER_ENC);
                    if let Some(p) = password {
                        out.push(b':');
                        seen |= push_encoded(out, p, USER_ENC);
                    }
                    out.push(b'@');
                }
                at + 1
            }
            None => start,
        };
        // Host, then an optional port after a `:` (a second `:` makes the
        // port non-numeric, so the fast path gives up then).
        let mut all = HOST_PLAIN | V4;
        let mut any = 0;
        let mut j = host_start;
        while j < auth_end && b[j] != b':' {
            let k = class(b[j]);
            all &= k;
            any |= k;
            j += 1;
        }
        let host = &b[host_start..j];
        let host_out = out.len();
        if host.is_empty() {
            // Only `scheme://` followed by the path, query or fragment.
            if auth_end != start {
                return None;
            }
        } else if all & HOST_PLAIN != 0 {
            // A host of `inet_addr()` characters may be an IPv4 address.
            if all & V4 != 0 {
                return None;
            }
            out.extend_from_slice(host);
            out[host_out..].make_ascii_lowercase();
        } else if any & (NON_ASCII | BAIL) == 0
            && host
                .iter()
                .all(|&c| class(c) & (HOST_PLAIN | HOST_ENC) != 0)
        {
            // ASCII with characters that step 30 percent-encodes: such a
            // host is no IPv4 address (it has a non-number character).
            for &c in host {
                if class(c) & HOST_ENC != 0 {
                    escape(out, c);
                } else {
                    out.push(c.to_ascii_lowercase());
                }
            }
        } else if !file && any & BAIL == 0 && host.iter().all(|&c| c != b'[' && c != b']') {
            // Internationalized or percent-encoded: the CanonicalizeHost
            // stage itself.
            let h = crate::host::canonicalize_host(&s[host_start..j], host_scheme).ok()?;
            if h.is_empty() {
                // An empty host brings in the "/." path rule.
                return None;
            }
            out.extend_from_slice(h.as_bytes());
        } else {
            return None;
        }
        if file && out[host_out..] == *b"localhost" {
            out.truncate(host_out);
        }
        if j < auth_end {
            if file {
                return None;
            }
            let port = &b[j + 1..auth_end];
            if !port.is_empty() {
                if port.len() > 5 || !port.iter().all(u8::is_ascii_digit) {
                    return None;
                }
                let v = port.iter().fold(0u32, |v, &c| v * 10 + u32::from(c - b'0'));
                if v > 65535 {
                    return None;
                }
                if default != Some(v) {
                    out.push(b':');
                    push_port(out, v);
                }
            }
        }
    } else if file && b[i..].starts_with(b"///") && (i + 3 == n || !is_slash(b[i + 3])) {
        // `file:///path`: an empty host.
        i += 2;
    } else {
        return None;
    }

    // Path, up to `?` or `#`; it starts with a slash character, or is empty.
    if file && i < n && is_slash(b[i]) {
        // The `file:` HOSTPATH steps move hosts out of `//` paths and
        // rewrite drive letters: leave those to the stages.
        if i + 1 < n && is_slash(b[i + 1]) || drive_spec_len_bytes(&b[i + 1..]).is_some() {
            return None;
        }
    }
    if i == n || b[i] == b'?' || b[i] == b'#' {
        out.push(b'/');
    } else {
        while i < n {
            // `b[i]` is a slash character: one segment follows.
            out.push(b'/');
            i += 1;
            let seg_start = i;
            while i < n {
                let c = b[i];
                let k = class(c);
                if k & PATH_COPY != 0 {
                    let run = i;
                    i += 1;
                    while i < n && class(b[i]) & PATH_COPY != 0 {
                        i += 1;
                    }
                    out.extend_from_slice(&b[run..i]);
                } else if c == b'%' {
                    match (
                        b.get(i + 1).and_then(|&h| hex_val(h)),
                        b.get(i + 2).and_then(|&l| hex_val(l)),
                    ) {
                        (Some(h), Some(l)) if is_unreserved(h << 4 | l) => {
                            out.push(h << 4 | l);
                            i += 3;
                        }
                        (Some(h), Some(l)) if file && matches!(h << 4 | l, b'/' | b'\\') => {
                            return None;
                        }
                        _ => {
                            out.push(b'%');
                            i += 1;
                        }
                    }
                } else if k & AUTH_END != 0 {
                    // `/`, `\`, `?` or `#`: the segment ends.
                    break;
                } else {
                    seen |= k;
                    escape(out, c);
                    i += 1;
                }
            }
            let seg = &b[seg_start..i];
            if seg.len() <= 6 && matches!(seg.first(), Some(b'.' | b'%')) && is_dot_segment(seg) {
                return None;
            }
            if i == n || b[i] == b'?' || b[i] == b'#' {
                break;
            }
        }
    }

    // Query and fragment.
    if i < n && b[i] == b'?' {
        let q_end = i
            + 1
            + b[i + 1..]
                .iter()
                .position(|&c| c == b'#')
                .unwrap_or(n - i - 1);
        out.push(b'?');
        let k = push_encoded(out, &b[i + 1..q_end], QUERY_ENC);
        if k & NON_ASCII != 0 && !utf8_query {
            return None;
        }
        seen |= k;
        i = q_end;
    }
    if i < n {
        out.push(b'#');
        let frag = &b[i + 1..];
        let k = push_encoded(out, frag, FRAG_ENC);
        // C1 controls (U+0080..U+009F, UTF-8 `C2 80`..`C2 9F`) are
        // percent-encoded in fragments: left to the stages.
        if k & NON_ASCII != 0 && frag.windows(2).any(|w| w[0] == 0xC2 && w[1] < 0xA0) {
            return None;
        }
        seen |= k;
    }
    if seen & BAIL != 0 {
        return None;
    }
    // Preprocessing turns noncharacters into U+FFFD; they need a byte of
    // 0xEF or more, so ASCII and most text skip the check.
    if seen & NON_ASCII != 0
        && b.iter().any(|&c| c >= 0xEF)
        && s.chars().any(crate::preprocess::is_noncharacter)
    {
        return None;
    }
    Some(())
}

fn push_port(out: &mut Vec<u8>, mut v: u32) {
    let mut digits = [0u8; 5];
    let mut k = digits.len();
    loop {
        k -= 1;
        digits[k] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[k..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fast(s: &str) -> Option<String> {
        let mut v = Vec::new();
        try_canon(s, true, &mut v).map(|()| String::from_utf8(v).unwrap())
    }

    #[test]
    fn accepts_the_common_shapes() {
        assert_eq!(
            fast("HTTP://Example.COM:80/a/b%7e?q=1 2#f g").as_deref(),
            Some("http://example.com/a/b~?q=1%202#f g")
        );
        assert_eq!(fast("http://u:@h.com/").as_deref(), Some("http://u@h.com/"));
        assert_eq!(
            fast("https://h.com:0443").as_deref(),
            Some("https://h.com/")
        );
        assert_eq!(fast("file://LocalHost/x").as_deref(), Some("file:///x"));
        assert_eq!(
            fast("http://h.com\\a\\b").as_deref(),
            Some("http://h.com/a/b")
        );
    }

    #[test]
    fn gives_up_on_the_rest() {
        for s in [
            "http://1.2.3.4/",
            "http://h.com/./a",
            "http://h/%2e%2E/",
            "http://h/\u{FDD0}",
            "http:///a",
            "mailto:x",
            "c:/x",
            "http://[::1]/",
            "http://h\t/",
            "http://h/#\u{85}",
        ] {
            assert_eq!(fast(s), None, "{s}");
        }
    }
}
