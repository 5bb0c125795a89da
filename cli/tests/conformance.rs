//! `wurl canon` agrees with the library on every canonicalization test of
//! the conformance data (`tests/data/decomps*.dat` and
//! `tests/data/generated/*.dat`).
//!
//! The expected output of each test is computed with the library's bulk API
//! (`wurl::canon_into` against the parsed `#base`, or the input itself, with
//! `#charset`); the tool is run once per (base, charset) group with the
//! inputs on standard input. Inputs that cannot be a line (they hold CR or
//! LF, or begin with U+FEFF, which the tool drops at the start of its input)
//! are passed as arguments instead; an input that can be neither (LF and NUL
//! together) is skipped and counted.
//!
//! A `#charset` label that is not a WHATWG label (the suite has some, e.g.
//! `ibm037`) means UTF-8 to the library, but `wurl --charset` refuses it
//! (exit status 2): for those groups the refusal is checked, and the inputs
//! are run without `--charset`.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{data_path, lib_canon, wurl};

// The library's own reader of the `.dat` format (tests/common/dat.rs).
#[path = "../../tests/common/dat.rs"]
#[allow(dead_code)]
mod dat;

use dat::parse_dat;

fn dat_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["../tests/data", "../tests/data/generated"] {
        let Ok(entries) = std::fs::read_dir(data_path(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.starts_with("decomps") && name.ends_with(".dat") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

type Key = (Option<String>, Option<String>);

struct Case {
    origin: String,
    input: String,
    expect: String,
}

/// The output lines and the exit status of one run.
fn run_group(key: &Key, cases: &[Case], as_args: bool, format_json: bool) -> (Vec<String>, i32) {
    let mut args: Vec<String> = vec!["canon".into(), "-q".into()];
    if let Some(b) = &key.0 {
        args.extend(["--base".into(), b.clone()]);
    }
    if let Some(c) = &key.1 {
        if encoding_rs::Encoding::for_label(c.as_bytes()).is_some() {
            args.extend(["--charset".into(), c.clone()]);
        } else {
            let r = wurl(&["canon", "--charset", c.as_str(), "http://a/"], None);
            assert_eq!(r.code, 2, "unknown --charset {c:?} is an error");
            assert!(
                r.stdout.is_empty() && r.stderr.contains("wurl: --charset: unknown charset label")
            );
        }
    }
    if format_json {
        args.extend(["-f".into(), "json".into()]);
    }
    let r = if as_args {
        args.extend(cases.iter().map(|c| c.input.clone()));
        wurl(&args, None)
    } else {
        let mut stdin = String::new();
        for c in cases {
            stdin.push_str(&c.input);
            stdin.push('\n');
        }
        wurl(&args, Some(stdin.as_bytes()))
    };
    let lines: Vec<String> = if format_json {
        r.out()
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).expect("JSON line");
                v["url"].as_str().unwrap_or("").to_owned()
            })
            .collect()
    } else {
        r.out().split_terminator('\n').map(str::to_owned).collect()
    };
    assert_eq!(
        lines.len(),
        cases.len(),
        "one output line per input, group {key:?}"
    );
    (lines, r.code)
}

#[test]
fn canon_agrees_with_library_on_conformance_data() {
    let files = dat_files();
    if files.is_empty() {
        eprintln!("skipped: no tests/data/decomps*.dat");
        return;
    }
    let mut line_groups: BTreeMap<Key, Vec<Case>> = BTreeMap::new();
    let mut arg_groups: BTreeMap<Key, Vec<Case>> = BTreeMap::new();
    let (mut total, mut skipped) = (0usize, 0usize);
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read .dat");
        let fname = Path::new(file)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for (n, t) in parse_dat(&text).into_iter().enumerate() {
            let Some(data) = t.get("data") else { continue };
            let base = t.get("base").filter(|b| !b.is_empty()).map(str::to_owned);
            let charset = t.get("charset").map(str::to_owned);
            let expect = lib_canon(
                Some(base.as_deref().unwrap_or(data)),
                data,
                charset.as_deref(),
                false,
            );
            let case = Case {
                origin: format!("{fname} test {}", n + 1),
                input: data.to_owned(),
                expect,
            };
            total += 1;
            let line_safe = !data.contains(['\n', '\r']) && !data.starts_with('\u{FEFF}');
            if line_safe {
                line_groups.entry((base, charset)).or_default().push(case);
            } else if !data.contains('\0') {
                arg_groups.entry((base, charset)).or_default().push(case);
            } else {
                skipped += 1;
            }
        }
    }
    assert!(
        total > 4000,
        "only {total} tests read from {} files",
        files.len()
    );

    let mut failures = Vec::new();
    let mut checked = 0usize;
    let mut processes = 0usize;
    for (groups, as_args) in [(&line_groups, false), (&arg_groups, true)] {
        for (key, cases) in groups {
            for json in [false, true] {
                let (got, code) = run_group(key, cases, as_args, json);
                processes += 1;
                let any_invalid = cases.iter().any(|c| c.expect.is_empty());
                if code != i32::from(any_invalid) {
                    failures.push(format!(
                        "exit status {code} for group {key:?} (any invalid: {any_invalid})"
                    ));
                }
                for (c, g) in cases.iter().zip(&got) {
                    if *g != c.expect {
                        failures.push(format!(
                            "{} ({}): input {:?} base {:?} charset {:?}: wurl {:?}, library {:?}",
                            c.origin,
                            if json { "json" } else { "text" },
                            c.input,
                            key.0,
                            key.1,
                            g,
                            c.expect
                        ));
                    }
                }
            }
            checked += cases.len();
        }
    }
    eprintln!(
        "{checked} of {total} conformance inputs checked ({} as arguments) in {processes} runs; {skipped} skipped (LF and NUL together)",
        arg_groups.values().map(Vec::len).sum::<usize>()
    );
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}

#[test]
fn dat_reader() {
    let t = parse_dat(
        "#data\n| #x\n#base http://a/\n#host\n#path escaped\n\\u00e9\\uD800/\n\n#data foo\n\n#data\nline1\n\nline3\n#canon8\nc8\n#canon\nc\n",
    );
    assert_eq!(t.len(), 3);
    assert_eq!(t[0].get("data"), Some("#x"));
    assert_eq!(t[0].get("base"), Some("http://a/"));
    assert_eq!(t[0].get("host"), Some(""));
    assert_eq!(t[0].get("path"), Some("é\u{FFFD}/"));
    assert_eq!(t[1].get("data"), Some("foo"));
    assert_eq!(t[2].get("data"), Some("line1\n\nline3"));
    assert_eq!(t[2].get("canon"), Some("c8"));
}
