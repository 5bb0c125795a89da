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
    if bytes.len() < 8 {
        return bytes.iter().any(|&b| is_work(b));
    }
    let (mut below, mut high) = (0, 0);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let (b, h) = work_masks(u64::from_le_bytes([
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
        ]));
        below |= b;
        high |= h;
    }
    if !chunks.remainder().is_empty() {
        let (b, h) = work_masks(crate::scan::load(bytes, bytes.len() - 8));
        below |= b;
        high |= h;
    }
    high != 0 || below != 0 && bytes.iter().any(|&b| matches!(b, b'\t' | b'\n' | b'\r'))
}

/// Whether steps 1 and 2 may change the character at octet `b`: a TAB, LF or CR (removed), or a
/// lead octet of 0xEF or more (noncharacters are U+FDD0.. and U+xFFFE..; replaced when one).
#[inline]
fn is_work(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r') || b >= 0xEF
}

/// The high bits of the octets of `w` (the first one lowest) that may need work, as two masks.
/// `below`: octets < 0x0E, its lowest bit exact (a borrow starts at such an octet and only
/// carries upwards), the bits above it possibly spurious. `high`: octets >= 0xEF, exact (top bit
/// set and the low seven bits + 0x11 carry into it; 0x7F + 0x11 < 0x100, so no carry crosses).
#[inline]
fn work_masks(w: u64) -> (u64, u64) {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let below = w.wrapping_sub(LO * 0x0E) & !w & HI;
    let high = ((w & !HI) + LO * 0x11) & w & HI;
    (below, high)
}

/// The first offset from `from` on of an octet of `b` that may need work: every octet
/// [`is_work`] accepts is found, and some others may be (an octet below 0x0E, one after such an
/// octet); the caller tests the octet. `b.len()` when there is none. Sixteen octets a step, two
/// words tested with one branch, as [`needs_work`] tests them.
#[inline(always)]
fn next_work(b: &[u8], from: usize) -> usize {
    let n = b.len();
    let word = |c: &[u8]| {
        let (below, high) = work_masks(u64::from_le_bytes([
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
        ]));
        below | high
    };
    let at = |i: usize, m: u64| i + (m.trailing_zeros() / 8) as usize;
    let mut i = from;
    let mut blocks = b[from..].chunks_exact(16);
    for c in &mut blocks {
        let (m0, m1) = (word(&c[..8]), word(&c[8..]));
        if m0 | m1 != 0 {
            return if m0 != 0 { at(i, m0) } else { at(i + 8, m1) };
        }
        i += 16;
    }
    if i + 8 <= n {
        let m = word(&b[i..i + 8]);
        if m != 0 {
            return at(i, m);
        }
        i += 8;
    }
    if i < n {
        if n < 8 {
            return i + b[i..].iter().position(|&c| is_work(c)).unwrap_or(n - i);
        }
        // The last eight octets, the ones before `i` masked off; a borrow from one of them can
        // only add a spurious bit, which the caller's test drops.
        let seen = i - (n - 8);
        let m = word(&b[n - 8..]) & (!0u64 << (seen * 8));
        if m != 0 {
            return at(n - 8, m);
        }
    }
    n
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
    let untrimmed: &'a str = if remove_and_replace(s, buf) {
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

/// `s` preprocessed, in `buf`, when steps 1 and 2 change it (a TAB, LF or CR removed, a
/// noncharacter replaced); `None` when preprocessing at most trims it.
pub(crate) fn changed_into<'a>(s: &str, buf: &'a mut String) -> Option<&'a str> {
    remove_and_replace(s, buf).then(|| trim(buf))
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
    if remove_and_replace(s, buf) {
        trim(buf)
    } else {
        trim(s)
    }
}

/// Steps 1 and 2 on `s` into `buf` (cleared at the first change): noncharacters replaced, TAB, LF
/// and CR removed. One pass that copies the runs between the characters it removes or replaces, each with one
/// `push_str`; a character is decoded only at a lead octet of 0xEF or more. False, and `buf` left
/// as it was, when nothing is removed or replaced.
/// Always inlined into [`preprocess_other`], as this loop was before [`preprocess_observed`] used it.
#[inline(always)]
fn remove_and_replace(s: &str, buf: &mut String) -> bool {
    let b = s.as_bytes();
    let n = b.len();
    // `run`: the start of the octets not yet copied; `None` until the first change.
    let mut run: Option<usize> = None;
    let mut i = 0;
    loop {
        let k = next_work(b, i);
        if k == n {
            break;
        }
        // What replaces the character at `k` (which ends before `next`), when it changes.
        let (next, with) = match b[k] {
            b'\t' | b'\n' | b'\r' => (k + 1, Some("")),
            c if c >= 0xEF => {
                // A `str` holds no surrogate or non-Unicode code point: a noncharacter is all.
                let c = s[k..].chars().next().unwrap_or('\0');
                (k + c.len_utf8(), is_noncharacter(c).then_some("\u{FFFD}"))
            }
            _ => (k + 1, None),
        };
        if let Some(with) = with {
            let from = run.unwrap_or_else(|| {
                buf.clear();
                buf.reserve(n);
                0
            });
            buf.push_str(&s[from..k]);
            buf.push_str(with);
            run = Some(next);
        }
        i = next;
    }
    let Some(from) = run else {
        return false;
    };
    buf.push_str(&s[from..]);
    true
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

    /// Steps 1 and 2 character by character, the rule as the spec states it.
    fn reference(s: &str) -> String {
        s.chars()
            .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
            .map(|c| if is_noncharacter(c) { '\u{FFFD}' } else { c })
            .collect()
    }

    /// The candidate search finds the first octet [`is_work`] accepts from every start, in strings
    /// of every length up to 20 with one or two octets on either side of the thresholds.
    #[test]
    fn next_work_finds_the_first() {
        for len in 0..21 {
            for fill in [b'a', 0x0E, 0xEE, 0x0B, 0x00] {
                for pos in 0..len {
                    for v in [0x09, 0x0A, 0x0D, 0x0E, 0x0C, 0xEE, 0xEF, 0xFF, 0x80, b'a'] {
                        let mut b = vec![fill; len];
                        b[pos] = v;
                        b[len - 1 - pos] = v;
                        for from in 0..=len {
                            let want = (from..len).find(|&k| is_work(b[k])).unwrap_or(len);
                            let got = next_work(&b, from);
                            assert!(got >= from && got <= want, "{b:x?} from {from}: {got}");
                            // Every octet it skips is one that needs no work.
                            let mut k = got;
                            while k < want {
                                k = next_work(&b, k + 1);
                            }
                            assert_eq!(k, want, "{b:x?} from {from}");
                        }
                    }
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// The run-copying pass is the character-by-character rule, on strings mixing TAB, LF,
        /// CR, VT, FF and SPACE, noncharacters (3- and 4-octet ones), U+FFFD, other characters
        /// with lead octets 0xEF and more, multibyte text and ASCII; and `preprocess` is that
        /// rule then the trim.
        #[test]
        fn run_copy_is_char_by_char(v in proptest::collection::vec(0usize..20, 0..40)) {
            const POOL: [char; 20] = [
                '\t', '\n', '\r', '\u{0B}', '\u{0C}', ' ', 'a', '/', '%', '\u{0}',
                '\u{FDD0}', '\u{FDEF}', '\u{FFFE}', '\u{10FFFF}', '\u{1FFFE}', '\u{FFFD}',
                '\u{F000}', '\u{FDCF}', 'é', '\u{10000}',
            ];
            let s: String = v.iter().map(|&k| POOL[k]).collect();
            let want = reference(&s);
            let mut buf = String::from("stale");
            let changed = remove_and_replace(&s, &mut buf);
            proptest::prop_assert_eq!(changed, want != s);
            proptest::prop_assert_eq!(if changed { buf.as_str() } else { s.as_str() }, want.as_str());
            let trimmed = want.trim_matches(|c| matches!(c, '\u{0B}' | '\u{0C}' | ' '));
            let whole = preprocess(&s);
            proptest::prop_assert_eq!(whole.as_ref(), trimmed);
            let mut buf = String::new();
            proptest::prop_assert_eq!(preprocess_into(&s, &mut buf), trimmed);
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
