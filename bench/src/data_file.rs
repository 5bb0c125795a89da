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
//! - An escaped URL list (a name ending in [`ESCAPED_SUFFIX`],
//!   `.esc.txt`) has one URL per line written with four escapes, decoded
//!   after the line is split ([`unescape`]): `\t` TAB, `\n` LF, `\r` CR,
//!   `\\` a backslash. It is how a URL with a line break inside is one line
//!   of a file (a raw LF would end the line, and a raw CR before the line
//!   end would be dropped as a CRLF's); the library gets the decoded bytes.
#![allow(dead_code)]

use std::path::Path;

/// How the name of an escaped URL list ends.
pub const ESCAPED_SUFFIX: &str = ".esc.txt";

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

/// Whether the file at `path` is an escaped URL list (its name ends in
/// [`ESCAPED_SUFFIX`]).
pub fn is_escaped(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(ESCAPED_SUFFIX))
}

/// The URLs of an escaped URL list's text: its [`lines`], each decoded by
/// [`unescape`]; an error names the first line with a bad escape.
pub fn escaped_lines(text: &str) -> Result<Vec<String>, String> {
    lines(text)
        .into_iter()
        .enumerate()
        .map(|(i, l)| unescape(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// Decodes one line of an escaped URL list: `\t`, `\n`, `\r` and `\\` are
/// TAB, LF, CR and a backslash; any other backslash is an error, so that a
/// file written without the escapes is refused, not misread.
pub fn unescape(line: &str) -> Result<String, String> {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next() {
            Some('t') => '\t',
            Some('n') => '\n',
            Some('r') => '\r',
            Some('\\') => '\\',
            Some(o) => return Err(format!("unknown escape \\{o}")),
            None => return Err("a backslash at the end of the line".to_owned()),
        });
    }
    Ok(out)
}

/// Writes `url` as one line of an escaped URL list (without the line end):
/// the inverse of [`unescape`].
pub fn escape(url: &str) -> String {
    let mut out = String::with_capacity(url.len() + 4);
    for c in url.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out
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
