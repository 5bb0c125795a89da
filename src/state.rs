//! A record's state as bytes, and back: the one format every binding stores a URL in (pickling,
//! `Storable`, `Marshal`, Java serialization) instead of replaying the calls that made it.
//!
//! The state holds the record's whole value, what [`Url`]'s `==` compares: the eight components
//! and the raw authority, each absent or present (present may be empty), the /hierarchical/ flag
//! and the /invalid/ flag with its reason. A valid record's serialization is not stored: it is
//! the spec's serialization of those components, written again on import. Caches and the fast
//! exits' notes are not part of the value and are not stored; an imported record starts without
//! them (rejecting is always safe: the stages run).
//!
//! Format, version 1 (every state [`Url::export_state`] writes is the one encoding of its value):
//!
//! ```text
//! "wurl"  1  flags  reason  field × 9
//! flags:  bit 0 /hierarchical/; the other bits 0
//! reason: 0 for a valid record, else 1 + the reason's code (REASONS)
//! field:  0 (absent) | 1, length (LEB128, minimal), that many octets of UTF-8
//! fields: scheme, user, password, host, port, path, query, fragment, raw authority
//! ```
//!
//! [`Url::import_state`] refuses anything else (another magic or version, a truncated or longer
//! state, a non-minimal length, invalid UTF-8, an unknown reason or flag bit) and then checks the
//! record it built with `validate`, so that no state, however made, gives a record that breaks
//! the record's invariants.

use std::fmt;

use crate::record::{InvalidReason, Parts, Url};
use crate::scheme::Scheme;

/// The first octets of every state.
const MAGIC: &[u8; 4] = b"wurl";
/// The version this library writes and reads.
const VERSION: u8 = 1;
/// Flag bit: the record is hierarchical.
const HIERARCHICAL: u8 = 1;

/// Every reason's code, its index here (a state's reason octet is 1 + the code). Codes are never
/// reused or renumbered: a new reason is appended, so that older states keep their meaning.
const REASONS: [InvalidReason; 19] = [
    InvalidReason::NoScheme,
    InvalidReason::InvalidBase,
    InvalidReason::RelativeToNonHierarchicalBase,
    InvalidReason::HostPercentEncodedBracket,
    InvalidReason::HostProhibitedCharacter,
    InvalidReason::HostBidi,
    InvalidReason::HostAceWithNonAscii,
    InvalidReason::HostPunycode,
    InvalidReason::HostLabelTooLong,
    InvalidReason::HostEmptyLabel,
    InvalidReason::HostInvalidIpv6,
    InvalidReason::HostColon,
    InvalidReason::HostForbiddenCharacter,
    InvalidReason::PortNotNumeric,
    InvalidReason::PortOutOfRange,
    InvalidReason::StrictEmptyHost,
    InvalidReason::StrictIpv4Ambiguous,
    InvalidReason::StrictUts46Mismatch,
    InvalidReason::StrictBracketHost,
];

/// A reason's code; an exhaustive `match`, so that a new reason cannot be left without one.
fn code(r: InvalidReason) -> u8 {
    match r {
        InvalidReason::NoScheme => 0,
        InvalidReason::InvalidBase => 1,
        InvalidReason::RelativeToNonHierarchicalBase => 2,
        InvalidReason::HostPercentEncodedBracket => 3,
        InvalidReason::HostProhibitedCharacter => 4,
        InvalidReason::HostBidi => 5,
        InvalidReason::HostAceWithNonAscii => 6,
        InvalidReason::HostPunycode => 7,
        InvalidReason::HostLabelTooLong => 8,
        InvalidReason::HostEmptyLabel => 9,
        InvalidReason::HostInvalidIpv6 => 10,
        InvalidReason::HostColon => 11,
        InvalidReason::HostForbiddenCharacter => 12,
        InvalidReason::PortNotNumeric => 13,
        InvalidReason::PortOutOfRange => 14,
        InvalidReason::StrictEmptyHost => 15,
        InvalidReason::StrictIpv4Ambiguous => 16,
        InvalidReason::StrictUts46Mismatch => 17,
        InvalidReason::StrictBracketHost => 18,
    }
}

/// Why [`Url::import_state`] refused a state.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StateError {
    /// The state does not start with the magic octets `wurl`.
    NotAState,
    /// A version this library does not read.
    Version(u8),
    /// The state ends inside a field.
    Truncated,
    /// The state is not one this library writes: the rule it breaks.
    Malformed(&'static str),
    /// The record built from the state breaks a record invariant (the one named).
    Invariant(String),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::NotAState => f.write_str("not a wurl URL state (no \"wurl\" magic)"),
            StateError::Version(v) => write!(
                f,
                "wurl URL state version {v} (this library reads version {VERSION})"
            ),
            StateError::Truncated => f.write_str("wurl URL state is truncated"),
            StateError::Malformed(why) => write!(f, "malformed wurl URL state: {why}"),
            StateError::Invariant(why) => {
                write!(
                    f,
                    "wurl URL state gives a record that breaks an invariant: {why}"
                )
            }
        }
    }
}

impl std::error::Error for StateError {}

/// Appends `n` in LEB128 (7 bits an octet, low first, minimal).
fn push_len(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// The state's reader: each step takes octets from the front or says why it cannot.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn octet(&mut self) -> Result<u8, StateError> {
        let (&b, rest) = self.0.split_first().ok_or(StateError::Truncated)?;
        self.0 = rest;
        Ok(b)
    }

    fn len(&mut self) -> Result<usize, StateError> {
        let mut n: usize = 0;
        let mut shift = 0u32;
        loop {
            let b = self.octet()?;
            let low = usize::from(b & 0x7F);
            if shift >= usize::BITS || (low << shift) >> shift != low {
                return Err(StateError::Malformed("a length does not fit in memory"));
            }
            n |= low << shift;
            if b & 0x80 == 0 {
                // Minimal: no trailing zero group (the length 0 is the one octet 0).
                if b == 0 && shift > 0 {
                    return Err(StateError::Malformed("a length is not minimally encoded"));
                }
                return Ok(n);
            }
            shift += 7;
        }
    }

    fn field(&mut self) -> Result<Option<&'a str>, StateError> {
        match self.octet()? {
            0 => Ok(None),
            1 => {
                let n = self.len()?;
                if n > self.0.len() {
                    return Err(StateError::Truncated);
                }
                let (s, rest) = self.0.split_at(n);
                self.0 = rest;
                std::str::from_utf8(s)
                    .map(Some)
                    .map_err(|_| StateError::Malformed("a component is not UTF-8"))
            }
            _ => Err(StateError::Malformed("a field tag is neither 0 nor 1")),
        }
    }
}

impl Url {
    /// The record's state (see the module `state`): bytes that [`Url::import_state`] turns back
    /// into a record of the same value, in this process or another, with this version of wurl or
    /// a later one.
    pub fn export_state(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.export_state_into(&mut out);
        out
    }

    /// [`Url::export_state`] appended to `out` (cleared first).
    pub fn export_state_into(&self, out: &mut Vec<u8>) {
        let p = self.parts();
        let fields = [
            p.scheme,
            p.user,
            p.password,
            p.host,
            p.port,
            p.path,
            p.query,
            p.fragment,
            p.authority,
        ];
        out.clear();
        out.reserve(
            7 + fields
                .iter()
                .map(|f| f.map_or(1, |s| s.len() + 11))
                .sum::<usize>(),
        );
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.push(if p.hierarchical { HIERARCHICAL } else { 0 });
        out.push(p.invalid.map_or(0, |r| code(r) + 1));
        for f in fields {
            match f {
                None => out.push(0),
                Some(s) => {
                    out.push(1);
                    push_len(out, s.len());
                    out.extend_from_slice(s.as_bytes());
                }
            }
        }
    }

    /// The record whose state is `state` ([`Url::export_state`]), or why `state` is not one:
    /// anything but a state this library (or an earlier one) writes is an error, and so is a
    /// state whose record would break a record invariant.
    pub fn import_state(state: &[u8]) -> Result<Url, StateError> {
        let mut r = Reader(state);
        let magic = r.0.get(..MAGIC.len()).ok_or(if MAGIC.starts_with(state) {
            StateError::Truncated
        } else {
            StateError::NotAState
        })?;
        if magic != MAGIC {
            return Err(StateError::NotAState);
        }
        r.0 = &r.0[MAGIC.len()..];
        let version = r.octet()?;
        if version != VERSION {
            return Err(StateError::Version(version));
        }
        let flags = r.octet()?;
        if flags & !HIERARCHICAL != 0 {
            return Err(StateError::Malformed("an unknown flag bit"));
        }
        let invalid = match r.octet()? {
            0 => None,
            c => Some(
                *REASONS
                    .get(usize::from(c) - 1)
                    .ok_or(StateError::Malformed("an unknown invalid reason"))?,
            ),
        };
        let mut f = [None; 9];
        for slot in &mut f {
            *slot = r.field()?;
        }
        if !r.0.is_empty() {
            return Err(StateError::Malformed("octets after the last field"));
        }
        let [
            scheme,
            user,
            password,
            host,
            port,
            path,
            query,
            fragment,
            authority,
        ] = f;
        // The steps find a scheme only of these characters; one with a `:` or `/` would make a
        // serialization that reads as another URL.
        if scheme.is_some_and(|s| s.is_empty() || !s.bytes().all(crate::scheme::is_scheme_char)) {
            return Err(StateError::Malformed(
                "a scheme with a character no scheme holds",
            ));
        }
        let parts = Parts {
            scheme,
            class: Scheme::of(scheme.unwrap_or("").as_bytes()),
            authority,
            user,
            password,
            host,
            port,
            path,
            query,
            fragment,
            invalid,
            hierarchical: flags & HIERARCHICAL != 0,
            ..Parts::default()
        };
        let url = crate::serialize::build(&parts);
        url.validate().map_err(StateError::Invariant)?;
        Ok(url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_has_its_code() {
        for (i, r) in REASONS.iter().enumerate() {
            assert_eq!(usize::from(code(*r)), i, "{r:?}");
        }
    }

    #[test]
    fn lengths_are_minimal_leb128() {
        for n in [0, 1, 127, 128, 300, 16_383, 16_384, usize::MAX] {
            let mut v = Vec::new();
            push_len(&mut v, n);
            let mut r = Reader(&v);
            assert_eq!(r.len(), Ok(n), "{n}");
            assert!(r.0.is_empty());
        }
        for bad in [&[0x80, 0x00][..], &[0xFF, 0x80, 0x00]] {
            assert!(matches!(Reader(bad).len(), Err(StateError::Malformed(_))));
        }
        let over = [0xFF; 11];
        assert!(matches!(Reader(&over).len(), Err(StateError::Malformed(_))));
        assert_eq!(Reader(&[0x80]).len(), Err(StateError::Truncated));
    }

    #[test]
    fn a_state_is_its_value() {
        let u = crate::parse("http://user:@Host/p?#");
        let s = u.export_state();
        assert_eq!(&s[..7], b"wurl\x01\x01\x00");
        let back = Url::import_state(&s).unwrap();
        assert_eq!(back, u);
        assert_eq!(back.password(), Some(""));
        assert_eq!(back.port(), None);
        assert_eq!(back.query(), Some(""));
        assert_eq!(back.as_str(), u.as_str());
        assert_eq!(back.export_state(), s);
        let inv = crate::parse("foo");
        let s = inv.export_state();
        assert_eq!(s[6], 1 + code(InvalidReason::NoScheme));
        let back = Url::import_state(&s).unwrap();
        assert_eq!(back.invalid_reason(), Some(InvalidReason::NoScheme));
        assert_eq!(back.path(), Some("foo"));
    }

    #[test]
    fn refusals_name_the_rule() {
        let s = crate::parse("http://a/").export_state();
        assert_eq!(Url::import_state(b""), Err(StateError::Truncated));
        assert_eq!(Url::import_state(b"wu"), Err(StateError::Truncated));
        assert_eq!(Url::import_state(b"http://a/"), Err(StateError::NotAState));
        let mut v = s.clone();
        v[4] = 2;
        assert_eq!(Url::import_state(&v), Err(StateError::Version(2)));
        let mut v = s.clone();
        v[5] = 0x81;
        assert!(matches!(
            Url::import_state(&v),
            Err(StateError::Malformed(_))
        ));
        let mut v = s.clone();
        v[6] = 1 + REASONS.len() as u8;
        assert!(matches!(
            Url::import_state(&v),
            Err(StateError::Malformed(_))
        ));
        let mut v = s.clone();
        v.push(0);
        assert!(matches!(
            Url::import_state(&v),
            Err(StateError::Malformed(_))
        ));
        // A scheme no parse finds (its serialization would read as another URL).
        for scheme in [&b"a:"[..], b"", b"a/b", b"h\xC3\xA9"] {
            let mut forged = b"wurl\x01\x01\x00\x01".to_vec();
            forged.push(scheme.len() as u8);
            forged.extend_from_slice(scheme);
            forged.extend_from_slice(&[0; 8]);
            assert!(
                matches!(Url::import_state(&forged), Err(StateError::Malformed(_))),
                "{scheme:?}"
            );
        }
        let mut ok = b"wurl\x01\x01\x00\x01\x04h+1.".to_vec();
        ok.extend_from_slice(&[0; 8]);
        assert_eq!(Url::import_state(&ok).unwrap().as_str(), Some("h+1.:"));
        assert!(StateError::Truncated.to_string().contains("truncated"));
    }
}
