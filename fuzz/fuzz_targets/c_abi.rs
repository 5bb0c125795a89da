//! `c_abi`: raw bytes (invalid UTF-8, NUL, any length), a base, a charset
//! label and arbitrary flags through every C ABI function: no panic
//! (`WURL_E_PANIC`), results equal to the Rust API, out-parameters written
//! only on success, views inside their handle, buffer limits honoured.
#![no_main]

#[path = "../../tests/common/invariants.rs"]
mod invariants;

use libfuzzer_sys::fuzz_target;

#[global_allocator]
static ALLOC: invariants::alloc::CountingAlloc = invariants::alloc::CountingAlloc;

fuzz_target!(|data: &[u8]| {
    let case = invariants::FuzzCase::from_bytes(data);
    if let Err(e) = case.check() {
        panic!("invariant violated for {case:?}: {e}");
    }
});
