//! How a dataset file of `bench/data/` is read: the one set of rules, used
//! by the benchmark (`Dataset::load`) and, through `#[path]`, by the
//! integration tests (`tests/common/datasets.rs`), so that a test sees the
//! lines the benchmark measures. Only `std`: the tests include it without
//! depending on the benchmark crate.
//!
//! - Invalid UTF-8 is replaced with U+FFFD.
//! - A leading BOM, `\r` before `\n` and empty lines are dropped.
//! - A links file (`.tsv`) has `page<TAB>link` per line, split at the first
//!   TAB; the link may be empty (a valid reference).
#![allow(dead_code)]

use std::path::Path;

/// The text of the file at `path`, invalid UTF-8 replaced with U+FFFD.
pub fn read(path: &Path) -> Result<String, String> {
    let raw = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(String::from_utf8_lossy(&raw).into_owned())
}

/// The non-empty lines of `text`, without a leading BOM or `\r` line ends.
pub fn lines(text: &str) -> Vec<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter(|l| !l.is_empty())
        .collect()
}

/// The `(page, link)` rows of a links file's text, in file order; an error
/// names the first line without a TAB.
pub fn link_rows(text: &str) -> Result<Vec<(&str, &str)>, String> {
    lines(text)
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            l.split_once('\t')
                .ok_or_else(|| format!("line {} has no TAB (want page<TAB>link)", i + 1))
        })
        .collect()
}
