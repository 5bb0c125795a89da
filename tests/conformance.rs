//! The 2012 conformance suite through the Rust API, judged as
//! `tests/data/README.md` says.

mod common;

use common::dat::{DatTest, canon_files, load};
use common::judge::{compare_components, run_canon_test};

fn report(file: &str, failures: Vec<String>, total: usize) {
    let failed = failures.len();
    for f in failures.iter().take(200) {
        eprintln!("{f}");
    }
    eprintln!("{file}: {} passed, {failed} failed", total - failed);
    assert_eq!(failed, 0, "{file}: {failed} of {total} checks failed");
}

fn describe(file: &str, t: &DatTest) -> String {
    format!(
        "{file}:{} data={:?} base={:?} charset={:?}",
        t.line,
        t.get("data").unwrap_or(""),
        t.get("base"),
        t.get("charset")
    )
}

#[test]
fn parsing_dat() {
    let tests = load("parsing.dat");
    assert_eq!(tests.len(), 147);
    let mut failures = Vec::new();
    for t in &tests {
        let u = wurl::parse(t.get("data").unwrap_or(""));
        let mut errs = Vec::new();
        compare_components(t, &u, true, &mut errs);
        if !errs.is_empty() {
            failures.push(format!(
                "{}\n  {}",
                describe("parsing.dat", t),
                errs.join("\n  ")
            ));
        }
    }
    report("parsing.dat", failures, tests.len());
}

#[test]
fn resolving_dat() {
    let tests = load("resolving.dat");
    assert_eq!(tests.len(), 103);
    let mut failures = Vec::new();
    for t in &tests {
        let base = wurl::parse(t.get("base").unwrap_or(""));
        let u = wurl::resolve(&base, t.get("data").unwrap_or(""));
        let mut errs = Vec::new();
        compare_components(t, &u, true, &mut errs);
        if !errs.is_empty() {
            failures.push(format!(
                "{}\n  {}",
                describe("resolving.dat", t),
                errs.join("\n  ")
            ));
        }
    }
    report("resolving.dat", failures, tests.len());
}

fn run_canon_file(file: &str) -> (usize, Vec<String>) {
    let tests = load(file);
    assert!(!tests.is_empty(), "{file} has no tests");
    let mut checks = 0;
    let mut failures = Vec::new();
    for t in &tests {
        let (n, errs) = run_canon_test(t);
        checks += n;
        if !errs.is_empty() {
            failures.push(format!("{}\n  {}", describe(file, t), errs.join("\n  ")));
        }
    }
    (checks, failures)
}

#[test]
fn canonicalization_files() {
    let mut all_failures = Vec::new();
    let mut total = 0;
    let mut tests = 0;
    for file in canon_files() {
        let (checks, failures) = run_canon_file(&file);
        tests += load(&file).len();
        eprintln!("{file}: {} checks, {} tests failed", checks, failures.len());
        total += checks;
        all_failures.extend(failures);
    }
    eprintln!("{tests} canonicalization tests");
    report("decomps*.dat + generated/*.dat", all_failures, total);
}

#[test]
fn url_to_canon_url_tsv() {
    let path = common::dat::data_dir().join("url_to_canon_url.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    let field = |s: &str| -> Option<String> {
        if s == "\\N" {
            return None;
        }
        Some(common::dat::unescape(&s.replace("\\\\", "\u{E000}")).replace('\u{E000}', "\\"))
    };
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with("# ") && !l.is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 4, "{line}");
        let input = field(cols[0]).unwrap_or_default();
        let got =
            wurl::url_to_canon_url(&input, field(cols[1]).as_deref(), field(cols[2]).as_deref());
        assert_eq!(
            got,
            field(cols[3]),
            "url_to_canon_url({:?}, {:?}, {:?})",
            input,
            cols[1],
            cols[2]
        );
        n += 1;
    }
    assert_eq!(n, 23);
}

/// Through the C ABI, `wurl_invalid_reason` names a rule for every invalid
/// result of the suite and is NULL for every valid one; the result also
/// agrees with the Rust API.
#[test]
fn invalid_reason_through_c_abi() {
    use std::ffi::CStr;
    use wurl::ffi::*;
    let mut invalid = 0;
    let mut valid = 0;
    for file in canon_files() {
        for t in load(&file) {
            let data = t.get("data").unwrap_or("");
            let base_s = match t.get("base") {
                Some(b) if !b.is_empty() => b,
                _ => data,
            };
            let cs = t.get("charset").unwrap_or("");
            let (mut b, mut r, mut c) = (
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            );
            assert_eq!(
                wurl_parse(base_s.as_ptr().cast(), base_s.len(), 0, &mut b),
                WURL_OK
            );
            assert_eq!(
                wurl_resolve(b, data.as_ptr().cast(), data.len(), 0, &mut r),
                WURL_OK
            );
            assert_eq!(
                wurl_canonicalize(r, cs.as_ptr().cast(), cs.len(), 0, &mut c),
                WURL_OK
            );
            let reason = wurl_invalid_reason(c);
            if t.get("invalid").is_some() {
                assert!(wurl_is_invalid(c), "{file}:{} {data:?}", t.line);
                assert!(!reason.is_null(), "{file}:{} {data:?}: no reason", t.line);
                // SAFETY: a non-NULL reason is a static NUL-terminated string.
                let text = unsafe { CStr::from_ptr(reason) }.to_str().unwrap();
                assert!(text.len() > 8, "{text:?}");
                invalid += 1;
            } else {
                assert!(
                    reason.is_null(),
                    "{file}:{} {data:?}: valid but has a reason",
                    t.line
                );
                valid += 1;
            }
            wurl_free(c);
            wurl_free(r);
            wurl_free(b);
        }
    }
    eprintln!("{invalid} invalid results with a reason, {valid} valid without");
    assert!(invalid > 1000 && valid > 5000);
}

/// The versions of Unicode behind NFKC and the bidi classes, as the README
/// states them.
#[test]
fn unicode_versions_are_the_documented_ones() {
    assert_eq!(unicode_normalization::UNICODE_VERSION, (18, 0, 0));
}
