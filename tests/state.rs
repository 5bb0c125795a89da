//! A record's state (`Url::export_state`, `Url::import_state`, `wurl_state_export`,
//! `wurl_state_import`): every kind of record the conformance suite makes goes round trip with
//! its whole value; every truncation of a state and random changes to its bytes are refused or
//! give a record that keeps the invariants, never a panic.

mod common;

use common::dat::{canon_files, load};
use wurl::ffi::*;
use wurl::{CanonOptions, Component, StateError, Url};

/// Every record the conformance suite's inputs make: the base and the input parsed, the input
/// resolved, and canonicalized with and without network-strict mode.
fn conformance_records() -> Vec<Url> {
    let mut files = vec!["parsing.dat".to_string(), "resolving.dat".to_string()];
    files.extend(canon_files());
    let mut out = Vec::new();
    for f in &files {
        for t in load(f) {
            let data = t.get("data").unwrap_or("");
            let base = wurl::parse(t.get("base").unwrap_or(data));
            let resolved = wurl::resolve(&base, data);
            for strict in [false, true] {
                let opts = CanonOptions {
                    charset: t.get("charset"),
                    network_strict: strict,
                };
                out.push(wurl::canonicalize_with(&resolved, &opts));
            }
            out.push(wurl::parse(data));
            out.push(base);
            out.push(resolved);
        }
    }
    out
}

/// The whole value, as the C ABI and the Rust API show it, for comparing two records.
fn value(u: &Url) -> String {
    let comps: Vec<_> = Component::ALL.iter().map(|&c| u.get(c)).collect();
    format!(
        "{comps:?} authority={:?} invalid={:?} hierarchical={} ser={:?}",
        u.authority(),
        u.invalid_reason(),
        u.is_hierarchical(),
        u.as_str()
    )
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
fn every_conformance_record_goes_round_trip() {
    let records = conformance_records();
    assert!(records.len() > 40_000, "{}", records.len());
    let (mut valid, mut invalid, mut hier, mut empty_query) = (0, 0, 0, 0);
    for u in &records {
        let s = u.export_state();
        let back = Url::import_state(&s).unwrap_or_else(|e| panic!("{}: {e}", value(u)));
        assert_eq!(&back, u);
        assert_eq!(value(&back), value(u));
        assert_eq!(back.export_state(), s, "one encoding per value");
        // The record behaves as the original in the next stages.
        let (c1, c2) = (wurl::canonicalize(u, None), wurl::canonicalize(&back, None));
        assert_eq!(value(&c1), value(&c2), "canonicalize of {}", value(u));
        let (r1, r2) = (
            wurl::resolve(u, "../x?y#z"),
            wurl::resolve(&back, "../x?y#z"),
        );
        assert_eq!(value(&r1), value(&r2), "resolve against {}", value(u));
        if u.is_invalid() {
            invalid += 1;
        } else {
            valid += 1;
        }
        hier += usize::from(u.is_hierarchical());
        empty_query += usize::from(u.query() == Some(""));
    }
    // Every kind of record was seen.
    assert!(valid > 10_000 && invalid > 1_000 && hier > 10_000 && empty_query > 10);
}

#[test]
fn every_truncation_is_refused() {
    let records = conformance_records();
    let mut seen = std::collections::HashSet::new();
    let mut checked = 0;
    for u in records.iter().step_by(7) {
        let s = u.export_state();
        if !seen.insert(s.clone()) {
            continue;
        }
        for n in 0..s.len() {
            match Url::import_state(&s[..n]) {
                Err(StateError::Truncated | StateError::NotAState) => {}
                other => panic!("{:?} cut at {n}: {other:?}", value(u)),
            }
            checked += 1;
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn random_changes_are_refused_or_keep_the_invariants() {
    let records = conformance_records();
    let mut rng = Rng(0x05EE_D0F5_7A7E);
    let (mut refused, mut accepted) = (0, 0);
    for u in records.iter().step_by(3) {
        let s = u.export_state();
        for _ in 0..4 {
            let mut v = s.clone();
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(v.len());
                v[i] = match rng.below(4) {
                    0 => v[i] ^ (1 << rng.below(8)),
                    1 => 0,
                    2 => 0xFF,
                    _ => rng.next() as u8,
                };
            }
            if rng.below(8) == 0 {
                let i = rng.below(v.len());
                v.insert(i, rng.next() as u8);
            }
            match Url::import_state(&v) {
                Err(_) => refused += 1,
                Ok(w) => {
                    // A record the stages take like any other, whose own state is its value.
                    accepted += 1;
                    let again = Url::import_state(&w.export_state()).expect("re-import");
                    assert_eq!(again, w);
                    let c = wurl::canonicalize(&w, None);
                    let _ = wurl::canonicalize(&c, Some("shift_jis"));
                    let _ = wurl::resolve(&w, "a/../b?c#d");
                    let mut out = String::new();
                    let _ = wurl::canon_into(Some(&w), "x", &CanonOptions::default(), &mut out);
                }
            }
        }
    }
    assert!(refused > 10_000 && accepted > 1_000, "{refused} {accepted}");
}

#[test]
fn the_c_abi_pair() {
    let parse = |s: &str| common::c_abi::parse(s);
    for input in [
        "http://user:@Host:80/p?#",
        "foo",
        "mailto:a@b",
        "file:///c:/x",
    ] {
        let h = parse(input);
        // Sized by a first call with no room: only `*out_len` is written.
        let mut need = 0usize;
        assert_eq!(
            wurl_state_export(h, std::ptr::null_mut(), 0, &mut need),
            WURL_E_BUFFER_TOO_SMALL
        );
        let mut buf = vec![0xA5u8; need + 4];
        let mut n = 0usize;
        assert_eq!(
            wurl_state_export(h, buf.as_mut_ptr(), need - 1, &mut n),
            WURL_E_BUFFER_TOO_SMALL
        );
        assert!(
            buf.iter().all(|&b| b == 0xA5),
            "nothing written when it does not fit"
        );
        assert_eq!(
            wurl_state_export(h, buf.as_mut_ptr(), need, &mut n),
            WURL_OK
        );
        assert_eq!(n, need);
        assert_eq!(buf[need], 0xA5, "no NUL: a state is bytes");
        let rust = wurl::parse(input).export_state();
        assert_eq!(&buf[..n], &rust[..], "the Rust state");
        let mut out = std::ptr::null_mut();
        assert_eq!(wurl_state_import(buf.as_ptr(), n, &mut out), WURL_OK);
        let (mut p1, mut l1, mut p2, mut l2) = (std::ptr::null(), 0, std::ptr::null(), 0);
        for which in 0..8 {
            let a = wurl_get(h, which, &mut p1, &mut l1);
            let b = wurl_get(out, which, &mut p2, &mut l2);
            assert_eq!(a, b, "{input}: presence of {which}");
            if a {
                // SAFETY: views of `l1`/`l2` octets alive until their handles are freed.
                let (x, y) = unsafe {
                    (
                        std::slice::from_raw_parts(p1.cast::<u8>(), l1),
                        std::slice::from_raw_parts(p2.cast::<u8>(), l2),
                    )
                };
                assert_eq!(x, y, "{input}: component {which}");
            }
        }
        assert_eq!(wurl_is_invalid(h), wurl_is_invalid(out));
        assert_eq!(
            wurl_invalid_reason(h).is_null(),
            wurl_invalid_reason(out).is_null()
        );
        wurl_free(out);
        // Every truncation, and a NULL or empty state: WURL_E_BAD_STATE, `*out` untouched.
        let sentinel = std::ptr::dangling_mut::<wurl_url>();
        for k in 0..n {
            let mut out = sentinel;
            assert_eq!(
                wurl_state_import(buf.as_ptr(), k, &mut out),
                WURL_E_BAD_STATE
            );
            assert_eq!(out, sentinel);
        }
        wurl_free(h);
    }
    let mut out = std::ptr::null_mut();
    assert_eq!(
        wurl_state_import(std::ptr::null(), 0, &mut out),
        WURL_E_BAD_STATE
    );
    assert_eq!(
        wurl_state_import(std::ptr::null(), 3, &mut out),
        WURL_E_NULL_ARG
    );
    assert_eq!(
        wurl_state_import(b"wurl".as_ptr(), 4, std::ptr::null_mut()),
        WURL_E_NULL_ARG
    );
    let mut n = 0;
    assert_eq!(
        wurl_state_export(std::ptr::null(), std::ptr::null_mut(), 0, &mut n),
        WURL_E_NULL_ARG
    );
    let h = parse("http://a/");
    assert_eq!(
        wurl_state_export(h, std::ptr::null_mut(), 0, std::ptr::null_mut()),
        WURL_E_NULL_ARG
    );
    assert_eq!(
        wurl_state_export(h, std::ptr::null_mut(), 5, &mut n),
        WURL_E_NULL_ARG
    );
    wurl_free(h);
    // SAFETY: a static C string.
    let s = unsafe { std::ffi::CStr::from_ptr(wurl_status_str(WURL_E_BAD_STATE)) };
    assert_eq!(s.to_str().unwrap(), "the bytes are not a wurl URL state");
}
