//! "Steps to preprocess a string" (spec section "Preprocessing").
//!
//! 1. Surrogates, noncharacters and non-Unicode code points become U+FFFD.
//!    A Rust `str` cannot hold surrogates or values above U+10FFFF (the C ABI
//!    has already decoded invalid UTF-8 with U+FFFD replacement), so only
//!    the noncharacters remain to replace.
//! 2. TAB, LF and CR are removed everywhere.
//! 3. VT, FF and SPACE are trimmed at both ends. Per NOTES.md, no other
//!    control character is trimmed or removed (`\0http://test` stays a
//!    relative path).

use std::borrow::Cow;

/// Whether `c` is a Unicode noncharacter (U+FDD0..U+FDEF, U+xxFFFE, U+xxFFFF).
pub fn is_noncharacter(c: char) -> bool {
    let cp = c as u32;
    (0xFDD0..=0xFDEF).contains(&cp) || (cp & 0xFFFE) == 0xFFFE
}

fn is_trimmed(b: u8) -> bool {
    matches!(b, 0x0B | 0x0C | 0x20)
}

/// Applies the steps to preprocess a string. Borrows when nothing changes,
/// which is the common case: one scan of the bytes for ASCII input.
pub fn preprocess(s: &str) -> Cow<'_, str> {
    if !needs_work(s.as_bytes()) {
        return Cow::Borrowed(trim(s));
    }
    let mut buf = String::new();
    Cow::Owned(preprocess_into(s, &mut buf).to_owned())
}

/// Whether a character must be removed or replaced. Noncharacters need a
/// lead byte of 0xEF or more (U+FDD0.. and U+xFFFE..), so other text skips
/// the character loop.
fn needs_work(bytes: &[u8]) -> bool {
    // A fold without early exit, over chunks, so that the compiler
    // vectorizes it: one pass of a few instructions per 16 bytes.
    let flag = |b: u8| b == b'\t' || b == b'\n' || b == b'\r' || b >= 0xEF;
    bytes
        .chunks(64)
        .any(|c| c.iter().fold(false, |acc, &b| acc | flag(b)))
}

/// The steps to preprocess a string, writing into `buf` (cleared first)
/// only when something is removed or replaced; otherwise the trimmed input
/// itself is returned, after one scan of its bytes.
#[inline]
pub fn preprocess_into<'a>(s: &'a str, buf: &'a mut String) -> &'a str {
    // Most URLs are printable ASCII: nothing to remove, replace or trim.
    // (Inlined into the callers; the rest is out of line.)
    if crate::scan::is_printable_ascii(s.as_bytes()) {
        return s;
    }
    preprocess_other(s, buf)
}

/// [`preprocess_into`] for input that is not all printable ASCII.
#[inline(never)]
fn preprocess_other<'a>(s: &'a str, buf: &'a mut String) -> &'a str {
    // The trimmed set and the removed set are disjoint, but a removed TAB
    // between spaces would expose more spaces to trim, so trimming comes
    // after removal.
    if !needs_work(s.as_bytes()) {
        return trim(s);
    }
    buf.clear();
    buf.reserve(s.len());
    for c in s.chars() {
        match c {
            '\t' | '\n' | '\r' => {}
            c if is_noncharacter(c) => buf.push('\u{FFFD}'),
            c => buf.push(c),
        }
    }
    trim(buf)
}

fn trim(s: &str) -> &str {
    let b = s.as_bytes();
    let start = b.iter().position(|&c| !is_trimmed(c)).unwrap_or(b.len());
    let end = b
        .iter()
        .rposition(|&c| !is_trimmed(c))
        .map_or(start, |e| e + 1);
    &s[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_and_trims() {
        assert_eq!(preprocess(" \thttp://a/\n "), "http://a/");
        assert_eq!(preprocess("\u{0}x "), "\u{0}x");
        assert_eq!(preprocess("a\u{FDD0}b\u{10FFFF}"), "a\u{FFFD}b\u{FFFD}");
        assert_eq!(preprocess(" \t "), "");
        assert!(matches!(preprocess("http://a/"), Cow::Borrowed(_)));
    }
}
