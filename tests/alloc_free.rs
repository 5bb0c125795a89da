//! The bulk path allocates nothing per call in steady state: the whole
//! `kasztp` dataset goes through `wurl_canon_into` (and the Rust
//! `canon_into`) under a counting allocator, after one warm-up pass.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// Allocations made by this thread (tests run on several threads).
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
}

fn allocs() -> usize {
    ALLOCS.with(Cell::get)
}

// SAFETY: forwards every call to the system allocator unchanged; only
// counts allocations.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn kasztp() -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/data/kasztp.txt");
    let text = std::fs::read_to_string(path).expect("bench/data/kasztp.txt");
    text.trim_start_matches('\u{FEFF}')
        .lines()
        .filter(|l| l.is_ascii() && l.len() <= 2048)
        .map(str::to_owned)
        .collect()
}

/// Runs every URL through `wurl_canon_into` with a buffer of `cap` bytes;
/// returns how many were valid.
fn pass(urls: &[String], buf: &mut [u8]) -> usize {
    use wurl::ffi::{WURL_OK, wurl_canon_into};
    let mut ok = 0;
    for u in urls {
        let mut len = 0usize;
        let st = wurl_canon_into(
            std::ptr::null(),
            u.as_ptr().cast(),
            u.len(),
            std::ptr::null(),
            0,
            0,
            buf.as_mut_ptr().cast(),
            buf.len(),
            &mut len,
        );
        ok += usize::from(st == WURL_OK);
    }
    ok
}

#[test]
fn wurl_canon_into_allocates_nothing_after_warm_up() {
    let urls = kasztp();
    assert!(urls.len() > 40_000);
    // A large buffer (written directly) and a small one (through wurl's
    // own reused buffer, then copied; long URLs come back TOO_SMALL).
    for cap in [64 * 1024, 96] {
        let mut buf = vec![0u8; cap];
        let warm = pass(&urls, &mut buf);
        let before = allocs();
        let again = pass(&urls, &mut buf);
        let after = allocs();
        assert_eq!(warm, again);
        assert!(again > 0);
        assert_eq!(
            after - before,
            0,
            "{} allocations for {} URLs (buffer of {cap} bytes)",
            after - before,
            urls.len()
        );
    }
}

#[test]
fn rust_canon_into_allocates_nothing_after_warm_up() {
    let urls = kasztp();
    let opts = wurl::CanonOptions::default();
    let mut out = String::with_capacity(64 * 1024);
    let run = |out: &mut String| {
        let mut ok = 0;
        for u in &urls {
            out.clear();
            ok += usize::from(wurl::canon_into(None, u, &opts, out).is_ok());
        }
        ok
    };
    let warm = run(&mut out);
    let before = allocs();
    let again = run(&mut out);
    let after = allocs();
    assert_eq!(warm, again);
    assert_eq!(after - before, 0, "{} allocations", after - before);
}
