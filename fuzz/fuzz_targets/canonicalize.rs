//! `canonicalize`: input, optional base and a charset label (the case's, or
//! else one of a list chosen by a control byte), through every invariant,
//! including network-strict mode.
#![no_main]

#[path = "../../tests/common/invariants.rs"]
mod invariants;

use libfuzzer_sys::fuzz_target;

#[global_allocator]
static ALLOC: invariants::alloc::CountingAlloc = invariants::alloc::CountingAlloc;

const CHARSETS: [&str; 8] = [
    "iso-2022-jp",
    "shift_jis",
    "euc-jp",
    "windows-1252",
    "utf-16be",
    "gb18030",
    "big5",
    "x-user-defined",
];

fuzz_target!(|data: &[u8]| {
    let case = invariants::FuzzCase::from_bytes(data);
    let input = String::from_utf8_lossy(&case.input);
    let base = case.base.as_deref().map(String::from_utf8_lossy);
    let label = String::from_utf8_lossy(&case.charset);
    let charset = if !label.is_empty() {
        Some(label.as_ref())
    } else if case.control[2] & 1 != 0 {
        Some(CHARSETS[usize::from(case.control[2] >> 1) % CHARSETS.len()])
    } else {
        None
    };
    if let Err(e) = invariants::check_all(&input, base.as_deref(), charset) {
        panic!("invariant violated for {input:?} base {base:?} charset {charset:?}: {e}");
    }
});
