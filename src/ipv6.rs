//! "Steps to canonicalize an IPv6 address" (spec section "IPv6
//! addresses"): RFC 3986 `IPv6address` syntax, with an IPv4 part whose
//! octets may have leading zeros (`00` DIGIT / `0` DIGIT DIGIT), written
//! back in the RFC 5952 section 4 form (lowercase, no leading zeros, the
//! longest run of two or more zero groups as `::`, the IPv4 part as hex).

/// The modified `IPv4address`: four octets 0-255, each one to three digits.
fn parse_v4_tail(s: &str) -> Option<[u16; 2]> {
    let mut o = [0u8; 4];
    let mut n = 0;
    for part in s.split('.') {
        if n == 4 || part.is_empty() || part.len() > 3 || !part.bytes().all(|c| c.is_ascii_digit())
        {
            return None;
        }
        o[n] = part.parse::<u16>().ok().filter(|&v| v <= 255)? as u8;
        n += 1;
    }
    (n == 4).then(|| {
        [
            u16::from_be_bytes([o[0], o[1]]),
            u16::from_be_bytes([o[2], o[3]]),
        ]
    })
}

fn h16(s: &str) -> Option<u16> {
    if s.is_empty() || s.len() > 4 {
        return None;
    }
    u16::from_str_radix(s, 16)
        .ok()
        .filter(|_| s.bytes().all(|c| c.is_ascii_hexdigit()))
}

/// Parses groups separated by `:`; the last may be an IPv4 part when
/// `allow_v4`. Returns the number of groups written.
fn groups(s: &str, out: &mut [u16; 8], at: usize, allow_v4: bool) -> Option<usize> {
    if s.is_empty() {
        return Some(0);
    }
    // A peekable split rather than a collected Vec: no allocation.
    let mut parts = s.split(':').peekable();
    let mut n = 0;
    while let Some(p) = parts.next() {
        let last = parts.peek().is_none();
        if last && allow_v4 && p.contains('.') {
            let [a, b] = parse_v4_tail(p)?;
            if at + n + 2 > 8 {
                return None;
            }
            out[at + n] = a;
            out[at + n + 1] = b;
            n += 2;
        } else {
            if at + n >= 8 {
                return None;
            }
            out[at + n] = h16(p)?;
            n += 1;
        }
    }
    Some(n)
}

/// Parses an IPv6 address (without brackets).
pub fn parse_ipv6(s: &str) -> Option<[u16; 8]> {
    if s.len() > 64 {
        return None;
    }
    let mut g = [0u16; 8];
    match s.find("::") {
        Some(i) => {
            let (left, right) = (&s[..i], &s[i + 2..]);
            if right.contains("::") {
                return None;
            }
            let mut tmp = [0u16; 8];
            let nl = groups(left, &mut g, 0, false)?;
            let nr = groups(right, &mut tmp, 0, true)?;
            // "::" stands for at least one group.
            if nl + nr > 7 {
                return None;
            }
            g[8 - nr..].copy_from_slice(&tmp[..nr]);
        }
        None => {
            if groups(s, &mut g, 0, true)? != 8 {
                return None;
            }
        }
    }
    Some(g)
}

/// The RFC 5952 text form of an address.
pub fn format_ipv6(g: &[u16; 8]) -> String {
    let mut out = String::with_capacity(39);
    format_ipv6_into(g, &mut out);
    out
}

/// [`format_ipv6`] appended to `out`.
pub fn format_ipv6_into(g: &[u16; 8], out: &mut String) {
    // The longest run of zero groups, two or more long, first on a tie.
    let (mut best, mut best_len) = (8, 0);
    let mut i = 0;
    while i < 8 {
        if g[i] == 0 {
            let start = i;
            while i < 8 && g[i] == 0 {
                i += 1;
            }
            if i - start > best_len && i - start >= 2 {
                best = start;
                best_len = i - start;
            }
        } else {
            i += 1;
        }
    }
    let mut i = 0;
    while i < 8 {
        if i == best {
            out.push_str("::");
            i += best_len;
            continue;
        }
        // A `:` between groups, none after the `::` or at the start.
        if i > 0 && i != best + best_len {
            out.push(':');
        }
        push_hex(out, g[i]);
        i += 1;
    }
}

/// Lowercase hex without leading zeros (`{:x}` without `format!`).
fn push_hex(out: &mut String, v: u16) {
    let mut started = false;
    for shift in [12, 8, 4, 0] {
        let d = (v >> shift) & 15;
        if d != 0 || started || shift == 0 {
            started = true;
            out.push(char::from_digit(u32::from(d), 16).unwrap_or('0'));
        }
    }
}

/// The canonical form of `s`, or `None` ("fail").
pub fn canonicalize_ipv6(s: &str) -> Option<String> {
    parse_ipv6(s).map(|g| format_ipv6(&g))
}

/// [`canonicalize_ipv6`] appended to `out`; `false` ("fail") leaves `out`
/// as it was.
pub fn canonicalize_ipv6_into(s: &str, out: &mut String) -> bool {
    parse_ipv6(s).map(|g| format_ipv6_into(&g, out)).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let c = |s| canonicalize_ipv6(s);
        assert_eq!(c("::").as_deref(), Some("::"));
        assert_eq!(c("::1").as_deref(), Some("::1"));
        assert_eq!(c("1::").as_deref(), Some("1::"));
        assert_eq!(
            c("2001:DB8:0:0:1:0:0:1").as_deref(),
            Some("2001:db8::1:0:0:1")
        );
        assert_eq!(
            c("2001:db8:0:1:1:1:1:1").as_deref(),
            Some("2001:db8:0:1:1:1:1:1")
        );
        assert_eq!(c("::ffff:1.2.3.4").as_deref(), Some("::ffff:102:304"));
        assert_eq!(c("::001.02.003.004").as_deref(), Some("::102:304"));
        assert_eq!(c("1:2:3:4:5:6:7::").as_deref(), Some("1:2:3:4:5:6:7:0"));
        assert_eq!(c("1:2:3:4:5:6:7:8:9"), None);
        assert_eq!(c(":1::"), None);
        assert_eq!(c("1:::2"), None);
        assert_eq!(c("::1.2.3.256"), None);
        assert_eq!(c("12345::"), None);
    }
}
