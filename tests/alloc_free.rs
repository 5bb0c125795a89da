//! Issue 11's allocation and memory targets, asserted on every line of the
//! five benchmark datasets (loaded as the benchmark loads them, see
//! `common/datasets.rs`), under a per-thread counting allocator:
//!
//! 1. the bulk path (`wurl_canon_into` through the C ABI, and the Rust
//!    `canon_into`) makes no allocation per line once warm;
//! 2. the handle path makes at most 2 allocations per handle it creates;
//! 3. one 10 MB URL through the handle path peaks at no more than 3x its
//!    size in extra heap.
//!
//! "Warm" is one full pass over the dataset before the counted pass. A
//! failure lists the offending lines (up to 20) with their counts, not a
//! mean: one hot line that allocates matters as much as many.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::c_char;
use std::fmt::Write as _;
use std::ptr;

use wurl::ffi::{
    WURL_E_BUFFER_TOO_SMALL, WURL_OK, wurl_canon_into, wurl_canonicalize, wurl_free, wurl_parse,
    wurl_resolve, wurl_serialize, wurl_url,
};

#[path = "common/datasets.rs"]
mod datasets;

struct Counting;

// Per thread, because the test harness runs tests on several threads at
// once: a global counter would charge one test with another's allocations.
thread_local! {
    /// Allocations (including reallocations) made by this thread.
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
    /// Heap bytes allocated minus bytes freed by this thread. Signed: a
    /// block allocated on another thread may be freed on this one.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// The highest `LIVE` since a test last set it.
    static PEAK: Cell<isize> = const { Cell::new(0) };
    /// Blocks allocated minus blocks freed by this thread (a reallocation
    /// moves a block: no change).
    static BLOCKS: Cell<isize> = const { Cell::new(0) };
}

fn size(n: usize) -> isize {
    isize::try_from(n).unwrap_or(isize::MAX)
}

fn blocks(delta: isize) {
    let _ = BLOCKS.try_with(|b| b.set(b.get() + delta));
}

fn grew(n: usize) {
    let _ = LIVE.try_with(|l| {
        let live = l.get() + size(n);
        l.set(live);
        let _ = PEAK.try_with(|p| p.set(p.get().max(live)));
    });
}

fn shrank(n: usize) {
    let _ = LIVE.try_with(|l| l.set(l.get() - size(n)));
}

fn count() {
    let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: forwards every call to the system allocator unchanged; only
// updates this thread's counters, which never allocate (const-initialized
// thread-locals of `Copy` types).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
            blocks(1);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
            blocks(1);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrank(layout.size());
        blocks(-1);
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // Both blocks may exist during the move: counted as the
            // benchmark's `wurl-alloc` counts it.
            grew(new_size);
            shrank(layout.size());
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// `f`'s result and the allocations this thread made while running it.
fn counted<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = ALLOCS.with(Cell::get);
    let r = f();
    (r, ALLOCS.with(Cell::get) - before)
}

/// Panics, listing up to 20 offenders, when `offenders` is not empty.
/// `what` says what was expected; each offender is a line's description.
fn assert_none(what: &str, total: usize, offenders: &[String]) {
    if offenders.is_empty() {
        return;
    }
    let mut msg = format!(
        "{what}: {} of {total} checked offend; the first {}:\n",
        offenders.len(),
        offenders.len().min(20)
    );
    for o in offenders.iter().take(20) {
        let _ = writeln!(msg, "  {o}");
    }
    panic!("{msg}");
}

/// The lines of one dataset with the base each is resolved against: its
/// page for a links file, itself (no base) for a URL list.
enum Data {
    Urls(Vec<String>),
    Links(datasets::Links),
}

fn load(name: &str) -> Data {
    if name == "links_synth" {
        Data::Links(datasets::links(name))
    } else {
        Data::Urls(datasets::urls(name))
    }
}

impl Data {
    fn len(&self) -> usize {
        match self {
            Data::Urls(u) => u.len(),
            Data::Links(l) => l.links.len(),
        }
    }

    /// Calls `f(page, line)` for every line in order (`page` is `None` for
    /// a URL list), with `f` given the page's base handle from `wurl_parse`
    /// (NULL for a URL list) and returning the allocations to charge to the
    /// line. The page's own parse is not charged: `wurl_parse` may allocate.
    fn ffi_pass(&self, mut f: impl FnMut(*const wurl_url, &str) -> usize) -> Vec<usize> {
        match self {
            Data::Urls(urls) => urls.iter().map(|u| f(ptr::null(), u)).collect(),
            Data::Links(l) => {
                let mut out = Vec::with_capacity(l.links.len());
                for p in &l.pages {
                    let base = parse(&p.url);
                    out.extend(l.links[p.links.clone()].iter().map(|k| f(base, k)));
                    wurl_free(base);
                }
                out
            }
        }
    }

    /// Like [`Data::ffi_pass`] for the Rust API: the base is
    /// `wurl::parse(page)`.
    fn rust_pass(&self, mut f: impl FnMut(Option<&wurl::Url>, &str) -> usize) -> Vec<usize> {
        match self {
            Data::Urls(urls) => urls.iter().map(|u| f(None, u)).collect(),
            Data::Links(l) => {
                let mut out = Vec::with_capacity(l.links.len());
                for p in &l.pages {
                    let base = wurl::parse(&p.url);
                    out.extend(l.links[p.links.clone()].iter().map(|k| f(Some(&base), k)));
                }
                out
            }
        }
    }

    /// The text of line `i` (`page<TAB>link` for a links file).
    fn line(&self, i: usize) -> String {
        match self {
            Data::Urls(u) => u[i].clone(),
            Data::Links(l) => {
                let p = l.pages.iter().find(|p| p.links.contains(&i));
                format!("{}\t{}", p.map_or("", |p| &p.url), l.links[i])
            }
        }
    }
}

/// `wurl_parse(s)`; panics if it fails (only inputs over
/// `WURL_MAX_INPUT_LEN` do, and no dataset line is that long).
fn parse(s: &str) -> *mut wurl_url {
    let mut h = ptr::null_mut();
    assert_eq!(
        wurl_parse(s.as_ptr().cast(), s.len(), 0, &mut h),
        WURL_OK,
        "{s}"
    );
    h
}

/// One `wurl_canon_into(base, u)` into `buf`, as the benchmark calls it.
/// With `grow`, a `WURL_E_BUFFER_TOO_SMALL` result grows `buf` and calls
/// again, the growth not counted (it is the caller's buffer, not wurl's);
/// the warm-up pass leaves `buf` large enough for every line. Returns the
/// allocations made inside `wurl_canon_into`.
fn canon_into_ffi(base: *const wurl_url, u: &str, buf: &mut Vec<u8>, grow: bool) -> usize {
    let mut total = 0;
    loop {
        let mut len = 0usize;
        let (st, n) = counted(|| {
            wurl_canon_into(
                base,
                u.as_ptr().cast::<c_char>(),
                u.len(),
                ptr::null(),
                0,
                0,
                buf.as_mut_ptr().cast::<c_char>(),
                buf.len(),
                &mut len,
            )
        });
        total += n;
        if grow && st == WURL_E_BUFFER_TOO_SMALL {
            buf.resize(len + 1, 0);
        } else {
            return total;
        }
    }
}

/// Target 1, C ABI: no allocation on any line of `name` after a warm-up
/// pass, with a buffer grown to fit (results written directly) and with a
/// small fixed one (long results come back `WURL_E_BUFFER_TOO_SMALL`).
fn ffi_canon_into_allocates_nothing(name: &str) {
    let ds = load(name);
    assert!(ds.len() > 10_000, "{name}: {} lines", ds.len());
    for (cap, grow) in [(4096, true), (96, false)] {
        let mut buf = vec![0u8; cap];
        ds.ffi_pass(|b, u| canon_into_ffi(b, u, &mut buf, grow));
        let counts = ds.ffi_pass(|b, u| canon_into_ffi(b, u, &mut buf, grow));
        let offenders: Vec<String> = counts
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(i, n)| format!("{n} allocations: {:?}", ds.line(i)))
            .collect();
        let kind = if grow { "grown" } else { "fixed" };
        assert_none(
            &format!(
                "{name}: wurl_canon_into allocates once warm ({kind} buffer of {cap} bytes at first)"
            ),
            counts.len(),
            &offenders,
        );
    }
}

/// Target 1, Rust API: no allocation on any line of `name` after a warm-up
/// pass, into one reused `String` (the warm-up grows it to the longest
/// result, so its growth is not counted).
fn rust_canon_into_allocates_nothing(name: &str) {
    let ds = load(name);
    assert!(ds.len() > 10_000, "{name}: {} lines", ds.len());
    let opts = wurl::CanonOptions::default();
    let mut out = String::new();
    let mut run = |base: Option<&wurl::Url>, u: &str| {
        out.clear();
        counted(|| {
            let _ = wurl::canon_into(base, u, &opts, &mut out);
        })
        .1
    };
    ds.rust_pass(&mut run);
    let counts = ds.rust_pass(&mut run);
    let offenders: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(i, n)| format!("{n} allocations: {:?}", ds.line(i)))
        .collect();
    assert_none(
        &format!("{name}: wurl::canon_into allocates once warm"),
        counts.len(),
        &offenders,
    );
}

#[test]
fn wurl_canon_into_allocates_nothing_after_warm_up_kasztp() {
    ffi_canon_into_allocates_nothing("kasztp");
}

#[test]
fn wurl_canon_into_allocates_nothing_after_warm_up_node_files() {
    ffi_canon_into_allocates_nothing("node_files");
}

#[test]
fn wurl_canon_into_allocates_nothing_after_warm_up_idn_synth() {
    ffi_canon_into_allocates_nothing("idn_synth");
}

#[test]
fn wurl_canon_into_allocates_nothing_after_warm_up_pagewritten() {
    ffi_canon_into_allocates_nothing("pagewritten");
}

#[test]
fn wurl_canon_into_allocates_nothing_after_warm_up_links_synth() {
    ffi_canon_into_allocates_nothing("links_synth");
}

#[test]
fn rust_canon_into_allocates_nothing_after_warm_up_kasztp() {
    rust_canon_into_allocates_nothing("kasztp");
}

#[test]
fn rust_canon_into_allocates_nothing_after_warm_up_node_files() {
    rust_canon_into_allocates_nothing("node_files");
}

#[test]
fn rust_canon_into_allocates_nothing_after_warm_up_idn_synth() {
    rust_canon_into_allocates_nothing("idn_synth");
}

#[test]
fn rust_canon_into_allocates_nothing_after_warm_up_pagewritten() {
    rust_canon_into_allocates_nothing("pagewritten");
}

#[test]
fn rust_canon_into_allocates_nothing_after_warm_up_links_synth() {
    rust_canon_into_allocates_nothing("links_synth");
}

/// Most allocations target 2 allows per handle.
const PER_HANDLE: usize = 2;

/// The handle path from a base handle, as the benchmark's
/// `wurl_resolve_one` makes it: `wurl_resolve(base, u)`,
/// `wurl_canonicalize`, `wurl_serialize`, and `wurl_free` of the two
/// handles it made. Whether the result serialized.
fn resolve_canonicalize_serialize(base: *const wurl_url, u: &str) -> bool {
    let mut resolved = ptr::null_mut();
    if wurl_resolve(base, u.as_ptr().cast(), u.len(), 0, &mut resolved) != WURL_OK {
        return false;
    }
    let mut canon = ptr::null_mut();
    let st = wurl_canonicalize(resolved, ptr::null(), 0, 0, &mut canon);
    wurl_free(resolved);
    if st != WURL_OK {
        return false;
    }
    let (mut p, mut n) = (ptr::null(), 0usize);
    let ok = wurl_serialize(canon, &mut p, &mut n);
    wurl_free(canon);
    ok
}

/// Target 2 on a URL list: `wurl_parse(u)`, then everything above against
/// that parse, then its `wurl_free`: 3 handles, so at most 6 allocations
/// per line, once warm.
fn handle_path_makes_at_most_two_allocations_per_handle(name: &str) {
    let urls = datasets::urls(name);
    assert!(urls.len() > 10_000, "{name}: {} lines", urls.len());
    let line = |u: &str| {
        counted(|| {
            let parsed = parse(u);
            resolve_canonicalize_serialize(parsed, u);
            wurl_free(parsed);
        })
        .1
    };
    urls.iter().for_each(|u| {
        line(u);
    });
    let limit = 3 * PER_HANDLE;
    let offenders: Vec<String> = urls
        .iter()
        .filter_map(|u| {
            let n = line(u);
            (n > limit).then(|| format!("{n} allocations: {u:?}"))
        })
        .collect();
    assert_none(
        &format!("{name}: the handle path makes more than {limit} allocations for 3 handles"),
        urls.len(),
        &offenders,
    );
}

#[test]
fn handle_path_makes_at_most_two_allocations_per_handle_kasztp() {
    handle_path_makes_at_most_two_allocations_per_handle("kasztp");
}

#[test]
fn handle_path_makes_at_most_two_allocations_per_handle_pagewritten() {
    handle_path_makes_at_most_two_allocations_per_handle("pagewritten");
}

/// Target 2 on links_synth: per link, 2 handles (at most 4 allocations);
/// per page, its base handle (at most 2 over its whole life: its
/// `wurl_parse`, its `wurl_free`, and anything charged to it later, such as
/// a cache filled on first resolution). A link's allocations are told apart
/// by whether they outlive the link: the link frees both of its handles, so
/// a block still live afterwards was made for something that outlives it,
/// the base (or this thread's scratch, which no longer grows once warm).
#[test]
fn handle_path_makes_at_most_two_allocations_per_handle_links_synth() {
    let ds = datasets::links("links_synth");
    assert!(ds.links.len() > 20_000);
    /// What one page cost: its base's own allocations (`wurl_parse` and
    /// `wurl_free`) and, per link, (allocations, blocks still live after
    /// it).
    struct Cost {
        own: usize,
        links: Vec<(usize, usize)>,
    }
    let pass = || -> Vec<Cost> {
        ds.pages
            .iter()
            .map(|p| {
                let (base, parse_n) = counted(|| parse(&p.url));
                let links = ds.links[p.links.clone()]
                    .iter()
                    .map(|l| {
                        let before = BLOCKS.with(Cell::get);
                        let n = counted(|| resolve_canonicalize_serialize(base, l)).1;
                        let kept = BLOCKS.with(Cell::get) - before;
                        (n, usize::try_from(kept).unwrap_or(0))
                    })
                    .collect();
                let free_n = counted(|| wurl_free(base)).1;
                Cost {
                    own: parse_n + free_n,
                    links,
                }
            })
            .collect()
    };
    pass();
    let costs = pass();
    let link_limit = 2 * PER_HANDLE;
    let mut offenders = Vec::new();
    // Pages by their first link's (allocations beyond 4, allocations kept
    // after it): a first resolution is where a base fills a cache.
    let mut first_beyond: std::collections::BTreeMap<(usize, usize), usize> = Default::default();
    for (p, c) in ds.pages.iter().zip(&costs) {
        let (first_n, first_kept) = c.links[0];
        *first_beyond
            .entry((first_n.saturating_sub(link_limit), first_kept))
            .or_default() += 1;
        for (l, &(n, kept)) in ds.links[p.links.clone()].iter().zip(&c.links) {
            if n - kept > link_limit {
                offenders.push(format!(
                    "link {:?}: {} allocations for its 2 handles ({n} in all, {kept} kept): {l:?}",
                    p.url,
                    n - kept
                ));
            }
        }
        let kept: usize = c.links.iter().map(|&(_, k)| k).sum();
        if c.own + kept > PER_HANDLE {
            let all: Vec<usize> = c.links.iter().map(|&(n, _)| n).collect();
            offenders.push(format!(
                "page {:?}: base handle {} allocations ({} in wurl_parse and wurl_free, {kept} \
                 made during its links and kept after them); its links' allocations {all:?}",
                p.url,
                c.own + kept,
                c.own
            ));
        }
    }
    let first: Vec<String> = first_beyond
        .iter()
        .map(|((e, k), pages)| format!("+{e} ({k} kept) on {pages} pages"))
        .collect();
    eprintln!(
        "links_synth: allocations of each page's first link beyond {link_limit}: {}",
        first.join(", ")
    );
    assert_none(
        &format!(
            "links_synth: the handle path goes over {PER_HANDLE} allocations for a handle \
             (first links beyond {link_limit}: {})",
            first.join(", ")
        ),
        ds.pages.len() + ds.links.len(),
        &offenders,
    );
}

/// Target 3: one 10 MB URL (built as `wurl-alloc --big-mb 10` builds it)
/// through the handle path, all three handles alive until the end as
/// there, peaks at no more than 3x its size in extra heap on this thread.
#[test]
fn handle_path_peak_heap_on_a_10_mb_url_is_at_most_3x_its_size() {
    let big = {
        let mut s = String::from("http://example.com/");
        let want = 10 * 1_000_000;
        while s.len() < want {
            s.push_str("a/b%41c/");
        }
        s.truncate(want);
        s
    };
    let before = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(before));
    let ok = {
        let (mut b, mut r, mut c) = (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
        let mut ok = wurl_parse(big.as_ptr().cast(), big.len(), 0, &mut b) == WURL_OK
            && wurl_resolve(b, big.as_ptr().cast(), big.len(), 0, &mut r) == WURL_OK
            && wurl_canonicalize(r, ptr::null(), 0, 0, &mut c) == WURL_OK;
        let (mut p, mut n) = (ptr::null(), 0usize);
        ok = ok && wurl_serialize(c, &mut p, &mut n);
        wurl_free(c);
        wurl_free(r);
        wurl_free(b);
        ok
    };
    let peak = PEAK.with(Cell::get) - before;
    assert!(ok, "the 10 MB URL is valid");
    let ratio = peak as f64 / big.len() as f64;
    eprintln!("10 MB URL: peak extra heap {peak} bytes = {ratio:.2} x its size");
    assert!(
        ratio <= 3.0,
        "peak extra heap {peak} bytes = {ratio:.2} x the URL's {} bytes (at most 3x)",
        big.len()
    );
}

// ---------------------------------------------------------------------------
// Keys (issue 28): the bulk calls with rules and SURT allocate nothing per
// line once warm either, through the C ABI and the Rust API.

/// The rules of the key tests: every rule, so that the query sort's
/// scratch buffer is exercised.
const KEY_RULES: &str =
    "drop-fragment,strip-www,sort-query,strip-session-ids,drop-params=utm_*|fbclid,drop-userinfo";

/// One `wurl_canon_key_into(base, u)` with `rules` and `key_flags` into
/// `buf`, grown (uncounted) when too small; the allocations made inside.
fn key_into_ffi(
    base: *const wurl_url,
    u: &str,
    rules: *const wurl::ffi::wurl_rules,
    key_flags: u32,
    buf: &mut Vec<u8>,
) -> usize {
    let mut total = 0;
    loop {
        let mut len = 0usize;
        let (st, n) = counted(|| {
            wurl::ffi::wurl_canon_key_into(
                base,
                u.as_ptr().cast::<c_char>(),
                u.len(),
                ptr::null(),
                0,
                0,
                rules,
                key_flags,
                buf.as_mut_ptr().cast::<c_char>(),
                buf.len(),
                &mut len,
            )
        });
        total += n;
        if st == WURL_E_BUFFER_TOO_SMALL {
            buf.resize(len + 1, 0);
        } else {
            return total;
        }
    }
}

/// No allocation on any line of `name` after a warm-up pass, with the
/// rules alone, SURT alone and both, through `wurl_canon_key_into`.
fn ffi_key_into_allocates_nothing(name: &str) {
    let ds = load(name);
    assert!(ds.len() > 10_000, "{name}: {} lines", ds.len());
    let mut rules = ptr::null_mut();
    assert_eq!(
        wurl::ffi::wurl_rules_compile(
            KEY_RULES.as_ptr().cast(),
            KEY_RULES.len(),
            &mut rules,
            ptr::null_mut(),
            0
        ),
        WURL_OK
    );
    for (r, flags) in [
        (rules.cast_const(), 0),
        (ptr::null(), wurl::ffi::WURL_KEY_SURT),
        (rules.cast_const(), wurl::ffi::WURL_KEY_SURT_SCHEME),
    ] {
        let mut buf = vec![0u8; 256];
        ds.ffi_pass(|b, u| key_into_ffi(b, u, r, flags, &mut buf));
        let counts = ds.ffi_pass(|b, u| key_into_ffi(b, u, r, flags, &mut buf));
        let offenders: Vec<String> = counts
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(i, n)| format!("{n} allocations: {:?}", ds.line(i)))
            .collect();
        let what = if r.is_null() { "no rules" } else { KEY_RULES };
        assert_none(
            &format!("{name}: wurl_canon_key_into ({what}, key flags {flags}) allocates once warm"),
            counts.len(),
            &offenders,
        );
    }
    wurl::ffi::wurl_rules_free(rules);
}

/// No allocation on any line of `name` after a warm-up pass through
/// `wurl::key_into` with the rules and SURT, into one reused `String`.
fn rust_key_into_allocates_nothing(name: &str) {
    let ds = load(name);
    let rules = wurl::Rules::parse(KEY_RULES).unwrap();
    let key = wurl::KeyOptions {
        rules: Some(&rules),
        surt: Some(wurl::surt::SurtOptions::default()),
    };
    let opts = wurl::CanonOptions::default();
    let mut out = String::new();
    let mut run = |base: Option<&wurl::Url>, u: &str| {
        out.clear();
        counted(|| {
            let _ = wurl::key_into(base, u, &opts, &key, &mut out);
        })
        .1
    };
    ds.rust_pass(&mut run);
    let counts = ds.rust_pass(&mut run);
    let offenders: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(i, n)| format!("{n} allocations: {:?}", ds.line(i)))
        .collect();
    assert_none(
        &format!("{name}: wurl::key_into (rules and SURT) allocates once warm"),
        counts.len(),
        &offenders,
    );
}

#[test]
fn wurl_canon_key_into_allocates_nothing_after_warm_up_kasztp() {
    ffi_key_into_allocates_nothing("kasztp");
}

#[test]
fn wurl_canon_key_into_allocates_nothing_after_warm_up_links_synth() {
    ffi_key_into_allocates_nothing("links_synth");
}

#[test]
fn wurl_canon_key_into_allocates_nothing_after_warm_up_idn_synth() {
    ffi_key_into_allocates_nothing("idn_synth");
}

#[test]
fn wurl_canon_key_into_allocates_nothing_after_warm_up_node_files() {
    ffi_key_into_allocates_nothing("node_files");
}

#[test]
fn wurl_canon_key_into_allocates_nothing_after_warm_up_pagewritten() {
    ffi_key_into_allocates_nothing("pagewritten");
}

#[test]
fn rust_key_into_allocates_nothing_after_warm_up_pagewritten() {
    rust_key_into_allocates_nothing("pagewritten");
}

#[test]
fn rust_key_into_allocates_nothing_after_warm_up_kasztp() {
    rust_key_into_allocates_nothing("kasztp");
}

#[test]
fn rust_key_into_allocates_nothing_after_warm_up_links_synth() {
    rust_key_into_allocates_nothing("links_synth");
}
