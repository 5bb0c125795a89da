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
//!   in the `CLASS` table, built at compile time from the sets of [`crate::percent`].

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
/// `@`, `:` and the authority ends: what the authority scan stops to look at.
const AUTH_MARK: u16 = 4096;
/// `[` or `]`.
const BRACKET: u16 = 8192;
/// `A`-`Z`: lowercasing is needed only when one occurs.
const UPPER: u16 = 16384;

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
    if special || c == b'@' || c == b':' {
        k |= AUTH_MARK;
    }
    if c == b'[' || c == b']' {
        k |= BRACKET;
    }
    if c.is_ascii_uppercase() {
        k |= UPPER;
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

/// Where the fast path writes. Besides ASCII bytes and computed strings, a
/// sink copies ranges of the input itself (`push_src`), so it holds the
/// input: a `String` sink takes its ranges from the input `str` (whole
/// characters, as every range ends at an ASCII delimiter or the end), and
/// stays valid UTF-8 without a check.
pub trait Sink {
    fn reserve_more(&mut self, n: usize);
    fn len_now(&self) -> usize;
    /// Appends one ASCII byte.
    fn push_ascii(&mut self, b: u8);
    /// Appends a computed string.
    fn push_str(&mut self, s: &str);
    /// Appends the input's bytes `[from, to)`.
    fn push_src(&mut self, from: usize, to: usize);
    /// The input's bytes `[from, to)` as text, if they are valid UTF-8 (the
    /// `str` sinks know it without a check).
    fn src_str(&self, from: usize, to: usize) -> Option<&str>;
    fn truncate_to(&mut self, n: usize);
    fn lowercase_from(&mut self, from: usize);
    fn bytes_from(&self, from: usize) -> &[u8];
}

/// A `String` sink over `str` input.
pub struct StrSink<'a> {
    pub out: &'a mut String,
    pub src: &'a str,
}

impl Sink for StrSink<'_> {
    #[inline]
    fn reserve_more(&mut self, n: usize) {
        self.out.reserve(n);
    }
    #[inline]
    fn len_now(&self) -> usize {
        self.out.len()
    }
    #[inline]
    fn push_ascii(&mut self, b: u8) {
        debug_assert!(b.is_ascii());
        self.out.push(b as char);
    }
    #[inline]
    fn push_str(&mut self, s: &str) {
        self.out.push_str(s);
    }
    #[inline]
    fn push_src(&mut self, from: usize, to: usize) {
        self.out.push_str(&self.src[from..to]);
    }
    #[inline]
    fn src_str(&self, from: usize, to: usize) -> Option<&str> {
        self.src.get(from..to)
    }
    #[inline]
    fn truncate_to(&mut self, n: usize) {
        self.out.truncate(n);
    }
    #[inline]
    fn lowercase_from(&mut self, from: usize) {
        self.out[from..].make_ascii_lowercase();
    }
    #[inline]
    fn bytes_from(&self, from: usize) -> &[u8] {
        &self.out.as_bytes()[from..]
    }
}

#[inline]
fn escape<O: Sink>(out: &mut O, c: u8) {
    out.push_ascii(b'%');
    out.push_ascii(HEX[(c >> 4) as usize]);
    out.push_ascii(HEX[(c & 15) as usize]);
}

/// Appends the input's bytes `[from, to)` with the octets whose class has
/// `enc` percent-encoded; returns the OR of all classes seen (for the BAIL
/// and NON_ASCII checks). Runs are cut at encoded octets, which are ASCII or
/// whole UTF-8 sequences of non-ASCII sets, so every run is whole
/// characters.
#[inline]
fn push_encoded<O: Sink>(out: &mut O, b: &[u8], from: usize, to: usize, enc: u16) -> u16 {
    let mut seen = 0;
    let mut last = from;
    for (i, &c) in b[from..to].iter().enumerate() {
        let i = from + i;
        let k = class(c);
        seen |= k;
        if k & enc != 0 {
            if last < i {
                out.push_src(last, i);
            }
            escape(out, c);
            last = i + 1;
        }
    }
    if last < to {
        out.push_src(last, to);
    }
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

/// The default port of a lowercase scheme (section "Port numbers"), on
/// bytes.
fn default_port_of(scheme: &[u8]) -> Option<u32> {
    Some(match scheme {
        b"http" | b"ws" => 80,
        b"https" | b"wss" => 443,
        b"ftp" => 21,
        b"gopher" => 70,
        b"telnet" | b"tn3270" => 23,
        b"rlogin" => 513,
        _ => return None,
    })
}

/// Tries the fast path on `input` (the bytes the sink copies ranges from);
/// on success the canonical URL has been appended to `out` and `Some(())`
/// is returned. On `None`, `out` may hold a partial result: the caller
/// truncates or discards it. `utf8_query` says whether the query encoding is
/// UTF-8 (only then may a non-ASCII query take this path). With
/// `ascii_only`, the fast path gives up on any non-ASCII byte: the C ABI
/// then runs it on its input before validating it as UTF-8, since the fast
/// path looks at every byte.
pub fn try_canon<O: Sink>(
    input: &[u8],
    ascii_only: bool,
    utf8_query: bool,
    out: &mut O,
) -> Option<()> {
    let mut a = 0;
    let mut n = input.len();
    while a < n && matches!(input[a], 0x0B | 0x0C | 0x20) {
        a += 1;
    }
    while n > a && matches!(input[n - 1], 0x0B | 0x0C | 0x20) {
        n -= 1;
    }
    // Offsets below are into `input`; the trimmed URL is `input[a..n]`.
    let b = input;
    out.reserve_more(3 * (n - a) + 8);
    let base = out.len_now();
    // The OR of the classes of every octet looked at outside the host.
    let mut seen = 0;

    // Scheme: two or more scheme characters, then `:`, written lowercase.
    // `http` and `https` in lowercase, by far the most common, skip the scan.
    let (mut i, file, default) = if b[a..n].starts_with(b"https:") {
        out.push_str("https://");
        (a + 5, false, Some(443))
    } else if b[a..n].starts_with(b"http:") {
        out.push_str("http://");
        (a + 4, false, Some(80))
    } else {
        let mut i = a;
        let mut upper = 0;
        while i < n && class(b[i]) & SCHEME != 0 {
            upper |= class(b[i]);
            i += 1;
        }
        if i < a + 2 || i == n || b[i] != b':' {
            return None;
        }
        out.push_src(a, i);
        if upper & UPPER != 0 {
            out.lowercase_from(base);
        }
        let scheme = out.bytes_from(base);
        if is_non_hierarchical(scheme) {
            return None;
        }
        let file = scheme == b"file";
        let default = default_port_of(scheme);
        out.push_str("://");
        (i, file, default)
    };
    let host_scheme: &'static str = if file { "file" } else { "" };
    i += 1;

    let is_slash = |c: u8| c == b'/' || c == b'\\';
    if i + 2 <= n && is_slash(b[i]) && is_slash(b[i + 1]) && (i + 2 == n || !is_slash(b[i + 2])) {
        // `scheme://authority`, scanned once: the user-info ends at the last
        // `@`; the host runs from there to the first `:` (a second `:`
        // makes the port non-numeric, so the fast path gives up then).
        i += 2;
        let start = i;
        let mut last_at = None;
        let mut colon = None;
        let mut all;
        let mut any;
        loop {
            // The common case: host characters up to the end of the
            // authority, with nothing to look at twice.
            all = HOST_PLAIN | V4;
            any = 0;
            while i < n {
                let k = class(b[i]);
                if k & (AUTH_MARK | NON_ASCII) != 0 {
                    if k & AUTH_MARK != 0 {
                        break;
                    }
                    if ascii_only {
                        // Give up early: the caller decodes and retries.
                        return None;
                    }
                }
                all &= k;
                any |= k;
                i += 1;
            }
            if i < n && b[i] == b':' {
                // A port, or a password when an `@` follows.
                colon = Some(i);
                i += 1;
                while i < n && class(b[i]) & AUTH_END == 0 && b[i] != b'@' {
                    i += 1;
                }
            }
            if i < n && b[i] == b'@' {
                // What came before is user-info; the host starts again.
                last_at = Some(i);
                colon = None;
                i += 1;
                continue;
            }
            break;
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
                let (user_end, password) = match b[start..at].iter().position(|&c| c == b':') {
                    Some(c) => (start + c, Some((start + c + 1, at)).filter(|(p, q)| p < q)),
                    None => (at, None),
                };
                if user_end > start || password.is_some() {
                    seen |= push_encoded(out, b, start, user_end, USER_ENC);
                    if let Some((p, q)) = password {
                        out.push_ascii(b':');
                        seen |= push_encoded(out, b, p, q, USER_ENC);
                    }
                    out.push_ascii(b'@');
                }
                at + 1
            }
            None => start,
        };
        let host_end = colon.unwrap_or(auth_end);
        let host = &b[host_start..host_end];
        let host_out = out.len_now();
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
            out.push_src(host_start, host_end);
            if any & UPPER != 0 {
                out.lowercase_from(host_out);
            }
        } else if !file
            && any & (NON_ASCII | BAIL) == 0
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
                    out.push_ascii(c.to_ascii_lowercase());
                }
            }
        } else if !file && any & (BAIL | BRACKET) == 0 && !(ascii_only && any & NON_ASCII != 0) {
            // Internationalized or percent-encoded: the CanonicalizeHost
            // stage itself.
            let host = out.src_str(host_start, host_end)?;
            let h = crate::host::canonicalize_host(host, host_scheme).ok()?;
            if h.is_empty() {
                // An empty host brings in the "/." path rule.
                return None;
            }
            out.push_str(&h);
        } else {
            return None;
        }
        if file && out.bytes_from(host_out) == b"localhost" {
            out.truncate_to(host_out);
        }
        if let Some(c) = colon {
            if file {
                return None;
            }
            let port = &b[c + 1..auth_end];
            if !port.is_empty() {
                if port.len() > 5 || !port.iter().all(u8::is_ascii_digit) {
                    return None;
                }
                let v = port.iter().fold(0u32, |v, &c| v * 10 + u32::from(c - b'0'));
                if v > 65535 {
                    return None;
                }
                if default != Some(v) {
                    out.push_ascii(b':');
                    push_port(out, v);
                }
            }
        }
    } else if file && b[i..n].starts_with(b"///") && (i + 3 == n || !is_slash(b[i + 3])) {
        // `file:///path`: an empty host.
        i += 2;
    } else {
        return None;
    }

    // Path, up to `?` or `#`; it starts with a slash character, or is empty.
    if file && i < n && is_slash(b[i]) {
        // The `file:` HOSTPATH steps move hosts out of `//` paths and
        // rewrite drive letters: leave those to the stages.
        if i + 1 < n && is_slash(b[i + 1]) || drive_spec_len_bytes(&b[i + 1..n]).is_some() {
            return None;
        }
    }
    if i == n || b[i] == b'?' || b[i] == b'#' {
        out.push_ascii(b'/');
    } else {
        while i < n {
            // `b[i]` is a slash character: one segment follows.
            out.push_ascii(b'/');
            i += 1;
            let seg_start = i;
            while i < n {
                let c = b[i];
                let k = class(c);
                if k & PATH_COPY != 0 {
                    let run = i;
                    i += 1 + b[i + 1..n]
                        .iter()
                        .take_while(|&&c| class(c) & PATH_COPY != 0)
                        .count();
                    out.push_src(run, i);
                } else if c == b'%' {
                    let hex = |j: usize| if j < n { hex_val(b[j]) } else { None };
                    match (hex(i + 1), hex(i + 2)) {
                        // A decoded hex digit could complete a new escape
                        // with what precedes it (`%3%35`): left to the
                        // stages, which decode to a fixed point.
                        (Some(h), Some(l)) if (h << 4 | l).is_ascii_hexdigit() => return None,
                        (Some(h), Some(l)) if is_unreserved(h << 4 | l) => {
                            out.push_ascii(h << 4 | l);
                            i += 3;
                        }
                        (Some(h), Some(l)) if file && matches!(h << 4 | l, b'/' | b'\\') => {
                            return None;
                        }
                        _ => {
                            out.push_ascii(b'%');
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
            + b[i + 1..n]
                .iter()
                .position(|&c| c == b'#')
                .unwrap_or(n - i - 1);
        out.push_ascii(b'?');
        let k = push_encoded(out, b, i + 1, q_end, QUERY_ENC);
        if k & NON_ASCII != 0 && !utf8_query {
            return None;
        }
        seen |= k;
        i = q_end;
    }
    if i < n {
        out.push_ascii(b'#');
        let k = push_encoded(out, b, i + 1, n, FRAG_ENC);
        // C1 controls (U+0080..U+009F, UTF-8 `C2 80`..`C2 9F`) are
        // percent-encoded in fragments: left to the stages.
        if k & NON_ASCII != 0 && b[i + 1..n].windows(2).any(|w| w[0] == 0xC2 && w[1] < 0xA0) {
            return None;
        }
        seen |= k;
    }
    if seen & BAIL != 0 || ascii_only && seen & NON_ASCII != 0 {
        return None;
    }
    // Preprocessing turns noncharacters into U+FFFD; they need a byte of
    // 0xEF or more, so ASCII and most text skip the check.
    if seen & NON_ASCII != 0
        && b[a..n].iter().any(|&c| c >= 0xEF)
        && out
            .src_str(a, n)?
            .chars()
            .any(crate::preprocess::is_noncharacter)
    {
        return None;
    }
    Some(())
}

fn push_port<O: Sink>(out: &mut O, mut v: u32) {
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
    for &d in &digits[k..] {
        out.push_ascii(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fast(s: &str) -> Option<String> {
        let mut out = String::new();
        let mut sink = StrSink {
            out: &mut out,
            src: s,
        };
        try_canon(s.as_bytes(), false, true, &mut sink).map(|()| out)
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
