//! The same bytes give the same results from the CLI as from C, C++, Perl,
//! Ruby and Python: the rows of bindings/cross-binding-expected.tsv
//! (written by bindings/tools/cross_check.c, with every class of invalid
//! UTF-8 in the host, path, query and fragment) are recomputed by running
//! the built `wurl` on their input bytes, and the output bytes compared.
//!
//! Inputs go in as NUL-terminated records (`-z`), so that line ends in an
//! input are ordinary bytes; an input holding NUL cannot be a record, and
//! is the only kind left out (counted, and the count checked).

mod common;

use common::{data_path, wurl};

const BASE: &str = "http://base.example/dir/file?q#f";

/// The table's escapes (`\xHH`, `\\`) to bytes; `\N` is `None`.
fn unescape(s: &str) -> Option<Vec<u8>> {
    if s == "\\N" {
        return None;
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'\\') {
            out.push(b'\\');
            i += 2;
        } else if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') {
            let hex = std::str::from_utf8(&b[i + 2..i + 4]).expect("hex");
            out.push(u8::from_str_radix(hex, 16).expect("hex digits"));
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

/// The rows: (op, input, serialization or None for invalid).
fn rows() -> Vec<(String, Vec<u8>, Option<Vec<u8>>)> {
    let path = data_path("../bindings/cross-binding-expected.tsv");
    let text = std::fs::read_to_string(&path).expect("read the cross-binding table");
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 14, "14 columns: {l}");
            let input = unescape(cols[1]).expect("an input");
            let invalid = cols[2] == "1";
            let ser = unescape(cols[13]);
            // An invalid URL has no serialization; the CLI writes an
            // empty record for it.
            assert_eq!(invalid, ser.is_none(), "invalid and \\N agree: {l}");
            (cols[0].to_owned(), input, ser)
        })
        .collect()
}

/// The CLI's arguments for an operation of the table.
fn args_of(op: &str) -> Option<Vec<String>> {
    let v = |a: &[&str]| Some(a.iter().map(|s| s.to_string()).collect());
    match op {
        "parse" => v(&["parse"]),
        "resolve" => v(&["resolve", "--base", BASE]),
        "canon" | "canon_into" => v(&["canon"]),
        "canon_1252" => v(&["canon", "--charset", "windows-1252"]),
        "key:surt" => v(&["canon", "--format", "surt"]),
        _ => op
            .strip_prefix("key:")
            .map(|rules| vec!["canon".into(), "--rules".into(), rules.into()]),
    }
}

#[test]
fn same_bytes_same_output() {
    let rows = rows();
    assert!(
        rows.len() >= 900,
        "the table has the sample: {} rows",
        rows.len()
    );
    let mut ops: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    ops.sort_unstable();
    ops.dedup();
    let (mut checked, mut with_nul, mut invalid_utf8) = (0usize, 0usize, 0usize);
    for op in ops {
        let mut args = args_of(op).unwrap_or_else(|| panic!("unknown op {op}"));
        args.extend(["-z", "-q", "--allow-invalid"].map(String::from));
        let mine: Vec<_> = rows
            .iter()
            .filter(|r| r.0 == op && !r.1.contains(&0))
            .collect();
        with_nul += rows
            .iter()
            .filter(|r| r.0 == op && r.1.contains(&0))
            .count();
        let mut stdin = Vec::new();
        for r in &mine {
            stdin.extend_from_slice(&r.1);
            stdin.push(0);
        }
        let run = wurl(&args, Some(&stdin));
        assert_eq!(run.code, 0, "wurl {args:?}: {}", run.stderr);
        let mut got: Vec<&[u8]> = run.stdout.split(|&b| b == 0).collect();
        assert_eq!(got.pop(), Some(&b""[..]), "every record ends with NUL");
        assert_eq!(got.len(), mine.len(), "one record per input: wurl {args:?}");
        for (r, g) in mine.iter().zip(got) {
            let want = r.2.as_deref().unwrap_or(b"");
            assert_eq!(
                String::from_utf8_lossy(g),
                String::from_utf8_lossy(want),
                "{op} {:?}",
                String::from_utf8_lossy(&r.1)
            );
            assert_eq!(g, want, "{op} {:?}: the bytes", r.1);
            checked += 1;
            if std::str::from_utf8(&r.1).is_err() {
                invalid_utf8 += 1;
            }
        }
    }
    // The table's inputs with NUL: 4 cases, 7 operations each.
    assert!(with_nul <= 4 * 7, "{with_nul} rows left out for NUL");
    assert!(checked >= 900, "{checked} rows checked");
    assert!(
        invalid_utf8 >= 600,
        "{invalid_utf8} rows of invalid UTF-8 checked"
    );
    eprintln!("cli-cross-binding: {checked} passed, {with_nul} with NUL left out");
}
