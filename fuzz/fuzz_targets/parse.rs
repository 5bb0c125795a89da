//! `parse`: the input alone (resolved against itself, as
//! `url_to_canon_url(x)` does), through every invariant.
#![no_main]

#[path = "../../tests/common/invariants.rs"]
mod invariants;

use libfuzzer_sys::fuzz_target;

#[global_allocator]
static ALLOC: invariants::alloc::CountingAlloc = invariants::alloc::CountingAlloc;

fuzz_target!(|data: &[u8]| {
    let case = invariants::FuzzCase::from_bytes(data);
    let input = String::from_utf8_lossy(&case.input);
    // P alone must not panic, and raw serialization round-trips (I5).
    let p = wurl::parse(&input);
    let _ = p.serialize();
    if let Err(e) = invariants::check_all(&input, None, None) {
        panic!("invariant violated for {input:?}: {e}");
    }
});
