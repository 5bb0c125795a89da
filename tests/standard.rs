//! The URL Standard model against the URL Standard's own tests (the Web
//! Platform Tests' urltestdata.json, tests/data/wpt), through the Rust API,
//! the key call and the C ABI's bulk calls with `WURL_FLAG_URL_STANDARD`;
//! and the opt-in rules and SURT on every result it gives.

use std::ffi::c_char;
use std::path::Path;

use wurl::ffi::{
    WURL_E_BAD_ARG, WURL_FLAG_NETWORK_STRICT, WURL_FLAG_URL_STANDARD, WURL_INVALID_URL, WURL_OK,
    wurl_canon_into, wurl_canon_key_into, wurl_canon_standard_into, wurl_canonicalize, wurl_free,
    wurl_parse, wurl_serialize, wurl_url,
};

/// `[input, base, href]` of every test (href `None`: the parser fails).
fn cases() -> Vec<(String, Option<String>, Option<String>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/wpt/urltestdata-href.json");
    let text = std::fs::read_to_string(path).expect("urltestdata-href.json");
    let rows: Vec<(String, Option<String>, Option<String>)> =
        serde_json::from_str(&text).expect("JSON");
    assert!(rows.len() > 700, "{} tests", rows.len());
    rows
}

/// A `wurl_parse` handle of `s`.
fn parsed(s: &str) -> *mut wurl_url {
    let mut h = std::ptr::null_mut();
    assert_eq!(wurl_parse(s.as_ptr().cast(), s.len(), 0, &mut h), WURL_OK);
    h
}

/// `wurl_canon_into` with `flags`: the result, or the status.
fn c_canon(base: *const wurl_url, input: &str, flags: u32) -> Result<String, i32> {
    let mut buf = vec![0u8; input.len() * 12 + 256];
    let mut len = 0usize;
    let st = wurl_canon_into(
        base,
        input.as_ptr().cast::<c_char>(),
        input.len(),
        std::ptr::null(),
        0,
        flags,
        buf.as_mut_ptr().cast(),
        buf.len(),
        &mut len,
    );
    if st != WURL_OK {
        return Err(st);
    }
    Ok(String::from_utf8(buf[..len].to_vec()).expect("UTF-8"))
}

/// `wurl_canon_standard_into` (the base as a string): the result, or the
/// status.
fn c_standard(base: Option<&str>, input: &str) -> Result<String, i32> {
    let mut buf = vec![0u8; input.len() * 12 + 256];
    let mut len = 0usize;
    let b = base.unwrap_or("");
    let st = wurl_canon_standard_into(
        b.as_ptr().cast(),
        b.len(),
        input.as_ptr().cast(),
        input.len(),
        std::ptr::null(),
        0,
        std::ptr::null(),
        0,
        buf.as_mut_ptr().cast(),
        buf.len(),
        &mut len,
    );
    if st != WURL_OK {
        return Err(st);
    }
    Ok(String::from_utf8(buf[..len].to_vec()).expect("UTF-8"))
}

/// The serialization of a `wurl_parse` handle (`None`: invalid).
fn serialization(h: *const wurl_url) -> Option<String> {
    let (mut p, mut n) = (std::ptr::null(), 0usize);
    if !wurl_serialize(h, &mut p, &mut n) {
        return None;
    }
    // SAFETY: `wurl_serialize` gave a view of `n` bytes that lives as long
    // as the handle, which the caller still holds.
    let v = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n) };
    Some(String::from_utf8(v.to_vec()).expect("UTF-8"))
}

#[test]
fn urltestdata_through_rust_and_c() {
    let mut failures = Vec::new();
    let (mut valid, mut invalid, mut rebased) = (0, 0, 0);
    for (input, base, href) in cases() {
        let mut out = String::new();
        let rust = wurl::canon_standard_into(base.as_deref(), &input, None, &mut out)
            .ok()
            .map(|()| out.clone());
        let mut key = String::new();
        let keyed = wurl::key_standard_into(
            base.as_deref(),
            &input,
            None,
            &wurl::KeyOptions::default(),
            &mut key,
        )
        .ok()
        .map(|()| key.clone());
        let c = match c_standard(base.as_deref(), &input) {
            Ok(s) => Some(s),
            Err(st) => {
                assert_eq!(st, WURL_INVALID_URL, "{input:?} against {base:?}");
                None
            }
        };
        // The flag on the bulk call, against a `wurl_parse` handle: the
        // URL Standard's result against the handle's serialization, which
        // is the base itself unless the 2012 parser reads it otherwise.
        let h = base.as_deref().map_or(std::ptr::null_mut(), parsed);
        let via_handle = c_canon(h, &input, WURL_FLAG_URL_STANDARD).ok();
        let ser = if h.is_null() { None } else { serialization(h) };
        wurl_free(h);
        if base.is_none() || ser == base {
            assert_eq!(via_handle, href, "{input:?} against {base:?} (handle)");
        } else {
            rebased += 1;
            let want = match &ser {
                Some(b) => wurl::standard::canon(Some(b), &input, None).ok(),
                None => None,
            };
            assert_eq!(via_handle, want, "{input:?} against {ser:?} (handle)");
        }
        if href.is_some() {
            valid += 1;
        } else {
            invalid += 1;
        }
        if rust != href || keyed != href || c != href {
            failures.push(format!(
                "{input:?} against {base:?}: want {href:?}, rust {rust:?}, key {keyed:?}, C {c:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        valid > 500 && invalid > 100,
        "{valid} valid, {invalid} failures"
    );
    // Few bases does the 2012 parser serialize otherwise (`a:`, ...).
    assert!(
        rebased < 40,
        "{rebased} bases read otherwise by the 2012 parser"
    );
}

#[test]
fn the_issue_example_and_the_default() {
    let input = "http://faß.de/a\\b/../c";
    assert_eq!(
        c_canon(std::ptr::null(), input, WURL_FLAG_URL_STANDARD).as_deref(),
        Ok("http://xn--fa-hia.de/a/c")
    );
    assert_eq!(
        c_canon(std::ptr::null(), input, 0).as_deref(),
        Ok("http://fass.de/a/c")
    );
    // Against a base handle, and with an invalid one.
    let base = parsed("http://ex.com/a/b");
    assert_eq!(
        c_canon(base, "../c d", WURL_FLAG_URL_STANDARD).as_deref(),
        Ok("http://ex.com/c%20d")
    );
    wurl_free(base);
    let bad = parsed("nope");
    assert_eq!(
        c_canon(bad, "http://a/", WURL_FLAG_URL_STANDARD),
        Err(WURL_INVALID_URL)
    );
    wurl_free(bad);
    // Not with the network-strict flag, and not on handles.
    assert_eq!(
        c_canon(
            std::ptr::null(),
            input,
            WURL_FLAG_URL_STANDARD | WURL_FLAG_NETWORK_STRICT
        ),
        Err(WURL_E_BAD_ARG)
    );
    let h = parsed(input);
    let mut out = std::ptr::null_mut();
    assert_eq!(
        wurl_canonicalize(h, std::ptr::null(), 0, WURL_FLAG_URL_STANDARD, &mut out),
        WURL_E_BAD_ARG
    );
    wurl_free(h);
}

#[test]
fn charset_encodes_the_query_of_special_urls() {
    let mut out = String::new();
    wurl::canon_standard_into(
        None,
        "http://a/\u{e9}?\u{e9}#\u{e9}",
        Some("windows-1252"),
        &mut out,
    )
    .unwrap();
    assert_eq!(out, "http://a/%C3%A9?%E9#%C3%A9");
    out.clear();
    // Characters the encoding lacks: a numeric character reference.
    wurl::canon_standard_into(None, "http://a/?\u{3042}", Some("latin1"), &mut out).unwrap();
    assert_eq!(out, "http://a/?%26%2312354%3B");
    out.clear();
    // ISO-2022-JP: encoding_rs's replacement, the `#` of which is escaped.
    wurl::canon_standard_into(None, "http://a/?\u{e9}", Some("iso-2022-jp"), &mut out).unwrap();
    assert_eq!(out, "http://a/?&%23233;");
    out.clear();
    // Not special: UTF-8 whatever the charset.
    wurl::canon_standard_into(None, "x:/?\u{e9}", Some("windows-1252"), &mut out).unwrap();
    assert_eq!(out, "x:/?%C3%A9");
}

/// The rules and SURT read the serialization of either model. On every
/// URL Standard result: no panic; the ruled URL is again a URL Standard
/// serialization (parsing it gives it back), the rules are idempotent
/// on it, and the key of the C ABI's key call is the Rust one.
#[test]
fn rules_and_surt_on_url_standard_results() {
    let spec =
        "drop-fragment,strip-www,sort-query,drop-params=utm_*|x,strip-session-ids,drop-userinfo";
    let rules = wurl::Rules::parse(spec).unwrap();
    let mut crules = std::ptr::null_mut();
    assert_eq!(
        wurl::ffi::wurl_rules_compile(
            spec.as_ptr().cast(),
            spec.len(),
            &mut crules,
            std::ptr::null_mut(),
            0
        ),
        WURL_OK
    );
    let mut checked = 0;
    let mut inputs: Vec<(String, Option<String>)> =
        cases().into_iter().map(|(i, b, _)| (i, b)).collect();
    inputs.extend(
        [
            "http://u:p@www.example.com/a;jsessionid=1/b?utm_a=1&b=2&x=3&a=1#f",
            "https://www.faß.de/?b&a#",
            "mailto:a@b?subject=x#f",
            "javascript:alert(1)?q#f",
            "data:text/html,a?b#c",
            "foo://www.h.com/p?b&a#f",
            "file:///c:/x?q#f",
        ]
        .map(|s| (s.to_owned(), None)),
    );
    for (input, base) in inputs {
        let Ok(canon) = wurl::standard::canon(base.as_deref(), &input, None) else {
            continue;
        };
        let ruled = rules.apply(&canon);
        assert_eq!(
            wurl::standard::canon(None, &ruled, None).as_deref(),
            Ok(ruled.as_str()),
            "{canon:?} ruled"
        );
        assert_eq!(rules.apply(&ruled), ruled, "{canon:?}: idempotent");
        for with_scheme in [false, true] {
            let surt = wurl::surt::surt(&ruled, &wurl::surt::SurtOptions { with_scheme });
            assert!(!surt.is_empty(), "{canon:?}");
            let mut key = String::new();
            let opts = wurl::KeyOptions {
                rules: Some(&rules),
                surt: Some(wurl::surt::SurtOptions { with_scheme }),
            };
            wurl::key_standard_into(base.as_deref(), &input, None, &opts, &mut key).unwrap();
            assert_eq!(key, surt, "{canon:?}");
            // The C ABI's key calls give the same key: the base as a
            // string, and (when the 2012 parse serializes it as it is) as
            // a handle with the flag.
            let b = base.as_deref().unwrap_or("");
            let kf = if with_scheme { 2 } else { 1 };
            let mut buf = vec![0u8; key.len() + 1];
            let mut len = 0;
            let st = wurl_canon_standard_into(
                b.as_ptr().cast(),
                b.len(),
                input.as_ptr().cast(),
                input.len(),
                std::ptr::null(),
                0,
                crules,
                kf,
                buf.as_mut_ptr().cast(),
                buf.len(),
                &mut len,
            );
            assert_eq!(st, WURL_OK, "{input:?}");
            assert_eq!(&buf[..len], key.as_bytes(), "{input:?}");
            let h = base.as_deref().map_or(std::ptr::null_mut(), parsed);
            if h.is_null() || serialization(h) == base {
                let st = wurl_canon_key_into(
                    h,
                    input.as_ptr().cast(),
                    input.len(),
                    std::ptr::null(),
                    0,
                    WURL_FLAG_URL_STANDARD,
                    crules,
                    kf,
                    buf.as_mut_ptr().cast(),
                    buf.len(),
                    &mut len,
                );
                assert_eq!(st, WURL_OK, "{input:?}");
                assert_eq!(&buf[..len], key.as_bytes(), "{input:?}");
            }
            wurl_free(h);
        }
        checked += 1;
    }
    wurl::ffi::wurl_rules_free(crules);
    assert!(checked > 500, "{checked}");
}
