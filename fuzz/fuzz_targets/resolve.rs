//! `resolve`: the input against the base of the case, or else against one
//! of the fixed bases (`invariants::BASES`), through every invariant.
#![no_main]

#[path = "../../tests/common/invariants.rs"]
mod invariants;

use libfuzzer_sys::fuzz_target;

#[global_allocator]
static ALLOC: invariants::alloc::CountingAlloc = invariants::alloc::CountingAlloc;

fuzz_target!(|data: &[u8]| {
    let case = invariants::FuzzCase::from_bytes(data);
    let input = String::from_utf8_lossy(&case.input);
    let base = match &case.base {
        Some(b) => String::from_utf8_lossy(b).into_owned(),
        None => {
            let i = usize::from(case.control[1]) % invariants::BASES.len();
            invariants::BASES[i].to_owned()
        }
    };
    if let Err(e) = invariants::check_all(&input, Some(&base), None) {
        panic!("invariant violated for {input:?} against {base:?}: {e}");
    }
});
