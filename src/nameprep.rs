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

use stringprep::tables;
use unicode_normalization::UnicodeNormalization;

/// Why Nameprep failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameprepError {
    Prohibited,
    Bidi,
}

fn map(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if tables::commonly_mapped_to_nothing(c) {
            continue;
        }
        out.extend(tables::case_fold_for_nfkc(c));
    }
    out
}

/// The Prohibit step of Nameprep: C.1.2, C.2.2, C.3, C.4, C.5, C.6, C.7,
/// C.8 and C.9.
pub fn is_prohibited(c: char) -> bool {
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
    let has_unassigned = s.chars().any(tables::unassigned_code_point);
    let mut t: String = map(s).nfkc().collect();
    if has_unassigned {
        t = map(&t).nfkc().collect();
    }
    if t.chars().any(is_prohibited) {
        return Err(NameprepError::Prohibited);
    }
    Ok(t)
}

/// Step 11: the bidi check of RFC 3454 section 6 on one label.
pub fn check_bidi(label: &str) -> Result<(), NameprepError> {
    let has_ral = label.chars().any(tables::bidi_r_or_al);
    if !has_ral {
        return Ok(());
    }
    if label.chars().any(tables::bidi_l) {
        return Err(NameprepError::Bidi);
    }
    let first = label.chars().next().is_some_and(tables::bidi_r_or_al);
    let last = label.chars().next_back().is_some_and(tables::bidi_r_or_al);
    if first && last {
        Ok(())
    } else {
        Err(NameprepError::Bidi)
    }
}
