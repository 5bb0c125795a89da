//! The fast exits for canonical input against the stages: every case is
//! canonicalized with the fast exits on and off (`set_fast_exits`, the
//! `differential` feature's switch), on the bulk call and the handle path
//! of the Rust API and of the C ABI, and every result (serialization, or
//! validity and reason) must be the same. The cases: every line of the
//! benchmark datasets (each link against its page) and the canonical form
//! of each, and near-canonical cases (`tests/common/near_canonical.rs`),
//! the edge of what the fast exits accept.
//!
//! Run with `cargo test -p wurl-canon --features differential --test
//! fast_exit_differential` (CI's test step does).

mod common;
#[path = "common/datasets.rs"]
mod datasets;
#[path = "common/near_canonical.rs"]
#[allow(dead_code)]
mod near_canonical;

use common::dat::{canon_files, load};
use near_canonical::Case;
use wurl::api::{HandleExits, fast_exit_taken, handle_exits_taken, set_fast_exits};
use wurl::ffi::*;
use wurl::{CanonOptions, canon_into, canonicalize, parse, resolve};

/// One interface's result: the serialization, or why it is invalid (the
/// C ABI's bulk call says only that it is: `"invalid"`).
type Outcome = Result<String, String>;

fn rust_bulk(case: &Case) -> Outcome {
    let base = case.base.as_deref().map(parse);
    let mut out = String::new();
    canon_into(
        base.as_ref(),
        &case.input,
        &CanonOptions::default(),
        &mut out,
    )
    .map(|()| out)
    .map_err(|r| r.as_str().to_owned())
}

fn rust_handle(case: &Case) -> Outcome {
    let base = parse(case.base.as_deref().unwrap_or(&case.input));
    let c = canonicalize(&resolve(&base, &case.input), None);
    match c.invalid_reason() {
        Some(r) => Err(r.as_str().to_owned()),
        None => Ok(c.serialize().expect("valid")),
    }
}

fn c_parse(s: &str) -> *mut wurl_url {
    let mut h = std::ptr::null_mut();
    assert_eq!(wurl_parse(s.as_ptr().cast(), s.len(), 0, &mut h), WURL_OK);
    h
}

fn c_bulk(case: &Case) -> Outcome {
    let base = case.base.as_deref().map_or(std::ptr::null_mut(), c_parse);
    let mut buf = vec![0u8; 4096];
    let mut len = 0usize;
    let call = |buf: &mut Vec<u8>, len: &mut usize| {
        wurl_canon_into(
            base,
            case.input.as_ptr().cast(),
            case.input.len(),
            std::ptr::null(),
            0,
            0,
            buf.as_mut_ptr().cast(),
            buf.len(),
            len,
        )
    };
    let mut st = call(&mut buf, &mut len);
    if st == WURL_E_BUFFER_TOO_SMALL {
        buf = vec![0u8; len + 1];
        st = call(&mut buf, &mut len);
    }
    wurl_free(base);
    match st {
        WURL_OK => Ok(String::from_utf8(buf[..len].to_vec()).expect("UTF-8")),
        WURL_INVALID_URL => Err("invalid".to_owned()),
        other => panic!("{case:?}: status {other}"),
    }
}

fn c_handle(case: &Case) -> Outcome {
    let base = c_parse(case.base.as_deref().unwrap_or(&case.input));
    let mut resolved = std::ptr::null_mut();
    let st = wurl_resolve(
        base,
        case.input.as_ptr().cast(),
        case.input.len(),
        0,
        &mut resolved,
    );
    assert_eq!(st, WURL_OK);
    let mut canon = std::ptr::null_mut();
    assert_eq!(
        wurl_canonicalize(resolved, std::ptr::null(), 0, 0, &mut canon),
        WURL_OK
    );
    let (mut p, mut n) = (std::ptr::null(), 0usize);
    let r = if wurl_serialize(canon, &mut p, &mut n) {
        // SAFETY: a view of `n` octets that lives until `wurl_free(canon)`.
        let bytes = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n) };
        Ok(String::from_utf8(bytes.to_vec()).expect("UTF-8"))
    } else {
        // SAFETY: a static NUL-terminated string.
        let why = unsafe { std::ffi::CStr::from_ptr(wurl_invalid_reason(canon)) };
        Err(why.to_str().expect("ASCII").to_owned())
    };
    wurl_free(canon);
    wurl_free(resolved);
    wurl_free(base);
    r
}

/// The four interfaces' results, with the fast exits as they are set.
fn all(case: &Case) -> [Outcome; 4] {
    [
        rust_bulk(case),
        rust_handle(case),
        c_bulk(case),
        c_handle(case),
    ]
}

/// Whether a fast exit answers for `case` (for the report: how much of the
/// input the differential puts through them).
fn fast_exit(case: &Case) -> bool {
    let base = case.base.as_deref().map(parse);
    fast_exit_taken(base.as_ref(), &case.input)
}

/// Every conformance input (of the canonicalization, parse and resolve
/// tests), with its base when it has one.
fn conformance_cases() -> Vec<Case> {
    let mut files = canon_files();
    files.push("parsing.dat".into());
    files.push("resolving.dat".into());
    let mut cases = Vec::new();
    for file in files {
        for t in load(&file) {
            cases.push(Case {
                input: t.get("data").unwrap_or("").to_owned(),
                base: t.get("base").filter(|b| !b.is_empty()).map(str::to_owned),
            });
        }
    }
    cases
}

/// The canonical form of `case`, when it has one.
fn canonical(case: &Case) -> Option<String> {
    let base = case.base.as_deref().map(parse);
    let mut out = String::new();
    canon_into(
        base.as_ref(),
        &case.input,
        &CanonOptions::default(),
        &mut out,
    )
    .ok()?;
    Some(out)
}

/// Canonical URLs to start from: the canonical form of every conformance
/// input and of every line of the benchmark datasets (pages and links).
fn canonical_seeds() -> Vec<String> {
    let mut inputs: Vec<Case> = conformance_cases()
        .into_iter()
        .map(|c| Case {
            input: c.input,
            base: None,
        })
        .collect();
    inputs.extend(dataset_cases().into_iter().flat_map(|c| {
        let page = c.base.map(|p| Case {
            input: p,
            base: None,
        });
        [Case {
            input: c.input,
            base: None,
        }]
        .into_iter()
        .chain(page)
    }));
    let mut seeds: Vec<String> = inputs.iter().filter_map(canonical).collect();
    seeds.sort();
    seeds.dedup();
    seeds
}

/// Every line of the benchmark datasets: a URL of a URL list on its own,
/// a link against its page.
fn dataset_cases() -> Vec<Case> {
    datasets::all_rows()
        .into_iter()
        .map(|(_, input, base)| Case { input, base })
        .collect()
}

/// How many cases each of the handle path's fast exits answered: the parse, the resolution, the
/// canonicalization (`HandleExits`).
type HandleCounts = [usize; 3];

/// Runs the differential on `cases`; prints how many a fast exit of the bulk call answered and how
/// many each of the handle path's, fails with the first differences, and returns the handle path's
/// counts.
fn run(what: &str, cases: &[Case]) -> HandleCounts {
    let mut taken = 0;
    let mut handle = [0; 3];
    let mut failures = Vec::new();
    for case in cases {
        match check(case) {
            Ok(t) => taken += usize::from(t),
            Err(e) => failures.push(e),
        }
        let h: HandleExits = handle_exits_taken(case.base.as_deref(), &case.input);
        for (n, t) in handle.iter_mut().zip([h.parse, h.resolve, h.canonicalize]) {
            *n += usize::from(t);
        }
    }
    let pc = |n: usize| 100.0 * n as f64 / cases.len().max(1) as f64;
    println!(
        "fast-exit differential, {what}: {} cases, a fast exit answered {taken} ({:.1} %); \
         handle path: parse {} ({:.1} %), resolve {} ({:.1} %), canonicalize {} ({:.1} %)",
        cases.len(),
        pc(taken),
        handle[0],
        pc(handle[0]),
        handle[1],
        pc(handle[1]),
        handle[2],
        pc(handle[2]),
    );
    assert!(
        failures.is_empty(),
        "{what}: {} of {} cases differ; the first:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    handle
}

/// Each of the handle path's fast exits (parse, resolution, canonicalization) answered at least
/// `min` of the cases, so that the comparison above put it to work.
fn assert_handle_exits_taken(what: &str, counts: HandleCounts, min: usize) {
    for (name, n) in ["parse", "resolve", "canonicalize"].iter().zip(counts) {
        assert!(
            n >= min,
            "{what}: the handle path's {name} fast exit answered only {n} cases"
        );
    }
}

/// Checks `case` both ways; an `Err` says how they differ.
fn check(case: &Case) -> Result<bool, String> {
    let prev = set_fast_exits(false);
    let slow = all(case);
    set_fast_exits(true);
    let taken = fast_exit(case);
    let fast = all(case);
    set_fast_exits(prev);
    let names = ["Rust bulk", "Rust handle", "C bulk", "C handle"];
    for k in 0..4 {
        if fast[k] != slow[k] {
            return Err(format!(
                "{case:?}: {}: fast exits {:?}, stages {:?}",
                names[k], fast[k], slow[k]
            ));
        }
    }
    // The interfaces agree with each other on the key and on validity.
    // (Not on every reason: for an input that is its own base, the bulk
    // calls say why the input is invalid, while `resolve(parse(s), s)`
    // says that its base is; the C bulk call gives no reason.)
    if slow
        .iter()
        .any(|o| o.as_ref().ok() != slow[0].as_ref().ok())
    {
        return Err(format!("{case:?}: the interfaces differ: {slow:?}"));
    }
    Ok(taken)
}

/// The examples of the escaped drive after a host and of the raw `\` in a
/// base's path, with the 2012 module's results written out.
#[test]
fn drive_and_backslash_examples() {
    let rows: &[(&str, Option<&str>, &str)] = &[
        ("file://host2/c%3A/x", None, "file://host2/c:/x"),
        ("file://Host2/c%3A/x", None, "file://host2/c:/x"),
        ("file://host2/c%7C/x", None, "file://host2/c:/x"),
        ("file://host2/c%7c/x", None, "file://host2/c:/x"),
        ("file://h/s%3a", None, "file://h/s:/"),
        ("file://h/Z%3A", None, "file://h/Z:/"),
        ("file://h/Z%3A?q", None, "file://h/Z:/?q"),
        ("file://h/Z%7c#f", None, "file://h/Z:/#f"),
        ("file://h/c%3a/", Some("ftp://h/d/"), "file://h/c:/"),
        ("", Some("file://h/c%3A/x"), "file://h/c:/x"),
        ("?q", Some("http://a/b\\c/d"), "http://a/b%5Cc/d?q"),
        ("#f", Some("http://a/b\\c/d"), "http://a/b%5Cc/d#f"),
        ("", Some("http://a/b\\c/d"), "http://a/b%5Cc/d"),
        ("x", Some("http://a/b\\c/d"), "http://a/b/c/x"),
        ("http://a/b\\c/d", None, "http://a/b/c/d"),
    ];
    for &(input, base, want) in rows {
        let case = Case {
            input: input.to_owned(),
            base: base.map(str::to_owned),
        };
        check(&case).unwrap();
        assert_eq!(rust_bulk(&case).as_deref(), Ok(want), "{case:?}");
        // A fixed point: canonicalizing the result gives it back.
        let again = Case {
            input: want.to_owned(),
            base: None,
        };
        assert_eq!(all(&again), std::array::from_fn(|_| Ok(want.to_owned())));
    }
}

/// Every conformance input, with its base.
#[test]
fn fast_exits_equal_stages_on_conformance_input() {
    let counts = run("conformance", &conformance_cases());
    assert_handle_exits_taken("conformance", counts, 100);
}

/// Every line of the benchmark datasets, and the canonical form of each
/// (as its own base, and each link's against its page).
#[test]
fn fast_exits_equal_stages_on_datasets() {
    let cases = dataset_cases();
    let counts = run("datasets", &cases);
    assert_handle_exits_taken("datasets", counts, 1000);
    let canonical: Vec<Case> = cases
        .iter()
        .filter_map(|c| {
            Some(Case {
                input: canonical(c)?,
                base: c.base.clone(),
            })
        })
        .collect();
    let counts = run("datasets, canonical forms", &canonical);
    assert_handle_exits_taken("datasets, canonical forms", counts, 1000);
}

/// The differential on 200,000 near-canonical cases.
#[test]
fn fast_exits_equal_stages_on_near_canonical_input() {
    let seeds = canonical_seeds();
    let cases = near_canonical::cases(&seeds, 200_000, 0x005E_ED0F_FA57);
    let counts = run("near-canonical", &cases);
    assert_handle_exits_taken("near-canonical", counts, 10_000);
}
