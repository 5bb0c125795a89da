//! The CanonicalizeHost algorithm (spec section "The CanonicalizeHost
//! algorithm"): the steps without a marker plus the THIS steps.

use std::borrow::Cow;

use crate::ipv4::{canonicalize_ipv4, is_canonical_ipv4};
use crate::ipv6::canonicalize_ipv6;
use crate::nameprep::{NameprepError, check_bidi, nameprep};
use crate::percent::{self, HOST, HOST_FILE, escape_at};
use crate::record::{InvalidReason, Url};

/// What kind of host a URL has (`wurl_host_kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostKind {
    /// No host component.
    None,
    /// A present, empty host.
    Empty,
    /// A domain name, or any host that is not an address.
    Domain,
    /// A dotted-decimal IPv4 address.
    Ipv4,
    /// A bracketed IPv6 address (a bracketed host that is not one, which
    /// the spec keeps, is a `Domain`).
    Ipv6,
}

/// Classifies the host of `u` as it is (meant for canonicalized URLs).
pub fn host_kind(u: &Url) -> HostKind {
    match u.host() {
        None => HostKind::None,
        Some("") => HostKind::Empty,
        Some(h)
            if h.len() >= 2
                && h.starts_with('[')
                && h.ends_with(']')
                && crate::ipv6::parse_ipv6(&h[1..h.len() - 1]).is_some() =>
        {
            HostKind::Ipv6
        }
        Some(h) if is_canonical_ipv4(h) => HostKind::Ipv4,
        Some(_) => HostKind::Domain,
    }
}

/// Step 6: percent-decodes every run of `%XX` escapes as UTF-8, with U+FFFD
/// for invalid sequences. Other `%` are left alone.
fn decode_percent_utf8(s: &str) -> Cow<'_, str> {
    if !s.contains('%') {
        return Cow::Borrowed(s);
    }
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut run: Vec<u8> = Vec::new();
    let mut i = 0;
    let mut last = 0;
    while i < b.len() {
        if escape_at(b, i).is_some() {
            out.push_str(&s[last..i]);
            run.clear();
            while let Some(v) = escape_at(b, i) {
                run.push(v);
                i += 3;
            }
            out.push_str(&String::from_utf8_lossy(&run));
            last = i;
        } else {
            i += 1;
        }
    }
    out.push_str(&s[last..]);
    Cow::Owned(out)
}

/// A label separator [RFC 3490]: U+002E, U+3002, U+FF0E, U+FF61.
fn is_label_separator(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

/// Runs CanonicalizeHost on `host` for a URL of `scheme`; the canonical host
/// or why it failed.
pub fn canonicalize_host(host: &str, scheme: &str) -> Result<String, InvalidReason> {
    let is_file = scheme.eq_ignore_ascii_case("file");
    let (mut ctl, mut pct) = (false, false);
    for &b in host.as_bytes() {
        match b {
            b'\t' | b'\n' | b'\r' => ctl = true,
            b'%' => pct = true,
            _ => {}
        }
    }
    // Step 2.
    let s: Cow<'_, str> = if ctl {
        Cow::Owned(
            host.chars()
                .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
                .collect(),
        )
    } else {
        Cow::Borrowed(host)
    };
    // Step 5.
    if s.as_bytes()
        .get(..3)
        .is_some_and(|p| p.eq_ignore_ascii_case(b"%5b"))
    {
        return Err(InvalidReason::HostPercentEncodedBracket);
    }
    // Step 6.
    let s = if pct { decode_percent_utf8(&s) } else { s };
    // Step 9.
    let need_punycode = !s.is_ascii();
    // Step 11: Nameprep without the bidi check, on the whole host.
    let s = nameprep(&s).map_err(|_| InvalidReason::HostProhibitedCharacter)?;
    // Step 15: label separators become `.` (U+3002 is E3 80 82 in UTF-8,
    // U+FF0E and U+FF61 start with EF: only then look at characters).
    let s = if need_punycode
        && s.bytes().any(|b| b == 0xE3 || b == 0xEF)
        && s.contains(|c: char| is_label_separator(c) && c != '.')
    {
        s.chars()
            .map(|c| if is_label_separator(c) { '.' } else { c })
            .collect()
    } else {
        s
    };
    // Step 16.
    let (body, has_root_dot) = match s.strip_suffix('.') {
        Some(b) => (b, true),
        None => (s.as_str(), false),
    };
    // Steps 17 and 20, then 21 and 22.
    let mut out;
    if need_punycode {
        out = String::with_capacity(body.len() + 16);
        for (i, label) in body.split('.').enumerate() {
            if i > 0 {
                out.push('.');
            }
            check_bidi(label).map_err(|e| match e {
                NameprepError::Bidi => InvalidReason::HostBidi,
                NameprepError::Prohibited => InvalidReason::HostProhibitedCharacter,
            })?;
            if !label.is_ascii() {
                if label.starts_with("xn--") {
                    return Err(InvalidReason::HostAceWithNonAscii);
                }
                // Punycode writes at least one character per code point, so
                // a label of more than 59 cannot fit in 63 with "xn--";
                // failing first keeps the (quadratic) encoder off long input.
                if label.chars().nth(59).is_some() {
                    return Err(InvalidReason::HostLabelTooLong);
                }
                let start = out.len();
                out.push_str("xn--");
                let enc = idna::punycode::encode_str(label).ok_or(InvalidReason::HostPunycode)?;
                out.push_str(&enc);
                if out.len() - start > 63 {
                    return Err(InvalidReason::HostLabelTooLong);
                }
            } else {
                if label.is_empty() {
                    return Err(InvalidReason::HostEmptyLabel);
                }
                if label.len() > 63 {
                    return Err(InvalidReason::HostLabelTooLong);
                }
                out.push_str(label);
            }
        }
        if has_root_dot {
            out.push('.');
        }
        // The Nameprep output is no longer needed: free it before step 30
        // makes its copy (peak memory on megabyte hosts).
        drop(s);
    } else {
        // Nothing changes the labels: the string is already the join.
        out = s;
    }
    let s = out;
    // Step 25. A bracketed host that is not an IPv6 address goes on to the
    // later steps as it is (the conformance data keeps `[::1%20hello]` and
    // `[google.com]`), but skips the colon rule of step 26.
    let bracketed = s.len() >= 2 && s.starts_with('[') && s.ends_with(']');
    if bracketed && let Some(v6) = canonicalize_ipv6(&s[1..s.len() - 1]) {
        return Ok(format!("[{v6}]"));
    }
    // Step 26.
    if !is_file && !bracketed && s.contains(':') {
        return Err(InvalidReason::HostColon);
    }
    // Step 27.
    if let Some(v4) = canonicalize_ipv4(&s) {
        return Ok(v4);
    }
    // Steps 28 and 30, in one pass over the octets.
    let set = if is_file { &HOST_FILE } else { &HOST };
    let mut encode = 0;
    for &b in s.as_bytes() {
        if matches!(b, 0 | b'/' | b'%' | b'\\') {
            return Err(InvalidReason::HostForbiddenCharacter);
        }
        encode += usize::from(set.contains(b));
    }
    if encode == 0 {
        return Ok(s);
    }
    let mut out = String::with_capacity(s.len() + 2 * encode);
    percent::encode_utf8_into(&s, set, &mut out);
    Ok(out)
}
