//! Golden keys: canonical output is public (a crawler's deduplication key),
//! so every key of `tests/data/golden-keys.tsv.xz` must come out exactly as
//! recorded, through the Rust bulk call, the Rust handle path, the C ABI's
//! bulk call and its handle path. (`cli/tests/golden_keys.rs` checks the
//! same rows through the CLI.)
//!
//! The rows: every input of the conformance suite with its base and
//! charset, every line of every benchmark dataset (the links of
//! links_synth against their pages; a dataset added later is appended by
//! the next bless) and a fixed sample of near-canonical
//! input (`tests/common/near_canonical.rs`).
//!
//! Changing a key on purpose means regenerating the file:
//!
//! ```sh
//! WURL_BLESS=1 cargo test --release -p wurl-canon --test golden_keys
//! ```
//!
//! (which keeps the rows' inputs and writes their keys anew; a diff of
//! `xz -dc` of the two versions lists the keys that changed) and listing
//! the change in `CHANGELOG.md` under "Canonical output".
//!
//! The file (after `xz -dc`): a header line, then one row per line of five
//! TAB-separated fields: input, base, charset, `ok` or `invalid`, and the
//! serialization or the invalid reason. Absent is `\N`; `\\`, `\t`, `\n`,
//! `\r` and `\xHH` (other C0 controls and DEL) escape the rest.

mod common;
#[path = "common/datasets.rs"]
mod datasets;
#[path = "common/golden.rs"]
mod golden;
#[path = "common/near_canonical.rs"]
#[allow(dead_code)]
mod near_canonical;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use common::c_abi;
use common::dat::{canon_files, load};
use golden::{HEADER, Row, parse_rows, write_row};
use wurl::CanonOptions;

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden-keys.tsv.xz")
}

/// The key of one row through the Rust bulk call, the API the file is
/// written from.
fn rust_bulk(input: &str, base: Option<&str>, charset: Option<&str>) -> Result<String, String> {
    let base = base.map(wurl::parse);
    let mut out = String::new();
    let opts = CanonOptions {
        charset,
        network_strict: false,
    };
    wurl::canon_into(base.as_ref(), input, &opts, &mut out)
        .map(|()| out)
        .map_err(|r| r.as_str().to_owned())
}

fn rust_handle(input: &str, base: Option<&str>, charset: Option<&str>) -> Result<String, String> {
    let b = wurl::parse(base.unwrap_or(input));
    let c = wurl::canonicalize(&wurl::resolve(&b, input), charset);
    match c.invalid_reason() {
        Some(r) => Err(r.as_str().to_owned()),
        None => Ok(c.serialize().expect("a valid URL serializes")),
    }
}

/// The C ABI's bulk call; `Err("")` for an invalid result (it gives no
/// reason).
fn c_bulk(input: &str, base: Option<&str>, charset: Option<&str>) -> Result<String, String> {
    let b = base.map_or(std::ptr::null_mut(), c_abi::parse);
    let out = c_abi::canon_into(b, input, charset).ok_or_else(String::new);
    wurl::ffi::wurl_free(b);
    out
}

/// The (input, base, charset) of every row, in file order.
fn row_inputs() -> Vec<(String, Option<String>, Option<String>)> {
    let mut rows = Vec::new();
    for file in canon_files() {
        for t in load(&file) {
            let data = t.get("data").unwrap_or("").to_owned();
            let base = t.get("base").filter(|b| !b.is_empty()).map(str::to_owned);
            rows.push((data, base, t.get("charset").map(str::to_owned)));
        }
    }
    rows.extend(dataset_rows());
    // Near-canonical input, made from the canonical form of every input so
    // far.
    let mut seeds: Vec<String> = rows
        .iter()
        .filter_map(|(i, b, c)| rust_bulk(i, b.as_deref(), c.as_deref()).ok())
        .collect();
    seeds.sort();
    seeds.dedup();
    for c in near_canonical::cases(&seeds, 100_000, 0x0060_1DE7) {
        rows.push((c.input, c.base, None));
    }
    rows
}

/// Every line of every benchmark dataset: each URL of a URL list without a
/// base; each page of a links file, then its links against it.
fn dataset_rows() -> Vec<(String, Option<String>, Option<String>)> {
    let mut rows = Vec::new();
    for name in datasets::URL_LISTS {
        rows.extend(datasets::urls(name).into_iter().map(|u| (u, None, None)));
    }
    for name in datasets::LINK_FILES {
        let links = datasets::links(name);
        for page in &links.pages {
            rows.push((page.url.clone(), None, None));
            for link in &links.links[page.links.clone()] {
                rows.push((link.clone(), Some(page.url.clone()), None));
            }
        }
    }
    rows
}

/// Writes the file: the keys of today's code for the rows' inputs. The
/// inputs stay those of the file when there is one (so that a diff of two
/// versions shows only keys that changed); `WURL_BLESS=new` makes them
/// anew.
fn bless() {
    let path = golden_path();
    let inputs = if path.exists() && std::env::var("WURL_BLESS").as_deref() != Ok("new") {
        let mut kept: Vec<_> = parse_rows(&path)
            .into_iter()
            .map(|r| (r.input, r.base, r.charset))
            .collect();
        // A dataset added since the file was written gets its rows at the end.
        let known: std::collections::HashSet<_> = kept.iter().cloned().collect();
        let new: Vec<_> = dataset_rows()
            .into_iter()
            .filter(|r| !known.contains(r))
            .collect();
        kept.extend(new);
        kept
    } else {
        row_inputs()
    };
    let mut text = String::from(HEADER);
    text.push('\n');
    for (input, base, charset) in inputs {
        let key = rust_bulk(&input, base.as_deref(), charset.as_deref());
        write_row(
            &mut text,
            &Row {
                input,
                base,
                charset,
                key,
            },
        );
    }
    let mut xz = Command::new("xz")
        .args(["-9e", "-T1", "-c"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("xz (the xz-utils package)");
    let mut stdin = xz.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = xz.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success());
    std::fs::write(golden_path(), out.stdout).unwrap();
}

/// Every golden key, through the four library interfaces.
#[test]
fn golden_keys() {
    if std::env::var_os("WURL_BLESS").is_some() {
        bless();
    }
    let rows = parse_rows(&golden_path());
    assert!(rows.len() >= 200_000, "{} rows", rows.len());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunk = rows.len().div_ceil(threads);
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = rows
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut failures = Vec::new();
                    for r in part {
                        let (i, b, c) = (&r.input, r.base.as_deref(), r.charset.as_deref());
                        let want_c_bulk = r.key.clone().map_err(|_| String::new());
                        // The handle path resolves an input that is its
                        // own base against its parse: when that parse is
                        // invalid, its reason is that the base is.
                        let want_handle = if b.is_none() && r.key.is_err() && wurl::parse(i).is_invalid() {
                            Err("base URL is invalid".to_owned())
                        } else {
                            r.key.clone()
                        };
                        let got = [
                            ("Rust bulk", rust_bulk(i, b, c), &r.key),
                            ("Rust handle", rust_handle(i, b, c), &want_handle),
                            ("C bulk", c_bulk(i, b, c), &want_c_bulk),
                            ("C handle", c_abi::handle_path(i, b, c), &want_handle),
                        ];
                        for (name, got, want) in got {
                            if got != *want {
                                failures.push(format!(
                                    "{name}: input {i:?} base {b:?} charset {c:?}: got {got:?}, golden {want:?}"
                                ));
                            }
                        }
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    eprintln!(
        "{} golden keys checked through 4 interfaces: {} passed, {} failed",
        rows.len(),
        rows.len() * 4 - failures.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} canonical outputs differ from the golden keys. A key is public: if \
         the change is intended, regenerate the file with \
         `WURL_BLESS=1 cargo test --release -p wurl-canon --test golden_keys` \
         and list the change in CHANGELOG.md under \"Canonical output\". \
         The first:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}
