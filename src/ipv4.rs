//! "Steps to canonicalize an IPv4 address" (spec section "IPv4 addresses"):
//! the `inet_addr()` forms — one to four numbers separated by `.`, each in
//! decimal, octal (leading `0`) or hex (`0x`), the last one filling the
//! remaining bytes. Anything else, including a number too large for its
//! place, is not an IPv4 address (the host stays a domain name).

/// The value of one "number", or `None`. Values saturate above 2^32, so a
/// megabyte of digits costs one pass and cannot overflow.
fn number(s: &[u8]) -> Option<u64> {
    const CAP: u64 = 1 << 33;
    let (digits, radix) = if s.len() >= 2 && s[0] == b'0' && (s[1] == b'x' || s[1] == b'X') {
        // "0x" followed by zero or more hex digits (zero of them is 0).
        (&s[2..], 16)
    } else if s.first() == Some(&b'0') {
        (&s[1..], 8)
    } else if s.first().is_some_and(|c| (b'1'..=b'9').contains(c)) {
        (s, 10)
    } else {
        return None;
    };
    let mut v: u64 = 0;
    for &c in digits {
        let d = (c as char).to_digit(radix)? as u64;
        v = (v * radix as u64 + d).min(CAP);
    }
    Some(v)
}

/// Parses `s` as an IPv4 address in one of the `inet_addr()` forms.
pub fn parse_ipv4(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    // Cheap rejection: only digits, hex letters, `x`, `X` and `.` can occur.
    if b.is_empty()
        || !b
            .iter()
            .all(|c| c.is_ascii_hexdigit() || matches!(c, b'.' | b'x' | b'X'))
    {
        return None;
    }
    let mut parts = [0u64; 4];
    let mut n = 0;
    for part in b.split(|&c| c == b'.') {
        if n == 4 {
            return None;
        }
        parts[n] = number(part)?;
        n += 1;
    }
    let (head, last) = (&parts[..n - 1], parts[n - 1]);
    if head.iter().any(|&p| p > 255) {
        return None;
    }
    let last_bits = 8 * (5 - n) as u32;
    if last_bits < 32 && last >> last_bits != 0 || last > u32::MAX as u64 {
        return None;
    }
    let mut addr: u64 = 0;
    for (i, &p) in head.iter().enumerate() {
        addr |= p << (24 - 8 * i);
    }
    Some((addr | last) as u32)
}

/// The dotted-decimal text of `a` in a stack buffer (at most 15 bytes):
/// the buffer and the length used.
fn dotted(a: u32) -> ([u8; 15], usize) {
    let mut buf = [0u8; 15];
    let mut n = 0;
    for (i, byte) in a.to_be_bytes().into_iter().enumerate() {
        if i > 0 {
            buf[n] = b'.';
            n += 1;
        }
        // Decimal without leading zeros.
        if byte >= 100 {
            buf[n] = b'0' + byte / 100;
            n += 1;
        }
        if byte >= 10 {
            buf[n] = b'0' + byte / 10 % 10;
            n += 1;
        }
        buf[n] = b'0' + byte % 10;
        n += 1;
    }
    (buf, n)
}

/// The canonical dotted-decimal form of `s`, or `None` ("fail").
pub fn canonicalize_ipv4(s: &str) -> Option<String> {
    let mut out = String::with_capacity(15);
    canonicalize_ipv4_into(s, &mut out).then_some(out)
}

/// [`canonicalize_ipv4`] appended to `out`; `false` ("fail") leaves `out`
/// as it was.
pub fn canonicalize_ipv4_into(s: &str, out: &mut String) -> bool {
    let Some(a) = parse_ipv4(s) else {
        return false;
    };
    let (buf, n) = dotted(a);
    out.extend(buf[..n].iter().map(|&b| char::from(b)));
    true
}

/// Whether `s` is already a canonical dotted-decimal IPv4 address.
pub fn is_canonical_ipv4(s: &str) -> bool {
    parse_ipv4(s).is_some_and(|a| {
        let (buf, n) = dotted(a);
        &buf[..n] == s.as_bytes()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        assert_eq!(canonicalize_ipv4("127.0.0.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(canonicalize_ipv4("0x7f.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(
            canonicalize_ipv4("017700000001").as_deref(),
            Some("127.0.0.1")
        );
        assert_eq!(
            canonicalize_ipv4("4294967295").as_deref(),
            Some("255.255.255.255")
        );
        assert_eq!(canonicalize_ipv4("0x").as_deref(), Some("0.0.0.0"));
        assert_eq!(canonicalize_ipv4("4294967296"), None);
        assert_eq!(canonicalize_ipv4("1.2.65536"), None);
        assert_eq!(canonicalize_ipv4("1.2.3.4.5"), None);
        assert_eq!(canonicalize_ipv4("1..2"), None);
        assert_eq!(canonicalize_ipv4("08"), None);
        assert_eq!(canonicalize_ipv4("10.0.0.1."), None);
        assert_eq!(canonicalize_ipv4("0xffffffffFFFFFFFF"), None);
        assert_eq!(
            canonicalize_ipv4("0.10.100.255").as_deref(),
            Some("0.10.100.255")
        );
        assert!(is_canonical_ipv4("0.10.100.255"));
        assert!(!is_canonical_ipv4("0.10.100.0255"));
        assert!(!is_canonical_ipv4("127.1"));
    }
}
