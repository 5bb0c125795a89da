//! The golden keys (`tests/data/golden-keys.tsv.xz`, see
//! `tests/golden_keys.rs`) through the CLI: `wurl canon -f json` gives every
//! row's key, or its invalid reason.
//!
//! One run per charset and kind of row: rows that are their own base on
//! standard input, rows with a base as `--pairs` records (`base<TAB>input`).
//! A row whose input holds CR or LF goes in a `-z` run (NUL-terminated
//! records). A row that can be no record (a base that holds a TAB, CR or
//! LF; an input starting with U+FEFF, which the tool drops at the start of
//! its input; LF and NUL together) is an argument of a run of its base
//! (`--base`); one that holds NUL cannot be that either, and is counted and
//! skipped (the library interfaces check every row). A run whose `--base`
//! does not parse is a usage error (exit status 2): its rows must all have
//! the library's "base URL is invalid".

mod common;

#[path = "../../tests/common/golden.rs"]
#[allow(dead_code)]
mod golden;

use std::collections::BTreeMap;

use common::{data_path, wurl};
use golden::{Row, parse_rows};

/// How a group of rows is fed to the tool: lines or NUL-terminated
/// records on standard input, or arguments (with `--base BASE` when the
/// rows have that base).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Feed {
    Lines,
    Nul,
    Args(Option<String>),
}

type Group = (Option<String>, bool, Feed);

fn feed_of(row: &Row) -> Option<Feed> {
    let base_in_record = row
        .base
        .as_deref()
        .is_none_or(|b| !b.contains(['\t', '\r', '\n', '\0']));
    let bom = row.base.is_none() && row.input.starts_with('\u{FEFF}');
    if base_in_record && !bom {
        if !row.input.contains(['\r', '\n']) {
            return Some(Feed::Lines);
        }
        if !row.input.contains('\0') {
            return Some(Feed::Nul);
        }
    }
    // An argument cannot hold NUL.
    let args_ok =
        !row.input.contains('\0') && row.base.as_deref().is_none_or(|b| !b.contains('\0'));
    args_ok.then(|| Feed::Args(row.base.clone()))
}

/// What the tool should say of `row`: the key, or the reason. A base that
/// does not parse is the tool's own reason for a `--pairs` record.
fn expected(row: &Row, base_reason: Option<String>) -> Result<String, String> {
    match (&row.key, base_reason) {
        (Err(r), Some(why)) if r == "base URL is invalid" => Err(format!("base is invalid: {why}")),
        (key, _) => key.clone(),
    }
}

#[test]
fn cli_gives_every_golden_key() {
    let rows = parse_rows(&data_path("../tests/data/golden-keys.tsv.xz"));
    assert!(rows.len() >= 200_000, "{} rows", rows.len());
    let mut groups: BTreeMap<Group, Vec<&Row>> = BTreeMap::new();
    let mut skipped = 0;
    for row in &rows {
        match feed_of(row) {
            Some(feed) => groups
                .entry((row.charset.clone(), row.base.is_some(), feed.clone()))
                .or_default()
                .push(row),
            None => skipped += 1,
        }
    }
    let mut failures = Vec::new();
    let mut checked = 0;
    for ((charset, pairs, feed), rows) in &groups {
        let mut args: Vec<String> = ["canon", "-q", "-f", "json", "--allow-invalid"]
            .map(String::from)
            .to_vec();
        // A label that is not a WHATWG label means UTF-8 to the library,
        // and is refused by the tool (tested in conformance.rs): then the
        // run goes without it.
        if let Some(c) = charset
            && encoding_rs::Encoding::for_label(c.as_bytes()).is_some()
        {
            args.extend(["--charset".into(), c.clone()]);
        }
        let end = if *feed == Feed::Nul { '\0' } else { '\n' };
        let run = if let Feed::Args(base) = feed {
            if let Some(b) = base {
                args.extend(["--base".into(), b.clone()]);
            }
            args.push("--".into());
            args.extend(rows.iter().map(|r| r.input.clone()));
            wurl(&args, None)
        } else {
            if *pairs {
                args.push("--pairs".into());
            }
            if *feed == Feed::Nul {
                args.push("-z".into());
            }
            let mut stdin = String::new();
            for r in rows {
                if let Some(b) = &r.base {
                    stdin.push_str(b);
                    stdin.push('\t');
                }
                stdin.push_str(&r.input);
                stdin.push(end);
            }
            wurl(&args, Some(stdin.as_bytes()))
        };
        // An invalid --base is a usage error (exit 2, no output): every
        // row resolved against it must then have the library's reason.
        if let Feed::Args(Some(b)) = feed
            && wurl::parse(b).invalid_reason().is_some()
        {
            assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
            assert!(
                run.stderr.starts_with("wurl: --base is invalid"),
                "{}",
                run.stderr
            );
            assert!(run.stdout.is_empty(), "{args:?}");
            for r in rows {
                if r.key != Err("base URL is invalid".to_owned()) {
                    failures.push(format!(
                        "input {:?} base {:?}: the tool refuses the base, golden {:?}",
                        r.input, r.base, r.key
                    ));
                }
                checked += 1;
            }
            continue;
        }
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        let out = run.out();
        let records: Vec<&str> = out.split_terminator(end).collect();
        assert_eq!(records.len(), rows.len(), "one record per row: {args:?}");
        for (r, rec) in rows.iter().zip(records) {
            let v: serde_json::Value = serde_json::from_str(rec).expect("a JSON record");
            let got = match v["url"].as_str() {
                Some(u) => Ok(u.to_owned()),
                None => Err(v["reason"].as_str().unwrap_or("").to_owned()),
            };
            // `--pairs` names why a base does not parse; `--base` says
            // what the library says.
            let base_reason = r
                .base
                .as_deref()
                .filter(|_| !matches!(feed, Feed::Args(_)))
                .and_then(|b| wurl::parse(b).invalid_reason())
                .map(|why| why.as_str().to_owned());
            let want = expected(r, base_reason);
            if got != want {
                failures.push(format!(
                    "input {:?} base {:?} charset {:?}: wurl {got:?}, golden {want:?}",
                    r.input, r.base, r.charset
                ));
            }
            checked += 1;
        }
    }
    eprintln!(
        "{checked} of {} golden keys checked through the CLI in {} runs, {skipped} skipped (not a record the tool can read)",
        rows.len(),
        groups.len()
    );
    assert!(skipped * 1000 < rows.len(), "{skipped} skipped");
    assert!(
        failures.is_empty(),
        "{} of {checked} keys differ from the golden keys (see tests/golden_keys.rs to change one on purpose):\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}
