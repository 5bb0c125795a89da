// The Nameprep flags of one code point, from the stringprep and unicode-normalization crates;
// `include!`d by build.rs (the BMP table) and src/nameprep.rs (outside the BMP, and its tests).

/// NFKC quick check "yes" and combining class 0: a string of such code points is in NFKC.
const INERT: u8 = 1;
/// B.1 or B.2 maps the code point to something else.
const MAPS: u8 = 2;
/// In one of the Prohibit tables (C.1.2, C.2.2, C.3–C.9).
const PROHIBITED: u8 = 4;
/// Bidi class R or AL (D.1, current Unicode).
const RAL: u8 = 8;
/// Bidi class L (D.2, current Unicode).
const L: u8 = 16;
/// Unassigned in Unicode 3.2 (A.1).
const UNASSIGNED: u8 = 32;

/// Whether Nameprep's Prohibit step (C.1.2, C.2.2, C.3–C.9) rejects `c`.
fn is_prohibited_by_tables(c: char) -> bool {
    use stringprep::tables as t;
    t::non_ascii_space_character(c)
        || t::non_ascii_control_character(c)
        || t::private_use(c)
        || t::non_character_code_point(c)
        || t::surrogate_code(c)
        || t::inappropriate_for_plain_text(c)
        || t::inappropriate_for_canonical_representation(c)
        || t::change_display_properties_or_deprecated(c)
        || t::tagging_character(c)
}

fn compute_flags(c: char) -> u8 {
    use stringprep::tables as t;
    use unicode_normalization::char::canonical_combining_class;
    use unicode_normalization::{IsNormalized, is_nfkc_quick};
    let mut f = 0;
    if is_nfkc_quick(std::iter::once(c)) == IsNormalized::Yes && canonical_combining_class(c) == 0 {
        f |= INERT;
    }
    if t::commonly_mapped_to_nothing(c) || !t::case_fold_for_nfkc(c).eq(std::iter::once(c)) {
        f |= MAPS;
    }
    if is_prohibited_by_tables(c) {
        f |= PROHIBITED;
    }
    if t::bidi_r_or_al(c) {
        f |= RAL;
    }
    if t::bidi_l(c) {
        f |= L;
    }
    if t::unassigned_code_point(c) {
        f |= UNASSIGNED;
    }
    f
}
