//! The output bound: how large a buffer every result of a bulk call fits in, from the lengths of
//! its inputs alone, so that a caller sizes its buffer once instead of growing it on
//! `WURL_E_BUFFER_TOO_SMALL` (which the C ABI still returns for a buffer smaller than that).
//!
//! A result is made of the input's octets and the base's (its serialization: every component of
//! a record lies in it), each written at most [`FACTOR`] times as long, plus at most [`EXTRA`]
//! octets the steps add whatever the input. The worst expansions, per octet of input:
//!
//! - invalid UTF-8: one octet becomes U+FFFD (3 octets), percent-encoded `%EF%BF%BD`: 9;
//! - the query in a document's encoding: a character's octets in that encoding, percent-encoded
//!   (GB18030 writes U+0080, 2 octets of UTF-8, in 4: at most 12, 6 per octet); ISO-2022-JP's
//!   escape sequences around one character (`ESC $ B`, two octets, `ESC ( B` for a three-octet
//!   UTF-8 character): at most 16 for 3, under 6 per octet;
//! - IDNA (Nameprep, then Punycode, then percent-encoding of what CanonicalizeHost keeps
//!   escaped): one character can map to many (U+FDFA, 3 octets, is 18 characters with 3
//!   spaces: `xn--%20%20%20-oze6dh5a3fcaccnvdrg0a`, 35 octets, the most of any code point,
//!   11.7 per octet); a label's Punycode is at most 63 characters, so more characters in a label
//!   cost less each (`ﷺﷺ`: 60 octets for 6);
//! - an IPv4 host in a short form: `0` is `0.0.0.0`, 7 for 1;
//! - resolution: the base's components and the reference's, each once (merge paths keeps a
//!   prefix of the base's path), then canonicalized as above;
//! - what the steps write whatever the input: the scheme's `//` and a path's `/`, `/.` before a
//!   path starting `//`, `file:///` before a drive or a UNC path; a key's rules only remove or
//!   reorder, and SURT adds `(`, `,)` and at most a few delimiters: all within [`EXTRA`].
//!
//! So [`FACTOR`] is 12, above every per-octet expansion; the URL Standard model (`url` crate)
//! percent-encodes at most 9 per octet (U+FFFD) and its IDNA refuses U+FDFA's spaces. The bound is
//! proven by tests, not only argued: `tests/output_bound.rs` checks it for every conformance
//! case, every dataset line, the code points and random strings of the expanding pieces above,
//! through every bulk call and flag; each fuzz target asserts it for every call it makes.

/// The octets a result may have per octet of input (base and input together).
pub(crate) const FACTOR: usize = 12;
/// The octets a result may have whatever the input, its NUL included.
pub(crate) const EXTRA: usize = 64;

/// The size of a buffer that holds every result of a bulk call and its NUL, for an input of
/// `input_len` octets and a base of `base_len` (the length of its serialization, or of the base
/// string; 0 without a base); saturates at `usize::MAX`.
#[inline]
pub const fn output_bound(base_len: usize, input_len: usize) -> usize {
    base_len
        .saturating_add(input_len)
        .saturating_mul(FACTOR)
        .saturating_add(EXTRA)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bound_arithmetic() {
        assert_eq!(output_bound(0, 0), EXTRA);
        assert_eq!(output_bound(10, 5), 15 * FACTOR + EXTRA);
        assert_eq!(output_bound(usize::MAX, 1), usize::MAX);
        assert_eq!(output_bound(usize::MAX / 2, usize::MAX / 2), usize::MAX);
    }
}
