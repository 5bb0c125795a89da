//! `wurl_output_bound`: every result of every bulk call, with every flag, charset, rules and key
//! flag, fits in a buffer of the bound of its input's and base's lengths. Checked on the
//! conformance suite, on code points in each component, and on random strings of the pieces
//! that expand most (invalid UTF-8, U+FDFA, spaces, legacy encodings, short IPv4 forms).

mod common;

use common::dat::{canon_files, load};
use wurl::ffi::*;

/// The rules that change most, and the key flags.
const RULES: &str =
    "drop-fragment,strip-www,sort-query,strip-session-ids,drop-userinfo,normalize-escapes";
const CHARSETS: [Option<&str>; 7] = [
    None,
    Some("shift_jis"),
    Some("iso-2022-jp"),
    Some("gb18030"),
    Some("euc-kr"),
    Some("utf-16le"),
    Some("windows-1252"),
];

struct Calls {
    rules: *mut wurl_rules,
    buf: Vec<u8>,
    /// The largest ratio seen of a result's length to its inputs' (for the message).
    worst: (f64, String),
    results: usize,
}

impl Calls {
    fn new() -> Calls {
        let mut rules = std::ptr::null_mut();
        assert_eq!(
            wurl_rules_compile(
                RULES.as_ptr().cast(),
                RULES.len(),
                &mut rules,
                std::ptr::null_mut(),
                0
            ),
            WURL_OK
        );
        Calls {
            rules,
            buf: Vec::new(),
            worst: (0.0, String::new()),
            results: 0,
        }
    }

    /// Checks one result of `call` (given a buffer and its capacity) against the bound.
    fn check(
        &mut self,
        what: &str,
        base_len: usize,
        input: &[u8],
        call: impl Fn(*mut std::ffi::c_char, usize, &mut usize) -> wurl_status,
    ) {
        let bound = wurl_output_bound(base_len, input.len(), 0);
        // A buffer of exactly the bound: the call never asks for more.
        self.buf.clear();
        self.buf.resize(bound, 0);
        let mut len = 0usize;
        let st = call(self.buf.as_mut_ptr().cast(), bound, &mut len);
        assert!(
            st != WURL_E_BUFFER_TOO_SMALL && st != WURL_E_PANIC,
            "{what} {:?} (base {base_len} bytes): status {st}, {len} bytes > bound {bound}",
            String::from_utf8_lossy(input)
        );
        if st == WURL_OK {
            assert!(len < bound);
            self.results += 1;
            let ratio = len as f64 / (base_len + input.len()).max(1) as f64;
            if ratio > self.worst.0 {
                self.worst = (
                    ratio,
                    format!("{what} {:?}", String::from_utf8_lossy(input)),
                );
            }
        }
    }

    /// Every bulk call on `input` against `base` (a string; `None`: the input is its own base).
    fn all(&mut self, input: &[u8], base: Option<&[u8]>) {
        let bh = base.map(|b| {
            let mut h = std::ptr::null_mut();
            assert_eq!(wurl_parse(b.as_ptr().cast(), b.len(), 0, &mut h), WURL_OK);
            h
        });
        let bptr = bh.unwrap_or(std::ptr::null_mut());
        let mut ser_len = 0;
        if !bptr.is_null() {
            let _ = wurl_serialize(bptr, std::ptr::null_mut(), &mut ser_len);
        }
        let rules = self.rules;
        for cs in CHARSETS {
            let c = cs.unwrap_or("");
            for flags in [0, WURL_FLAG_NETWORK_STRICT, WURL_FLAG_URL_STANDARD] {
                self.check("wurl_canon_into", ser_len, input, |b, cap, len| {
                    wurl_canon_into(
                        bptr,
                        input.as_ptr().cast(),
                        input.len(),
                        c.as_ptr().cast(),
                        c.len(),
                        flags,
                        b,
                        cap,
                        len,
                    )
                });
                for key_flags in [WURL_KEY_SURT_SCHEME, 0] {
                    self.check("wurl_canon_key_into", ser_len, input, |b, cap, len| {
                        wurl_canon_key_into(
                            bptr,
                            input.as_ptr().cast(),
                            input.len(),
                            c.as_ptr().cast(),
                            c.len(),
                            flags,
                            rules,
                            key_flags,
                            b,
                            cap,
                            len,
                        )
                    });
                }
            }
            let (bs, bl) = base.map_or((std::ptr::null(), 0), |b| (b.as_ptr(), b.len()));
            self.check("wurl_canon_standard_into", bl, input, |b, cap, len| {
                wurl_canon_standard_into(
                    bs.cast(),
                    bl,
                    input.as_ptr().cast(),
                    input.len(),
                    c.as_ptr().cast(),
                    c.len(),
                    rules,
                    WURL_KEY_SURT_SCHEME,
                    b,
                    cap,
                    len,
                )
            });
        }
        // The handle path's key: the handle's own serialization is the base length.
        let mut h = std::ptr::null_mut();
        assert_eq!(
            wurl_resolve(
                if bptr.is_null() {
                    let mut p = std::ptr::null_mut();
                    wurl_parse(input.as_ptr().cast(), input.len(), 0, &mut p);
                    p
                } else {
                    bptr
                },
                input.as_ptr().cast(),
                input.len(),
                0,
                &mut h
            ),
            WURL_OK
        );
        let mut hl = 0;
        let _ = wurl_serialize(h, std::ptr::null_mut(), &mut hl);
        for key_flags in [0, WURL_KEY_SURT_SCHEME] {
            self.check("wurl_url_key_into", hl, b"", |b, cap, len| {
                wurl_url_key_into(h, rules, key_flags, b, cap, len)
            });
        }
        wurl_free(h);
        if let Some(b) = bh {
            wurl_free(b);
        }
    }
}

impl Drop for Calls {
    fn drop(&mut self) {
        wurl_rules_free(self.rules);
    }
}

#[test]
fn the_conformance_suite_fits() {
    let mut c = Calls::new();
    let mut files = vec!["parsing.dat".to_string(), "resolving.dat".to_string()];
    files.extend(canon_files());
    for f in &files {
        for t in load(f) {
            let data = t.get("data").unwrap_or("");
            c.all(data.as_bytes(), t.get("base").map(str::as_bytes));
        }
    }
    assert!(c.results > 100_000, "{}", c.results);
    eprintln!("worst ratio {:.2}: {}", c.worst.0, c.worst.1);
}

#[test]
fn code_points_in_every_component_fit() {
    let mut c = Calls::new();
    // Every code point of one and two octets, the worst known ones, then a sample of the rest.
    let worst = [
        0xFDFA, 0xFDFB, 0x321E, 0x337F, 0x3316, 0x0390, 0x00A8, 0x3000, 0xFF61,
    ];
    let cps = (0x80..0x800)
        .chain(worst)
        .chain((0x800..0x110000).step_by(97))
        .filter_map(char::from_u32);
    for ch in cps {
        let s = ch.to_string();
        for input in [
            format!("http://{s}/"),
            format!("http://{s}{s}.{s}/"),
            format!("http://u{s}:p{s}@x/{s}?{s}#{s}"),
            format!("?{s}a{s}"),
        ] {
            c.check_text(&input, Some("http://example.com/a/b"));
        }
    }
    eprintln!("worst ratio {:.2}: {}", c.worst.0, c.worst.1);
}

impl Calls {
    fn check_text(&mut self, input: &str, base: Option<&str>) {
        // The common calls only (all charsets, one flag set), to keep the sweep short.
        let bh = base.map(common::c_abi::parse);
        let bptr = bh.unwrap_or(std::ptr::null_mut());
        let mut ser_len = 0;
        if !bptr.is_null() {
            let _ = wurl_serialize(bptr, std::ptr::null_mut(), &mut ser_len);
        }
        let rules = self.rules;
        let input = input.as_bytes();
        for cs in CHARSETS {
            let c = cs.unwrap_or("");
            self.check("wurl_canon_key_into", ser_len, input, |b, cap, len| {
                wurl_canon_key_into(
                    bptr,
                    input.as_ptr().cast(),
                    input.len(),
                    c.as_ptr().cast(),
                    c.len(),
                    0,
                    rules,
                    WURL_KEY_SURT_SCHEME,
                    b,
                    cap,
                    len,
                )
            });
            self.check("wurl_canon_into", ser_len, input, |b, cap, len| {
                wurl_canon_into(
                    bptr,
                    input.as_ptr().cast(),
                    input.len(),
                    c.as_ptr().cast(),
                    c.len(),
                    0,
                    b,
                    cap,
                    len,
                )
            });
        }
        if let Some(b) = bh {
            wurl_free(b);
        }
    }
}

/// A small deterministic generator (xorshift64*), so that a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_strings_of_expanding_pieces_fit() {
    let pieces: [&[u8]; 24] = [
        b"\xFF",
        b"\xE6\x97",
        "\u{FDFA}".as_bytes(),
        "\u{321E}".as_bytes(),
        "\u{00A8}".as_bytes(),
        "\u{3042}".as_bytes(),
        "\u{FF61}".as_bytes(),
        "\u{0080}".as_bytes(),
        b" ",
        b"%",
        b"%2e",
        b"0",
        b".",
        b"/",
        b"\\",
        b"?",
        b"#",
        b"@",
        b":",
        b"[",
        b"]",
        b"a",
        b"xn--",
        b"..",
    ];
    let prefixes: [&[u8]; 6] = [b"http://", b"", b"file:", b"//", b"c:", b"mailto:"];
    let bases: [Option<&[u8]>; 4] = [
        None,
        Some(b"http://\xEF\xB7\xBA.example/\xFF/x?\xFF"),
        Some(b"file:///c:/dir/"),
        Some(b"http://0/a/b/c"),
    ];
    let mut c = Calls::new();
    let mut rng = Rng(0x0B0D_0F0B_0D0F);
    for _ in 0..1500 {
        let mut input = prefixes[rng.below(prefixes.len())].to_vec();
        for _ in 0..rng.below(12) {
            input.extend_from_slice(pieces[rng.below(pieces.len())]);
        }
        c.all(&input, bases[rng.below(bases.len())]);
    }
    eprintln!("worst ratio {:.2}: {}", c.worst.0, c.worst.1);
}

#[test]
fn the_bound_is_the_documented_formula() {
    assert_eq!(wurl_output_bound(0, 0, 0), WURL_OUTPUT_BOUND_EXTRA);
    assert_eq!(
        wurl_output_bound(100, 20, WURL_FLAG_URL_STANDARD),
        120 * WURL_OUTPUT_BOUND_FACTOR + WURL_OUTPUT_BOUND_EXTRA
    );
    assert_eq!(wurl_output_bound(usize::MAX, 1, 0), usize::MAX);
    // An input the calls refuse has no result to hold.
    assert_eq!(
        wurl_output_bound(0, WURL_MAX_INPUT_LEN + 1, 0),
        WURL_OUTPUT_BOUND_EXTRA
    );
    assert_eq!(wurl::output_bound(3, 4), wurl_output_bound(3, 4, 0));
}
