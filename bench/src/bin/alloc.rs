//! `wurl-alloc`: heap use of each wurl path, the instrument for issue 11's
//! allocation and memory targets (it measures; it asserts nothing). A
//! counting global allocator, in this binary only so that `wurl-bench`'s
//! timings are not touched, counts every allocation the Rust side makes
//! (the C ABI is the same library, linked in).
//!
//! ```sh
//! cargo run --release -p wurl-bench --bin wurl-alloc            # every dataset
//! cargo run --release -p wurl-bench --bin wurl-alloc -- --big-mb 10
//! ```
//!
//! For each dataset and each wurl path (`wurl-into`, `wurl-handle`,
//! `wurl-rust`, and the key paths `wurl-rules` and `wurl-surt`), after one warm-up pass: allocations per URL (or link) over
//! a whole pass, and the largest number made for one URL. Then one URL of
//! `--big-mb` MB (default 10) through the handle path: the peak of live heap
//! bytes above the level before the call, as a multiple of the URL's size.

use std::alloc::{GlobalAlloc, Layout, System};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use wurl_bench::{DATASETS, Dataset, Kind, Lib, Scratch, default_data_dir, link_outputs, output};

struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let live = LIVE.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(live, Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; the counters are
// atomics and never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        // SAFETY: forwarded as is.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // Both blocks may exist during the move.
            grew(new_size);
            LIVE.fetch_sub(layout.size(), Relaxed);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const PATHS: [Lib; 5] = [
    Lib::WurlInto,
    Lib::WurlHandle,
    Lib::WurlRust,
    Lib::WurlRules,
    Lib::WurlSurt,
];

/// Allocations made by `f`, and its result.
fn count<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = ALLOCS.load(Relaxed);
    let r = f();
    (r, ALLOCS.load(Relaxed) - before)
}

fn main() -> ExitCode {
    let mut big_mb = 10usize;
    let mut names: Vec<String> = Vec::new();
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--big-mb" => match it.next().and_then(|v| v.parse().ok()) {
                Some(n) => big_mb = n,
                None => return usage("--big-mb needs a number"),
            },
            "--dataset" => match it.next() {
                Some(d) => names.push(d),
                None => return usage("--dataset needs a name"),
            },
            "-h" | "--help" => {
                println!("usage: wurl-alloc [--dataset D]... [--big-mb N]");
                return ExitCode::SUCCESS;
            }
            other => return usage(&format!("unknown argument {other:?}")),
        }
    }
    if names.is_empty() {
        names = DATASETS.iter().map(|d| (*d).to_owned()).collect();
    }
    println!("| dataset | path | allocations per URL (mean) | most for one URL |");
    println!("|---|---|---:|---:|");
    for name in &names {
        let ds = match Dataset::load(name, &default_data_dir()) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("wurl-alloc: {e}");
                return ExitCode::from(2);
            }
        };
        for lib in PATHS {
            let mut scratch = Scratch::default();
            let n = ds.urls().len().max(1);
            // One warm-up pass (thread-local buffers, first-use caches).
            wurl_bench::run(lib, &ds, &mut scratch);
            let (_, total) = count(|| wurl_bench::run(lib, &ds, &mut scratch));
            // The most for one URL, through the same calls one at a time
            // (`output` also allocates the returned String: one less).
            let mut most = 0;
            match ds.kind() {
                Kind::Urls => {
                    for u in ds.urls() {
                        let (_, k) = count(|| output(lib, u, &mut scratch));
                        most = most.max(k.saturating_sub(1));
                    }
                }
                Kind::Links => {
                    for p in ds.pages() {
                        let links = &ds.urls()[p.links.clone()];
                        // The page's parse and the output Vec and Strings
                        // are counted here too: an upper bound per link.
                        let (_, k) = count(|| link_outputs(lib, p.url, links, &mut scratch));
                        most = most.max(k.div_ceil(links.len().max(1)));
                    }
                }
            }
            println!(
                "| {} | {} | {:.2} | {} |",
                ds.name,
                lib.name(),
                total as f64 / n as f64,
                most
            );
        }
    }
    let big = {
        let mut s = String::from("http://example.com/");
        let want = big_mb * 1_000_000;
        while s.len() < want {
            s.push_str("a/b%41c/");
        }
        s.truncate(want);
        s
    };
    let base_live = LIVE.load(Relaxed);
    PEAK.store(base_live, Relaxed);
    let ok = handle_path(&big);
    let peak = PEAK.load(Relaxed) - base_live;
    println!();
    println!(
        "one {} MB URL through the handle path (parse, resolve, canonicalize, serialize, free): valid {ok}, peak extra heap {:.1} MB = {:.1} x its size",
        big_mb,
        peak as f64 / 1e6,
        peak as f64 / big.len() as f64
    );
    ExitCode::SUCCESS
}

/// The handle path on one URL, through the C ABI as a C caller makes it:
/// `wurl_parse` (the URL as its own base), `wurl_resolve`,
/// `wurl_canonicalize`, `wurl_serialize`, `wurl_free`. Whether it is valid.
fn handle_path(u: &str) -> bool {
    use wurl::ffi::*;
    let (mut b, mut r, mut c) = (
        std::ptr::null_mut(),
        std::ptr::null_mut(),
        std::ptr::null_mut(),
    );
    let mut ok = wurl_parse(u.as_ptr().cast(), u.len(), 0, &mut b) == WURL_OK
        && wurl_resolve(b, u.as_ptr().cast(), u.len(), 0, &mut r) == WURL_OK
        && wurl_canonicalize(r, std::ptr::null(), 0, 0, &mut c) == WURL_OK;
    let (mut p, mut n) = (std::ptr::null(), 0usize);
    ok = ok && wurl_serialize(c, &mut p, &mut n);
    wurl_free(c);
    wurl_free(r);
    wurl_free(b);
    ok
}

fn usage(msg: &str) -> ExitCode {
    eprintln!("wurl-alloc: {msg}");
    ExitCode::from(2)
}
