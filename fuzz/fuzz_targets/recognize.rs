//! The recognizer's block runs (SSE2, SSSE3 where the CPU has it, the portable lanes at both mask
//! strides) against its octet loops on any octets: every entry's whole result, the places and how
//! far the pass got (`runs_agree`), must be the same.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = wurl::canonical_form::runs_agree(data) {
        panic!("{e}");
    }
});
