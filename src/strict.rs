//! Network-strict mode (`CanonOptions::network_strict`, C `WURL_FLAG_NETWORK_STRICT`): the spec
//! mandates hosts that a WHATWG URL parser (browsers, ada, rust-url) or curl reads as a *different
//! host*; a crawler that validates with wurl and fetches with another stack must not act on them.
//! The rules, tried in order on a canonical `http`, `https`, `ws`, `wss` or `ftp` URL, are
//! documented once, at [`WURL_FLAG_NETWORK_STRICT`](crate::ffi::WURL_FLAG_NETWORK_STRICT):
//! (1) an empty host, (2) brackets in a non-IPv6 host, (3) a domain that "ends in a number" or
//! whose WHATWG reading is another IPv4 address, (4) another host under UTS #46 (WHATWG "domain to
//! ASCII"). Not rejected: ASCII labels longer than 63 characters (D7: DNS fails, no host swap) and
//! hosts with percent-encoded characters that WHATWG parsers reject.
use std::borrow::Cow;

use crate::host::{HostKind, host_kind};
use crate::record::{InvalidReason, Url};

/// The schemes network-strict mode applies to.
const NETWORK_SCHEMES: [&str; 5] = ["http", "https", "ws", "wss", "ftp"];

/// Why `u` (canonicalized) would be read as another host by a WHATWG parser or curl, or `None`.
pub fn check(u: &Url) -> Option<InvalidReason> {
    let scheme = u.scheme()?;
    if !NETWORK_SCHEMES.contains(&scheme) {
        return None;
    }
    let host = match u.host() {
        None | Some("") => return Some(InvalidReason::StrictEmptyHost),
        Some(h) => h,
    };
    if host.contains(['[', ']']) {
        // Rule 2: only a real literal (which canonicalization wrote in RFC 5952 form) passes.
        let literal = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .and_then(crate::ipv6::canonicalize_ipv6)
            .is_some_and(|c| host.len() == c.len() + 2 && host[1..host.len() - 1] == c);
        return (!literal).then_some(InvalidReason::StrictBracketHost);
    }
    let kind = host_kind(u);
    if kind == HostKind::Domain && ends_in_number(host) {
        return Some(InvalidReason::StrictIpv4Ambiguous);
    }
    uts46_check(u, host, kind)
}

/// Rule 4 (and the IPv4 part of rule 3): the WHATWG reading of the raw host.
fn uts46_check(u: &Url, host: &str, kind: HostKind) -> Option<InvalidReason> {
    let raw = raw_host(u);
    let raw = raw.unwrap_or(host);
    let decoded = percent_decode(raw.as_bytes());
    let whatwg = idna::domain_to_ascii_cow(&decoded, idna::AsciiDenyList::URL).ok()?;
    if ends_in_number(&whatwg) {
        // WHATWG parses it as IPv4 (or fails, which is only a rejection).
        let addr = whatwg_ipv4(&whatwg)?;
        let ours = (kind == HostKind::Ipv4)
            .then(|| crate::ipv4::parse_ipv4(host))
            .flatten();
        return (ours != Some(addr)).then_some(InvalidReason::StrictIpv4Ambiguous);
    }
    if kind != HostKind::Domain {
        return Some(InvalidReason::StrictUts46Mismatch);
    }
    let ours = percent_decode(host.as_bytes());
    (!ours.eq_ignore_ascii_case(whatwg.as_bytes())).then_some(InvalidReason::StrictUts46Mismatch)
}

/// The host as the input wrote it: the host part of the raw |authority| (which canonicalization
/// leaves untouched).
fn raw_host(u: &Url) -> Option<&str> {
    let authority = u.authority()?;
    let mut tmp = crate::record::Parts::default();
    crate::parse::split_authority(authority, &mut tmp);
    tmp.host
}

fn percent_decode(b: &[u8]) -> Cow<'_, [u8]> {
    if !b.contains(&b'%') {
        return Cow::Borrowed(b);
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if let Some(v) = crate::percent::escape_at(b, i) {
            out.push(v);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Cow::Owned(out)
}

/// The WHATWG IPv4 number parser (`None` = failure); saturates, so any number of digits is one
/// pass.
fn ipv4_number(s: &str) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let b = s.as_bytes();
    let (digits, radix) = if b.len() >= 2 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') {
        (&b[2..], 16)
    } else if b.len() >= 2 && b[0] == b'0' {
        (&b[1..], 8)
    } else {
        (b, 10)
    };
    let mut v: u64 = 0;
    for &c in digits {
        let d = (c as char).to_digit(radix)?;
        v = v
            .saturating_mul(u64::from(radix))
            .saturating_add(u64::from(d))
            .min(1 << 40);
    }
    Some(v)
}

/// The labels of a host with one trailing empty label dropped (WHATWG).
fn parts(host: &str) -> Option<Vec<&str>> {
    let mut parts: Vec<&str> = host.split('.').collect();
    if parts.last() == Some(&"") {
        if parts.len() == 1 {
            return None;
        }
        parts.pop();
    }
    Some(parts)
}

/// The WHATWG "ends in a number checker".
fn ends_in_number(host: &str) -> bool {
    let last = host
        .strip_suffix('.')
        .filter(|h| !h.is_empty())
        .unwrap_or(host)
        .rsplit('.')
        .next()
        .unwrap_or("");
    if !last.is_empty() && last.bytes().all(|b| b.is_ascii_digit()) {
        return true;
    }
    ipv4_number(last).is_some()
}

/// The WHATWG IPv4 parser (`None` = failure).
fn whatwg_ipv4(host: &str) -> Option<u32> {
    let parts = parts(host)?;
    if parts.is_empty() || parts.len() > 4 {
        return None;
    }
    let nums = parts
        .iter()
        .map(|p| ipv4_number(p))
        .collect::<Option<Vec<u64>>>()?;
    let (last, head) = nums.split_last()?;
    if head.iter().any(|&n| n > 255) || *last >= 256u64.pow(5 - nums.len() as u32) {
        return None;
    }
    let mut addr = *last;
    for (i, &n) in head.iter().enumerate() {
        addr += n << (8 * (3 - i));
    }
    u32::try_from(addr).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whatwg_numbers() {
        assert!(ends_in_number("10.0.0.1."));
        assert!(ends_in_number("a.0x"));
        assert!(ends_in_number("a.08"));
        assert!(!ends_in_number("a.0x1g"));
        assert!(!ends_in_number("."));
        assert!(!ends_in_number("example.com"));
        assert_eq!(whatwg_ipv4("10.0.0.1."), Some(0x0A00_0001));
        assert_eq!(whatwg_ipv4("0x7f.1"), Some(0x7F00_0001));
        assert_eq!(whatwg_ipv4("1.2.3.4.5"), None);
        assert_eq!(whatwg_ipv4("4294967296"), None);
        assert_eq!(whatwg_ipv4("1.256.0.0"), None);
    }
}
