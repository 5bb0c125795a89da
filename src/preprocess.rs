//! "Steps to preprocess a string" (spec section "Preprocessing"): 1. surrogates, noncharacters and
//! non-Unicode code points become U+FFFD (a `str` can hold only noncharacters of these; the C ABI
//! decodes invalid UTF-8 with U+FFFD); 2. TAB, LF and CR are removed; 3. VT, FF and SPACE are
//! trimmed at both ends. No other control is trimmed or removed (NOTES.md: `\0http://test`).

use std::borrow::Cow;

use crate::trace::{Observe, Stage};

/// Whether `c` is a Unicode noncharacter (U+FDD0..U+FDEF, U+xxFFFE, U+xxFFFF).
pub fn is_noncharacter(c: char) -> bool {
    let cp = c as u32;
    (0xFDD0..=0xFDEF).contains(&cp) || (cp & 0xFFFE) == 0xFFFE
}

/// Whether step 3 trims `b` at either end.
pub(crate) fn is_trimmed(b: u8) -> bool {
    matches!(b, 0x0B | 0x0C | 0x20)
}

/// Whether preprocessing leaves `b`, the end of a text that starts untrimmed, as it is.
pub(crate) fn leaves_tail(b: &[u8]) -> bool {
    !needs_work(b) && !b.last().is_some_and(|&c| is_trimmed(c))
}

/// `s` preprocessed when that only trims its ends; `None` when it needs a buffer.
pub(crate) fn only_trimmed(s: &str) -> Option<&str> {
    (!needs_work(s.as_bytes())).then(|| trim(s))
}

/// Step 3's trim as a prefilter for input with white space at an end (`None` otherwise, after one
/// look at each end): `Some(t)` when trimming is all preprocessing does, else `Some(None)`.
pub(crate) fn trim_ends(s: &str) -> Option<Option<&str>> {
    let b = s.as_bytes();
    let white = |c: Option<&u8>| c.is_some_and(|&c| is_trimmed(c));
    (white(b.first()) || white(b.last())).then(|| only_trimmed(s))
}

/// Applies the steps to preprocess a string; borrows when nothing is removed or replaced.
pub fn preprocess(s: &str) -> Cow<'_, str> {
    if let Some(t) = only_trimmed(s) {
        return Cow::Borrowed(t);
    }
    let mut buf = String::new();
    Cow::Owned(preprocess_into(s, &mut buf).to_owned())
}

/// Whether a character must be removed or replaced: a TAB, LF or CR, or a lead byte of 0xEF or
/// more (noncharacters are U+FDD0.. and U+xFFFE..). (ARCHITECTURE.md, speed mechanisms, row 14)
fn needs_work(bytes: &[u8]) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let flag = |b: u8| b == b'\t' || b == b'\n' || b == b'\r' || b >= 0xEF;
    if bytes.len() < 8 {
        return bytes.iter().any(|&b| flag(b));
    }
    // `below`: some octet < 0x0E (exact for "some": a borrow starts at such an octet), confirmed
    // octet by octet. `high`: top bit set and low seven bits + 0x11 carry (0x7F + 0x11 < 0x100).
    let word = |w: u64| {
        let below = w.wrapping_sub(LO * 0x0E) & !w & HI;
        let high = ((w & !HI) + LO * 0x11) & w & HI;
        (below, high)
    };
    let (mut below, mut high) = (0, 0);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let (b, h) = word(u64::from_le_bytes([
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
        ]));
        below |= b;
        high |= h;
    }
    if !chunks.remainder().is_empty() {
        let c = &bytes[bytes.len() - 8..];
        let (b, h) = word(u64::from_le_bytes([
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
        ]));
        below |= b;
        high |= h;
    }
    high != 0 || below != 0 && bytes.iter().any(|&b| matches!(b, b'\t' | b'\n' | b'\r'))
}

/// The steps to preprocess a string, writing into `buf` (cleared first) only when something is
/// removed or replaced; otherwise the trimmed input itself is returned.
#[inline]
pub fn preprocess_into<'a>(s: &'a str, buf: &'a mut String) -> &'a str {
    preprocess_into_with(s, buf, &mut ())
}

/// [`preprocess_into`], each step that changes the string reported to `obs`.
#[inline(always)]
pub(crate) fn preprocess_into_with<'a, O: Observe>(
    s: &'a str,
    buf: &'a mut String,
    obs: &mut O,
) -> &'a str {
    if let Some(s) = as_is(s) {
        return s;
    }
    if O::ON {
        return preprocess_observed(s, buf, obs);
    }
    preprocess_other(s, buf)
}

/// [`preprocess_other`] by its own steps, reporting steps 1 and 2 (one report) and step 3.
#[inline(never)]
fn preprocess_observed<'a, O: Observe>(s: &'a str, buf: &'a mut String, obs: &mut O) -> &'a str {
    let untrimmed: &'a str = if needs_work(s.as_bytes()) {
        remove_and_replace(s, buf);
        let removed = s
            .chars()
            .filter(|c| matches!(c, '\t' | '\n' | '\r'))
            .count();
        let replaced = s.chars().filter(|&c| is_noncharacter(c)).count();
        let what = match (replaced, removed) {
            (0, n) => format!("{n} TAB, LF or CR removed"),
            (r, 0) => format!("{r} noncharacter(s) replaced by U+FFFD"),
            (r, n) => format!("{r} noncharacter(s) replaced by U+FFFD, {n} TAB, LF or CR removed"),
        };
        obs.step(Stage::Preprocess, &what, Some(s), Some(buf));
        buf
    } else {
        s
    };
    let out = trim(untrimmed);
    if out.len() != untrimmed.len() {
        obs.step(
            Stage::Preprocess,
            "VT, FF and SPACE trimmed at both ends",
            Some(untrimmed),
            Some(out),
        );
    }
    out
}

/// `s` when it is printable ASCII, left as it is (ARCHITECTURE.md, speed mechanisms, row 13).
#[inline]
pub(crate) fn as_is(s: &str) -> Option<&str> {
    crate::scan::is_printable_ascii(s.as_bytes()).then_some(s)
}

/// [`preprocess_into`] for input that is not all printable ASCII.
#[inline(never)]
fn preprocess_other<'a>(s: &'a str, buf: &'a mut String) -> &'a str {
    // Trimming comes after removal: a removed TAB between spaces exposes more spaces to trim.
    if !needs_work(s.as_bytes()) {
        return trim(s);
    }
    remove_and_replace(s, buf);
    trim(buf)
}

/// Steps 1 and 2 on `s` into `buf` (cleared first): noncharacters replaced, TAB, LF and CR removed.
/// Always inlined into [`preprocess_other`], as this loop was before [`preprocess_observed`] used it.
#[inline(always)]
fn remove_and_replace(s: &str, buf: &mut String) {
    buf.clear();
    buf.reserve(s.len());
    for c in s.chars() {
        match c {
            '\t' | '\n' | '\r' => {}
            c if is_noncharacter(c) => buf.push('\u{FFFD}'),
            c => buf.push(c),
        }
    }
}

fn trim(s: &str) -> &str {
    let b = s.as_bytes();
    let n = b.len();
    if n >= 8 {
        // Counted in the first and last eight octets; an end all white space is left to the loops.
        let lead = leading_trimmed(crate::scan::load(b, 0));
        let tail = trailing_trimmed(crate::scan::load(b, n - 8));
        if lead < 8 && tail < 8 && lead + tail < n {
            return &s[lead..n - tail];
        }
    }
    let start = b.iter().position(|&c| !is_trimmed(c)).unwrap_or(b.len());
    let end = b
        .iter()
        .rposition(|&c| !is_trimmed(c))
        .map_or(start, |e| e + 1);
    &s[start..end]
}

/// The high bit of each octet of `w` that [`is_trimmed`] accepts.
fn trimmed_mask(w: u64) -> u64 {
    use crate::scan::eq_mask_exact;
    eq_mask_exact(w, 0x0B) | eq_mask_exact(w, 0x0C) | eq_mask_exact(w, b' ')
}

/// How many octets of `w` (the first one lowest) from the first on are trimmed (8: all).
fn leading_trimmed(w: u64) -> usize {
    (!trimmed_mask(w) & 0x8080_8080_8080_8080).trailing_zeros() as usize / 8
}

/// How many of the octets of `w` from the last on are trimmed.
fn trailing_trimmed(w: u64) -> usize {
    (!trimmed_mask(w) & 0x8080_8080_8080_8080).leading_zeros() as usize / 8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word test agrees with the octet-by-octet definition for every
    /// octet at every position of strings of every length up to 20, among
    /// octets on either side of the thresholds.
    #[test]
    fn needs_work_matches_octets() {
        let flag = |b: u8| matches!(b, b'\t' | b'\n' | b'\r') || b >= 0xEF;
        for len in 0..21 {
            for fill in [b'a', 0x0E, 0xEE, 0x8F, 0x0B, 0x7F] {
                for pos in 0..len {
                    for v in 0..=255u8 {
                        let mut b = vec![fill; len];
                        b[pos] = v;
                        let want = b.iter().any(|&c| flag(c));
                        assert_eq!(needs_work(&b), want, "{b:x?}");
                    }
                }
            }
        }
    }

    /// The word-at-a-time count of white space at the ends is the
    /// octet loops': every mix of trimmed and other octets, short and long.
    #[test]
    fn trim_matches_octets() {
        let pool = [b' ', 0x0B, 0x0C, b'a', b'!', 0x21 ^ 1, 0x0D, 0x2A];
        for len in 0..=11usize {
            let count = pool.len().pow(len.min(6) as u32);
            for k in 0..count {
                let mut b = vec![b'x'; len];
                let mut v = k;
                for (j, o) in b.iter_mut().enumerate() {
                    // The first and last six octets take every mix.
                    if j < 3 || j + 3 >= len {
                        *o = pool[v % pool.len()];
                        v /= pool.len();
                    }
                }
                let s = std::str::from_utf8(&b).unwrap();
                let want = s.trim_matches(|c| matches!(c, '\u{0B}' | '\u{0C}' | ' '));
                assert_eq!(trim(s), want, "{b:x?}");
            }
        }
    }

    #[test]
    fn removes_and_trims() {
        assert_eq!(preprocess(" \thttp://a/\n "), "http://a/");
        assert_eq!(preprocess("\u{0}x "), "\u{0}x");
        assert_eq!(preprocess("a\u{FDD0}b\u{10FFFF}"), "a\u{FFFD}b\u{FFFD}");
        assert_eq!(preprocess(" \t "), "");
        assert!(matches!(preprocess("http://a/"), Cow::Borrowed(_)));
    }
}
