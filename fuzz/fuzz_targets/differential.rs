//! `differential`: the fast exits for canonical input (`src/fast/`)
//! against the stages. Each case (input, optional base) is canonicalized
//! with the fast exits on and off, through the Rust bulk call, the Rust
//! handle path, and the C ABI's bulk call and handle path on the raw bytes;
//! the results (serialization, or validity and reason) must be the same.
//! Then under a charset label (the case's own, or one of each class picked
//! by its control byte: the fast exits answer for UTF-8 labels and for ASCII
//! input under other ASCII-compatible ones): the bulk calls must give what
//! the stages (`canon_into_stages`) give with that label, and the handle
//! path what it gives with the fast exits off.
#![no_main]

#[path = "../../tests/common/invariants.rs"]
#[allow(dead_code)]
mod invariants;

use libfuzzer_sys::fuzz_target;
use wurl::api::set_fast_exits;
use wurl::ffi::*;

/// A serialization, or the invalid reason (`""` from the C bulk call).
type Outcome = Result<String, &'static str>;

fn rust_bulk(input: &str, base: Option<&str>) -> Outcome {
    let base = base.map(wurl::parse);
    let mut out = String::new();
    wurl::canon_into(
        base.as_ref(),
        input,
        &wurl::CanonOptions::default(),
        &mut out,
    )
    .map(|()| out)
    .map_err(|r| r.as_str())
}

fn rust_handle(input: &str, base: Option<&str>) -> Outcome {
    let b = wurl::parse(base.unwrap_or(input));
    let c = wurl::canonicalize(&wurl::resolve(&b, input), None);
    match c.invalid_reason() {
        Some(r) => Err(r.as_str()),
        None => Ok(c.serialize().unwrap()),
    }
}

/// A label of each charset class: UTF-8 (three spellings, and UTF-16,
/// whose query is written in UTF-8), ASCII-compatible single-byte and
/// multi-byte, and ISO-2022-JP, which only the stages write.
const LABELS: [&[u8]; 6] = [
    b"utf-8",
    b" UTF8 ",
    b"utf-16le",
    b"iso-8859-1",
    b"shift_jis",
    b"iso-2022-jp",
];

fn c_bulk(input: &[u8], base: Option<&[u8]>) -> Outcome {
    c_bulk_label(input, base, b"")
}

/// The charset checks of one case under `label`.
fn check_label(input: &str, raw: &[u8], base: Option<&str>, base_raw: Option<&[u8]>, label: &[u8]) {
    let label_str = String::from_utf8_lossy(label);
    let opts = wurl::CanonOptions {
        charset: Some(&label_str),
        network_strict: false,
    };
    let b = base.map(wurl::parse);
    let mut out = String::new();
    let stages = wurl::canonicalize::canon_into_stages(b.as_ref(), input, &opts, &mut out)
        .map(|()| out)
        .map_err(|r| r.as_str());
    let mut out = String::new();
    let bulk = wurl::canon_into(b.as_ref(), input, &opts, &mut out)
        .map(|()| out)
        .map_err(|r| r.as_str());
    assert_eq!(
        bulk, stages,
        "Rust bulk, charset {label_str:?}: {input:?} against {base:?}"
    );
    let c = c_bulk_label(raw, base_raw, label);
    assert_eq!(
        c,
        stages.clone().map_err(|_| ""),
        "C bulk, charset {label_str:?}: {input:?} against {base:?}"
    );
    let handle = |input: &str| {
        let p = wurl::parse(base.unwrap_or(input));
        let c = wurl::canonicalize(&wurl::resolve(&p, input), Some(&label_str));
        match c.invalid_reason() {
            Some(r) => Err(r.as_str()),
            None => Ok(c.serialize().unwrap()),
        }
    };
    set_fast_exits(false);
    let slow = handle(input);
    set_fast_exits(true);
    assert_eq!(
        handle(input),
        slow,
        "Rust handle, charset {label_str:?}: {input:?} against {base:?}"
    );
}

fn c_bulk_label(input: &[u8], base: Option<&[u8]>, label: &[u8]) -> Outcome {
    let mut h = std::ptr::null_mut();
    let mut base_len = 0;
    if let Some(b) = base {
        assert_eq!(wurl_parse(b.as_ptr().cast(), b.len(), 0, &mut h), WURL_OK);
        let _ = wurl_serialize(h, std::ptr::null_mut(), &mut base_len);
    }
    // Sized once by the documented bound: the call never asks for more.
    let mut buf = vec![0u8; wurl_output_bound(base_len, input.len(), 0)];
    let mut len = 0usize;
    let st = wurl_canon_into(
        h,
        input.as_ptr().cast(),
        input.len(),
        label.as_ptr().cast(),
        label.len(),
        0,
        buf.as_mut_ptr().cast(),
        buf.len(),
        &mut len,
    );
    wurl_free(h);
    match st {
        WURL_OK => Ok(String::from_utf8(buf[..len].to_vec()).unwrap()),
        WURL_INVALID_URL | WURL_E_TOO_LONG => Err(""),
        WURL_E_BUFFER_TOO_SMALL => panic!("{len} bytes: longer than wurl_output_bound"),
        other => panic!("status {other}"),
    }
}

/// `wurl_parse`, `wurl_resolve` against it (or `base`'s parse) and `wurl_canonicalize`, on the
/// raw bytes.
fn c_handle(input: &[u8], base: Option<&[u8]>) -> Outcome {
    let b = base.unwrap_or(input);
    let mut h = std::ptr::null_mut();
    assert_eq!(wurl_parse(b.as_ptr().cast(), b.len(), 0, &mut h), WURL_OK);
    let mut r = std::ptr::null_mut();
    assert_eq!(
        wurl_resolve(h, input.as_ptr().cast(), input.len(), 0, &mut r),
        WURL_OK
    );
    let mut c = std::ptr::null_mut();
    assert_eq!(
        wurl_canonicalize(r, std::ptr::null(), 0, 0, &mut c),
        WURL_OK
    );
    let (mut p, mut n) = (std::ptr::null(), 0usize);
    let out = if wurl_serialize(c, &mut p, &mut n) {
        // SAFETY: a view of `n` octets that lives until `wurl_free(c)`.
        let bytes = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n) };
        Ok(String::from_utf8(bytes.to_vec()).unwrap())
    } else {
        // SAFETY: a static NUL-terminated string.
        let why = unsafe { std::ffi::CStr::from_ptr(wurl_invalid_reason(c)) };
        Err(why.to_str().unwrap())
    };
    wurl_free(c);
    wurl_free(r);
    wurl_free(h);
    out
}

fuzz_target!(|data: &[u8]| {
    let case = invariants::FuzzCase::from_bytes(data);
    let input = String::from_utf8_lossy(&case.input);
    let base_str = case
        .base
        .as_deref()
        .filter(|b| !b.is_empty())
        .map(String::from_utf8_lossy);
    let base_raw = case.base.as_deref().filter(|b| !b.is_empty());
    let run = || {
        [
            rust_bulk(&input, base_str.as_deref()),
            rust_handle(&input, base_str.as_deref()),
            c_bulk(&case.input, base_raw),
            c_handle(&case.input, base_raw),
        ]
    };
    set_fast_exits(false);
    let slow = run();
    set_fast_exits(true);
    let fast = run();
    assert_eq!(
        fast, slow,
        "fast exits and stages differ for {input:?} against {base_str:?}"
    );
    let label = if case.charset.is_empty() {
        LABELS[usize::from(case.control[0]) % LABELS.len()]
    } else {
        &case.charset
    };
    check_label(&input, &case.input, base_str.as_deref(), base_raw, label);
});
