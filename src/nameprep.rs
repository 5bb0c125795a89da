//! The modified Nameprep algorithm (spec section "The Nameprep algorithm", THIS steps) over RFC
//! 3454 tables from the `stringprep` crate: Map (B.1 mapped to nothing, B.2 case folding); NFKC of
//! the current Unicode version (`unicode-normalization`); when the string had a code point
//! unassigned in Unicode 3.2 (A.1), Map and NFKC again, so NFKC output never keeps an uppercase
//! letter; Prohibit (C.1.2, C.2.2, C.3–C.9); optionally the bidi check (RFC 3454 section 6, D.1
//! and D.2 with current bidi classes). Quick checks: ARCHITECTURE.md, speed mechanisms, rows 6, 16.

use stringprep::tables;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

/// Why Nameprep failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameprepError {
    Prohibited,
    Bidi,
}

include!(concat!(env!("OUT_DIR"), "/nameprep_bmp.rs"));

include!("nameprep_flags.rs");

/// The flags of `c`: build.rs's table in the BMP, the crates' functions elsewhere.
#[inline]
fn flags(c: char) -> u8 {
    let cp = c as u32;
    if cp < 0x10000 {
        BMP_FLAGS[cp as usize]
    } else {
        flags_slow(c)
    }
}

fn flags_slow(c: char) -> u8 {
    compute_flags(c)
}

/// The Map step (B.1, B.2) into `out`; the AND and the OR of the flags of the characters written,
/// but for the [`L`] flag of ASCII letters (the bidi check computes its own).
fn map_into(s: &str, out: &mut String) -> (u8, u8) {
    let (mut and, mut or) = (u8::MAX, 0u8);
    // `run`: where the characters Map keeps, not yet copied, start.
    let b = s.as_bytes();
    let (mut i, mut run) = (0, 0);
    while i < b.len() {
        let x = b[i];
        if x < 0x80 {
            // ASCII is INERT (and L for letters), Map changes only `A`-`Z` (B.2), and nothing
            // ASCII is prohibited, RandALCat or unassigned (test `ascii_flags`).
            if x.is_ascii_uppercase() {
                out.push_str(&s[run..i]);
                out.push(char::from(x.to_ascii_lowercase()));
                run = i + 1;
            }
            i += 1;
            continue;
        }
        // `i` is at a character boundary, so the slice has a first character.
        let c = s[i..].chars().next().unwrap_or_default();
        let next = i + c.len_utf8();
        let f = flags(c);
        if f & MAPS == 0 {
            and &= f;
            or |= f;
        } else {
            out.push_str(&s[run..i]);
            run = next;
            if !tables::commonly_mapped_to_nothing(c) {
                for m in tables::case_fold_for_nfkc(c) {
                    let g = flags(m);
                    out.push(m);
                    and &= g;
                    or |= g;
                }
            }
        }
        i = next;
    }
    out.push_str(&s[run..]);
    (and, or)
}

fn flags_of(s: &str) -> (u8, u8) {
    s.chars()
        .map(flags)
        .fold((u8::MAX, 0), |(a, o), f| (a & f, o | f))
}

/// Reusable buffers for [`nameprep_into`] (CanonicalizeHost keeps one per thread).
#[derive(Default)]
pub struct Scratch {
    /// The Map output, the input of NFKC.
    mapped: String,
    /// The result of the first round, when steps 8 and 9 run.
    first: String,
}

impl Scratch {
    /// Frees any buffer whose capacity exceeds `max` bytes.
    pub fn release_above(&mut self, max: usize) {
        for b in [&mut self.mapped, &mut self.first] {
            if b.capacity() > max {
                *b = String::new();
            }
        }
    }
}

/// Map then NFKC of `s`, appended to `out`; the OR of the flags appended. `mapped` is scratch.
fn map_nfkc_into(s: &str, mapped: &mut String, out: &mut String) -> u8 {
    // Mapped into `out`; moved to `mapped` only when it is not in NFKC already.
    let start = out.len();
    let (and, or) = map_into(s, out);
    if and & INERT != 0 || segments_normalized(&out[start..]) {
        return or;
    }
    mapped.clear();
    mapped.push_str(&out[start..]);
    out.truncate(start);
    nfkc_by_segments(mapped, out);
    flags_of(&out[start..]).1
}

/// `f` on the start and end of each segment of `s` holding a character not INERT, in order, while
/// it returns true. UAX #15: an INERT character (NFKC_QC=Yes, class 0) has a normalization
/// boundary before it, so NFKC of `s` is the NFKC of its segments (each from one INERT character
/// to the next) put together, and a segment of INERT characters only is in NFKC.
fn dirty_segments(s: &str, mut f: impl FnMut(usize, usize) -> bool) -> bool {
    // `dirty`: whether the segment from `seg` holds a character that is not INERT.
    let (mut seg, mut dirty) = (0, false);
    for (i, c) in s.char_indices() {
        if flags(c) & INERT != 0 {
            if dirty && !f(seg, i) {
                return false;
            }
            seg = i;
            dirty = false;
        } else {
            dirty = true;
        }
    }
    !dirty || f(seg, s.len())
}

/// Whether `s` is in NFKC by the quick check, segment by segment ([`dirty_segments`]): its
/// state starts afresh at a character of class 0, so this is the quick check of the whole.
fn segments_normalized(s: &str) -> bool {
    dirty_segments(s, |a, b| {
        is_nfkc_quick(s[a..b].chars()) == IsNormalized::Yes
    })
}

/// NFKC of `s` appended to `out`, normalizing only the segments the quick check does not pass.
fn nfkc_by_segments(s: &str, out: &mut String) {
    let mut copied = 0;
    dirty_segments(s, |a, b| {
        let seg = &s[a..b];
        if is_nfkc_quick(seg.chars()) != IsNormalized::Yes {
            out.push_str(&s[copied..a]);
            out.extend(seg.nfkc());
            copied = b;
        }
        true
    });
    out.push_str(&s[copied..]);
}

/// The Prohibit step of Nameprep: C.1.2, C.2.2, C.3, C.4, C.5, C.6, C.7, C.8 and C.9.
pub fn is_prohibited(c: char) -> bool {
    flags(c) & PROHIBITED != 0
}

/// Steps 3 to 10: Map, NFKC, the second Map and NFKC, Prohibit.
pub fn nameprep(s: &str) -> Result<String, NameprepError> {
    let mut out = String::with_capacity(s.len() + 4);
    nameprep_into(s, &mut out, &mut Scratch::default())?;
    Ok(out)
}

/// [`nameprep`], appended to `out`, with `scratch` for the intermediate strings. On `Err`, `out`
/// may hold partial output past its original length: the caller truncates.
pub fn nameprep_into(
    s: &str,
    out: &mut String,
    scratch: &mut Scratch,
) -> Result<(), NameprepError> {
    nameprep_rtl_into(s, out, scratch).map(|_| ())
}

/// [`nameprep_into`], telling whether the output holds a RandALCat character: without one, the
/// bidi check (RFC 3454 6) passes on every label.
/// Always inlined: the observed instantiation of its caller (`crate::trace`) adds a call site,
/// which must not change how the normal one is compiled.
#[inline(always)]
pub(crate) fn nameprep_rtl_into(
    s: &str,
    out: &mut String,
    scratch: &mut Scratch,
) -> Result<bool, NameprepError> {
    if s.is_ascii() {
        // Map is lowercasing (B.2), NFKC the identity; nothing ASCII is prohibited or RandALCat.
        out.extend(s.bytes().map(|b| char::from(b.to_ascii_lowercase())));
        return Ok(false);
    }
    let start = out.len();
    let mut or = map_nfkc_into(s, &mut scratch.mapped, out);
    // Steps 8 and 9 apply when the input had a code point unassigned in Unicode 3.2, and change
    // something only when a character of the first round's result maps (NFKC is idempotent).
    if or & MAPS != 0 && s.chars().any(|c| flags(c) & UNASSIGNED != 0) {
        scratch.first.clear();
        scratch.first.push_str(&out[start..]);
        out.truncate(start);
        or = map_nfkc_into(&scratch.first, &mut scratch.mapped, out);
    }
    if or & PROHIBITED != 0 {
        return Err(NameprepError::Prohibited);
    }
    Ok(or & RAL != 0)
}

/// Step 11: the bidi check of RFC 3454 section 6 on one label.
pub fn check_bidi(label: &str) -> Result<(), NameprepError> {
    if label.is_ascii() {
        return Ok(());
    }
    let (_, or) = flags_of(label);
    if or & RAL == 0 {
        return Ok(());
    }
    if or & L != 0 {
        return Err(NameprepError::Bidi);
    }
    let is_ral = |c: char| flags(c) & RAL != 0;
    let first = label.chars().next().is_some_and(is_ral);
    let last = label.chars().next_back().is_some_and(is_ral);
    if first && last {
        Ok(())
    } else {
        Err(NameprepError::Bidi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generated table agrees with the crates' functions on every BMP
    /// code point (the slow path computes the same flags from them).
    #[test]
    fn table_matches_the_crates() {
        for cp in 0..0x10000u32 {
            if let Some(c) = char::from_u32(cp) {
                assert_eq!(BMP_FLAGS[cp as usize], flags_slow(c), "U+{cp:04X}");
            }
        }
    }

    /// The ASCII fast path of `map_into`: ASCII characters are INERT,
    /// only `A`-`Z` map (to `a`-`z`), and the other flags are L at most.
    #[test]
    fn ascii_flags() {
        for b in 0..0x80u8 {
            let f = BMP_FLAGS[usize::from(b)];
            let maps = if b.is_ascii_uppercase() { MAPS } else { 0 };
            assert_eq!(f & !L, INERT | maps, "{b:#x}");
            let c = char::from(b);
            assert!(tables::case_fold_for_nfkc(c).eq([c.to_ascii_lowercase()]));
            assert!(!tables::commonly_mapped_to_nothing(c));
        }
    }

    /// NFKC segment by segment agrees with NFKC of the whole on
    /// pseudo-random strings of characters that combine, reorder,
    /// decompose or compose across their neighbours (Hangul jamo and
    /// syllables, Indic two-part vowels, combining marks of several
    /// classes, compatibility characters, INERT letters around them).
    #[test]
    fn nfkc_by_segments_matches_whole() {
        let pool: Vec<char> = "ae\u{0301}\u{0308}\u{0323}\u{0345}\u{0327}\u{093C}\u{094D}\
            \u{0915}\u{09C7}\u{09BE}\u{09D7}\u{09AC}\u{0B47}\u{0B3E}\u{0BC6}\u{0BBE}\
            \u{0D46}\u{0D3E}\u{0DD9}\u{0DCF}\u{0E38}\u{0E48}\u{1100}\u{1161}\u{11A8}\
            \u{AC00}\u{AC01}\u{FB01}\u{2460}\u{FF21}\u{00E9}\u{0F73}\u{0F71}\u{0F72}\
            \u{0F80}\u{1E0A}\u{212B}\u{3099}\u{304B}\u{FF76}\u{FF9E}\u{0041}.-1"
            .chars()
            .collect();
        let mut rng = crate::testutil::Xorshift(0x9e37_79b9_7f4a_7c15);
        let mut out = String::new();
        for n in 0..100_000 {
            let mut s = String::new();
            for _ in 0..n % 9 {
                s.push(rng.pick(&pool));
            }
            let whole: String = s.nfkc().collect();
            out.clear();
            nfkc_by_segments(&s, &mut out);
            assert_eq!(out, whole, "{s:?}");
            let quick = is_nfkc_quick(s.chars()) == IsNormalized::Yes;
            assert_eq!(segments_normalized(&s), quick, "{s:?}");
        }
    }

    #[test]
    fn examples() {
        assert_eq!(nameprep("Faß.DE").as_deref(), Ok("fass.de"));
        assert_eq!(nameprep("ＡＢＣ").as_deref(), Ok("abc"));
        assert_eq!(nameprep("a\u{00AD}b").as_deref(), Ok("ab"));
        assert_eq!(nameprep("a\u{3000}b").as_deref(), Ok("a b"));
        assert_eq!(nameprep("a\u{E000}b"), Err(NameprepError::Prohibited));
        assert_eq!(nameprep("a\u{1D400}b").as_deref(), Ok("aab"));
        assert_eq!(check_bidi("\u{0627}1\u{0628}"), Ok(()));
        assert_eq!(check_bidi("\u{0627}a\u{0628}"), Err(NameprepError::Bidi));
        assert_eq!(check_bidi("1\u{0628}"), Err(NameprepError::Bidi));
    }
}
