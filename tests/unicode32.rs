//! The 93,263 generated tests of `unicode32-unassigned-a1.tar.xz`: one per
//! code point unassigned in Unicode 3.2 (RFC 3454 table A.1), used as a host
//! label. The tarball is unpacked at test time (33 MB unpacked).

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::dat::{DatTest, data_dir, parse_dat};
use common::judge::run_canon_test;

fn unpack() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("unicode32");
    let done = dir.join(".unpacked");
    if !done.exists() {
        std::fs::create_dir_all(&dir).unwrap();
        let status = Command::new("tar")
            .arg("-xJf")
            .arg(data_dir().join("unicode32-unassigned-a1.tar.xz"))
            .arg("-C")
            .arg(&dir)
            .status()
            .expect("tar");
        assert!(status.success(), "tar -xJf failed");
        std::fs::write(&done, b"").unwrap();
    }
    dir.join("generated")
}

/// The code point under test: the character of `data` that is unassigned
/// in Unicode 3.2 (some tests wrap it in Arabic letters for the bidi rule).
fn code_point(t: &DatTest) -> Option<char> {
    t.get("data")?
        .chars()
        .find(|&c| stringprep::tables::unassigned_code_point(c))
}

fn assigned_by_unicode_6_0(c: char) -> bool {
    use unic_ucd_age::{Age, UnicodeVersion};
    match Age::of(c) {
        Some(age) => {
            age.actual()
                <= UnicodeVersion {
                    major: 6,
                    minor: 0,
                    micro: 0,
                }
        }
        None => false,
    }
}

/// The committed list of expected differences.
fn differences_path() -> PathBuf {
    data_dir().join("unicode32-differences.tsv")
}

/// `data` with every non-ASCII character written `\u{X}`: the key of a test
/// in the list.
fn key(t: &DatTest) -> String {
    let mut k = String::new();
    for c in t.get("data").unwrap_or("").chars() {
        if c.is_ascii() {
            k.push(c);
        } else {
            k.push_str(&format!("\\u{{{:X}}}", c as u32));
        }
    }
    k
}

fn age_of(c: char) -> String {
    match unic_ucd_age::Age::of(c) {
        Some(a) => {
            let v = a.actual();
            format!("{}.{}", v.major, v.minor)
        }
        None => "after 10.0 (newer than the age table)".to_owned(),
    }
}

/// Every test that does not give the suite's result is listed in
/// `tests/data/unicode32-differences.tsv` with its reason, and every listed
/// one still differs (the test fails on a new difference and on a listed
/// one that now passes). `WURL_BLESS=1` rewrites the list.
#[test]
fn unicode32_unassigned() {
    let dir = unpack();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut total = 0;
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for t in parse_dat(&text) {
            total += 1;
            let (_, errs) = run_canon_test(&t);
            if !errs.is_empty() {
                failures.push((code_point(&t), key(&t), errs));
            }
        }
    }
    assert_eq!(total, 93_263);
    // A result may differ from the suite only for a code point that was
    // still unassigned in Unicode 6.0, the version the suite was generated
    // with: the spec asks for the latest Unicode, whose NFKC, case mapping
    // and bidi classes know those characters now.
    for (cp, k, errs) in &failures {
        let cp = cp.unwrap_or_else(|| panic!("{k}: no code point under test"));
        assert!(
            !assigned_by_unicode_6_0(cp),
            "{k}: U+{:04X} was assigned by Unicode 6.0, yet: {}",
            cp as u32,
            errs.join("; ")
        );
    }
    let mut lines: Vec<String> = failures
        .iter()
        .map(|(cp, k, errs)| {
            let cp = cp.unwrap();
            format!(
                "{k}\tU+{:04X}\t{}\t{}",
                cp as u32,
                age_of(cp),
                errs.first().map_or("", String::as_str).replace('\t', " ")
            )
        })
        .collect();
    lines.sort();
    if std::env::var_os("WURL_BLESS").is_some() {
        let mut out = String::from(
            "# The tests of unicode32-unassigned-a1.tar.xz whose result differs from the\n\
             # suite's: each code point was unassigned in Unicode 6.0 (the suite's\n\
             # version) and is assigned in the current Unicode of unicode-normalization,\n\
             # whose NFKC, Nameprep case mapping and bidi classes now know it. Columns:\n\
             # test data, code point, Unicode version that assigned it, first difference.\n",
        );
        for l in &lines {
            out.push_str(l);
            out.push('\n');
        }
        std::fs::write(differences_path(), out).unwrap();
        return;
    }
    let listed = std::fs::read_to_string(differences_path()).expect("unicode32-differences.tsv");
    let listed: std::collections::BTreeSet<&str> = listed
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split('\t').next())
        .collect();
    let found: std::collections::BTreeSet<&str> =
        failures.iter().map(|(_, k, _)| k.as_str()).collect();
    let new: Vec<_> = found.difference(&listed).collect();
    let gone: Vec<_> = listed.difference(&found).collect();
    eprintln!(
        "unicode32: {} passed, {} differ as listed (characters assigned after Unicode 6.0)",
        total - failures.len(),
        failures.len()
    );
    assert!(new.is_empty(), "differences not in the list: {new:?}");
    assert!(
        gone.is_empty(),
        "listed differences that now pass: {gone:?}"
    );
}
