//! `canonicalize_host_into` allocates nothing once warm (issue 11): every
//! host of the four benchmark datasets, plain, internationalized, IPv4 and
//! IPv6, goes through it under a counting allocator after a warm-up pass.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

#[path = "common/datasets.rs"]
mod datasets;

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

/// The hosts of a dataset: of each URL of a URL list; of each page of a
/// links file, and of each link parsed alone and resolved against its
/// page. With whether the scheme is `file`.
fn hosts(name: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut add = |u: &wurl::Url| {
        if let Some(h) = u.host() {
            let file = u.scheme().is_some_and(|s| s.eq_ignore_ascii_case("file"));
            out.push((h.to_owned(), file));
        }
    };
    if datasets::LINK_FILES.contains(&name) {
        let l = datasets::links(name);
        for p in &l.pages {
            let base = wurl::parse(&p.url);
            add(&base);
            for link in &l.links[p.links.clone()] {
                add(&wurl::parse(link));
                add(&wurl::resolve(&base, link));
            }
        }
    } else {
        for u in datasets::urls(name) {
            add(&wurl::parse(&u));
        }
    }
    out
}

/// Hosts of every path through the algorithm: IPv4 and IPv6 addresses,
/// percent-encoding, controls, label separators, Nameprep's second round,
/// percent-encoded output and failures.
const OTHERS: &[&str] = &[
    "127.0.0.1",
    "0x7F.1",
    "017700000001",
    "[::1]",
    "[2001:DB8:0:0:1:0:0:1]",
    "[::ffff:1.2.3.4]",
    "[google.com]",
    "%e4%bd%a0.com",
    "%ff%fe.com",
    "a\tb.com",
    "Fa\u{DF}.de",
    "\u{FF21}\u{FF22}.com",
    "a\u{3002}b\u{FF0E}c\u{FF61}",
    "\u{0627}1\u{0628}.com",
    "\u{0627}a.com",
    "a b.com",
    "a\u{E000}b",
    "xn--\u{FC}.de",
    "a:b",
    "%5b::1]",
    "\u{1D400}\u{0221}.com",
    "\u{1F130}.com",
    "a..\u{FC}",
    "",
];

#[test]
fn no_allocation_once_warm() {
    let others: Vec<(String, bool)> = OTHERS
        .iter()
        .flat_map(|h| [(h.to_string(), false), (h.to_string(), true)])
        .collect();
    for (name, hs) in datasets::URL_LISTS
        .into_iter()
        .chain(datasets::LINK_FILES)
        .map(|f| (f, hosts(f)))
        .chain([("others", others)])
    {
        let file = name;
        assert!(!hs.is_empty(), "{file}");
        let longest = hs.iter().map(|(h, _)| h.len()).max().unwrap_or(0);
        // Room for the longest host fully percent-encoded.
        let mut out = String::with_capacity(3 * longest + 64);
        let mut ok = 0;
        for (h, f) in &hs {
            out.clear();
            ok += usize::from(wurl::host::canonicalize_host_into(h, *f, &mut out).is_ok());
        }
        let before = allocs();
        for (h, f) in &hs {
            out.clear();
            let _ = wurl::host::canonicalize_host_into(h, *f, &mut out);
        }
        let n = allocs() - before;
        eprintln!(
            "{file}: {} hosts ({ok} valid), {n} allocations once warm",
            hs.len()
        );
        assert_eq!(n, 0, "{file}: allocations once warm");
    }
}

/// The wrapper and the `_into` form agree, and `_into` appends.
#[test]
fn into_appends() {
    for (h, f) in hosts("idn_synth").iter().take(2000) {
        let mut out = String::from("prefix:");
        let r = wurl::host::canonicalize_host_into(h, *f, &mut out);
        let w = wurl::host::canonicalize_host(h, if *f { "file" } else { "http" });
        match (r, w) {
            (Ok(()), Ok(w)) => assert_eq!(&out["prefix:".len()..], w, "{h}"),
            (Err(a), Err(b)) => assert_eq!(a, b, "{h}"),
            (a, b) => panic!("{h}: {a:?} vs {b:?}"),
        }
    }
}
