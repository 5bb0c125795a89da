//! The CanonicalizeHost algorithm (spec section "The CanonicalizeHost
//! algorithm"): the steps without a marker plus the THIS steps.

use crate::ipv4::{canonicalize_ipv4_into, is_canonical_ipv4};
use crate::ipv6::{format_ipv6_into, parse_ipv6};
use crate::nameprep::{NameprepError, check_bidi, nameprep_rtl_into};
use crate::percent::{self, HOST, HOST_FILE, escape_at};
use crate::punycode;
use crate::record::{InvalidReason, Url};
use crate::scratch::{HostBufs, free_if_large};
use crate::trace::{Observe, Stage};

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
    /// A bracketed IPv6 address (another bracketed host, which the spec keeps, is a `Domain`).
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
                && parse_ipv6(&h[1..h.len() - 1]).is_some() =>
        {
            HostKind::Ipv6
        }
        Some(h) if is_canonical_ipv4(h) => HostKind::Ipv4,
        Some(_) => HostKind::Domain,
    }
}

/// Step 6: percent-decodes each run of `%XX` escapes as UTF-8 (U+FFFD for invalid sequences, as
/// `String::from_utf8_lossy`), appending to `out`; other `%` stay. `run` is scratch.
/// Always inlined: the observed instantiation of its caller (`crate::trace`) adds a call site,
/// which must not change how the normal one is compiled.
#[inline(always)]
fn decode_percent_utf8_into(s: &str, out: &mut String, run: &mut Vec<u8>) {
    let b = s.as_bytes();
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
            for chunk in run.utf8_chunks() {
                out.push_str(chunk.valid());
                if !chunk.invalid().is_empty() {
                    out.push(char::REPLACEMENT_CHARACTER);
                }
            }
            last = i;
        } else {
            i += 1;
        }
    }
    out.push_str(&s[last..]);
}

/// A label separator [RFC 3490]: U+002E, U+3002, U+FF0E, U+FF61.
fn is_label_separator(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

/// Whether the UTF-8 `s` holds a label separator other than `.`: U+3002 is `E3 80 82`, U+FF0E
/// `EF BC 8E`, U+FF61 `EF BD A1` (lead octets are never continuation octets).
/// Always inlined: the observed instantiation of its caller (`crate::trace`) adds a call site,
/// which must not change how the normal one is compiled.
#[inline(always)]
fn has_ideographic_separator(s: &[u8]) -> bool {
    let mut from = 0;
    while let Some(k) = crate::scan::find2(&s[from..], 0xE3, 0xEF) {
        let i = from + k;
        if matches!(
            s[i..],
            [0xE3, 0x80, 0x82, ..] | [0xEF, 0xBC, 0x8E, ..] | [0xEF, 0xBD, 0xA1, ..]
        ) {
            return true;
        }
        from = i + 1;
    }
    false
}

/// Octet classes of the fast path of [`canonicalize_host_into`] (and for the slow path).
const PLAIN: u8 = 1;
/// An octet an `inet_addr()` number can contain: hex digits, `x`, `X`, `.`.
const INET: u8 = 2;
/// `A-Z`, which the fast path lowercases.
const UPPER: u8 = 4;
/// TAB, LF, CR: step 2 removes them.
const CTL: u8 = 8;
/// `%`: step 6 decodes escapes.
const PCT: u8 = 16;

/// Octet classes for steps 26 to 30 ([`finish`]), in a table of their own (eight bits per octet).
/// NUL, `/`, `%`, `\`: step 28 fails on them.
const FORBIDDEN: u8 = 1;
/// In step 30's set for `file:` URLs (`HOST_FILE`).
const ENCODE_FILE: u8 = 2;
/// In step 30's set for other URLs (`HOST`).
const ENCODE: u8 = 4;
/// `:`: step 26 fails on it (outside `file:` URLs and brackets).
const COLON: u8 = 8;
/// Not an `inet_addr()` number octet: with one, step 27 finds no IPv4 address (`parse_ipv4`
/// rejects it) and is skipped. Every Punycode label has one (`n`, `-`).
const NOT_INET: u8 = 16;

const fn octet_classes(finish: bool) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let mut f = 0;
        if finish {
            if matches!(c, 0 | b'/' | b'%' | b'\\') {
                f |= FORBIDDEN;
            }
            if HOST_FILE.contains(c) {
                f |= ENCODE_FILE;
            }
            if HOST.contains(c) {
                f |= ENCODE;
            }
            if c == b':' {
                f |= COLON;
            }
            if !(c.is_ascii_hexdigit() || matches!(c, b'x' | b'X' | b'.')) {
                f |= NOT_INET;
            }
        } else {
            if is_plain(c) {
                f |= PLAIN;
            }
            if c.is_ascii_hexdigit() || matches!(c, b'x' | b'X' | b'.') {
                f |= INET;
            }
            if c.is_ascii_uppercase() {
                f |= UPPER;
            }
            if matches!(c, b'\t' | b'\n' | b'\r') {
                f |= CTL;
            }
            if c == b'%' {
                f |= PCT;
            }
        }
        t[b] = f;
        b += 1;
    }
    t
}

static OCTET_CLASS: [u8; 256] = octet_classes(false);
static FINISH_CLASS: [u8; 256] = octet_classes(true);

/// CanonicalizeHost of `host` for a URL of `scheme`: the canonical host or why it failed.
pub fn canonicalize_host(host: &str, scheme: &str) -> Result<String, InvalidReason> {
    let mut out = String::with_capacity(host.len());
    canonicalize_host_into(host, crate::scheme::is_file(scheme), &mut out)?;
    Ok(out)
}

/// [`canonicalize_host_into`], with nothing appended to `out` on failure.
pub(crate) fn host_into(h: &str, is_file: bool, out: &mut String) -> Result<(), InvalidReason> {
    host_into_with(h, is_file, out, &mut ())
}

/// [`host_into`], each step of CanonicalizeHost that changes the host reported to `obs`.
#[inline(always)]
pub(crate) fn host_into_with<O: Observe>(
    h: &str,
    is_file: bool,
    out: &mut String,
    obs: &mut O,
) -> Result<(), InvalidReason> {
    let start = out.len();
    let r = canonicalize_host_into_with(h, is_file, out, obs);
    if r.is_err() {
        out.truncate(start);
    }
    r
}

/// CanonicalizeHost of `host` (spec section "The CanonicalizeHost algorithm"), appended to `out`;
/// `is_file`: the scheme is `file` (another percent-encode set and colon rule). On Err, `out` may
/// hold partial output past its original length: the caller truncates. Allocates nothing but
/// `out`'s growth once the thread's scratch buffers have grown.
pub fn canonicalize_host_into(
    host: &str,
    is_file: bool,
    out: &mut String,
) -> Result<(), InvalidReason> {
    canonicalize_host_into_with(host, is_file, out, &mut ())
}

/// [`canonicalize_host_into`], reporting each step that changes the host to `obs`.
#[inline(always)]
fn canonicalize_host_into_with<O: Observe>(
    host: &str,
    is_file: bool,
    out: &mut String,
    obs: &mut O,
) -> Result<(), InvalidReason> {
    // Fast path (ARCHITECTURE.md, speed mechanisms, row 6): for a non-empty host of
    // `A-Z a-z 0-9 - . _ ~ +` only, Nameprep (step 11) is ASCII lowercasing and no other step but
    // 27 changes it; 27 can only when every octet can occur in an `inet_addr()` number, and then
    // writes the address (its parse reads either case) or leaves the host as it is.
    let (all, any) = classes(host.as_bytes());
    if all & PLAIN != 0 && !host.is_empty() {
        let start = out.len();
        if all & INET == 0 || !canonicalize_ipv4_into(host, out) {
            push_plain(host, any & UPPER != 0, out);
            if O::ON && any & UPPER != 0 {
                obs.step(
                    Stage::Host,
                    "lower case (Nameprep)",
                    Some(host),
                    Some(&out[start..]),
                );
            }
        } else if O::ON {
            observe_ipv4(host, &out[start..], obs);
        }
        return Ok(());
    }
    crate::scratch::with_host(|scratch| {
        canonicalize_host_slow(host, any, is_file, out, scratch, obs)
    })
}

/// The fast path's classes of `host`: those every octet has (`all`, with
/// [`PLAIN`] and [`INET`] for the empty host) and those some octet has.
#[inline]
fn classes(host: &[u8]) -> (u8, u8) {
    let (mut all, mut any) = (PLAIN | INET, 0);
    for &b in host {
        let c = OCTET_CLASS[usize::from(b)];
        all &= c;
        any |= c;
    }
    (all, any)
}

/// The fast path's result for a host of [`is_plain`] octets, not all [`all_inet`] ones, appended
/// to `out`: it is lowercased (Nameprep), nothing else. `upper`: whether some octet is uppercase.
#[inline]
pub(crate) fn push_plain(host: &str, upper: bool, out: &mut String) {
    let start = out.len();
    out.push_str(host);
    if upper {
        out[start..].make_ascii_lowercase();
    }
}

/// The octets of the fast path's hosts ([`PLAIN`]).
pub(crate) const fn is_plain(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~' | b'+')
}

/// Whether the fast path copies `c` as it is (a [`PLAIN`] octet, not uppercase), for the
/// recognizer's octet table: a host of such octets is canonical unless [`all_inet`].
pub(crate) const fn is_canonical_plain(c: u8) -> bool {
    is_plain(c) && !c.is_ascii_uppercase()
}

/// Whether every octet of `host` can occur in an `inet_addr()` number (hex digits, `x`, `.`),
/// which sends even a plain host down the slow path (step 27).
pub(crate) fn all_inet(host: &[u8]) -> bool {
    host.iter()
        .all(|&b| OCTET_CLASS[usize::from(b)] & INET != 0)
}

/// The classes of `table` some octet of `s` has.
fn classes_of(s: &str, table: &[u8; 256]) -> u8 {
    s.bytes().fold(0, |any, b| any | table[usize::from(b)])
}

/// The whole algorithm, with `scratch` for every intermediate string. `any`: the
/// [`OCTET_CLASS`] classes some octet of `host` has.
fn canonicalize_host_slow<O: Observe>(
    host: &str,
    any: u8,
    is_file: bool,
    out: &mut String,
    scratch: &mut HostBufs,
    obs: &mut O,
) -> Result<(), InvalidReason> {
    let HostBufs {
        no_ctl,
        decoded,
        run,
        prepped,
        separated,
        joined,
        nameprep: nameprep_scratch,
    } = scratch;
    // Step 2.
    let mut s: &str = host;
    if any & CTL != 0 {
        no_ctl.clear();
        no_ctl.extend(s.chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')));
        if O::ON && s != no_ctl.as_str() {
            obs.step(Stage::Host, "TAB, LF and CR removed", Some(s), Some(no_ctl));
        }
        s = no_ctl;
    }
    // Step 5.
    if s.as_bytes()
        .get(..3)
        .is_some_and(|p| p.eq_ignore_ascii_case(b"%5b"))
    {
        return Err(InvalidReason::HostPercentEncodedBracket);
    }
    // Step 6.
    if any & PCT != 0 {
        decoded.clear();
        decode_percent_utf8_into(s, decoded, run);
        if O::ON && s != decoded.as_str() {
            obs.step(
                Stage::Host,
                "percent-decoded (UTF-8)",
                Some(s),
                Some(decoded),
            );
        }
        s = decoded;
    }
    // Step 9.
    let need_punycode = !s.is_ascii();
    // Step 11: Nameprep without the bidi check, on the whole host.
    prepped.clear();
    let rtl = nameprep_rtl_into(s, prepped, nameprep_scratch)
        .map_err(|_| InvalidReason::HostProhibitedCharacter)?;
    if O::ON && s != prepped.as_str() {
        let what = if s.to_lowercase() == *prepped {
            "lower case (Nameprep)"
        } else {
            "Nameprep (mapping, case folding, NFKC)"
        };
        obs.step(Stage::Host, what, Some(s), Some(prepped));
    }
    // The earlier strings are no longer needed: free them if large (peak memory).
    free_if_large(no_ctl);
    free_if_large(decoded);
    let mut s: &str = prepped;
    // Step 15: label separators become `.`.
    if need_punycode && has_ideographic_separator(s.as_bytes()) {
        separated.clear();
        separated.extend(
            s.chars()
                .map(|c| if is_label_separator(c) { '.' } else { c }),
        );
        if O::ON {
            obs.step(
                Stage::Host,
                "label separators become \".\"",
                Some(s),
                Some(separated),
            );
        }
        s = separated;
    }
    if need_punycode {
        // Step 16.
        let (body, has_root_dot) = match s.strip_suffix('.') {
            Some(b) => (b, true),
            None => (s, false),
        };
        // Steps 17 and 20, then 21 and 22, written straight to `out` (see `finish_in_place`).
        let start = out.len();
        let (mut rest, mut first) = (Some(body), true);
        while let Some(r) = rest {
            // The next label, up to a `.`.
            let label = match crate::scan::find1(r.as_bytes(), b'.') {
                Some(i) => {
                    rest = Some(&r[i + 1..]);
                    &r[..i]
                }
                None => {
                    rest = None;
                    r
                }
            };
            if !first {
                out.push('.');
            }
            first = false;
            // Without a RandALCat character anywhere, every label passes.
            if rtl {
                check_bidi(label).map_err(|e| match e {
                    NameprepError::Bidi => InvalidReason::HostBidi,
                    NameprepError::Prohibited => InvalidReason::HostProhibitedCharacter,
                })?;
            }
            if !label.is_ascii() {
                if label.starts_with("xn--") {
                    return Err(InvalidReason::HostAceWithNonAscii);
                }
                // Punycode writes at least one character per code point: more than 59 cannot
                // fit in 63 with "xn--". Failing first keeps the quadratic encoder off long input.
                if label.len() > 59 && label.chars().nth(59).is_some() {
                    return Err(InvalidReason::HostLabelTooLong);
                }
                let label_start = out.len();
                out.push_str("xn--");
                if !punycode::encode_into(label, out) {
                    return Err(InvalidReason::HostPunycode);
                }
                if O::ON {
                    obs.step(
                        Stage::Host,
                        "Punycode",
                        Some(label),
                        Some(&out[label_start..]),
                    );
                }
                if out.len() - label_start > 63 {
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
        // Free the Nameprep output before step 30 makes its copy (peak memory).
        free_if_large(prepped);
        free_if_large(separated);
        return finish_in_place(out, start, is_file, joined, obs);
    }
    // Otherwise steps 16 to 22 give back the string as it is.
    finish(s, is_file, out, obs)
}

/// Reports step 27: `host`, read as an IPv4 address in one of the `inet_addr()` forms, written
/// `addr`.
#[inline(never)]
fn observe_ipv4<O: Observe>(host: &str, addr: &str, obs: &mut O) {
    if host != addr {
        let what = format!("IPv4 address, read as {}", crate::ipv4::form(host));
        obs.step(Stage::Host, &what, Some(host), Some(addr));
    }
}

/// Steps 25 to 30 on `out[start..]`, which steps 17 to 22 wrote. When none changes it (no bracket,
/// colon, IPv4 address, forbidden octet or octet to encode), it stays without [`finish`]'s copy;
/// otherwise it moves to `tmp` for [`finish`].
fn finish_in_place<O: Observe>(
    out: &mut String,
    start: usize,
    is_file: bool,
    tmp: &mut String,
    obs: &mut O,
) -> Result<(), InvalidReason> {
    let s = &out[start..];
    let any = classes_of(s, &FINISH_CLASS);
    let encode = if is_file { ENCODE_FILE } else { ENCODE };
    // (The empty host has no `NOT_INET` octet: it takes `finish`.)
    if !s.starts_with('[') && any & NOT_INET != 0 && any & (COLON | FORBIDDEN | encode) == 0 {
        return Ok(());
    }
    tmp.clear();
    tmp.push_str(s);
    out.truncate(start);
    finish(tmp, is_file, out, obs)
}

/// Steps 25 to 30 on `s`, appending the result to `out`.
fn finish<O: Observe>(
    s: &str,
    is_file: bool,
    out: &mut String,
    obs: &mut O,
) -> Result<(), InvalidReason> {
    let start = out.len();
    // Step 25. A bracketed host that is not an IPv6 address goes on as it is (the conformance
    // data keeps `[::1%20hello]` and `[google.com]`), but skips the colon rule of step 26.
    let bracketed = s.len() >= 2 && s.starts_with('[') && s.ends_with(']');
    if bracketed && let Some(g) = parse_ipv6(&s[1..s.len() - 1]) {
        out.push('[');
        format_ipv6_into(&g, out);
        out.push(']');
        if O::ON && s != &out[start..] {
            obs.step(
                Stage::Host,
                "IPv6 address, canonical form",
                Some(s),
                Some(&out[start..]),
            );
        }
        return Ok(());
    }
    let any = classes_of(s, &FINISH_CLASS);
    // Step 26.
    if !is_file && !bracketed && any & COLON != 0 {
        return Err(InvalidReason::HostColon);
    }
    // Step 27 (only when every octet can be part of an IPv4 address).
    if any & NOT_INET == 0 && canonicalize_ipv4_into(s, out) {
        if O::ON {
            observe_ipv4(s, &out[start..], obs);
        }
        return Ok(());
    }
    // Steps 28 and 30, in one pass over the octets (their classes).
    let (set, encode) = if is_file {
        (&HOST_FILE, ENCODE_FILE)
    } else {
        (&HOST, ENCODE)
    };
    if any & FORBIDDEN != 0 {
        return Err(InvalidReason::HostForbiddenCharacter);
    }
    if any & encode != 0 {
        // Exactly the room needed, not a doubling (megabyte hosts).
        let n = s.bytes().filter(|&b| set.contains(b)).count();
        out.reserve(s.len() + 2 * n);
        percent::encode_utf8_into(s, set, out);
        if O::ON {
            obs.step(
                Stage::Host,
                "percent-encoded (the host set)",
                Some(s),
                Some(&out[start..]),
            );
        }
    } else {
        out.push_str(s);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The octet search for U+3002, U+FF0E and U+FF61 agrees with the
    /// character test on every character of the BMP's blocks that share
    /// their lead octets (and a few others), alone and between text.
    #[test]
    fn ideographic_separator_search() {
        let chars = (0x3000..0x4000u32)
            .chain(0xF000..0x10000)
            .chain([0x2E, 0x41, 0xE9, 0x1F600])
            .filter_map(char::from_u32);
        for c in chars {
            for s in [c.to_string(), format!("a{c}b"), format!("\u{3001}{c}")] {
                let want = s.contains(|c: char| is_label_separator(c) && c != '.');
                assert_eq!(has_ideographic_separator(s.as_bytes()), want, "{s:?}");
            }
        }
    }

    /// The class table's step 28 and 30 bits are the octet sets'.
    /// The recognizer's host test (src/fast/recognize.rs) is the fast
    /// path's: a non-empty host of octets `is_canonical_plain` accepts, not
    /// `all_inet`, is one the fast path copies unchanged.
    #[test]
    fn canonical_plain_is_the_fast_path() {
        for b in 0..=255u8 {
            let c = OCTET_CLASS[usize::from(b)];
            assert_eq!(
                is_canonical_plain(b),
                c & PLAIN != 0 && c & UPPER == 0,
                "{b:#x}"
            );
            assert_eq!(all_inet(&[b]), c & INET != 0, "{b:#x}");
        }
    }

    /// The fast path on hosts of `inet_addr()` octets (step 27) gives what the whole algorithm
    /// gives: every host of up to five octets over digits, hex letters of both cases, `x`, `X`
    /// and `.`, and the IPv4 forms of longer ones.
    #[test]
    fn inet_hosts_on_the_fast_path_are_the_steps() {
        fn check(h: &str) {
            for is_file in [false, true] {
                let (mut fast, mut slow) = (String::new(), String::new());
                let f = canonicalize_host_into(h, is_file, &mut fast);
                let (_, any) = classes(h.as_bytes());
                let s = crate::scratch::with_host(|sc| {
                    canonicalize_host_slow(h, any, is_file, &mut slow, sc, &mut ())
                });
                assert_eq!((f, &fast), (s, &slow), "{h:?}");
            }
        }
        let alphabet = b"019aFxX.";
        let mut stack = vec![String::new()];
        while let Some(h) = stack.pop() {
            if !h.is_empty() {
                check(&h);
            }
            if h.len() < 5 {
                stack.extend(alphabet.iter().map(|&c| format!("{h}{}", c as char)));
            }
        }
        for h in [
            "127.0.0.1",
            "0x7F.1",
            "0X7f.0.0.1",
            "017700000001",
            "2130706433",
            "1.2.3.256",
            "4294967296",
            "0xffffffff",
            "10.0.0.1.",
            "1..2",
            "08.1",
            "0x1.0x2.0x3.0x4",
            "deadbeef",
            "Face.B00C",
            "1.2.65536",
        ] {
            check(h);
        }
    }

    #[test]
    fn octet_classes_match_the_sets() {
        for b in 0..=255u8 {
            let (c, f) = (OCTET_CLASS[usize::from(b)], FINISH_CLASS[usize::from(b)]);
            assert_eq!(f & ENCODE != 0, HOST.contains(b), "{b:#x}");
            assert_eq!(f & ENCODE_FILE != 0, HOST_FILE.contains(b), "{b:#x}");
            assert_eq!(f & FORBIDDEN != 0, matches!(b, 0 | b'/' | b'%' | b'\\'));
            assert_eq!(c & CTL != 0, matches!(b, b'\t' | b'\n' | b'\r'));
            assert_eq!(c & PCT != 0, b == b'%');
            assert_eq!(f & COLON != 0, b == b':');
            let inet = b.is_ascii_hexdigit() || matches!(b, b'x' | b'X' | b'.');
            assert_eq!(f & NOT_INET == 0, inet, "{b:#x}");
        }
    }
}
