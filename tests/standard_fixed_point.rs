//! The URL Standard model's output is a fixed point: canonicalizing it gives it back. Inputs are
//! put together from the pieces where the parser has special cases (`file:` hosts, drive letters,
//! empty and dot segments, slashes and backslashes).

use proptest::prelude::*;

const PIECES: &[&str] = &[
    "file:",
    "http:",
    "x:",
    "//",
    "/",
    "\\",
    "c:",
    "C|",
    "c|",
    "d:",
    ";",
    "h",
    "localhost",
    "..",
    ".",
    "%2e",
    "?",
    "#",
    "a",
    "1.2.3.4",
    "[::1]",
    ":",
    "@",
    "c:x",
    "|",
    "%7C",
];

fn canon(base: Option<&str>, s: &str) -> Option<String> {
    wurl::standard::canon(base, s, None).ok()
}

fn check(base: Option<&str>, input: &str) {
    let Some(c) = canon(base, input) else { return };
    assert_eq!(
        canon(None, &c).as_deref(),
        Some(c.as_str()),
        "{input:?} against {base:?}"
    );
    let mut out = String::new();
    wurl::canon_standard_into(base, input, None, &mut out).unwrap();
    assert_eq!(
        out, c,
        "{input:?}: canon_standard_into gives what canon gives"
    );
}

#[test]
fn drive_letters_hidden_by_empty_segments() {
    for (input, want) in [
        ("file://;//////////////////c:/x", "file:///c:/x"),
        ("file://h//c:/x", "file:///c:/x"),
        ("file://h//c|/x", "file:///c:/x"),
        // Without a host the parser gives its serialization back.
        ("file:////c|/x", "file:///c|/x"),
        ("file:////c|", "file:///c|"),
        // No drive letter after the empty segments, or the host stays: unchanged.
        ("file://h//cc:/x", "file://h/cc:/x"),
        ("file://h/c:/x", "file:///c:/x"),
    ] {
        assert_eq!(canon(None, input).as_deref(), Some(want), "{input:?}");
        check(None, input);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]
    #[test]
    fn url_standard_output_is_a_fixed_point(
        parts in prop::collection::vec(prop::sample::select(PIECES), 1..12),
        base in prop::option::of(prop::sample::select(&[
            "file://h/", "file:///c:/a/b", "file://h/d|/", "http://a/b/c", "x:/y"][..])),
    ) {
        check(base, &parts.concat());
    }
}
