//! The golden-key file's format (see `tests/golden_keys.rs`): read and
//! written here, shared with the CLI's check of the same rows.

use std::path::Path;
use std::process::Command;

pub const HEADER: &str = "input\tbase\tcharset\tstatus\tkey or reason";

/// One row: the key is the serialization, or the invalid reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub input: String,
    pub base: Option<String>,
    pub charset: Option<String>,
    pub key: Result<String, String>,
}

fn escape(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c == '\u{7F}' => {
                out.push_str(&format!("\\x{:02X}", c as u32));
            }
            c => out.push(c),
        }
    }
}

fn unescape(s: &str) -> Option<String> {
    if s == "\\N" {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('\\') => out.push('\\'),
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('x') => {
                let hex: String = it.by_ref().take(2).collect();
                let v = u32::from_str_radix(&hex, 16).expect("\\xHH");
                out.push(char::from_u32(v).unwrap());
            }
            other => panic!("bad escape \\{other:?} in {s:?}"),
        }
    }
    Some(out)
}

fn field(out: &mut String, s: Option<&str>) {
    match s {
        None => out.push_str("\\N"),
        Some(s) => escape(out, s),
    }
}

/// Appends `row` as a line.
pub fn write_row(out: &mut String, row: &Row) {
    field(out, Some(&row.input));
    out.push('\t');
    field(out, row.base.as_deref());
    out.push('\t');
    field(out, row.charset.as_deref());
    let (status, v) = match &row.key {
        Ok(k) => ("\tok\t", k),
        Err(r) => ("\tinvalid\t", r),
    };
    out.push_str(status);
    escape(out, v);
    out.push('\n');
}

/// The rows of the compressed file at `path` (`xz -dc`).
pub fn parse_rows(path: &Path) -> Vec<Row> {
    let out = Command::new("xz")
        .arg("-dc")
        .arg(path)
        .output()
        .unwrap_or_else(|e| panic!("xz -dc {}: {e} (install xz-utils)", path.display()));
    assert!(out.status.success(), "xz -dc {}", path.display());
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(HEADER), "{}: header", path.display());
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "{l:?}");
            let v = unescape(f[4]).expect("a key or a reason");
            Row {
                input: unescape(f[0]).expect("an input"),
                base: unescape(f[1]),
                charset: unescape(f[2]),
                key: match f[3] {
                    "ok" => Ok(v),
                    "invalid" => Err(v),
                    s => panic!("status {s:?}"),
                },
            }
        })
        .collect()
}
