//! "Steps to percent-encode a string" (spec section "Percent-encoding") and
//! the octet sets each component uses, as 256-bit lookup tables.

/// A set of octets to percent-encode: bit `b` set means octet `b` is encoded.
#[derive(Clone, Copy, Debug)]
pub struct OctetSet([u64; 4]);

impl OctetSet {
    /// Whether octet `b` is in the set.
    #[inline]
    pub const fn contains(&self, b: u8) -> bool {
        self.0[(b >> 6) as usize] & (1u64 << (b & 63)) != 0
    }

    const fn with(mut self, b: u8) -> Self {
        self.0[(b >> 6) as usize] |= 1u64 << (b & 63);
        self
    }

    const fn without(mut self, b: u8) -> Self {
        self.0[(b >> 6) as usize] &= !(1u64 << (b & 63));
        self
    }

    const fn without_all(mut self, bytes: &[u8]) -> Self {
        let mut i = 0;
        while i < bytes.len() {
            self = self.without(bytes[i]);
            i += 1;
        }
        self
    }

    const fn with_range(mut self, lo: u8, hi: u8) -> Self {
        let mut b = lo;
        loop {
            self = self.with(b);
            if b == hi {
                break;
            }
            b += 1;
        }
        self
    }

    const EMPTY: OctetSet = OctetSet([0; 4]);
    const ALL: OctetSet = OctetSet([u64::MAX; 4]);

    /// Everything except the unreserved characters of RFC 3986.
    const NOT_UNRESERVED: OctetSet = OctetSet::ALL
        .without_all(b"-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
}

/// Whether `b` is an unreserved ASCII character [RFC 3986].
#[inline]
pub fn is_unreserved(b: u8) -> bool {
    UNRESERVED[usize::from(b)]
}

/// [`OctetSet::NOT_UNRESERVED`]'s complement, an octet to an entry.
static UNRESERVED: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = !OctetSet::NOT_UNRESERVED.contains(i as u8);
        i += 1;
    }
    t
};

/// |user| and |password|: all but unreserved and `! $ % & ' ( ) * + ,`
/// (NOTES.md: the spec's "0x2D (,)" means 0x2C).
pub const USERINFO: OctetSet = OctetSet::NOT_UNRESERVED.without_all(b"!$%&'()*+,");

/// |path| of hierarchical and `mailto:` URLs: all but unreserved and
/// `! # $ % & ' ( ) * + , / : ; = @ [ ]`, and `?` (NOTES.md).
pub const PATH: OctetSet = OctetSet::NOT_UNRESERVED.without_all(b"!#$%&'()*+,/:;=@[]?");

/// |path| of other URLs: C0 controls and 0x7F-0xFF.
pub const OPAQUE_PATH: OctetSet = OctetSet::EMPTY
    .with_range(0x00, 0x1F)
    .with_range(0x7F, 0xFF);

/// |query|: all but unreserved and ``! # $ % & ' ( ) * + , / : ; = @ [ ] \ ^ ` { | }``,
/// and `?`.
pub const QUERY: OctetSet = OctetSet::NOT_UNRESERVED.without_all(b"!#$%&'()*+,/:;=@[]\\^`{|}?");

/// |fragment|: C0 controls and 0x7F (C1 controls are handled separately).
pub const FRAGMENT: OctetSet = OctetSet::EMPTY.with_range(0x00, 0x1F).with(0x7F);

/// CanonicalizeHost step 30 (THIS), without `@`.
pub const HOST_FILE: OctetSet = OctetSet::EMPTY
    .with_range(0x00, 0x2A)
    .with(0x2C)
    .with(0x2F)
    .with_range(0x3B, 0x3F)
    .with(0x5C)
    .with(0x5E)
    .with(0x60)
    .with_range(0x7B, 0x7D)
    .with(0x7F)
    .without(b'+')
    .without(b'-');

/// CanonicalizeHost step 30 (THIS) for schemes other than `file`: also `@`.
pub const HOST: OctetSet = HOST_FILE.with(b'@');

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `%XX` for `b` (uppercase hex).
#[inline]
pub fn push_escape(out: &mut String, b: u8) {
    // One append of three octets, a length the compiler knows: a reservation and two stores,
    // not three pushes each with its own capacity check.
    let at = 3 * usize::from(b);
    out.push_str(&ESCAPES[at..at + 3]);
}

/// `%XX` (uppercase hex) for each octet value in order, three octets each.
static ESCAPE_OCTETS: [u8; 768] = {
    let mut t = [0u8; 768];
    let mut i = 0;
    while i < 256 {
        t[3 * i] = b'%';
        t[3 * i + 1] = HEX[i >> 4];
        t[3 * i + 2] = HEX[i & 15];
        i += 1;
    }
    t
};

/// [`ESCAPE_OCTETS`] as text (ASCII).
static ESCAPES: &str = match std::str::from_utf8(&ESCAPE_OCTETS) {
    Ok(s) => s,
    Err(_) => panic!("escapes are ASCII"),
};

/// Percent-encodes the UTF-8 octets of `s` that are in `set`, appending to `out`. The result is
/// valid UTF-8: the sets hold all of 0x80-0xFF or none of it.
pub fn encode_utf8_into(s: &str, set: &OctetSet, out: &mut String) {
    let b = s.as_bytes();
    let mut last = 0;
    for (i, &c) in b.iter().enumerate() {
        if set.contains(c) {
            if last < i {
                out.push_str(&s[last..i]);
            }
            push_escape(out, c);
            last = i + 1;
        }
    }
    out.push_str(&s[last..]);
}

/// Percent-encodes `s` in UTF-8 with `set`; borrows when nothing changes.
pub fn encode_utf8(s: &str, set: &OctetSet) -> Option<String> {
    if !s.bytes().any(|c| set.contains(c)) {
        return None;
    }
    let mut out = String::with_capacity(s.len() + 16);
    encode_utf8_into(s, set, &mut out);
    Some(out)
}

/// Percent-encodes raw octets (already in the target encoding) with `set`, which must hold
/// 0x80-0xFF (the query set does). `#` is always encoded: a stateful encoding such as ISO-2022-JP
/// writes 0x23 inside a character (U+3002 is `ESC $ B ! #`), which would end the query when read
/// again (a typed `#` already ended it at parsing).
pub fn encode_bytes_into(bytes: &[u8], set: &OctetSet, out: &mut String) {
    for &c in bytes {
        if set.contains(c) || c >= 0x80 || c == b'#' {
            push_escape(out, c);
        } else {
            out.push(c as char);
        }
    }
}

/// The value of a hex digit.
#[inline]
pub fn hex_val(c: u8) -> Option<u8> {
    let v = HEX_VAL[usize::from(c)];
    (v < 16).then_some(v)
}

/// The value of each octet as a hex digit, 0xFF for any other octet.
static HEX_VAL: [u8; 256] = {
    let mut t = [0xFF; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => 0xFF,
        };
        i += 1;
    }
    t
};

/// The octet of a `%XX` escape at `b[i..]`, if there is one.
#[inline]
pub fn escape_at(b: &[u8], i: usize) -> Option<u8> {
    if i + 3 <= b.len() && b[i] == b'%' {
        // Both digits at once: an octet that is none ORs 0xFF in.
        let (h, l) = (
            HEX_VAL[usize::from(b[i + 1])],
            HEX_VAL[usize::from(b[i + 2])],
        );
        if h | l < 16 {
            return Some(h << 4 | l);
        }
    }
    None
}

/// Percent-decodes the escapes of unreserved characters (`%41` is `A`), leaving the others; `None`
/// when nothing changes. Repeated where decoding forms a new escape (`%3%35` gives `%35`, then
/// `5`), so that canonicalization is idempotent; each decoding shortens the output, so this stays
/// linear.
pub fn decode_unreserved(s: &str) -> Option<String> {
    let mut out = String::new();
    decode_unreserved_into(s, &mut out).then_some(out)
}

/// [`decode_unreserved`] appending to `out`; whether anything changed (when
/// nothing did, `out` holds a copy of `s`).
pub fn decode_unreserved_into(s: &str, out: &mut String) -> bool {
    let Some(first) = memchr::memchr(b'%', s.as_bytes()) else {
        out.push_str(s);
        return false;
    };
    let start = out.len();
    out.reserve(s.len());
    out.push_str(&s[..first]);
    let mut changed = false;
    for c in s[first..].chars() {
        out.push(c);
        if !c.is_ascii_hexdigit() {
            continue;
        }
        // Only an escape ending at the last byte can be new. Escapes are
        // ASCII, so replacing one keeps `out` on character boundaries.
        while let [.., b'%', h, l] = out.as_bytes()[start..] {
            match (hex_val(h), hex_val(l)) {
                (Some(h), Some(l)) if is_unreserved(h << 4 | l) => {
                    out.truncate(out.len() - 3);
                    out.push(char::from(h << 4 | l));
                    changed = true;
                }
                _ => break,
            }
        }
    }
    changed
}

/// Writes a code point's UTF-8 octets as escapes (C1 controls in fragments).
pub fn push_char_escaped(out: &mut String, c: char) {
    let mut buf = [0u8; 4];
    for &b in c.encode_utf8(&mut buf).as_bytes() {
        push_escape(out, b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets() {
        assert!(USERINFO.contains(b'@') && !USERINFO.contains(b',') && !USERINFO.contains(b'-'));
        assert!(PATH.contains(b' ') && !PATH.contains(b'?') && PATH.contains(0x80));
        assert!(HOST.contains(b'@') && !HOST_FILE.contains(b'@') && !HOST.contains(b'-'));
        assert!(HOST.contains(b'!') && !HOST.contains(b'+') && !HOST.contains(b'.'));
        assert!(!HOST.contains(b':') && !HOST.contains(b'[') && HOST.contains(b'='));
    }

    /// The tables say what their definitions say, for every octet, and an
    /// escape is read at every pair of octets exactly when both are hex
    /// digits.
    #[test]
    fn tables_are_the_definitions() {
        for c in 0..=255u8 {
            let unreserved = c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~');
            assert_eq!(is_unreserved(c), unreserved, "{c:#x}");
            let hex = char::from(c).to_digit(16).map(|d| d as u8);
            assert_eq!(hex_val(c), hex, "{c:#x}");
        }
        for h in 0..=255u8 {
            for l in 0..=255u8 {
                let b = [b'%', h, l];
                let want = hex_val(h).zip(hex_val(l)).map(|(h, l)| h << 4 | l);
                assert_eq!(escape_at(&b, 0), want, "{h:#x} {l:#x}");
            }
        }
        assert_eq!(escape_at(b"%4", 0), None);
        assert_eq!(escape_at(b"x41", 0), None);
    }

    #[test]
    fn decoding() {
        assert_eq!(
            decode_unreserved("/%41%2f%7e%zz%").as_deref(),
            Some("/A%2f~%zz%")
        );
        assert_eq!(decode_unreserved("/a%20"), None);
        assert_eq!(decode_unreserved("/%3%35%%34%31").as_deref(), Some("/5A"));
        assert_eq!(decode_unreserved("/%2%65%2%65/x").as_deref(), Some("/../x"));
    }
}
