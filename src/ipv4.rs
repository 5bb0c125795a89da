//! "Steps to canonicalize an IPv4 address" (spec section "IPv4 addresses"):
//! the `inet_addr()` forms — one to four numbers separated by `.`, each in
//! decimal, octal (leading `0`) or hex (`0x`), the last one filling the
//! remaining bytes. Anything else, including a number too large for its
//! place, is not an IPv4 address (the host stays a domain name).

/// Parses `s` as an IPv4 address in one of the `inet_addr()` forms, in one
/// pass. Each "number" is decimal, octal (leading `0`) or hex (`0x`, zero
/// or more digits); values saturate above 2^32, so a megabyte of digits
/// cannot overflow.
pub fn parse_ipv4(s: &str) -> Option<u32> {
    const CAP: u64 = 1 << 33;
    let b = s.as_bytes();
    let mut parts = [0u64; 4];
    let mut n = 0;
    let mut i = 0;
    loop {
        let (radix, mut j) = match (b.get(i), b.get(i + 1)) {
            (Some(b'0'), Some(b'x' | b'X')) => (16, i + 2),
            (Some(b'0'), _) => (8, i + 1),
            (Some(b'1'..=b'9'), _) => (10, i),
            _ => return None,
        };
        let mut v: u64 = 0;
        while let Some(&c) = b.get(j) {
            if c == b'.' {
                break;
            }
            let d = u64::from(crate::percent::hex_val(c).filter(|&d| u64::from(d) < radix)?);
            v = (v * radix + d).min(CAP);
            j += 1;
        }
        *parts.get_mut(n)? = v;
        n += 1;
        if j == b.len() {
            break;
        }
        i = j + 1;
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

/// The `inet_addr()` form of `s`, an address [`parse_ipv4`] reads, in words: how many numbers,
/// each one's base, and how many octets the last fills (for `wurl explain`).
pub(crate) fn form(s: &str) -> String {
    let nums: Vec<&str> = s.split('.').collect();
    let base = |n: &str| {
        let b = n.as_bytes();
        match (b.first(), b.get(1)) {
            (Some(b'0'), Some(b'x' | b'X')) => "hex",
            (Some(b'0'), Some(_)) => "octal",
            _ => "decimal",
        }
    };
    let bases: Vec<&str> = nums.iter().map(|n| base(n)).collect();
    let fill = 5 - nums.len().min(4);
    let octets = if fill == 1 { "octet" } else { "octets" };
    format!(
        "{} number(s) ({}), the last filling {fill} {octets}",
        nums.len(),
        bases.join(", ")
    )
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

/// Whether `s` is already a canonical dotted-decimal IPv4 address (what
/// [`canonicalize_ipv4`] writes): four decimal numbers up to 255 without
/// leading zeros.
pub fn is_canonical_ipv4(s: &str) -> bool {
    is_canonical_dotted(s.as_bytes())
}

/// [`is_canonical_ipv4`] on octets.
pub(crate) fn is_canonical_dotted(b: &[u8]) -> bool {
    let mut i = 0;
    for part in 0..4 {
        if part > 0 {
            if b.get(i) != Some(&b'.') {
                return false;
            }
            i += 1;
        }
        let start = i;
        let mut v = 0u32;
        while let Some(&c) = b.get(i).filter(|c| c.is_ascii_digit()) {
            v = v * 10 + u32::from(c - b'0');
            i += 1;
            if i - start > 3 {
                return false;
            }
        }
        if i == start || (i - start > 1 && b[start] == b'0') || v > 255 {
            return false;
        }
    }
    i == b.len()
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

    /// The spec's reading, part by part: split at `.`, each part a number.
    fn reference(s: &str) -> Option<u32> {
        let number = |p: &[u8]| -> Option<u64> {
            let (d, r) = match p {
                [b'0', b'x' | b'X', d @ ..] => (d, 16),
                [b'0', d @ ..] => (d, 8),
                [b'1'..=b'9', ..] => (p, 10),
                _ => return None,
            };
            d.iter().try_fold(0u64, |v, &c| {
                Some((v * r + u64::from((c as char).to_digit(r as u32)?)).min(1 << 33))
            })
        };
        let parts: Vec<u64> = s
            .as_bytes()
            .split(|&c| c == b'.')
            .map(number)
            .collect::<Option<_>>()?;
        let n = parts.len();
        if n > 4 || parts[..n - 1].iter().any(|&p| p > 255) || parts[n - 1] >= 1 << (8 * (5 - n)) {
            return None;
        }
        let head = parts[..n - 1]
            .iter()
            .enumerate()
            .fold(0, |a, (i, &p)| a | p << (24 - 8 * i));
        Some((head | parts[n - 1]) as u32)
    }

    /// The one-pass parse and the canonical test agree with the reading
    /// above on every string of up to six octets over digits, hex letters,
    /// `x` and `.`.
    #[test]
    fn one_pass_is_the_reference() {
        let alphabet = b"012589afFxX.g";
        let mut s = Vec::new();
        fn all(s: &mut Vec<u8>, alphabet: &[u8], left: usize) {
            let t = std::str::from_utf8(s).unwrap();
            let want = reference(t);
            assert_eq!(parse_ipv4(t), want, "{t:?}");
            let canonical = want.is_some_and(|a| {
                let (buf, n) = dotted(a);
                &buf[..n] == s.as_slice()
            });
            assert_eq!(is_canonical_ipv4(t), canonical, "{t:?}");
            if left > 0 {
                for &c in alphabet {
                    s.push(c);
                    all(s, alphabet, left - 1);
                    s.pop();
                }
            }
        }
        all(&mut s, alphabet, 6);
        // Four parts (too long for the above) from tricky numbers.
        let parts = [
            "0", "00", "1", "9", "10", "09", "99", "100", "199", "200", "249", "250", "255", "256",
            "260", "300", "999", "0x1", "1000",
        ];
        for a in parts {
            for b in parts {
                for c in parts {
                    for d in parts {
                        let t = format!("{a}.{b}.{c}.{d}");
                        let want = reference(&t).is_some_and(|x| {
                            let (buf, n) = dotted(x);
                            &buf[..n] == t.as_bytes()
                        });
                        assert_eq!(is_canonical_ipv4(&t), want, "{t:?}");
                        assert_eq!(parse_ipv4(&t), reference(&t), "{t:?}");
                    }
                }
            }
        }
        for t in [
            "255.255.255.255",
            "256.1.1.1",
            "1.2.3.249",
            "199.200.201.255",
            "4294967295",
            "0x100000000",
        ] {
            assert_eq!(parse_ipv4(t), reference(t), "{t:?}");
        }
    }
}
