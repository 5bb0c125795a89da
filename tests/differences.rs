//! One test per row of docs/DIFFERENCES.md's table "Where wurl differs from the 2012
//! module", named after the row, with the row's example: the 2012 module's
//! output (reasoned from the spec text, step by step, in the comment) and
//! wurl's. Then the regressions of issue 10, each with its expected output,
//! and the check that every one of them is a fixed point.
//!
//! Idempotence, the rule these differences serve: for any input, base and
//! charset, let `y` be the canonical serialization; canonicalizing `y` with
//! itself as base, with any charset, gives `y` again. Where the 2012 module
//! breaks that rule, wurl gives what the module itself gives when it is run
//! again on its own output (the module's fixed point), never a third answer.

use wurl::ffi;

/// `url_to_canon_url(input, base, charset)`.
fn canon(input: &str, base: Option<&str>, charset: Option<&str>) -> Option<String> {
    wurl::url_to_canon_url(input, base, charset)
}

/// Asserts `canon(input, base, charset) == want` and that `want` is a fixed
/// point (with the same charset and with UTF-8).
fn assert_canon(input: &str, base: Option<&str>, charset: Option<&str>, want: &str) {
    let got = canon(input, base, charset);
    assert_eq!(
        got.as_deref(),
        Some(want),
        "canon({input:?}, {base:?}, {charset:?})"
    );
    for cs in [charset, None] {
        assert_eq!(
            canon(want, None, cs).as_deref(),
            Some(want),
            "{want:?} is not a fixed point (charset {cs:?})"
        );
    }
    // The bulk path gives the same.
    let b = base.map(wurl::parse);
    let mut out = String::new();
    let opts = wurl::CanonOptions {
        charset,
        network_strict: false,
    };
    wurl::canon_into(b.as_ref(), input, &opts, &mut out).unwrap();
    assert_eq!(out, want, "canon_into({input:?}, {base:?})");
}

// --- The rows of the table ------------------------------------------------

/// Row "A hierarchical path never keeps a dot segment": an empty, `?…` or
/// `#…` reference copies the base's path as it is (resolution step 6,
/// relative steps 4 and 5), so the 2012 module gives
/// `http://example.com/a/b/../c/./d`; run again it gives `…/a/c/d`.
#[test]
fn path_dot_segments_always_removed() {
    let base = Some("http://example.com/a/b/../c/./d");
    assert_canon("", base, None, "http://example.com/a/c/d");
    assert_canon("?q", base, None, "http://example.com/a/c/d?q");
    assert_canon("#f", base, None, "http://example.com/a/c/d#f");
    assert_canon("http:", base, None, "http://example.com/a/c/d");
}

/// Row "`%2F` and `%5C` in a `file:` path are always separators": "merge
/// path" decodes them in the reference's half only (relative step 6.5.1),
/// so the 2012 module gives `file:///a%2fb/a/b/c` for `file:a%2fb/c`
/// against itself; run again (step 2.2.1 decodes the whole path) it gives
/// `file:///a/b/a/b/c`.
#[test]
fn file_path_slash_escapes_always_decoded() {
    assert_canon("file:a%2fb/c", None, None, "file:///a/b/a/b/c");
    assert_canon("x", Some("file:///a%5Cb/c"), None, "file:///a/b/x");
    assert_canon("", Some("file:///a%2Fb"), None, "file:///a/b");
    // Not in other schemes: resolution decodes them only for `file:`.
    assert_canon("http://a/b%2Fc%5Cd", None, None, "http://a/b%2Fc%5Cd");
}

/// Row "Escapes of unreserved characters are decoded to a fixed point":
/// the 2012 module decodes once, `%3%35` → `%35`; run again → `5`.
#[test]
fn path_unreserved_escapes_decoded_to_fixed_point() {
    assert_canon("http://a/%3%35", None, None, "http://a/5");
    assert_canon("http://a/%%34%31", None, None, "http://a/A");
    // `%2%35` decodes to `%25`, which is not an unreserved escape.
    assert_canon("http://a/%2%35", None, None, "http://a/%25");
}

/// Row "A dot segment made by decoding is removed": the 2012 module gives
/// `http://a/public/%2e%2e/admin` (decoding made `%2e%2e` after "remove
/// dot-segments" ran); run again → `http://a/admin`, and every later
/// parser reads `%2e%2e` as `..` too.
#[test]
fn path_dot_segments_made_by_decoding_removed() {
    assert_canon(
        "http://a/public/%2%65%2%65/admin",
        None,
        None,
        "http://a/admin",
    );
    assert_canon("%2%65/x", Some("http://a/b/c"), None, "http://a/b/x");
}

/// Row "A `%2F` or `%5C` made by decoding in a `file:` path is a
/// separator": the 2012 module gives `file:///a/%5cb` for
/// `file:///a/%5%63b`; run again → `file:///a//b`.
#[test]
fn file_slash_escapes_made_by_decoding_become_separators() {
    assert_canon("file:///a/%5%63b", None, None, "file:///a//b");
    assert_canon("file:///a/%2%66b", None, None, "file:///a//b");
    assert_canon("file:///a/%%32%66b", None, None, "file:///a//b");
    assert_canon("file:///a/%%35%63b", None, None, "file:///a//b");
}

/// Row "An encoder-made `#` in the query is escaped": ISO-2022-JP writes
/// 0x23 inside `。` (`ESC $ B ! #`); the 2012 module leaves it raw,
/// `http://a/?%1B$B!#%1B(B`, which every parser reads back with a fragment
/// `%1B(B` that the document never had.
#[test]
fn query_hash_from_encoder_escaped() {
    assert_canon(
        "http://a/?\u{3002}",
        None,
        Some("iso-2022-jp"),
        "http://a/?%1B$B!%23%1B(B",
    );
    // A `#` the query had as a character cannot be there (it starts the
    // fragment), so only encoder bytes are concerned.
    let u = wurl::parse("http://a/?%1B$B!%23%1B(B");
    assert_eq!(u.fragment(), None);
}

/// Row "Inputs over 16 MiB are refused" (C ABI, CLI, bindings): the 2012
/// module has no limit; wurl returns `WURL_E_TOO_LONG` so that memory stays
/// bounded whatever a caller passes.
#[test]
fn input_longer_than_16_mib_refused() {
    let mut s = String::from("http://a/");
    s.push_str(&"a".repeat(ffi::WURL_MAX_INPUT_LEN + 1 - s.len()));
    let mut n = 0usize;
    let st = ffi::wurl_canon_into(
        std::ptr::null(),
        s.as_ptr().cast(),
        s.len(),
        std::ptr::null(),
        0,
        0,
        std::ptr::null_mut(),
        0,
        &mut n,
    );
    assert_eq!(st, ffi::WURL_E_TOO_LONG);
    let mut h = std::ptr::null_mut();
    assert_eq!(
        ffi::wurl_parse(s.as_ptr().cast(), s.len(), 0, &mut h),
        ffi::WURL_E_TOO_LONG
    );
    assert!(h.is_null());
    // One byte less is accepted.
    assert_eq!(
        ffi::wurl_parse(s.as_ptr().cast(), s.len() - 1, 0, &mut h),
        ffi::WURL_OK
    );
    ffi::wurl_free(h);
}

/// Row "Input bytes are UTF-8": the C ABI (and the CLI, Perl, Ruby) read
/// bytes as UTF-8 and replace each maximal invalid subpart by U+FFFD, where
/// the Perl module, given bytes, reads them as Latin-1 characters.
#[test]
fn invalid_utf8_becomes_replacement_character() {
    let input = b"http://a/\xE2\x98\xBA\xFF";
    let mut buf = [0u8; 64];
    let mut n = 0usize;
    let st = ffi::wurl_canon_into(
        std::ptr::null(),
        input.as_ptr().cast(),
        input.len(),
        std::ptr::null(),
        0,
        0,
        buf.as_mut_ptr().cast(),
        buf.len(),
        &mut n,
    );
    assert_eq!(st, ffi::WURL_OK);
    assert_eq!(&buf[..n], b"http://a/%E2%98%BA%EF%BF%BD");
}

/// Row "Unicode is current Unicode": the suite was generated with Unicode
/// 6.0; NFKC, case mapping and bidi classes of code points assigned since
/// then follow current Unicode (the spec asks for the latest). All 393 such
/// results are listed in `tests/data/unicode32-differences.tsv` and checked
/// by `tests/unicode32.rs`; one of them here.
#[test]
fn unicode_version_is_current() {
    // U+1EE00 ARABIC MATHEMATICAL ALEF (Unicode 6.1) maps to U+0627 under
    // NFKC; Unicode 6.0 left it unassigned.
    assert_canon(
        "http://\u{640}\u{1EE00}\u{641}/",
        None,
        None,
        "http://xn--mgb3ce/",
    );
    let tsv = include_str!("data/unicode32-differences.tsv");
    assert!(tsv.contains("http://\\u{640}\\u{1EE00}\\u{641}/\tU+1EE00\t6.1"));
}

/// Row "An opaque path ends without spaces": preprocessing trims the input,
/// not the base, so an empty, `?…`-less `#…`-less reference copies a
/// base's opaque path with the spaces before its `#` (resolution step 2:
/// the base without its fragment), and OPAQUE_PATH leaves spaces raw: the
/// 2012 module gives `foo:a  `; run again, preprocessing trims the spaces
/// and it gives `foo:a`.
#[test]
fn opaque_path_trailing_spaces_trimmed() {
    assert_canon("", Some("foo:a  #x"), None, "foo:a");
    // `javascript:` URLs are all path (`#` included): nothing to trim.
    assert_canon("", Some("javascript:a #x"), None, "javascript:a #x");
    assert_canon(
        "",
        Some("dAtjscript:a % 55a :// #x"),
        None,
        "datjscript:a % 55a ://",
    );
    assert_canon("", Some("foo:  #x"), None, "foo:");
    // Spaces inside the path, or before a query, stay.
    assert_canon("", Some("foo:a b #x"), None, "foo:a b");
    assert_canon("", Some("foo:a  ?q#x"), None, "foo:a  ?q");
}

// --- The regressions of issue 10 -----------------------------------------

/// The three inputs of issue 10's table (the input its own base): each
/// output is what the 2012 module gives on its own output (its second
/// column there), now given at once.
#[test]
fn issue10_file_merge_regressions() {
    assert_canon(
        "file:localhostjavascript:\u{FF20}%2f9foo:%25//0foo:\u{FC}9\nn\r-",
        None,
        None,
        "file:///localhostjavascript:%EF%BC%A0/9foo:%25//localhostjavascript:%EF%BC%A0/9foo:%25//0foo:%C3%BC9n-",
    );
    assert_canon(
        "file:=%00:%2f.):80%\na[::1]\\+\n",
        None,
        None,
        "file:///=%00:/.):80%a[::1]/=%00:/.):80%a[::1]/+",
    );
    assert_canon("file:a%2fb/c", None, None, "file:///a/b/a/b/c");
}

/// The three inputs of issue 10's `file:` separator bug (the rule looked at
/// the whole path, so a `%2F` from the base's half switched it off). The
/// 2012 module, run to its fixed point: `file:///a%2Fb/c/%2e%2e/x` →
/// `file:///a/b/x`; `file:///a%2Fb/%2e%2e/x` → `file:///a/x`;
/// `file:///a%2Fb/%2e%2e/a/b/%2e%2e/c` → `file:///a/a/c`.
#[test]
fn issue10_file_separator_rule_regressions() {
    assert_canon(
        "%2%65%2%65/x",
        Some("file:///a%2Fb/c/d"),
        None,
        "file:///a/b/x",
    );
    assert_canon("%2%65%2%65/x", Some("file:///a%2Fb/d"), None, "file:///a/x");
    assert_canon("file:a%2Fb/%2%65%2%65/c", None, None, "file:///a/a/c");
}
