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
use wurl::canonicalize::{canon_into_stages, full_steps_run};
use wurl::ffi::*;
use wurl::{CanonOptions, canon_into, canon_into_resolved, canonicalize, parse, resolve};

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
    rust_handle_label(case, None)
}

fn c_parse(s: &str) -> *mut wurl_url {
    let mut h = std::ptr::null_mut();
    assert_eq!(wurl_parse(s.as_ptr().cast(), s.len(), 0, &mut h), WURL_OK);
    h
}

fn c_bulk(case: &Case) -> Outcome {
    match c_canon_into(case, None, 0) {
        (WURL_OK, out) => Ok(out),
        (WURL_INVALID_URL, _) => Err("invalid".to_owned()),
        (other, _) => panic!("{case:?}: status {other}"),
    }
}

/// `wurl_canon_into` of `case` with a charset label (`None`: a NULL one) and `flags`: the status,
/// and the output when it is `WURL_OK` (a buffer too small is grown once, to the length asked for).
fn c_canon_into(case: &Case, label: Option<&str>, flags: u32) -> (wurl_status, String) {
    let base = case.base.as_deref().map_or(std::ptr::null_mut(), c_parse);
    let (label, label_len) = label.map_or((std::ptr::null(), 0), |l| (l.as_ptr(), l.len()));
    let mut buf = vec![0u8; 4096];
    let mut len = 0usize;
    let call = |buf: &mut Vec<u8>, len: &mut usize| {
        wurl_canon_into(
            base,
            case.input.as_ptr().cast(),
            case.input.len(),
            label.cast(),
            label_len,
            flags,
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
    let out = if st == WURL_OK {
        String::from_utf8(buf[..len].to_vec()).expect("UTF-8")
    } else {
        String::new()
    };
    (st, out)
}

fn c_handle(case: &Case) -> Outcome {
    c_handle_label(case, None)
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

/// Runs the differential on `cases`; prints how many a fast exit of the bulk call answered and how
/// many each of the handle path's; fails with the first differences, and unless each of the handle
/// path's fast exits (parse, resolution, canonicalization) answered at least `min` of the cases,
/// so that the comparison put it to work.
fn run(what: &str, cases: &[Case], min: usize) {
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
    let summary = format!(
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
    report(what, &summary, cases.len(), &failures);
    for (name, n) in ["parse", "resolve", "canonicalize"].iter().zip(handle) {
        assert!(
            n >= min,
            "{what}: the handle path's {name} fast exit answered only {n} cases"
        );
    }
}

/// Prints `summary` of a differential on `what`, and fails when any of its `checks` differed,
/// with the first `failures`.
fn report(what: &str, summary: &str, checks: usize, failures: &[String]) {
    println!("{summary}");
    assert!(
        failures.is_empty(),
        "{what}: {} of {checks} checks differ; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
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
    run("conformance", &conformance_cases(), 100);
}

/// Every line of the benchmark datasets, and the canonical form of each
/// (as its own base, and each link's against its page).
#[test]
fn fast_exits_equal_stages_on_datasets() {
    let cases = dataset_cases();
    run("datasets", &cases, 1000);
    let canonical: Vec<Case> = cases
        .iter()
        .filter_map(|c| {
            Some(Case {
                input: canonical(c)?,
                base: c.base.clone(),
            })
        })
        .collect();
    run("datasets, canonical forms", &canonical, 1000);
}

/// The differential on 200,000 near-canonical cases.
#[test]
fn fast_exits_equal_stages_on_near_canonical_input() {
    let seeds = canonical_seeds();
    let cases = near_canonical::cases(&seeds, 200_000, 0x005E_ED0F_FA57);
    run("near-canonical", &cases, 10_000);
}

// ---------------------------------------------------------------------------
// Charsets: a label is resolved once, and the fast exits answer for every
// label whose query encoding is UTF-8, and for ASCII input under any other
// ASCII-compatible one.

/// Labels of every charset class: UTF-8 (its labels in any spelling, and the
/// encodings whose query is written in UTF-8: UTF-16, replacement, an unknown
/// label), ASCII-compatible single-byte and multi-byte, and ISO-2022-JP,
/// which only the stages write.
const UTF8_LABELS: &[&str] = &[
    "utf-8",
    "UTF8",
    " utf-8 ",
    "Unicode-1-1-UTF-8",
    "utf-16le",
    "iso-2022-kr",
    "no-such-label",
];
const SINGLE_BYTE_LABELS: &[&str] = &["iso-8859-1", "koi8-r"];
const MULTI_BYTE_LABELS: &[&str] = &["shift_jis", "gbk", "euc-kr"];
const OTHER_LABELS: &[&str] = &["iso-2022-jp"];

/// One label of each class, for the larger sets of cases.
const CLASS_LABELS: &[&str] = &[" UTF8", "iso-8859-1", "shift_jis", "iso-2022-jp"];

fn all_labels() -> impl Iterator<Item = &'static str> {
    [
        UTF8_LABELS,
        SINGLE_BYTE_LABELS,
        MULTI_BYTE_LABELS,
        OTHER_LABELS,
    ]
    .into_iter()
    .flatten()
    .copied()
}

/// `wurl_canon_into` with a charset label and `flags`.
fn c_bulk_label(case: &Case, label: &str, flags: u32) -> Outcome {
    match c_canon_into(case, Some(label), flags) {
        (WURL_OK, out) => Ok(out),
        (WURL_INVALID_URL, _) => Err("invalid".to_owned()),
        (other, _) => Err(format!("status {other}")),
    }
}

/// `wurl_canonicalize` with a charset label (`None`: a NULL one) of the input resolved against
/// its base (or its own parse): the serialization, or the reason it is invalid.
fn c_handle_label(case: &Case, label: Option<&str>) -> Outcome {
    let base = c_parse(case.base.as_deref().unwrap_or(&case.input));
    let (label, label_len) = label.map_or((std::ptr::null(), 0), |l| (l.as_ptr(), l.len()));
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
        wurl_canonicalize(resolved, label.cast(), label_len, 0, &mut canon),
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

/// The Rust handle path with a charset label (`None`: none).
fn rust_handle_label(case: &Case, label: Option<&str>) -> Outcome {
    let base = parse(case.base.as_deref().unwrap_or(&case.input));
    let c = canonicalize(&resolve(&base, &case.input), label);
    match c.invalid_reason() {
        Some(r) => Err(r.as_str().to_owned()),
        None => Ok(c.serialize().expect("valid")),
    }
}

/// The stages' result for `case` with `opts` (the fast exits are not asked).
fn stages(case: &Case, opts: &CanonOptions) -> Outcome {
    let base = case.base.as_deref().map(parse);
    let mut out = String::new();
    canon_into_stages(base.as_ref(), &case.input, opts, &mut out)
        .map(|()| out)
        .map_err(|r| r.as_str().to_owned())
}

/// Checks `case` under `label` on every road against the stages: the Rust
/// bulk call, the C bulk call and the Rust handle path (with the fast exits
/// on and off). `full`: also the Rust bulk call with the label resolved
/// first, the C bulk call with the strict flag and the C handle path. A label whose query encoding is
/// UTF-8 gives what no label gives.
fn check_label(case: &Case, label: &str, full: bool) -> Result<(), String> {
    let opts = CanonOptions {
        charset: Some(label),
        network_strict: false,
    };
    let want = stages(case, &opts);
    let differ = |road: &str, got: &Outcome, want: &Outcome| {
        Err(format!(
            "{case:?}, charset {label:?}: {road}: {got:?}, the stages {want:?}"
        ))
    };
    if opts.resolve().query_encoding() == encoding_rs::UTF_8 {
        let none = stages(case, &CanonOptions::default());
        if none != want {
            return differ("no label", &none, &want);
        }
    }
    let base = case.base.as_deref().map(parse);
    let mut out = String::new();
    let got = canon_into(base.as_ref(), &case.input, &opts, &mut out)
        .map(|()| out)
        .map_err(|r| r.as_str().to_owned());
    if got != want {
        return differ("Rust bulk", &got, &want);
    }
    if full {
        let mut out = String::new();
        let got = canon_into_resolved(base.as_ref(), &case.input, &opts.resolve(), &mut out)
            .map(|()| out)
            .map_err(|r| r.as_str().to_owned());
        if got != want {
            return differ("Rust bulk, resolved", &got, &want);
        }
    }
    let want_c = want.clone().map_err(|_| "invalid".to_owned());
    let got = c_bulk_label(case, label, 0);
    if got != want_c {
        return differ("C bulk", &got, &want_c);
    }
    // The handle paths may give another reason (see `check`): the same road
    // with the fast exits off is their reference, and the key is the bulk
    // call's.
    let prev = set_fast_exits(false);
    let slow = rust_handle_label(case, Some(label));
    set_fast_exits(prev);
    let fast = rust_handle_label(case, Some(label));
    if fast != slow || fast.as_ref().ok() != want.as_ref().ok() {
        return differ("Rust handle", &fast, &slow);
    }
    if full {
        let known = wurl::charset::resolve_label(label.as_bytes()).is_ok();
        let got = c_bulk_label(case, label, WURL_FLAG_CHARSET_STRICT);
        let strict_want = if known {
            want_c.clone()
        } else {
            Err(format!("status {WURL_E_UNKNOWN_CHARSET}"))
        };
        if got != strict_want {
            return differ("C bulk, strict", &got, &strict_want);
        }
        let got = c_handle_label(case, Some(label));
        if got.as_ref().ok() != want.as_ref().ok() {
            return differ("C handle", &got, &want_c);
        }
    }
    Ok(())
}

/// Runs [`check_label`] on `cases` under each of `labels`.
fn run_labels(what: &str, cases: &[Case], labels: &[&str], full: bool) {
    let mut failures = Vec::new();
    for label in labels {
        for case in cases {
            if let Err(e) = check_label(case, label, full) {
                failures.push(e);
            }
        }
    }
    let summary = format!(
        "charset differential, {what}: {} cases under {} labels",
        cases.len(),
        labels.len()
    );
    report(what, &summary, cases.len() * labels.len(), &failures);
}

/// Every conformance input, with its base, under every label.
#[test]
fn charsets_fast_roads_equal_stages_on_conformance_input() {
    let labels: Vec<&str> = all_labels().collect();
    run_labels("conformance", &conformance_cases(), &labels, true);
}

/// Every line of the benchmark datasets under a label of each class.
#[test]
fn charsets_fast_roads_equal_stages_on_datasets() {
    run_labels("datasets", &dataset_cases(), CLASS_LABELS, false);
}

/// Near-canonical cases (queries with non-ASCII, escapes and `%` among
/// them) under a label of each class.
#[test]
fn charsets_fast_roads_equal_stages_on_near_canonical_input() {
    let seeds = canonical_seeds();
    let cases = near_canonical::cases(&seeds, 20_000, 0x0C4A_25E7);
    run_labels("near-canonical", &cases, CLASS_LABELS, false);
}

/// Every spelling of a UTF-8 query encoding takes the fast exits, as no
/// label does: a canonical URL, one the resume road finishes and a link
/// the merge answers run no full canonicalization steps, on the Rust and C
/// bulk calls and the handle path. Under ISO-2022-JP the same calls run
/// them (so this test can tell), and under an ASCII-compatible label ASCII
/// input still takes the fast exits while non-ASCII does not.
#[test]
fn utf8_labels_take_the_fast_exits() {
    let page = "http://example.com/dir/page.html";
    let ascii = [
        Case {
            input: "http://example.com/a/b?q=1#f".to_owned(),
            base: None,
        },
        Case {
            input: "HTTP://Example.COM:80/a/b?q=%7e".to_owned(),
            base: None,
        },
        Case {
            input: "../x/y?z=1".to_owned(),
            base: Some(page.to_owned()),
        },
        Case {
            input: "#top".to_owned(),
            base: Some(page.to_owned()),
        },
    ];
    let non_ascii = Case {
        input: "http://example.com/a?q=\u{65E5}".to_owned(),
        base: None,
    };
    // How many full canonicalizations the bulk calls and the handle path
    // ran on `case` under `label` (`None`: no label).
    let steps = |case: &Case, label: Option<&str>| -> [u64; 3] {
        let base = case.base.as_deref().map(parse);
        let opts = CanonOptions {
            charset: label,
            network_strict: false,
        };
        let n0 = full_steps_run();
        let mut out = String::new();
        let _ = canon_into(base.as_ref(), &case.input, &opts, &mut out);
        let n1 = full_steps_run();
        let c = match label {
            Some(l) => c_bulk_label(case, l, WURL_FLAG_CHARSET_STRICT),
            None => c_bulk(case),
        };
        assert!(c.is_ok(), "{case:?}: {c:?}");
        let n2 = full_steps_run();
        // The handle path: a canonical handle is known canonical.
        let mut canon = String::new();
        canon_into(
            base.as_ref(),
            &case.input,
            &CanonOptions::default(),
            &mut canon,
        )
        .unwrap();
        let _ = canonicalize(&parse(&canon), label);
        let n3 = full_steps_run();
        [n1 - n0, n2 - n1, n3 - n2]
    };
    for case in &ascii {
        assert_eq!(steps(case, None), [0; 3], "{case:?}: no label");
        for label in [
            "utf-8",
            "UTF8",
            " utf-8 ",
            "Utf-8",
            "utf8",
            "unicode-1-1-utf-8",
            "utf-16le",
        ] {
            assert_eq!(steps(case, Some(label)), [0; 3], "{case:?}: {label:?}");
        }
        for label in ["iso-8859-1", "windows-1252", "shift_jis", "gbk"] {
            assert_eq!(steps(case, Some(label)), [0; 3], "{case:?}: {label:?}");
        }
        let s = steps(case, Some("iso-2022-jp"));
        assert!(s.iter().all(|&n| n > 0), "{case:?}: iso-2022-jp: {s:?}");
    }
    // Non-ASCII: the resume road finishes it for a UTF-8 query; another
    // encoding's query is the stages'.
    assert_eq!(steps(&non_ascii, Some("utf-8"))[..2], [0, 0]);
    let s = steps(&non_ascii, Some("shift_jis"));
    assert!(s[0] > 0 && s[1] > 0, "{s:?}");
}
