//! `wurl_canonicalize_as` (and `canonicalize::canonicalize_as`): the
//! canonicalization of a handle with its /hierarchical/ flag and its
//! query's encoded octets given by the caller, which the Perl drop-in of
//! the 2012 module uses (the module read the flag from its hash and
//! encoded the query with Perl's Encode). Without either it is exactly
//! `wurl_canonicalize` with no charset.

use std::ffi::c_char;

use wurl::ffi::{self, wurl_url};

/// A handle freed on drop.
struct H(*mut wurl_url);

impl Drop for H {
    fn drop(&mut self) {
        ffi::wurl_free(self.0);
    }
}

fn parse(s: &str) -> H {
    let mut out = std::ptr::null_mut();
    assert_eq!(
        ffi::wurl_parse(s.as_ptr().cast(), s.len(), 0, &mut out),
        ffi::WURL_OK
    );
    H(out)
}

fn resolve(base: &H, s: &str) -> H {
    let mut out = std::ptr::null_mut();
    let st = ffi::wurl_resolve(base.0, s.as_ptr().cast(), s.len(), 0, &mut out);
    assert_eq!(st, ffi::WURL_OK);
    H(out)
}

fn serialize(h: &H) -> Option<String> {
    let mut p: *const c_char = std::ptr::null();
    let mut n = 0usize;
    if !ffi::wurl_serialize(h.0, &mut p, &mut n) {
        return None;
    }
    // SAFETY: wurl_serialize returned a view of `n` bytes owned by the handle.
    let b = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n) };
    Some(String::from_utf8(b.to_vec()).unwrap())
}

fn canon_as(h: &H, hier: i32, octets: Option<&[u8]>) -> H {
    let mut out = std::ptr::null_mut();
    let (p, n) = match octets {
        Some(o) => (o.as_ptr().cast::<c_char>(), o.len()),
        None => (std::ptr::null(), 0),
    };
    assert_eq!(
        ffi::wurl_canonicalize_as(h.0, hier, p, n, 0, &mut out),
        ffi::WURL_OK
    );
    H(out)
}

fn canon(h: &H) -> H {
    let mut out = std::ptr::null_mut();
    let st = ffi::wurl_canonicalize(h.0, std::ptr::null(), 0, 0, &mut out);
    assert_eq!(st, ffi::WURL_OK);
    H(out)
}

#[test]
fn without_options_it_is_wurl_canonicalize() {
    for s in [
        "http://EXAMPLE.com:80/a/../b?\u{e9} x#\u{e9}",
        "HTTP://a%00b/",
        "javascript:x?\u{e9}",
        "mailto:A@b?\u{e9}",
        "file://c:/windows\\",
        "foo:bar",
        "http://a:65536/",
        "data:,\u{263a}",
    ] {
        let h = parse(s);
        let (a, b) = (canon_as(&h, -1, None), canon(&h));
        assert_eq!(serialize(&a), serialize(&b), "{s}");
        assert_eq!(ffi::wurl_is_invalid(a.0), ffi::wurl_is_invalid(b.0), "{s}");
    }
}

#[test]
fn query_octets_are_percent_encoded_with_the_query_set() {
    let h = parse("http://h/?\u{e9}");
    assert_eq!(
        serialize(&canon_as(&h, -1, Some(&[0xE9]))).as_deref(),
        Some("http://h/?%E9")
    );
    // The query's set: space, '"', '<', '>' and octets outside 0x21..0x7E
    // are escaped; '%', '~', '?' and the rest are not; an encoder's '#' is
    // escaped (docs/DIFFERENCES.md, `query_hash_from_encoder_escaped`).
    let octets = b" \"<>%~#?a\x7f\x00\x1b$)C";
    assert_eq!(
        serialize(&canon_as(&h, -1, Some(octets))).as_deref(),
        Some("http://h/?%20%22%3C%3E%~%23?a%7F%00%1B$)C")
    );
    // Empty octets: an empty query.
    assert_eq!(
        serialize(&canon_as(&h, -1, Some(b""))).as_deref(),
        Some("http://h/?")
    );
    // The fragment and everything else are canonicalized as ever.
    let r = resolve(&parse("http://EXAMPLE.com:80/a/b"), "../c?\u{20ac}#\u{e9}");
    assert_eq!(
        serialize(&canon_as(&r, -1, Some(b"\x80"))).as_deref(),
        Some("http://example.com/c?%80#\u{e9}")
    );
}

#[test]
fn query_octets_are_used_only_for_a_hierarchical_url_with_a_query() {
    for (s, want) in [
        ("javascript:x?\u{e9}", "javascript:x?%C3%A9"),
        ("mailto:a?\u{e9}", "mailto:a?%C3%A9"),
        ("http://h/", "http://h/"),
        ("http://h/#\u{e9}", "http://h/#\u{e9}"),
    ] {
        assert_eq!(
            serialize(&canon_as(&parse(s), -1, Some(&[0xE9]))).as_deref(),
            Some(want),
            "{s}"
        );
    }
    // An invalid URL stays invalid whatever the octets.
    let bad = canon_as(&parse("http://a%00b/?x"), -1, Some(b"y"));
    assert!(ffi::wurl_is_invalid(bad.0));
    assert!(ffi::wurl_is_invalid(
        canon_as(&parse("http://a:x/?q"), 1, Some(b"y")).0
    ));
}

#[test]
fn the_hierarchical_flag_given() {
    // Hierarchical: the path gets its leading '/' and the path's set.
    let h = parse("foo:bar x");
    let a = canon_as(&h, 1, None);
    assert_eq!(serialize(&a).as_deref(), Some("foo:/bar%20x"));
    // Not hierarchical: the opaque path's set (space stays).
    let h = parse("http://a/x y?\u{e9}");
    let a = canon_as(&h, 0, None);
    assert_eq!(serialize(&a).as_deref(), Some("http://a/x y?%C3%A9"));
    // ... and its query is UTF-8, whatever the octets.
    let b = canon_as(&h, 0, Some(&[0xE9]));
    assert_eq!(serialize(&b).as_deref(), Some("http://a/x y?%C3%A9"));
    // The flag of the result is the one given: canonicalizing again keeps it.
    assert_eq!(serialize(&canon(&a)), serialize(&a));
    let url = wurl::parse("foo:bar");
    assert!(!url.is_hierarchical());
    let c = wurl::canonicalize::canonicalize_as(&url, Some(true), None, &Default::default());
    assert!(c.is_hierarchical());
    assert_eq!(c.serialize().as_deref(), Some("foo:/bar"));
}

#[test]
fn bad_arguments() {
    let h = parse("http://h/?q");
    let mut out = std::ptr::null_mut();
    let q = b"x";
    assert_eq!(
        ffi::wurl_canonicalize_as(std::ptr::null(), -1, std::ptr::null(), 0, 0, &mut out),
        ffi::WURL_E_NULL_ARG
    );
    assert_eq!(
        ffi::wurl_canonicalize_as(h.0, -1, q.as_ptr().cast(), 1, 0, std::ptr::null_mut()),
        ffi::WURL_E_NULL_ARG
    );
    assert_eq!(
        ffi::wurl_canonicalize_as(h.0, -1, q.as_ptr().cast(), 1, u32::MAX, &mut out),
        ffi::WURL_E_BAD_ARG
    );
    assert!(out.is_null());
}
