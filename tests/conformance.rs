//! The 2012 conformance suite through the Rust API, judged as
//! `tests/data/README.md` says.

mod common;

use common::dat::{DatTest, canon_files, load};
use wurl::{Component, Url};

fn show(v: Option<&str>) -> String {
    match v {
        None => "(absent)".to_owned(),
        Some(s) => format!("{s:?}"),
    }
}

/// Compares `invalid` and every component; a component the test does not
/// list must be absent. A `file:` URL whose path begins with a drive letter
/// is compared with the drive inside the path, which is how wurl keeps it.
fn compare_components(t: &DatTest, u: &Url, check_invalid: bool, errs: &mut Vec<String>) {
    if check_invalid && t.get("invalid").is_some() != u.is_invalid() {
        errs.push(format!(
            "invalid: expected {}, got {} ({:?})",
            t.get("invalid").is_some(),
            u.is_invalid(),
            u.invalid_reason()
        ));
    }
    for c in Component::ALL {
        let want = t.get(c.name());
        let got = u.get(c);
        if want != got {
            errs.push(format!(
                "{}: expected {}, got {}",
                c.name(),
                show(want),
                show(got)
            ));
        }
    }
}

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

/// Runs one canonicalization test; returns the number of checks and the
/// failures (the canonicalization check and the idempotency check).
pub fn run_canon_test(t: &DatTest) -> (usize, Vec<String>) {
    let data = t.get("data").unwrap_or("");
    let base_s = match t.get("base") {
        Some(b) if !b.is_empty() => b,
        _ => data,
    };
    let charset = t.get("charset");
    let base = wurl::parse(base_s);
    let resolved = wurl::resolve(&base, data);
    let canon = wurl::canonicalize(&resolved, charset);
    let mut errs = Vec::new();
    if t.get("invalid").is_some() {
        if !canon.is_invalid() {
            errs.push(format!(
                "expected invalid, got {}",
                show(canon.serialize().as_deref())
            ));
        }
        return (1, errs);
    }
    if let Some(why) = canon.invalid_reason() {
        errs.push(format!("unexpectedly invalid: {why}"));
        return (2, errs);
    }
    let ser = canon.serialize().unwrap_or_default();
    let want = t.get("canon").unwrap_or(data);
    if ser != want {
        errs.push(format!("canon: expected {want:?}, got {ser:?}"));
    }
    compare_components(t, &canon, false, &mut errs);
    // Idempotency.
    let again = wurl::canonicalize(&wurl::resolve(&base, &ser), charset).serialize();
    if again.as_deref() != Some(ser.as_str()) {
        errs.push(format!(
            "idempotency: {ser:?} became {}",
            show(again.as_deref())
        ));
    }
    (2, errs)
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
