//! The bulk path (`canon_into`, `wurl_canon_into`) must give exactly what
//! resolve + canonicalize + serialize give, on every conformance input and
//! on the benchmark datasets. They run the same stage functions, so this
//! checks what the bulk path does differently: its per-thread buffers,
//! resolving an input against its own parse without parsing it twice, and
//! leaving the dot segments of non-`file:` paths to canonicalization.

mod common;
#[path = "common/datasets.rs"]
mod datasets;

use common::dat::{canon_files, load};
use wurl::{CanonOptions, Url};

fn staged(base: Option<&Url>, input: &str, charset: Option<&str>) -> Option<String> {
    let own;
    let base = match base {
        Some(b) => b,
        None => {
            own = wurl::parse(input);
            &own
        }
    };
    wurl::canonicalize(&wurl::resolve(base, input), charset).serialize()
}

fn bulk(base: Option<&Url>, input: &str, charset: Option<&str>) -> Option<String> {
    let mut out = String::from("prefix:");
    let opts = CanonOptions {
        charset,
        network_strict: false,
    };
    match wurl::canon_into(base, input, &opts, &mut out) {
        Ok(()) => Some(out["prefix:".len()..].to_owned()),
        Err(_) => {
            assert_eq!(out, "prefix:", "nothing is appended for an invalid URL");
            None
        }
    }
}

fn c_abi(base: Option<&Url>, input: &str, charset: Option<&str>) -> Option<String> {
    let h = base.map_or(std::ptr::null_mut(), |b| {
        common::c_abi::parse(&b.serialize().expect("valid base"))
    });
    let out = common::c_abi::canon_into(h, input, charset);
    wurl::ffi::wurl_free(h);
    out
}

#[test]
fn bulk_equals_stages_on_conformance_inputs() {
    let mut n = 0;
    let mut files = canon_files();
    // The parse and resolve tests' inputs too: all 9,462 tests.
    files.push("parsing.dat".into());
    files.push("resolving.dat".into());
    for file in files {
        for t in load(&file) {
            let data = t.get("data").unwrap_or("");
            let charset = t.get("charset");
            let base_s = t.get("base").filter(|b| !b.is_empty());
            let base = base_s.map(wurl::parse);
            let want = staged(base.as_ref(), data, charset);
            assert_eq!(
                bulk(base.as_ref(), data, charset),
                want,
                "{file}:{} {data:?}",
                t.line
            );
            // Through the C ABI, the base must round-trip through its
            // serialization; compare only where it does.
            let base_ok = base
                .as_ref()
                .is_none_or(|b| b.serialize().is_some_and(|s| wurl::parse(&s) == *b));
            if base_ok {
                assert_eq!(
                    c_abi(base.as_ref(), data, charset),
                    want,
                    "{file}:{} {data:?} (C ABI)",
                    t.line
                );
            }
            n += 1;
        }
    }
    assert_eq!(n, 9_462);
}

#[test]
fn bulk_equals_stages_on_datasets() {
    for name in datasets::URL_LISTS {
        let lines = datasets::urls(name);
        for (i, line) in lines.iter().enumerate() {
            assert_eq!(
                bulk(None, line, None),
                staged(None, line, None),
                "{name}:{} {line:?}",
                i + 1
            );
        }
        // And each line resolved against the previous one, as a crawler
        // resolves links against the page's URL.
        let mut prev = wurl::parse("http://example.com/a/b/c?q#f");
        for line in lines.iter().take(5000) {
            assert_eq!(
                bulk(Some(&prev), line, None),
                staged(Some(&prev), line, None),
                "{name}: {line:?}"
            );
            prev = wurl::parse(line);
        }
    }
}

/// `wurl_canon_into` writes `buf` only when it returns `WURL_OK`: not for an
/// invalid URL, not when the buffer is too small, and `*out_len` not for
/// an invalid URL.
#[test]
fn c_abi_writes_buf_only_on_success() {
    use wurl::ffi::*;
    let cases: [(&str, usize, i32); 5] = [
        ("foo", 4096, WURL_INVALID_URL),
        ("http://a:99999/", 4096, WURL_INVALID_URL),
        ("http://example.com/", 19, WURL_E_BUFFER_TOO_SMALL),
        ("c:/very/long/path", 12, WURL_E_BUFFER_TOO_SMALL),
        ("http://a/%3%35", 4, WURL_E_BUFFER_TOO_SMALL),
    ];
    for (input, cap, want) in cases {
        let mut buf = vec![0xA5u8; cap];
        let mut len = usize::MAX;
        let st = wurl_canon_into(
            std::ptr::null(),
            input.as_ptr().cast(),
            input.len(),
            std::ptr::null(),
            0,
            0,
            buf.as_mut_ptr().cast(),
            buf.len(),
            &mut len,
        );
        assert_eq!(st, want, "{input}");
        assert!(buf.iter().all(|&b| b == 0xA5), "{input}: buf was written");
        if want == WURL_INVALID_URL {
            assert_eq!(len, usize::MAX, "{input}: out_len was written");
        } else {
            assert!(len >= cap, "{input}: {len} < {cap}");
        }
    }
}

/// Raw bytes through `wurl_canon_into` (which decodes them as the header
/// says) give the stages' result on the lossily decoded input.
#[test]
fn c_abi_raw_bytes_equal_lossy_stages() {
    use wurl::ffi::*;
    let inputs: [&[u8]; 8] = [
        b"http://a/\xFF\xFE?\x80#\xC3",
        b"http://a\xC0\xAF/",
        b"http://\xED\xA0\x80.com/",
        b"http://example.com/caf\xC3\xA9?q=\xE6\x97\xA5#\xC2\x85",
        b"http://ex\xC3\xA4mple.com/",
        b"http://u\xFF:p\xFE@h.com/",
        b"http://h.com:8\xFF/",
        b"HTTP://H.COM/\x00\x01 \x7F",
    ];
    for raw in inputs {
        let lossy = String::from_utf8_lossy(raw);
        let want = staged(None, &lossy, None);
        let mut buf = vec![0u8; 1024];
        let mut len = 0usize;
        let st = wurl_canon_into(
            std::ptr::null(),
            raw.as_ptr().cast(),
            raw.len(),
            std::ptr::null(),
            0,
            0,
            buf.as_mut_ptr().cast(),
            buf.len(),
            &mut len,
        );
        let got = (st == WURL_OK).then(|| String::from_utf8(buf[..len].to_vec()).unwrap());
        assert_eq!(got, want, "{raw:?}");
    }
}

/// `wurl_canon_into` with `buf` holding the input itself (a caller that
/// canonicalizes in place): the result is what it gives from a separate
/// buffer, whichever road the call takes: the input itself (canonical,
/// its own base), a part of the base and a part of the input (a merged
/// link), all of the input against a base (a canonical absolute link), or
/// the stages.
#[test]
fn c_abi_canonicalizes_in_place() {
    use wurl::ffi::*;
    let page = "http://example.com/dir/page.html?x=1";
    let cases: [(Option<&str>, &str); 10] = [
        (None, "http://example.com/a/b?q#f"),
        (None, "HTTP://Example.COM:80/a/./b"),
        (None, "http://ex\u{e4}mple.com/caf\u{e9}"),
        (Some(page), "other.html?y=2#z"),
        (Some(page), "../../x/y"),
        (Some(page), "?q"),
        (Some(page), "#frag"),
        (Some(page), "//cdn.example.net/lib.js"),
        (Some(page), "https://example.org/abs/path"),
        (Some(page), "A/%7e/./B C"),
    ];
    for (base, input) in cases {
        let b = base.map_or(std::ptr::null_mut(), common::c_abi::parse);
        let want = common::c_abi::canon_into(b, input, None).expect("valid");
        let mut buf = input.as_bytes().to_vec();
        buf.resize(want.len().max(input.len()) + 64, 0xA5);
        let mut len = 0usize;
        let st = wurl_canon_into(
            b,
            buf.as_ptr().cast(),
            input.len(),
            std::ptr::null(),
            0,
            0,
            buf.as_mut_ptr().cast(),
            buf.len(),
            &mut len,
        );
        assert_eq!(st, WURL_OK, "{input:?} against {base:?}");
        assert_eq!(&buf[..len], want.as_bytes(), "{input:?} against {base:?}");
        assert_eq!(buf[len], 0, "NUL-terminated");
        wurl_free(b);
    }
}
