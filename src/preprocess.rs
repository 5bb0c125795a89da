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
    let bytes = s.as_bytes();
    // Trim first: the trimmed set and the removed set are disjoint, but a
    // removed TAB between spaces would expose more spaces to trim, so trim
    // again after removal below when removal happened.
    let needs_work = bytes
        .iter()
        .any(|&b| matches!(b, b'\t' | b'\n' | b'\r') || b >= 0xEF);
    if !needs_work {
        return Cow::Borrowed(trim(s));
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' | '\n' | '\r' => {}
            c if is_noncharacter(c) => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    let t = trim(&out);
    if t.len() == out.len() {
        Cow::Owned(out)
    } else {
        Cow::Owned(t.to_owned())
    }
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
