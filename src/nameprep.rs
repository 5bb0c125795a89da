//! The modified Nameprep algorithm (spec section "The Nameprep algorithm",
//! THIS steps) over RFC 3454 tables from the `stringprep` crate:
//!
//! * Map (B.1 mapped to nothing, B.2 case folding);
//! * NFKC of the current Unicode version (`unicode-normalization`);
//! * when the string had a code point unassigned in Unicode 3.2 (A.1), Map
//!   and NFKC again, so NFKC output never keeps an uppercase letter;
//! * Prohibit (C.1.2, C.2.2, C.3–C.9);
//! * optionally the bidi check (RFC 3454 section 6, D.1 and D.2 with current
//!   Unicode bidi classes).
//!
//! Fast paths: each table is consulted only for code points in the ranges
//! where it has entries (`may_*` below; unit tests check every code point),
//! and NFKC runs only when its quick check does not say "yes".

use stringprep::tables;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

/// Why Nameprep failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameprepError {
    Prohibited,
    Bidi,
}

/// Whether B.1 or B.2 may map `c` to something else. False means the Map
/// step keeps `c` as it is.
#[inline]
fn may_map(c: char) -> bool {
    let cp = c as u32;
    cp < 0x0590
        || (0x10A0..=0x10CF).contains(&cp)
        || (0x1800..=0x180F).contains(&cp)
        || (0x1E00..=0x24FF).contains(&cp)
        || (0x3300..=0x33FF).contains(&cp)
        || (0xFB00..=0xFB2F).contains(&cp)
        || (0xFE00..=0xFE0F).contains(&cp)
        || (0xFEFF..=0xFFEF).contains(&cp)
        || cp >= 0x10000
}

/// Whether a Prohibit table may contain `c`.
#[inline]
fn may_be_prohibited(c: char) -> bool {
    let cp = c as u32;
    (0x0080..=0x00A0).contains(&cp)
        || cp == 0x0340
        || cp == 0x0341
        || cp == 0x06DD
        || cp == 0x070F
        || cp == 0x1680
        || cp == 0x180E
        || (0x2000..=0x206F).contains(&cp)
        || (0x2FF0..=0x3000).contains(&cp)
        || (0xD800..=0xF8FF).contains(&cp)
        || (0xFDD0..=0xFDEF).contains(&cp)
        || cp == 0xFEFF
        || (0xFFF9..=0xFFFF).contains(&cp)
        || cp >= 0x1D000
}

/// Whether `c` may have the bidi class R or AL.
#[inline]
fn may_be_ral(c: char) -> bool {
    let cp = c as u32;
    (0x0590..=0x08FF).contains(&cp)
        || cp == 0x200F
        || (0xFB1D..=0xFDFF).contains(&cp)
        || (0xFE70..=0xFEFF).contains(&cp)
        || (0x10800..=0x10FFF).contains(&cp)
        || (0x1E800..=0x1EFFF).contains(&cp)
}

fn map_char(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
    } else if !may_map(c) {
        out.push(c);
    } else if !tables::commonly_mapped_to_nothing(c) {
        out.extend(tables::case_fold_for_nfkc(c));
    }
}

fn map(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        map_char(c, &mut out);
    }
    out
}

/// Whether the Map step keeps `s` as it is.
fn map_is_identity(s: &str) -> bool {
    s.chars().all(|c| {
        if c.is_ascii() {
            !c.is_ascii_uppercase()
        } else if !may_map(c) {
            true
        } else {
            !tables::commonly_mapped_to_nothing(c)
                && tables::case_fold_for_nfkc(c).eq(std::iter::once(c))
        }
    })
}

/// Code points whose NFKC quick check is "yes" and whose canonical
/// combining class is 0, so a string of them is in NFKC (a unit test checks
/// every code point of these ranges).
#[inline]
fn nfkc_inert(c: char) -> bool {
    let cp = c as u32;
    cp < 0x00A0
        || (0x00C0..=0x0131).contains(&cp)
        || (0x0134..=0x013E).contains(&cp)
        || (0x0141..=0x0148).contains(&cp)
        || (0x014A..=0x017E).contains(&cp)
        || (0x0400..=0x0482).contains(&cp)
        || (0x048A..=0x04FF).contains(&cp)
        || (0x05D0..=0x05EA).contains(&cp)
        || (0x0621..=0x064A).contains(&cp)
        || (0x0E01..=0x0E30).contains(&cp)
        || (0x3041..=0x3096).contains(&cp)
        || (0x30A1..=0x30FA).contains(&cp)
        || (0x4E00..=0x9FFF).contains(&cp)
        || (0xAC00..=0xD7A3).contains(&cp)
}

fn is_nfkc(s: &str) -> bool {
    s.chars().all(nfkc_inert) || is_nfkc_quick(s.chars()) == IsNormalized::Yes
}

fn nfkc(s: String) -> String {
    if is_nfkc(&s) { s } else { s.nfkc().collect() }
}

/// The Prohibit step of Nameprep: C.1.2, C.2.2, C.3, C.4, C.5, C.6, C.7,
/// C.8 and C.9.
pub fn is_prohibited(c: char) -> bool {
    may_be_prohibited(c) && is_prohibited_by_tables(c)
}

fn is_prohibited_by_tables(c: char) -> bool {
    tables::non_ascii_space_character(c)
        || tables::non_ascii_control_character(c)
        || tables::private_use(c)
        || tables::non_character_code_point(c)
        || tables::surrogate_code(c)
        || tables::inappropriate_for_plain_text(c)
        || tables::inappropriate_for_canonical_representation(c)
        || tables::change_display_properties_or_deprecated(c)
        || tables::tagging_character(c)
}

/// Steps 3 to 10: Map, NFKC, the second Map and NFKC, Prohibit.
pub fn nameprep(s: &str) -> Result<String, NameprepError> {
    if s.is_ascii() {
        // Map on ASCII is lowercasing (B.2), NFKC is the identity and no
        // ASCII character is prohibited by Nameprep.
        return Ok(s.to_ascii_lowercase());
    }
    let mut t = nfkc(map(s));
    // Steps 8 and 9 change something only when the first round's result is
    // not already stable under Map and NFKC; only then does the A.1 test
    // (a table search per character) matter.
    // (`t` is in NFKC already, so a second NFKC after an identity Map
    // changes nothing.)
    if !map_is_identity(&t) && s.chars().any(tables::unassigned_code_point) {
        t = nfkc(map(&t));
    }
    if !t.is_ascii() && t.chars().any(is_prohibited) {
        return Err(NameprepError::Prohibited);
    }
    Ok(t)
}

/// Step 11: the bidi check of RFC 3454 section 6 on one label.
pub fn check_bidi(label: &str) -> Result<(), NameprepError> {
    let is_ral = |c: char| may_be_ral(c) && tables::bidi_r_or_al(c);
    if label.is_ascii() || !label.chars().any(is_ral) {
        return Ok(());
    }
    if label.chars().any(tables::bidi_l) {
        return Err(NameprepError::Bidi);
    }
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

    fn all_chars() -> impl Iterator<Item = char> {
        (0..=0x10FFFFu32).filter_map(char::from_u32)
    }

    #[test]
    fn map_prefilter_is_exact() {
        for c in all_chars().filter(|&c| !c.is_ascii() && !may_map(c)) {
            assert!(
                !tables::commonly_mapped_to_nothing(c),
                "U+{:04X} B.1",
                c as u32
            );
            assert!(
                tables::case_fold_for_nfkc(c).eq(std::iter::once(c)),
                "U+{:04X} B.2",
                c as u32
            );
        }
    }

    #[test]
    fn prohibit_prefilter_is_exact() {
        for c in all_chars().filter(|&c| !may_be_prohibited(c)) {
            assert!(!is_prohibited_by_tables(c), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn bidi_prefilter_is_exact() {
        for c in all_chars().filter(|&c| !may_be_ral(c)) {
            assert!(!tables::bidi_r_or_al(c), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn nfkc_prefilter_is_exact() {
        use unicode_normalization::char::canonical_combining_class;
        for c in all_chars().filter(|&c| nfkc_inert(c)) {
            assert_eq!(
                is_nfkc_quick(std::iter::once(c)),
                IsNormalized::Yes,
                "U+{:04X}",
                c as u32
            );
            assert_eq!(canonical_combining_class(c), 0, "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn examples() {
        assert_eq!(nameprep("Faß.DE").as_deref(), Ok("fass.de"));
        assert_eq!(nameprep("ＡＢＣ").as_deref(), Ok("abc"));
        assert_eq!(nameprep("a\u{00AD}b").as_deref(), Ok("ab"));
        assert_eq!(nameprep("a\u{3000}b").as_deref(), Ok("a b"));
        assert_eq!(nameprep("a\u{E000}b"), Err(NameprepError::Prohibited));
        assert_eq!(check_bidi("\u{0627}1\u{0628}"), Ok(()));
        assert_eq!(check_bidi("\u{0627}a\u{0628}"), Err(NameprepError::Bidi));
        assert_eq!(check_bidi("1\u{0628}"), Err(NameprepError::Bidi));
    }
}
