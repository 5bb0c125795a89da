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

/// The canonical dotted-decimal form of `s`, or `None` ("fail").
pub fn canonicalize_ipv4(s: &str) -> Option<String> {
    let a = parse_ipv4(s)?;
    let [x, y, z, w] = a.to_be_bytes();
    Some(format!("{x}.{y}.{z}.{w}"))
}

/// Whether `s` is already a canonical dotted-decimal IPv4 address.
pub fn is_canonical_ipv4(s: &str) -> bool {
    canonicalize_ipv4(s).is_some_and(|c| c == s)
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
    }
}
