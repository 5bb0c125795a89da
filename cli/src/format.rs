//! The `tsv` and `json` output records.
//!
//! TSV follows PostgreSQL's COPY text format: absent is `\N`, empty is an
//! empty field, and backslash, TAB, LF and CR are escaped as `\\`, `\t`, `\n`
//! and `\r` (so a value that is literally `\N` is written `\\N`); every
//! other control octet (0x00 to 0x1F, 0x7F) is written `\xHH`, two
//! upper-case hex digits (COPY reads `\x` with one or two hex digits), so a
//! field never holds a raw NUL or other control octet.
//!
//! JSON is one object per line with the same fields; absent values are
//! `null`.
//!
//! Each record ends with `end`: a line feed, or NUL with `-z`.
//!
//! With `--pairs`, each record begins with the input's base (`base` column,
//! `"base"` key): the text before the record's first TAB, absent when the
//! record has no TAB or was not read whole (too long).

use std::fmt::Write as _;

use wurl::{Component, Url};

/// The TSV header row (with the `base` column first for `--pairs`).
pub fn tsv_header(end: char, pairs: bool) -> String {
    let mut h = String::from(if pairs { "base\turl" } else { "url" });
    for c in Component::ALL {
        h.push('\t');
        h.push_str(c.name());
    }
    h.push_str("\tinvalid");
    h.push(end);
    h
}

/// One TSV field (without separator): `\N` when absent.
pub fn tsv_field(out: &mut String, v: Option<&str>) {
    let Some(v) = v else {
        out.push_str("\\N");
        return;
    };
    let mut rest = v;
    while let Some(i) = rest.find(|c: char| c < ' ' || c == '\\' || c == '\x7F') {
        out.push_str(&rest[..i]);
        match rest.as_bytes()[i] {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b => {
                let _ = write!(out, "\\x{b:02X}");
            }
        }
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
}

/// One TSV row: the base column when `base` is `Some` (`--pairs`), the
/// serialization (`\N` when invalid), the components and the invalid reason
/// `why` (`\N` when valid). Without a URL (an input that was not
/// processed: too long, or a `--pairs` record without a valid base), every
/// component is absent.
pub fn tsv_row(
    out: &mut String,
    base: Option<Option<&str>>,
    url: Option<&Url>,
    why: Option<&str>,
    end: char,
) {
    if let Some(b) = base {
        tsv_field(out, b);
        out.push('\t');
    }
    tsv_field(out, url.and_then(|u| u.serialize()).as_deref());
    for c in Component::ALL {
        out.push('\t');
        tsv_field(out, url.and_then(|u| u.get(c)));
    }
    out.push('\t');
    tsv_field(out, why);
    out.push(end);
}

/// A JSON string literal, or `null`.
pub fn json_string(out: &mut String, v: Option<&str>) {
    let Some(v) = v else {
        out.push_str("null");
        return;
    };
    out.push('"');
    let mut rest = v;
    while let Some(i) = rest.find(|c: char| c < ' ' || c == '"' || c == '\\') {
        out.push_str(&rest[..i]);
        match rest.as_bytes()[i] {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b => {
                let _ = write!(out, "\\u{b:04x}");
            }
        }
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
    out.push('"');
}

/// One JSON object and a newline:
/// `{"url":…,"scheme":…,…,"fragment":…,"invalid":bool,"reason":…}`, with
/// `"base":…` first when `base` is `Some` (`--pairs`).
pub fn json_row(
    out: &mut String,
    base: Option<Option<&str>>,
    url: Option<&Url>,
    why: Option<&str>,
    end: char,
) {
    out.push('{');
    if let Some(b) = base {
        out.push_str("\"base\":");
        json_string(out, b);
        out.push(',');
    }
    out.push_str("\"url\":");
    json_string(out, url.and_then(|u| u.serialize()).as_deref());
    for c in Component::ALL {
        out.push_str(",\"");
        out.push_str(c.name());
        out.push_str("\":");
        json_string(out, url.and_then(|u| u.get(c)));
    }
    out.push_str(",\"invalid\":");
    out.push_str(if why.is_some() { "true" } else { "false" });
    out.push_str(",\"reason\":");
    json_string(out, why);
    out.push('}');
    out.push(end);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_escapes() {
        let mut s = String::new();
        tsv_field(&mut s, Some("a\\b\tc\nd\re"));
        assert_eq!(s, "a\\\\b\\tc\\nd\\re");
        s.clear();
        tsv_field(&mut s, None);
        tsv_field(&mut s, Some(""));
        tsv_field(&mut s, Some("\\N"));
        assert_eq!(s, "\\N\\\\N");
        s.clear();
        tsv_field(&mut s, Some("a\0b\u{1}\u{1f} \u{7f}~é\u{80}"));
        assert_eq!(s, "a\\x00b\\x01\\x1F \\x7F~é\u{80}");
    }

    #[test]
    fn json_escapes() {
        let mut s = String::new();
        json_string(&mut s, Some("a\"b\\c\n\u{1}é"));
        assert_eq!(s, "\"a\\\"b\\\\c\\n\\u0001é\"");
        s.clear();
        json_string(&mut s, None);
        assert_eq!(s, "null");
    }
}
