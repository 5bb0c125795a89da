//! The invariants of `docs/reliability/PLAN.md` section 5 as one library
//! of checks, shared by the corpus replay (`tests/invariants.rs`), the
//! proptest properties (same file) and the cargo-fuzz targets (`fuzz/`,
//! which include this file by path).
//!
//! Notation: `P` = parse, `R(x, b)` = resolve, `C` = canonicalize,
//! `S` = serialize, `canon(x) = S(C(R(x, P(base or x)), charset))` — the
//! one-call API `url_to_canon_url`. Every check returns `Err(message)` on a
//! violation; [`check_all`] runs all of them.
//!
//! Only the public API of `wurl` is used (and `url` as the second parser),
//! so the fuzz crate can include this file as it is.
//!
//! Beyond PLAN.md's I1..I14: I15 (network-strict mode only rejects, and
//! what it accepts has an unambiguous host), I16 (the host kind matches the
//! host) and I17 (the bulk
//! path `canon_into` equals the staged path).
//!
//! Where the spec itself breaks an invariant, the check is narrowed and the
//! reason is documented at the check (the spec wins over PLAN.md):
//!
//! * I3, I4, I5, I7, I8, I10: a raw `#` in an ISO-2022-JP query
//!   (`Differential::QueryHashFromEncoding`, reported to the lead);
//! * I5: raw (uncanonicalized) records with an empty host and a `//` path;
//! * I8: `about://x`, `javascript://x`: slashes of an opaque path;
//! * I14: label length counted before step 30 percent-encodes;
//! * I7b: the classified differentials of PLAN.md section 3 ([`Differential`]).
//!
//! I3 (idempotence) holds for every input with no exception: whatever the
//! base, canonicalizing the canonical string again gives it back. No input
//! is skipped as a known bug: a violation is a bug to fix.

#![allow(dead_code)]

use std::ffi::c_char;
use std::net::Ipv6Addr;

use wurl::ffi;
use wurl::host::{HostKind, host_kind};
use wurl::{CanonOptions, Component, InvalidReason, Url};

/// Schemes whose hosts other network stacks fetch (the cross-parser check
/// and network-strict mode).
pub const NETWORK_SCHEMES: [&str; 5] = ["http", "https", "ws", "wss", "ftp"];

/// Schemes that are not hierarchical (spec "Hierarchicalness").
pub const NON_HIERARCHICAL: [&str; 5] = ["about", "data", "javascript", "mailto", "vbscript"];

/// Valid bases that [`i10_resolution`] resolves against, one per kind of
/// base: network with every component, `file:` with a drive, a custom
/// hierarchical scheme, and non-hierarchical.
pub const BASES: [&str; 6] = [
    "http://u:p@b.example:8080/c/d;p?q#f",
    "https://b/",
    "file:///C:/dir/file",
    "file://server/share/x",
    "foo:/bar/baz",
    "mailto:x@y",
];

/// The differences from a WHATWG parser that the spec mandates
/// (PLAN.md section 3): seen, classified and counted, not failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Differential {
    /// D2: a domain of numbers with a trailing dot (`10.0.0.1.`) that WHATWG
    /// reads as the IPv4 address without the dot.
    D2TrailingDotIpv4,
    /// wurl keeps a host character percent-encoded (step 30) that a WHATWG
    /// parser decodes (`a%2Ab` vs `a*b`): the same host, written two ways.
    HostPercentEncoding,
    /// Not a cross-parser difference but a spec hazard: the query encoding
    /// (ISO-2022-JP) writes a 0x23 byte of a multi-byte character, and the
    /// spec's query set leaves `#` unencoded, so the canonical string has a
    /// raw `#` inside its query: `http://a/?\u{3002}` with charset
    /// `iso-2022-jp` gives `http://a/?%1B$B!#%1B(B`, which re-parses as
    /// query `%1B$B!` and fragment `%1B(B`. Reported to the lead.
    QueryHashFromEncoding,
    /// The WHATWG parser rejects what wurl accepts (D4, D5, D6, D7 and
    /// forbidden host code points): accept vs reject only, no host swap.
    WhatwgRejects,
}

/// What [`check_all`] saw, for statistics.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The canonical serialization, when valid.
    pub canon: Option<String>,
    /// The mandated differentials met by the cross-parser check.
    pub differentials: Vec<Differential>,
}

/// `canon(x)` as a record: the base string is parsed (the input itself when
/// `base` is `None`), the input resolved against it and canonicalized.
pub fn canon_record(input: &str, base: Option<&str>, charset: Option<&str>, strict: bool) -> Url {
    let b = wurl::parse(base.unwrap_or(input));
    let r = wurl::resolve(&b, input);
    wurl::canonicalize_with(
        &r,
        &CanonOptions {
            charset,
            network_strict: strict,
        },
    )
}

/// `canon(x)` as a string (`None` = invalid).
pub fn canon(input: &str, base: Option<&str>, charset: Option<&str>) -> Option<String> {
    canon_record(input, base, charset, false).serialize()
}

fn show(v: Option<&str>) -> String {
    match v {
        None => "(absent)".to_owned(),
        Some(s) => format!("{s:?}"),
    }
}

fn components(u: &Url) -> [Option<&str>; 8] {
    Component::ALL.map(|c| u.get(c))
}

fn diff_components(a: &Url, b: &Url) -> Option<String> {
    for c in Component::ALL {
        if a.get(c) != b.get(c) {
            return Some(format!(
                "{}: {} vs {}",
                c.name(),
                show(a.get(c)),
                show(b.get(c))
            ));
        }
    }
    None
}

/// Percent-decodes every `%XX` (lenient: other `%` stay), as bytes.
pub fn percent_decode(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let hex = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            out.push(h << 4 | l);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

fn scheme_of(u: &Url) -> &str {
    u.scheme().unwrap_or("")
}

fn is_non_hierarchical(scheme: &str) -> bool {
    NON_HIERARCHICAL
        .iter()
        .any(|s| s.eq_ignore_ascii_case(scheme))
}

/// The steps to preprocess a string, as far as the checks need them: TAB,
/// LF and CR removed, VT, FF and SPACE trimmed.
fn preprocessed(s: &str) -> String {
    let s: String = s
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    s.trim_matches(['\u{b}', '\u{c}', ' ']).to_owned()
}

// ---------------------------------------------------------------------
// I2 Determinism.

/// I2: the same call twice gives the same record and the same bytes.
pub fn i2_determinism(
    input: &str,
    base: Option<&str>,
    charset: Option<&str>,
) -> Result<(), String> {
    let a = canon_record(input, base, charset, false);
    let b = canon_record(input, base, charset, false);
    if a != b || a.serialize() != b.serialize() {
        return Err(format!("I2: two runs differ: {a:?} vs {b:?}"));
    }
    Ok(())
}

// ---------------------------------------------------------------------
// I3 Idempotence.

/// I3: `canon(y) == y` for `y = canon(x)`, with `y` as its own base, with
/// the same charset and with UTF-8 (the query is ASCII after one pass).
pub fn i3_idempotence(y: &str, charset: Option<&str>) -> Result<(), String> {
    for cs in [charset, None] {
        let again = canon(y, None, cs);
        if again.as_deref() != Some(y) {
            return Err(format!(
                "I3: canon({y:?}, charset {cs:?}) = {} (not idempotent)",
                show(again.as_deref())
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------
// I18 The fast path for canonical input.

/// I18: a string that `canonical_form` says is already canonical is given
/// back by the stages themselves (without the fast path): canonicalized as
/// its own base, and parsed then canonicalized; and the record the fast
/// path of `parse` builds has the value of the stages' parse. Checked on
/// the input and on its canonical form, so that I3 (which then takes the
/// fast path) stays a test of the stages.
pub fn i18_canonical_form(s: &str) -> Result<(), String> {
    if !wurl::canonical_form::is_canonical(s.as_bytes()) {
        return Ok(());
    }
    let mut out = String::new();
    let r =
        wurl::canonicalize::canon_into_stages(None, s, &wurl::CanonOptions::default(), &mut out);
    if r.is_err() || out != s {
        return Err(format!(
            "I18: {s:?} is canonical by the fast path, the stages give {r:?} {out:?}"
        ));
    }
    let fast = wurl::parse(s);
    let slow = wurl::parse::parse_stages(s);
    if fast != slow {
        return Err(format!(
            "I18: parse({s:?}) by the fast path {fast:?}, by the stages {slow:?}"
        ));
    }
    let c = wurl::canonicalize(&slow, None).serialize();
    if c.as_deref() != Some(s) {
        return Err(format!("I18: canonicalize(parse_stages({s:?})) = {c:?}"));
    }
    Ok(())
}

/// I19: resolving `input` against `base` parsed by the fast path (a record
/// known to be canonical when `canonical_form` accepts `base`, which lets
/// resolution and the bulk path merge the reference in one pass) gives
/// what it gives against the stages' parse of `base` (no fast path): the
/// same bulk result and a resolved record of the same value.
pub fn i19_canonical_base(input: &str, base: &str) -> Result<(), String> {
    let fast = wurl::parse(base);
    let slow = wurl::parse::parse_stages(base);
    if fast != slow {
        return Err(format!(
            "I19: parse({base:?}) by the fast path {fast:?}, by the stages {slow:?}"
        ));
    }
    let opts = wurl::CanonOptions::default();
    let (mut a, mut b) = (String::new(), String::new());
    let ra = wurl::canon_into(Some(&fast), input, &opts, &mut a);
    let rb = wurl::canonicalize::canon_into_stages(Some(&slow), input, &opts, &mut b);
    if ra != rb || a != b {
        return Err(format!(
            "I19: {input:?} against {base:?}: {ra:?} {a:?} with the fast path, {rb:?} {b:?} by the stages"
        ));
    }
    let (x, y) = (wurl::resolve(&fast, input), wurl::resolve(&slow, input));
    if x != y {
        return Err(format!(
            "I19: resolve({input:?}) against {base:?}: {x:?} with the fast path, {y:?} by the stages"
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------
// I4 and I5 Fixpoints.

/// I4: `P(y)` has the components of the canonical record, absent and empty
/// kept apart.
pub fn i4_component_fixpoint(c: &Url, y: &str) -> Result<(), String> {
    let p = wurl::parse(y);
    if p.is_invalid() {
        return Err(format!("I4: P({y:?}) is invalid: {:?}", p.invalid_reason()));
    }
    if let Some(d) = diff_components(c, &p) {
        return Err(format!("I4: P({y:?}) differs from C(R(x)): {d}"));
    }
    if p.is_hierarchical() != c.is_hierarchical() {
        return Err(format!(
            "I4: P({y:?}) hierarchical = {}, canonical record {}",
            p.is_hierarchical(),
            c.is_hierarchical()
        ));
    }
    Ok(())
}

/// I5: `S(P(S(u))) == S(u)` for canonical `u` (`y` here), and if `S(P(x))`
/// exists then `P(S(P(x)))` has the components of `P(x)`.
pub fn i5_serialize_parse(input: &str, y: Option<&str>) -> Result<(), String> {
    if let Some(y) = y {
        let again = wurl::parse(y).serialize();
        if again.as_deref() != Some(y) {
            return Err(format!("I5: S(P({y:?})) = {}", show(again.as_deref())));
        }
    }
    let p = wurl::parse(input);
    // A raw record with an empty or no host and a path of two leading
    // slash characters (`\\\\//` is UNC host "" and path "//") serializes
    // to a string whose path reads as an authority: the spec's `/.` fix is
    // a step of canonicalization, not of serialization.
    let two_slashes = p.path().is_some_and(|q| {
        q.len() >= 2 && q.as_bytes()[..2].iter().all(|&b| b == b'/' || b == b'\\')
    });
    if two_slashes && p.host().is_none_or(str::is_empty) {
        return Ok(());
    }
    if let Some(s) = p.serialize() {
        let q = wurl::parse(&s);
        if let Some(d) = diff_components(&p, &q) {
            return Err(format!("I5: P(S(P(x))) differs from P(x) (S = {s:?}): {d}"));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------
// I6 Output alphabet.

/// I6: no C0 or DEL anywhere; a raw space only in non-hierarchical paths
/// and the fragment; non-ASCII only in the fragment, which has no C1
/// control; the host is ASCII.
pub fn i6_alphabet(c: &Url, y: &str) -> Result<(), String> {
    if let Some(b) = y.bytes().find(|&b| b < 0x20 || b == 0x7F) {
        return Err(format!("I6: control byte {b:#04x} in {y:?}"));
    }
    let opaque_path = !c.is_hierarchical() && scheme_of(c) != "mailto";
    for comp in Component::ALL {
        let Some(v) = c.get(comp) else { continue };
        if comp == Component::Fragment {
            if let Some(ch) = v.chars().find(|ch| ('\u{80}'..='\u{9F}').contains(ch)) {
                return Err(format!(
                    "I6: C1 control {ch:?} raw in the fragment of {y:?}"
                ));
            }
            continue;
        }
        if !v.is_ascii() {
            return Err(format!("I6: non-ASCII in the {} of {y:?}", comp.name()));
        }
        if v.contains(' ') && !(comp == Component::Path && opaque_path) {
            return Err(format!("I6: raw space in the {} of {y:?}", comp.name()));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------
// I7 Host re-parse.

/// I7a: the host of `P(y)` and (when I3 applies, `again`) of `canon(y)` is
/// the canonical host byte for byte, of the same kind.
pub fn i7a_host_self(c: &Url, y: &str, again: bool) -> Result<(), String> {
    let p = wurl::parse(y);
    if p.host() != c.host() {
        return Err(format!(
            "I7a: host of P({y:?}) is {}, canonical {}",
            show(p.host()),
            show(c.host())
        ));
    }
    if !again {
        return Ok(());
    }
    let again = canon_record(y, None, None, false);
    if again.host() != c.host() || host_kind(&again) != host_kind(c) {
        return Err(format!(
            "I7a: canon({y:?}) has host {} ({:?}), first pass {} ({:?})",
            show(again.host()),
            host_kind(&again),
            show(c.host()),
            host_kind(c)
        ));
    }
    Ok(())
}

/// The WHATWG IPv4 number parser; `None` = failure.
pub fn whatwg_ipv4_number(s: &str) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let (digits, radix) = if s.len() >= 2 && (s.starts_with("0x") || s.starts_with("0X")) {
        (&s[2..], 16)
    } else if s.len() >= 2 && s.starts_with('0') {
        (&s[1..], 8)
    } else {
        (s, 10)
    };
    if digits.is_empty() {
        return Some(0);
    }
    let mut v: u64 = 0;
    for ch in digits.chars() {
        let d = ch.to_digit(radix)?;
        v = v.saturating_mul(radix as u64).saturating_add(d as u64);
    }
    Some(v)
}

/// The WHATWG "ends in a number checker".
pub fn whatwg_ends_in_number(host: &str) -> bool {
    let mut parts: Vec<&str> = host.split('.').collect();
    if parts.last() == Some(&"") {
        if parts.len() == 1 {
            return false;
        }
        parts.pop();
    }
    let last = parts.last().copied().unwrap_or("");
    if !last.is_empty() && last.bytes().all(|b| b.is_ascii_digit()) {
        return true;
    }
    whatwg_ipv4_number(last).is_some()
}

/// wurl's own reading of a dotted-decimal canonical IPv4 host.
fn dotted_quad(h: &str) -> Option<[u8; 4]> {
    let parts: Vec<&str> = h.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut o = [0u8; 4];
    for (i, p) in parts.iter().enumerate() {
        if p.is_empty() || p.len() > 3 || (p.len() > 1 && p.starts_with('0')) {
            return None;
        }
        if !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        o[i] = p.parse::<u8>().ok()?;
    }
    Some(o)
}

/// I7b: for http(s), ws(s) and ftp URLs with a non-empty host, rust-url
/// either rejects `y` or reads the same host (case-insensitively, addresses
/// as addresses), the same effective port, user name and password. The
/// mandated differentials are returned, anything else fails.
pub fn i7b_cross_parser(c: &Url, y: &str) -> Result<Option<Differential>, String> {
    let scheme = scheme_of(c);
    if !NETWORK_SCHEMES.contains(&scheme) {
        return Ok(None);
    }
    let Some(h) = c.host().filter(|h| !h.is_empty()) else {
        return Ok(None);
    };
    let Ok(w) = url::Url::parse(y) else {
        return Ok(Some(Differential::WhatwgRejects));
    };
    let mut class = None;
    let kind = host_kind(c);
    match (w.host(), kind) {
        (Some(url::Host::Ipv4(a)), HostKind::Ipv4) => {
            if Some(a.octets()) != dotted_quad(h) {
                return Err(format!("I7b: {y:?}: rust-url reads IPv4 {a}, wurl {h}"));
            }
        }
        (Some(url::Host::Ipv6(a)), HostKind::Ipv6) => {
            let ours: Option<Ipv6Addr> = h[1..h.len() - 1].parse().ok();
            if ours != Some(a) {
                return Err(format!("I7b: {y:?}: rust-url reads IPv6 {a}, wurl {h}"));
            }
        }
        (Some(url::Host::Ipv4(a)), HostKind::Domain) => {
            // D2: only a trailing dot after a host wurl would read as the
            // same address.
            let undotted = h.strip_suffix('.');
            let same = undotted
                .and_then(wurl::ipv4::parse_ipv4)
                .is_some_and(|v| v.to_be_bytes() == a.octets());
            if !same {
                return Err(format!(
                    "I7b: {y:?}: rust-url reads IPv4 {a}, wurl the domain {h:?}"
                ));
            }
            class = Some(Differential::D2TrailingDotIpv4);
        }
        (Some(url::Host::Domain(d)), HostKind::Domain) => {
            if !d.eq_ignore_ascii_case(h) {
                let ours = percent_decode(h).to_ascii_lowercase();
                if ours != d.as_bytes().to_ascii_lowercase() {
                    return Err(format!("I7b: {y:?}: rust-url reads host {d:?}, wurl {h:?}"));
                }
                class = Some(Differential::HostPercentEncoding);
            }
        }
        (other, kind) => {
            return Err(format!(
                "I7b: {y:?}: rust-url reads host {other:?}, wurl {h:?} ({kind:?})"
            ));
        }
    }
    let ours_port = match c.port() {
        Some(p) => p.parse::<u16>().ok(),
        None => wurl::canonicalize::default_port(scheme).map(|p| p as u16),
    };
    if ours_port != w.port_or_known_default() {
        return Err(format!(
            "I7b: {y:?}: rust-url reads port {:?}, wurl {ours_port:?}",
            w.port_or_known_default()
        ));
    }
    let user = percent_decode(c.user().unwrap_or(""));
    if user != percent_decode(w.username()) {
        return Err(format!(
            "I7b: {y:?}: rust-url reads user {:?}, wurl {}",
            w.username(),
            show(c.user())
        ));
    }
    let pass = percent_decode(c.password().unwrap_or(""));
    if pass != percent_decode(w.password().unwrap_or("")) {
        return Err(format!(
            "I7b: {y:?}: rust-url reads password {:?}, wurl {}",
            w.password(),
            show(c.password())
        ));
    }
    Ok(class)
}

// ---------------------------------------------------------------------
// I8 Structure.

/// I8: `y` has an authority iff the record has a user, password, host or
/// port; a path beginning `//` never appears without one; the host holds no
/// delimiter, no `:` outside brackets (but for `file:`), no space or control.
pub fn i8_structure(c: &Url, y: &str) -> Result<(), String> {
    let scheme = scheme_of(c);
    if is_non_hierarchical(scheme) {
        // `about://x`, `javascript://x`: the slashes belong to the opaque
        // path (the spec's `/.` rule excludes these schemes; NOTES.md).
        return Ok(());
    }
    let after = &y[scheme.len() + 1..];
    let has_authority =
        c.user().is_some() || c.password().is_some() || c.host().is_some() || c.port().is_some();
    if after.starts_with("//") != has_authority {
        return Err(format!(
            "I8: {y:?}: authority in the record = {has_authority}, in the string = {}",
            after.starts_with("//")
        ));
    }
    if !has_authority && c.path().is_some_and(|p| p.starts_with("//")) {
        return Err(format!(
            "I8: {y:?}: path begins with // without an authority"
        ));
    }
    if let Some(h) = c.host() {
        let is_file = scheme == "file";
        let bad = |ch: char| {
            matches!(ch, '/' | '\\' | '?' | '#' | ' ') || ch.is_control() || (ch == '@' && !is_file)
        };
        if let Some(ch) = h.chars().find(|&ch| bad(ch)) {
            return Err(format!("I8: {y:?}: {ch:?} in the host {h:?}"));
        }
        let bracketed = h.len() >= 2 && h.starts_with('[') && h.ends_with(']');
        if h.contains(':') && !bracketed && !is_file {
            return Err(format!("I8: {y:?}: ':' outside brackets in the host {h:?}"));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------
// I9 No equivalence masking.

/// I9: ASCII `xn--` labels of the input host come out byte-identical
/// (lowercased): wurl never decodes Punycode.
pub fn i9_ace_passthrough(raw_host: Option<&str>, c: &Url) -> Result<(), String> {
    let (Some(raw), Some(h)) = (raw_host, c.host()) else {
        return Ok(());
    };
    if !raw.is_ascii() || raw.contains(['%', '\t', '\n', '\r']) || host_kind(c) != HostKind::Domain
    {
        return Ok(());
    }
    let labels: Vec<&str> = h.split('.').collect();
    for label in raw.split('.') {
        let l = label.to_ascii_lowercase();
        let ldh = l
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if l.starts_with("xn--") && ldh && !labels.contains(&l.as_str()) {
            return Err(format!(
                "I9: the ACE label {label:?} of {raw:?} is not in the canonical host {h:?}"
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------
// I10 Resolution consistency.

/// Whether `x` (preprocessed) is `scheme:` followed by two or more slash
/// characters.
fn has_scheme_and_authority(x: &str) -> bool {
    let b = x.as_bytes();
    let n = b
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')))
        .unwrap_or(b.len());
    n > 1
        && b.get(n) == Some(&b':')
        && b[n + 1..]
            .iter()
            .take_while(|&&c| c == b'/' || c == b'\\')
            .count()
            >= 2
}

/// I10: an input `scheme://...` gives the same canonical URL against every
/// valid base as alone; canonical URLs with an authority are fixed against
/// every base; stripping the fragment of the input strips it from the
/// result.
pub fn i10_resolution(
    input: &str,
    base: Option<&str>,
    charset: Option<&str>,
    y: Option<&str>,
    c: &Url,
) -> Result<(), String> {
    let x = preprocessed(input);
    if has_scheme_and_authority(&x) {
        let alone = canon(input, None, charset);
        for b in BASES {
            let against = canon(input, Some(b), charset);
            if against != alone {
                return Err(format!(
                    "I10: {input:?} against {b:?} = {}, alone {}",
                    show(against.as_deref()),
                    show(alone.as_deref())
                ));
            }
        }
    }
    if let Some(y) = y
        && has_scheme_and_authority(y)
    {
        for b in BASES {
            let again = canon(y, Some(b), None);
            if again.as_deref() != Some(y) {
                return Err(format!(
                    "I10: canonical {y:?} against {b:?} = {}",
                    show(again.as_deref())
                ));
            }
        }
    }
    // The fragment: only where `#` starts one (not in the path of the
    // non-hierarchical schemes or mailto:), and when cutting it exposes no
    // character that preprocessing would trim.
    if let (Some(y), Some(frag)) = (y, c.fragment())
        && !is_non_hierarchical(scheme_of(c))
        && let Some(i) = input.find('#')
    {
        let cut = &input[..i];
        let trims = cut.ends_with(['\u{b}', '\u{c}', ' ', '\t', '\n', '\r']);
        if !trims {
            let want = &y[..y.len() - frag.len() - 1];
            let got = canon(cut, base, charset);
            if got.as_deref() != Some(want) {
                return Err(format!(
                    "I10: canon({cut:?}) = {}, canon(x) without its fragment = {want:?}",
                    show(got.as_deref())
                ));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------
// I11 Bounds.

/// I11 (output): `len(y) <= 16 * len(input) + 64`, where the input is the
/// string and its base.
pub fn i11_output_bound(input_len: usize, y: &str) -> Result<(), String> {
    if y.len() > 16 * input_len + 64 {
        return Err(format!(
            "I11: output of {} bytes from {input_len} input bytes",
            y.len()
        ));
    }
    Ok(())
}

/// I11 (memory): peak live heap `<= 32 * input + 1 MiB`, and every single
/// allocation within it. Only meaningful when [`alloc::CountingAlloc`] is
/// the global allocator of the binary.
pub fn i11_memory_bound(input_len: usize, mem: alloc::Mem) -> Result<(), String> {
    let bound = 32 * input_len + (1 << 20);
    if mem.peak > bound || mem.largest > bound {
        return Err(format!(
            "I11: peak heap {} bytes, largest allocation {} bytes, for {input_len} input bytes (bound {bound})",
            mem.peak, mem.largest
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------
// I14 Label rules.

/// The RFC 5952 section 4 text of an address, with every group in hex
/// (wurl writes an embedded IPv4 part as hex groups, NOTES.md).
pub fn rfc5952(a: &Ipv6Addr) -> String {
    let g = a.segments();
    let (mut best, mut best_len) = (usize::MAX, 1);
    let mut i = 0;
    while i < 8 {
        if g[i] == 0 {
            let s = i;
            while i < 8 && g[i] == 0 {
                i += 1;
            }
            if i - s > best_len {
                best = s;
                best_len = i - s;
            }
        } else {
            i += 1;
        }
    }
    let hex = |s: &[u16]| {
        s.iter()
            .map(|x| format!("{x:x}"))
            .collect::<Vec<_>>()
            .join(":")
    };
    if best == usize::MAX {
        hex(&g)
    } else {
        format!("{}::{}", hex(&g[..best]), hex(&g[best + best_len..]))
    }
}

/// I14: after success, a host from non-ASCII input has labels of 1 to 63
/// characters; an IPv4 host is a dotted quad without leading zeros; an IPv6
/// host is its own RFC 5952 form.
pub fn i14_labels(raw_host: Option<&str>, c: &Url) -> Result<(), String> {
    let Some(h) = c.host() else { return Ok(()) };
    match host_kind(c) {
        HostKind::Ipv4 => {
            if dotted_quad(h).is_none() {
                return Err(format!(
                    "I14: IPv4 host {h:?} is not a canonical dotted quad"
                ));
            }
        }
        HostKind::Ipv6 if h[1..h.len() - 1].parse::<Ipv6Addr>().is_ok() => {
            let inner = &h[1..h.len() - 1];
            match inner.parse::<Ipv6Addr>() {
                Ok(a) if rfc5952(&a) == inner => {}
                Ok(a) => {
                    return Err(format!(
                        "I14: IPv6 host {h:?} is not in RFC 5952 form ({})",
                        rfc5952(&a)
                    ));
                }
                Err(_) => return Err(format!("I14: IPv6 host {h:?} does not parse")),
            }
        }
        HostKind::Domain => {
            let Some(raw) = raw_host else { return Ok(()) };
            let raw: String = raw
                .chars()
                .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
                .collect();
            let decoded = String::from_utf8_lossy(&percent_decode(&raw)).into_owned();
            if decoded.is_ascii() {
                return Ok(());
            }
            // Step 20 counts characters before step 30 percent-encodes
            // some (`)` becomes `%29`), so a label is measured decoded: the
            // spec allows `a%29b...` of more than 63 bytes (PLAN.md's
            // I14 says 63 characters; the spec wins).
            let body = h.strip_suffix('.').unwrap_or(h);
            for label in body.split('.') {
                let n = String::from_utf8_lossy(&percent_decode(label))
                    .chars()
                    .count();
                if n == 0 || n > 63 {
                    return Err(format!(
                        "I14: label {label:?} of {h:?} (from non-ASCII {raw:?}) is not 1-63 long"
                    ));
                }
            }
        }
        HostKind::Ipv6 | HostKind::None | HostKind::Empty => {}
    }
    Ok(())
}

/// Whether `h` is a bracketed IPv6 literal in wurl's canonical form.
pub fn is_ipv6_literal(h: &str) -> bool {
    h.strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .and_then(|inner| inner.parse::<Ipv6Addr>().ok().map(|a| rfc5952(&a) == inner))
        .unwrap_or(false)
}

/// The host kind agrees with the host: `Ipv6` only for an IPv6 literal,
/// `Ipv4` only for a dotted quad, `Empty` only for `""`.
pub fn i16_host_kind(c: &Url) -> Result<(), String> {
    let h = c.host();
    let ok = match host_kind(c) {
        HostKind::None => h.is_none(),
        HostKind::Empty => h == Some(""),
        HostKind::Ipv4 => h.and_then(dotted_quad).is_some(),
        HostKind::Ipv6 => h.is_some_and(is_ipv6_literal),
        HostKind::Domain => h.is_some_and(|h| !h.is_empty() && !is_ipv6_literal(h)),
    };
    if !ok {
        return Err(format!("host kind {:?} for host {}", host_kind(c), show(h)));
    }
    Ok(())
}

// ---------------------------------------------------------------------
// Network-strict mode.

/// Network-strict mode only rejects: its result is the plain result, or
/// invalid for one of the `Strict*` reasons; and a URL it accepts for a
/// network scheme has a non-empty host that is an IPv4 or IPv6 address or a
/// domain without brackets that does not end in a number.
pub fn i15_strict(
    input: &str,
    base: Option<&str>,
    charset: Option<&str>,
    c: &Url,
) -> Result<(), String> {
    let s = canon_record(input, base, charset, true);
    match s.invalid_reason() {
        None => {
            if &s != c {
                return Err(format!(
                    "strict: {input:?} accepted but differs: {s:?} vs {c:?}"
                ));
            }
            if NETWORK_SCHEMES.contains(&scheme_of(&s)) {
                let h = s.host().unwrap_or("");
                let kind = host_kind(&s);
                let bad = h.is_empty()
                    || (h.contains(['[', ']']) && !is_ipv6_literal(h))
                    || (kind == HostKind::Domain && whatwg_ends_in_number(h));
                if bad {
                    return Err(format!(
                        "strict: {input:?} accepted with host {h:?} ({kind:?})"
                    ));
                }
            }
        }
        Some(
            InvalidReason::StrictEmptyHost
            | InvalidReason::StrictIpv4Ambiguous
            | InvalidReason::StrictUts46Mismatch
            | InvalidReason::StrictBracketHost,
        ) => {
            if c.is_invalid() {
                return Err(format!(
                    "strict: {input:?} invalid anyway, but a strict reason given"
                ));
            }
            if !NETWORK_SCHEMES.contains(&scheme_of(c)) {
                return Err(format!(
                    "strict: {input:?} rejected for scheme {:?}",
                    scheme_of(c)
                ));
            }
        }
        Some(r) => {
            if c.invalid_reason() != Some(r) {
                return Err(format!(
                    "strict: {input:?} invalid for {r:?}, plain mode {:?}",
                    c.invalid_reason()
                ));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------
// The bulk path.

/// I17: `wurl::canon_into` (the bulk path: the same stages writing into
/// per-thread buffers, resolving an input against its own parse without
/// parsing it twice) gives exactly the staged result: the same string, or
/// the same invalid reason; with and without network-strict mode.
pub fn i17_bulk_path(input: &str, base: Option<&str>, charset: Option<&str>) -> Result<(), String> {
    let b = base.map(wurl::parse);
    for strict in [false, true] {
        let staged = canon_record(input, base, charset, strict);
        let opts = CanonOptions {
            charset,
            network_strict: strict,
        };
        let mut out = String::from("prefix:");
        let r = wurl::canon_into(b.as_ref(), input, &opts, &mut out);
        let want = match staged.serialize() {
            Some(y) => Ok(format!("prefix:{y}")),
            None => Err(staged.invalid_reason()),
        };
        // Only validity is compared for invalid URLs: without a base the
        // bulk path says `NoScheme` where the staged path (resolving
        // against the input's own invalid parse) says `InvalidBase`.
        let want = want.map_err(|_| ());
        let got = match r {
            Ok(()) => Ok(out),
            Err(_) if out == "prefix:" => Err(()),
            Err(why) => {
                return Err(format!(
                    "I17: canon_into failed ({why:?}) but appended {out:?}"
                ));
            }
        };
        if got != want {
            return Err(format!(
                "I17: canon_into({input:?}, base {base:?}, strict {strict}) = {got:?}, staged {want:?}"
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------
// All of them.

/// Runs every invariant on one `(input, base, charset)` triple of the
/// Rust API and the C ABI. `base = None` resolves the input against itself.
pub fn check_all(
    input: &str,
    base: Option<&str>,
    charset: Option<&str>,
) -> Result<Outcome, String> {
    let (c, mem) = alloc::measure(|| canon_record(input, base, charset, false));
    let in_len = input.len() + base.map_or(0, str::len) + charset.map_or(0, str::len);
    if alloc::installed() {
        i11_memory_bound(in_len, mem)?;
    }
    i2_determinism(input, base, charset)?;
    let y = c.serialize();
    if c.is_invalid() != y.is_none() {
        return Err(format!(
            "serialize: invalid = {}, but serialized {y:?}",
            c.is_invalid()
        ));
    }
    let raw = wurl::resolve(&wurl::parse(base.unwrap_or(input)), input);
    let raw_host = raw.host();
    let mut out = Outcome::default();
    // A raw `#` in the query (spec-mandated, see
    // `Differential::QueryHashFromEncoding`): the structural checks cannot
    // hold, the others still do.
    // (mailto: never splits off a fragment: `mailto:a?b#c` has the query
    // `b#c` by the spec, and re-parses so.)
    let hash_in_query = scheme_of(&c) != "mailto" && c.query().is_some_and(|q| q.contains('#'));
    if hash_in_query {
        out.differentials.push(Differential::QueryHashFromEncoding);
    }
    if let Some(y) = y.as_deref() {
        i11_output_bound(in_len, y)?;
        i6_alphabet(&c, y)?;
        i14_labels(raw_host, &c)?;
        i16_host_kind(&c)?;
        i9_ace_passthrough(raw_host, &c)?;
        if !hash_in_query {
            i3_idempotence(y, charset)?;
            i4_component_fixpoint(&c, y)?;
            i7a_host_self(&c, y, true)?;
            if let Some(d) = i7b_cross_parser(&c, y)? {
                out.differentials.push(d);
            }
            i8_structure(&c, y)?;
        }
    }
    if !hash_in_query {
        i5_serialize_parse(input, y.as_deref())?;
        i10_resolution(input, base, charset, y.as_deref(), &c)?;
    }
    i15_strict(input, base, charset, &c)?;
    i17_bulk_path(input, base, charset)?;
    i18_canonical_form(input)?;
    if let Some(y) = y.as_deref() {
        i18_canonical_form(y)?;
    }
    if let Some(base) = base {
        i19_canonical_base(input, base)?;
    }
    abi::check_same_as_rust(
        input.as_bytes(),
        base.map(str::as_bytes),
        charset.map_or(&b""[..], str::as_bytes),
        0,
    )?;
    out.canon = y;
    Ok(out)
}

// ---------------------------------------------------------------------
// The input format of the fuzz targets.

/// One fuzz input: `input [SEP base [SEP charset [SEP control]]]`, where
/// `SEP` is the pair 0xFF 0xFD and 0xFF 0xFE stands for a literal 0xFF (a
/// 0xFF followed by anything else is also itself): every byte value can
/// appear in every part, and libFuzzer's mutations reach a separator as
/// easily as any byte pair. All four targets and the corpus replay read
/// this one format, so every corpus file is a valid input of every target.
/// An absent or empty base means the input resolves against itself;
/// `control` (up to 4 raw bytes, zero-padded) drives the C ABI target: byte
/// 0 bit 7 set means the flags are the 4 control bytes as they are (mostly
/// invalid), else bit 0 is `WURL_FLAG_NETWORK_STRICT`; byte 1 is a component
/// index.
#[derive(Clone, Debug, Default)]
pub struct FuzzCase {
    pub input: Vec<u8>,
    pub base: Option<Vec<u8>>,
    pub charset: Vec<u8>,
    pub control: [u8; 4],
}

/// The escape byte of [`FuzzCase`], and what follows it for a separator or
/// a literal escape byte.
const FUZZ_ESC: u8 = 0xFF;
const FUZZ_SEP: u8 = 0xFD;
const FUZZ_LITERAL: u8 = 0xFE;

impl FuzzCase {
    pub fn from_bytes(data: &[u8]) -> FuzzCase {
        let mut parts: [Vec<u8>; 3] = Default::default();
        let mut k = 0;
        let mut i = 0;
        let mut control_at = None;
        while i < data.len() {
            let c = data[i];
            if c == FUZZ_ESC {
                match data.get(i + 1) {
                    Some(&FUZZ_LITERAL) => {
                        parts[k].push(FUZZ_ESC);
                        i += 2;
                        continue;
                    }
                    Some(&FUZZ_SEP) => {
                        i += 2;
                        if k == 2 {
                            control_at = Some(i);
                            break;
                        }
                        k += 1;
                        continue;
                    }
                    _ => {}
                }
            }
            parts[k].push(c);
            i += 1;
        }
        let mut control = [0u8; 4];
        if let Some(at) = control_at {
            for (d, s) in control.iter_mut().zip(&data[at..]) {
                *d = *s;
            }
        }
        let [input, base, charset] = parts;
        FuzzCase {
            input,
            base: (!base.is_empty()).then_some(base),
            charset,
            control,
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        fn push_escaped(v: &mut Vec<u8>, part: &[u8]) {
            for &c in part {
                v.push(c);
                if c == FUZZ_ESC {
                    v.push(FUZZ_LITERAL);
                }
            }
        }
        let mut v = Vec::new();
        push_escaped(&mut v, &self.input);
        let has_control = self.control != [0; 4];
        if self.base.is_some() || !self.charset.is_empty() || has_control {
            v.extend_from_slice(&[FUZZ_ESC, FUZZ_SEP]);
            push_escaped(&mut v, self.base.as_deref().unwrap_or(&[]));
        }
        if !self.charset.is_empty() || has_control {
            v.extend_from_slice(&[FUZZ_ESC, FUZZ_SEP]);
            push_escaped(&mut v, &self.charset);
        }
        if has_control {
            v.extend_from_slice(&[FUZZ_ESC, FUZZ_SEP]);
            v.extend_from_slice(&self.control);
        }
        v
    }

    /// The flags the C ABI target passes.
    pub fn flags(&self) -> u32 {
        if self.control[0] & 0x80 != 0 {
            u32::from_le_bytes(self.control)
        } else {
            u32::from(self.control[0] & 1)
        }
    }

    /// Every invariant: the Rust API on the text (invalid UTF-8 replaced),
    /// and the C ABI on the raw bytes.
    pub fn check(&self) -> Result<Outcome, String> {
        let input = String::from_utf8_lossy(&self.input);
        let base = self.base.as_deref().map(String::from_utf8_lossy);
        let cs = String::from_utf8_lossy(&self.charset);
        let cs = (!cs.is_empty()).then_some(cs.as_ref());
        let out = check_all(&input, base.as_deref(), cs)?;
        // (`check_all` ran the C ABI on the text; again on the raw bytes
        // when they are not valid UTF-8.)
        let raw = [
            &self.input[..],
            self.base.as_deref().unwrap_or(&[]),
            &self.charset,
        ];
        if raw.iter().any(|b| std::str::from_utf8(b).is_err()) {
            abi::check_same_as_rust(&self.input, self.base.as_deref(), &self.charset, 0)?;
        }
        abi::check_abuse(
            &self.input,
            &self.charset,
            self.flags(),
            u32::from(self.control[1]),
        )?;
        Ok(out)
    }
}

// ---------------------------------------------------------------------
// The C ABI.

/// I1, I12 and I13 through the C ABI, with raw bytes.
pub mod abi {
    use super::*;

    /// A handle freed on drop.
    pub struct Handle(pub *mut ffi::wurl_url);

    impl Drop for Handle {
        fn drop(&mut self) {
            ffi::wurl_free(self.0);
        }
    }

    const SENTINEL: *mut ffi::wurl_url = std::ptr::dangling_mut::<ffi::wurl_url>();

    fn status_ok(what: &str, st: ffi::wurl_status) -> Result<(), String> {
        if !(0..=ffi::WURL_E_BAD_STATE).contains(&st) {
            return Err(format!(
                "I13: {what} returned {st}, outside the status enum"
            ));
        }
        if st == ffi::WURL_E_PANIC {
            return Err(format!("I1: {what} panicked (WURL_E_PANIC)"));
        }
        Ok(())
    }

    fn ptr_of(b: &[u8]) -> *const c_char {
        if b.is_empty() {
            std::ptr::null()
        } else {
            b.as_ptr().cast()
        }
    }

    /// Calls a constructor; checks that `*out` is written only on `WURL_OK`.
    fn construct(
        what: &str,
        f: impl FnOnce(*mut *mut ffi::wurl_url) -> ffi::wurl_status,
    ) -> Result<(ffi::wurl_status, Option<Handle>), String> {
        let mut out = SENTINEL;
        let st = f(&mut out);
        status_ok(what, st)?;
        if st == ffi::WURL_OK {
            if out.is_null() || out == SENTINEL {
                return Err(format!("{what}: WURL_OK without a handle"));
            }
            Ok((st, Some(Handle(out))))
        } else if out != SENTINEL {
            Err(format!("G4: {what} failed with {st} but wrote *out"))
        } else {
            Ok((st, None))
        }
    }

    /// The views of a handle: each component and the serialization, checked
    /// to be NUL-terminated views that match the Rust record (I13).
    pub fn check_views(h: &Handle, u: &Url) -> Result<(), String> {
        let view = |p: *const c_char, l: usize| -> Result<Vec<u8>, String> {
            if p.is_null() {
                return Err("I13: NULL view for a present component".into());
            }
            // SAFETY: wurl promises `l` readable bytes and a NUL after them,
            // valid until the handle is freed (it is alive here).
            let s = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), l + 1) };
            if s[l] != 0 {
                return Err("I13: view not followed by a NUL".into());
            }
            Ok(s[..l].to_vec())
        };
        for comp in Component::ALL {
            let (mut p, mut l) = (SENTINEL.cast_const().cast::<c_char>(), usize::MAX);
            let present = ffi::wurl_get(h.0, comp as u32, &mut p, &mut l);
            match (present, u.get(comp)) {
                (true, Some(v)) => {
                    if view(p, l)? != v.as_bytes() {
                        return Err(format!("I13: wurl_get({}) differs from Rust", comp.name()));
                    }
                }
                (false, None) => {
                    if !p.is_null() || l != 0 {
                        return Err(format!("I13: absent {} is not (NULL, 0)", comp.name()));
                    }
                }
                (a, b) => {
                    return Err(format!(
                        "I13: wurl_get({}) presence {a}, Rust {}",
                        comp.name(),
                        show(b)
                    ));
                }
            }
        }
        for which in [8u32, 9, 100, u32::MAX] {
            let (mut p, mut l) = (SENTINEL.cast_const().cast::<c_char>(), 7usize);
            if ffi::wurl_get(h.0, which, &mut p, &mut l) || !p.is_null() || l != 0 {
                return Err(format!(
                    "I13: wurl_get with component {which} is not (false, NULL, 0)"
                ));
            }
        }
        let (mut p, mut l) = (std::ptr::null::<c_char>(), usize::MAX);
        let ser = ffi::wurl_serialize(h.0, &mut p, &mut l);
        match (ser, u.serialize()) {
            (true, Some(s)) => {
                if view(p, l)? != s.as_bytes() {
                    return Err("I13: wurl_serialize differs from Rust".into());
                }
                // The serialization is the components and their separators.
                let len = |c: Option<&str>| c.map_or(0, str::len);
                let opt = |c: Option<&str>| c.map_or(0, |v| v.len() + 1);
                let has_auth = u.user().is_some()
                    || u.password().is_some()
                    || u.host().is_some()
                    || u.port().is_some();
                let mut expect = len(u.scheme()) + 1;
                if has_auth {
                    expect += 2;
                    if u.user().is_some() || u.password().is_some() {
                        expect += len(u.user()) + opt(u.password()) + 1;
                    }
                    expect += len(u.host()) + opt(u.port());
                }
                expect += len(u.path()) + opt(u.query()) + opt(u.fragment());
                if l != expect {
                    return Err(format!(
                        "I13: serialization is {l} bytes, the components add up to {expect}"
                    ));
                }
            }
            (false, None) => {
                if !p.is_null() || l != 0 {
                    return Err("I13: wurl_serialize of an invalid URL is not (NULL, 0)".into());
                }
            }
            (a, b) => return Err(format!("I13: wurl_serialize = {a}, Rust {b:?}")),
        }
        if ffi::wurl_is_invalid(h.0) != u.is_invalid() {
            return Err("I13: wurl_is_invalid differs from Rust".into());
        }
        let reason = ffi::wurl_invalid_reason(h.0);
        match u.invalid_reason() {
            None if !reason.is_null() => return Err("I13: reason for a valid URL".into()),
            Some(r) => {
                if reason.is_null() {
                    return Err("I13: no reason for an invalid URL".into());
                }
                // SAFETY: a static NUL-terminated string.
                let s = unsafe { std::ffi::CStr::from_ptr(reason) };
                if s.to_bytes() != r.as_str().as_bytes() {
                    return Err("I13: wurl_invalid_reason differs from Rust".into());
                }
            }
            None => {}
        }
        let kind = match host_kind(u) {
            HostKind::None => ffi::WURL_HOST_NONE,
            HostKind::Empty => ffi::WURL_HOST_EMPTY,
            HostKind::Domain => ffi::WURL_HOST_DOMAIN,
            HostKind::Ipv4 => ffi::WURL_HOST_IPV4,
            HostKind::Ipv6 => ffi::WURL_HOST_IPV6,
        };
        if ffi::wurl_host_kind(h.0) != kind {
            return Err("I13: wurl_host_kind differs from Rust".into());
        }
        Ok(())
    }

    /// The state pair: `wurl_state_export` of `h` is the Rust state of `u`, sized by a first
    /// call, and `wurl_state_import` of it is a handle of the same value (views and state).
    pub fn check_state(h: &Handle, u: &Url) -> Result<(), String> {
        let mut need = usize::MAX;
        let st = ffi::wurl_state_export(h.0, std::ptr::null_mut(), 0, &mut need);
        status_ok("wurl_state_export", st)?;
        let want = u.export_state();
        if st != ffi::WURL_E_BUFFER_TOO_SMALL || need != want.len() {
            return Err(format!(
                "state: export with no room gave {st}, length {need}"
            ));
        }
        let mut buf = vec![0xA5u8; need];
        let mut n = 0usize;
        let st = ffi::wurl_state_export(h.0, buf.as_mut_ptr(), buf.len(), &mut n);
        if st != ffi::WURL_OK || buf != want {
            return Err(format!("state: export gave {st}, not the Rust state"));
        }
        let (st, back) = construct("wurl_state_import", |out| {
            ffi::wurl_state_import(buf.as_ptr(), buf.len(), out)
        })?;
        let back = back.ok_or_else(|| format!("state: import of an export gave {st}"))?;
        check_views(&back, u)?;
        // A state cut short is refused.
        let (st, _) = construct("wurl_state_import", |out| {
            ffi::wurl_state_import(buf.as_ptr(), buf.len() - 1, out)
        })?;
        if st != ffi::WURL_E_BAD_STATE {
            return Err(format!("state: a truncated state gave {st}"));
        }
        Ok(())
    }

    /// Any bytes as a state: refused, or a handle whose own state is those bytes (the format
    /// has one encoding per value) and whose views are readable.
    pub fn check_hostile_state(bytes: &[u8]) -> Result<(), String> {
        let (st, h) = construct("wurl_state_import", |out| {
            ffi::wurl_state_import(ptr_of(bytes).cast(), bytes.len(), out)
        })?;
        let Some(h) = h else {
            return if st == ffi::WURL_E_BAD_STATE {
                Ok(())
            } else {
                Err(format!("state: import of arbitrary bytes gave {st}"))
            };
        };
        let u = wurl::Url::import_state(bytes).map_err(|e| format!("state: C took, Rust {e}"))?;
        check_views(&h, &u)?;
        if u.export_state() != bytes {
            return Err("state: an accepted state is not its record's own".into());
        }
        Ok(())
    }

    /// I12: `wurl_canon_into` with a buffer of `cap` bytes: success implies
    /// the result and its NUL fit; `BUFFER_TOO_SMALL` reports the length and
    /// leaves the buffer untouched; `INVALID_URL` writes nothing.
    pub fn check_canon_into(
        base: Option<&Handle>,
        input: &[u8],
        charset: &[u8],
        flags: u32,
        cap: usize,
        want: Option<&[u8]>,
    ) -> Result<(), String> {
        let mut buf = vec![0xA5u8; cap];
        let mut out_len = usize::MAX - 1;
        let st = ffi::wurl_canon_into(
            base.map_or(std::ptr::null(), |h| h.0),
            ptr_of(input),
            input.len(),
            ptr_of(charset),
            charset.len(),
            flags,
            if cap == 0 {
                std::ptr::null_mut()
            } else {
                buf.as_mut_ptr().cast()
            },
            cap,
            &mut out_len,
        );
        status_ok("wurl_canon_into", st)?;
        // The documented bound holds for every result (`wurl_output_bound`).
        if st == ffi::WURL_OK || st == ffi::WURL_E_BUFFER_TOO_SMALL {
            let mut base_len = 0;
            if let Some(b) = base {
                let _ = ffi::wurl_serialize(b.0, std::ptr::null_mut(), &mut base_len);
            }
            let bound = ffi::wurl_output_bound(base_len, input.len(), flags);
            if out_len >= bound {
                return Err(format!(
                    "bound: wurl_canon_into gave {out_len} bytes, bound {bound} (base {base_len}, input {})",
                    input.len()
                ));
            }
        }
        let untouched = buf.iter().all(|&b| b == 0xA5);
        match (st, want) {
            (ffi::WURL_OK, Some(w)) => {
                if out_len != w.len() || out_len >= cap || &buf[..out_len] != w || buf[out_len] != 0
                {
                    return Err(format!(
                        "I12: wurl_canon_into OK with cap {cap} gave {out_len} bytes, want {}",
                        w.len()
                    ));
                }
            }
            (ffi::WURL_E_BUFFER_TOO_SMALL, Some(w)) => {
                if out_len != w.len() || w.len() < cap || !untouched {
                    return Err(format!(
                        "I12: BUFFER_TOO_SMALL with cap {cap}: out_len {out_len}, want {}, buffer untouched {untouched}",
                        w.len()
                    ));
                }
            }
            // The buffer of an invalid URL "holds nothing meaningful" (the
            // header promises nothing about it).
            (ffi::WURL_INVALID_URL, None) => {}
            (ffi::WURL_E_BAD_ARG, _) if flags & !ffi::WURL_FLAG_NETWORK_STRICT != 0 => {
                if !untouched || out_len != usize::MAX - 1 {
                    return Err("G4: BAD_ARG wrote to the outputs".into());
                }
            }
            (st, w) => {
                return Err(format!(
                    "I12: wurl_canon_into returned {st}, Rust says {:?}",
                    w.map(String::from_utf8_lossy)
                ));
            }
        }
        Ok(())
    }

    /// Drives every C ABI function with raw bytes and checks each result
    /// against the Rust API on the same text (invalid UTF-8 replaced as the
    /// ABI documents), plus I1, I12 and I13.
    pub fn check_same_as_rust(
        input: &[u8],
        base: Option<&[u8]>,
        charset: &[u8],
        flags: u32,
    ) -> Result<(), String> {
        let text = String::from_utf8_lossy(input);
        let base_text = base.map(String::from_utf8_lossy);
        let cs_text = String::from_utf8_lossy(charset);
        let cs = (!charset.is_empty()).then_some(cs_text.as_ref());
        // wurl_parse (flags must be 0).
        let base_bytes = base.unwrap_or(input);
        let (st, bh) = construct("wurl_parse", |out| {
            ffi::wurl_parse(ptr_of(base_bytes), base_bytes.len(), flags, out)
        })?;
        if flags != 0 {
            if st != ffi::WURL_E_BAD_ARG {
                return Err(format!(
                    "G4: wurl_parse with flags {flags:#x} returned {st}"
                ));
            }
            return Ok(());
        }
        let bh = bh.ok_or("wurl_parse failed")?;
        let b_rust = wurl::parse(base_text.as_deref().unwrap_or(&text));
        check_views(&bh, &b_rust)?;
        check_state(&bh, &b_rust)?;
        let (_, rh) = construct("wurl_resolve", |out| {
            ffi::wurl_resolve(bh.0, ptr_of(input), input.len(), 0, out)
        })?;
        let rh = rh.ok_or("wurl_resolve failed")?;
        let r_rust = wurl::resolve(&b_rust, &text);
        check_views(&rh, &r_rust)?;
        check_state(&rh, &r_rust)?;
        for strict in [false, true] {
            let fl = if strict {
                ffi::WURL_FLAG_NETWORK_STRICT
            } else {
                0
            };
            let (_, ch) = construct("wurl_canonicalize", |out| {
                ffi::wurl_canonicalize(rh.0, ptr_of(charset), charset.len(), fl, out)
            })?;
            let ch = ch.ok_or("wurl_canonicalize failed")?;
            let c_rust = wurl::canonicalize_with(
                &r_rust,
                &CanonOptions {
                    charset: cs,
                    network_strict: strict,
                },
            );
            check_views(&ch, &c_rust)?;
            check_state(&ch, &c_rust)?;
            let want = c_rust.serialize();
            let want = want.as_deref().map(str::as_bytes);
            let base_h = base.map(|_| &bh);
            let n = want.map_or(0, <[u8]>::len);
            for cap in [0, n, n + 1] {
                check_canon_into(base_h, input, charset, fl, cap, want)?;
            }
        }
        Ok(())
    }

    /// I1 and G4 for arbitrary bytes, lengths and flags: every entry point,
    /// no panic, and errors leave outputs untouched.
    pub fn check_abuse(input: &[u8], charset: &[u8], flags: u32, which: u32) -> Result<(), String> {
        // Flags other than 0 / NETWORK_STRICT.
        let (st, _) = construct("wurl_parse", |out| {
            ffi::wurl_parse(ptr_of(input), input.len(), flags, out)
        })?;
        if (flags != 0) != (st == ffi::WURL_E_BAD_ARG) {
            return Err(format!("G4: wurl_parse flags {flags:#x} gave {st}"));
        }
        let (_, h) = construct("wurl_parse", |out| {
            ffi::wurl_parse(ptr_of(input), input.len(), 0, out)
        })?;
        let h = h.ok_or("wurl_parse failed")?;
        let (st, c) = construct("wurl_canonicalize", |out| {
            ffi::wurl_canonicalize(h.0, ptr_of(charset), charset.len(), flags, out)
        })?;
        let bad = flags & !ffi::WURL_FLAG_NETWORK_STRICT != 0;
        if bad != (st == ffi::WURL_E_BAD_ARG) {
            return Err(format!("G4: wurl_canonicalize flags {flags:#x} gave {st}"));
        }
        let (mut p, mut l) = (std::ptr::null::<c_char>(), 0usize);
        let _ = ffi::wurl_get(h.0, which, &mut p, &mut l);
        if let Some(c) = &c {
            let _ = ffi::wurl_get(c.0, which, std::ptr::null_mut(), &mut l);
            let _ = ffi::wurl_get(c.0, which, &mut p, std::ptr::null_mut());
            let _ = ffi::wurl_serialize(c.0, std::ptr::null_mut(), std::ptr::null_mut());
            let _ = ffi::wurl_host_kind(c.0);
            let _ = ffi::wurl_invalid_reason(c.0);
        }
        // The input as a state: refused or a record that keeps its invariants.
        check_hostile_state(input)?;
        // (NULL, n > 0) is NULL_ARG; NULL out is NULL_ARG.
        let n = input.len().max(1);
        let (st, _) = construct("wurl_parse", |out| {
            ffi::wurl_parse(std::ptr::null(), n, 0, out)
        })?;
        if st != ffi::WURL_E_NULL_ARG {
            return Err(format!("G4: wurl_parse(NULL, {n}) gave {st}"));
        }
        if ffi::wurl_parse(ptr_of(input), input.len(), 0, std::ptr::null_mut())
            != ffi::WURL_E_NULL_ARG
        {
            return Err("G4: wurl_parse with out = NULL is not NULL_ARG".into());
        }
        // A length beyond the cap is refused before any read: the pointer
        // here has `input.len()` bytes only.
        let (st, _) = construct("wurl_parse", |out| {
            ffi::wurl_parse(
                ptr_of(b"x"),
                ffi::WURL_MAX_INPUT_LEN + 1 + input.len(),
                0,
                out,
            )
        })?;
        if st != ffi::WURL_E_TOO_LONG {
            return Err(format!("G4: wurl_parse over the cap gave {st}"));
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------
// Counting allocator.

/// A counting global allocator (per thread), for I11 and G3. A binary opts
/// in with `#[global_allocator] static A: CountingAlloc = CountingAlloc;`.
pub mod alloc {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// The allocator: `System` plus per-thread live, peak and largest counts.
    pub struct CountingAlloc;

    static INSTALLED: AtomicBool = AtomicBool::new(false);

    thread_local! {
        static LIVE: Cell<isize> = const { Cell::new(0) };
        static PEAK: Cell<isize> = const { Cell::new(0) };
        static LARGEST: Cell<usize> = const { Cell::new(0) };
        static TOTAL: Cell<usize> = const { Cell::new(0) };
        static COUNT: Cell<usize> = const { Cell::new(0) };
    }

    fn on_alloc(n: usize) {
        let _ = TOTAL.try_with(|t| t.set(t.get().wrapping_add(n)));
        let _ = COUNT.try_with(|c| c.set(c.get().wrapping_add(1)));
        let _ = LIVE.try_with(|l| {
            let v = l.get() + n as isize;
            l.set(v);
            let _ = PEAK.try_with(|p| p.set(p.get().max(v)));
        });
        let _ = LARGEST.try_with(|m| m.set(m.get().max(n)));
    }

    fn on_free(n: usize) {
        let _ = LIVE.try_with(|l| l.set(l.get() - n as isize));
    }

    // SAFETY: every call is forwarded to `System` unchanged; the counting
    // touches only const-initialized thread-locals without destructors.
    unsafe impl GlobalAlloc for CountingAlloc {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            INSTALLED.store(true, Ordering::Relaxed);
            // SAFETY: forwarded as is.
            let p = unsafe { System.alloc(layout) };
            if !p.is_null() {
                on_alloc(layout.size());
            }
            p
        }
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            INSTALLED.store(true, Ordering::Relaxed);
            // SAFETY: forwarded as is.
            let p = unsafe { System.alloc_zeroed(layout) };
            if !p.is_null() {
                on_alloc(layout.size());
            }
            p
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            on_free(layout.size());
            // SAFETY: forwarded as is.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            // SAFETY: forwarded as is.
            let p = unsafe { System.realloc(ptr, layout, new_size) };
            if !p.is_null() {
                // Both blocks may exist at once during the move.
                on_alloc(new_size);
                on_free(layout.size());
            }
            p
        }
    }

    /// Whether the counting allocator is this binary's global allocator.
    pub fn installed() -> bool {
        INSTALLED.load(Ordering::Relaxed)
    }

    /// Heap use of one call on this thread.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Mem {
        /// Peak live bytes above the level at the start of the call.
        pub peak: usize,
        /// The largest single allocation during the call.
        pub largest: usize,
        /// Bytes allocated during the call, all allocations (and growths) added up.
        pub total: usize,
        /// Allocations (and growths) during the call.
        pub count: usize,
    }

    /// Runs `f`, measuring its heap use on this thread.
    pub fn measure<R>(f: impl FnOnce() -> R) -> (R, Mem) {
        let base = LIVE.with(Cell::get);
        PEAK.with(|p| p.set(base));
        LARGEST.with(|m| m.set(0));
        let (total0, count0) = (TOTAL.with(Cell::get), COUNT.with(Cell::get));
        let r = f();
        let peak = PEAK.with(Cell::get);
        let largest = LARGEST.with(Cell::get);
        (
            r,
            Mem {
                peak: (peak - base).max(0) as usize,
                largest,
                total: TOTAL.with(Cell::get).wrapping_sub(total0),
                count: COUNT.with(Cell::get).wrapping_sub(count0),
            },
        )
    }
}
