//! The query's encoding (spec "Percent-encoding" steps 3, 5, 6; NOTES.md): labels resolve by the
//! WHATWG Encoding Standard (`encoding_rs`); an unknown label, UTF-16, replacement and any other
//! non-ASCII-compatible encoding mean UTF-8, except ISO-2022-JP (ASCII-compatible in 2011).
//!
//! [`resolve_label`] is the one place a label is resolved, and [`UnknownCharset`] the one message
//! for a label that names no encoding: every front end (the CLI, the C ABI's
//! `wurl_charset_message`, the bindings) shows that text rather than writing its own.

use std::fmt;

use encoding_rs::{EncoderResult, Encoding, ISO_2022_JP, UTF_8};

use crate::percent::{OctetSet, encode_bytes_into, encode_utf8_into};

/// An encoding a charset label names (WHATWG Encoding Standard), from [`resolve_label`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Charset(&'static Encoding);

impl Charset {
    /// UTF-8, what no label means.
    pub const UTF_8: Charset = Charset(UTF_8);

    /// The encoding's name as the Encoding Standard writes it (`"Shift_JIS"`, `"UTF-8"`); the
    /// name is itself a label of the encoding.
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// The `encoding_rs` encoding (for decoding input in that encoding, as the CLI's `--decode`).
    pub fn encoding(self) -> &'static Encoding {
        self.0
    }

    /// The encoding a hierarchical URL's query is written in: the encoding's output encoding when
    /// it is ASCII-compatible or ISO-2022-JP, UTF-8 otherwise (UTF-16, replacement).
    pub fn query_encoding(self) -> &'static Encoding {
        let e = self.0.output_encoding();
        if e.is_ascii_compatible() || e == ISO_2022_JP {
            e
        } else {
            UTF_8
        }
    }
}

impl fmt::Debug for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Charset({})", self.0.name())
    }
}

/// The encoding `label` names ("get an encoding": ASCII case-insensitive, surrounding ASCII
/// whitespace ignored), or the error whose `Display` is the one message for an unknown label.
/// The empty label names none: "no label" is the caller's `None`, not `b""`.
pub fn resolve_label(label: &[u8]) -> Result<Charset, UnknownCharset> {
    lookup(label).ok_or_else(|| UnknownCharset::new(label))
}

/// [`resolve_label`] without the error (which copies part of the label), for the hot path. The
/// label nearly every page declares, `utf-8` in any case, is told before the table search: a
/// crawler passes its page's label with each link, and the C ABI resolves it per call.
#[inline]
pub(crate) fn lookup(label: &[u8]) -> Option<Charset> {
    if is_utf8_label(label) {
        return Some(Charset::UTF_8);
    }
    Encoding::for_label(label).map(Charset)
}

/// Whether `label` is `utf-8` in any case.
#[inline(always)]
pub(crate) fn is_utf8_label(label: &[u8]) -> bool {
    // `| 0x20` lowercases a letter and maps no other octet to `u`, `t` or `f`; `-` is kept.
    matches!(label, &[a, b, c, d, b'8']
        if u32::from_le_bytes([a, b, c, d]) | 0x0020_2020 == u32::from_le_bytes(*b"utf-"))
}

/// [`lookup`] through a memo of this thread's last label (of up to [`Memo::MAX`] octets): a C
/// caller passes its page's label with each link, and the table search costs about what a fast
/// exit's whole call does.
#[inline]
pub(crate) fn lookup_memo(label: &[u8]) -> Option<Charset> {
    if is_utf8_label(label) {
        return Some(Charset::UTF_8);
    }
    if label.len() > Memo::MAX {
        return lookup(label);
    }
    MEMO.with(|m| {
        let last = m.get();
        if usize::from(last.len) == label.len() && last.octets[..label.len()] == *label {
            return last.charset;
        }
        let charset = lookup(label);
        let mut octets = [0; Memo::MAX];
        octets[..label.len()].copy_from_slice(label);
        m.set(Memo {
            len: label.len() as u8,
            octets,
            charset,
        });
        charset
    })
}

/// A label and what it names, for [`lookup_memo`].
#[derive(Clone, Copy)]
struct Memo {
    /// The label's length; `u8::MAX` (longer than any label kept) before the first.
    len: u8,
    octets: [u8; Memo::MAX],
    charset: Option<Charset>,
}

impl Memo {
    /// The longest label kept (the Encoding Standard's longest is 19 octets).
    const MAX: usize = 32;
}

thread_local! {
    static MEMO: std::cell::Cell<Memo> = const {
        std::cell::Cell::new(Memo {
            len: u8::MAX,
            octets: [0; Memo::MAX],
            charset: None,
        })
    };
}

/// A charset label that names no encoding. Its `Display` is the message every front end shows:
/// `unknown charset label "shiftjs" (a WHATWG Encoding Standard label, e.g. "utf-8",
/// "shift_jis", "windows-1252")`. The label is quoted escaped, in ASCII (so that the message is
/// safe in any terminal, log or exception text, and the same bytes everywhere), and cut after
/// 64 bytes of it (a hostile label cannot make the message long): the message is at most
/// [`WURL_CHARSET_MESSAGE_MAX`](crate::ffi::WURL_CHARSET_MESSAGE_MAX) bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct UnknownCharset {
    /// The label's first bytes, cut at a whole UTF-8 sequence (or a single invalid octet).
    shown: Box<[u8]>,
    /// The label's length in bytes.
    len: usize,
}

/// The longest [`UnknownCharset`] message, in bytes: the C ABI's `WURL_CHARSET_MESSAGE_MAX`
/// (which states it for Rust callers too).
/// Each shown byte takes at most 4 (`\xFF`, `\u{e9}` for two bytes), plus the fixed text
/// and a 20-digit length.
pub(crate) const MESSAGE_MAX: usize = 400;
const _: () = assert!(
    MESSAGE_MAX
        >= UnknownCharset::PREFIX.len()
            + 2
            + 4 * UnknownCharset::SHOWN_MAX
            + "... (18446744073709551615 bytes; ".len()
            + UnknownCharset::EXAMPLES.len()
);

impl UnknownCharset {
    /// At most this many bytes of the label are quoted.
    const SHOWN_MAX: usize = 64;
    const PREFIX: &'static str = "unknown charset label ";
    const EXAMPLES: &'static str =
        r#"a WHATWG Encoding Standard label, e.g. "utf-8", "shift_jis", "windows-1252")"#;

    fn new(label: &[u8]) -> Self {
        let mut cut = 0;
        for unit in Units(label) {
            if cut + unit.len() > Self::SHOWN_MAX {
                break;
            }
            cut += unit.len();
        }
        UnknownCharset {
            shown: label[..cut].into(),
            len: label.len(),
        }
    }

    /// The length in bytes of the label refused.
    pub fn label_len(&self) -> usize {
        self.len
    }
}

/// A label's units for quoting: each a whole UTF-8 sequence or one octet that starts none.
struct Units<'a>(&'a [u8]);

impl<'a> Iterator for Units<'a> {
    type Item = &'a [u8];
    fn next(&mut self) -> Option<&'a [u8]> {
        let b = *self.0.first()?;
        let n = match b {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => 1,
        };
        let n = if n > 1
            && self
                .0
                .get(..n)
                .is_some_and(|s| std::str::from_utf8(s).is_ok())
        {
            n
        } else {
            1
        };
        let (unit, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(unit)
    }
}

impl fmt::Display for UnknownCharset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::PREFIX)?;
        f.write_str("\"")?;
        for unit in Units(&self.shown) {
            match (unit, std::str::from_utf8(unit)) {
                ([b'"'], _) => f.write_str("\\\"")?,
                ([b'\\'], _) => f.write_str("\\\\")?,
                ([b'\t'], _) => f.write_str("\\t")?,
                ([b'\n'], _) => f.write_str("\\n")?,
                ([b'\r'], _) => f.write_str("\\r")?,
                ([b @ 0x20..=0x7E], _) => write!(f, "{}", *b as char)?,
                (_, Ok(s)) if unit.len() > 1 => {
                    for c in s.chars() {
                        write!(f, "\\u{{{:x}}}", c as u32)?;
                    }
                }
                _ => {
                    for b in unit {
                        write!(f, "\\x{b:02X}")?;
                    }
                }
            }
        }
        f.write_str("\"")?;
        if self.shown.len() < self.len {
            write!(f, "... ({} bytes; ", self.len)?;
        } else {
            f.write_str(" (")?;
        }
        f.write_str(Self::EXAMPLES)
    }
}

impl fmt::Debug for UnknownCharset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "UnknownCharset({self})")
    }
}

impl std::error::Error for UnknownCharset {}

/// Whether `label` names a WHATWG encoding (see [`resolve_label`]; `""` names none).
/// [`query_encoding`] reads an unknown label as UTF-8, so check a user's label first (`shiftjis`
/// would silently mean UTF-8).
pub fn is_known_label(label: &[u8]) -> bool {
    lookup(label).is_some()
}

/// The encoding for a hierarchical URL's query, from the document's label (`None`: UTF-8). An
/// unknown label means UTF-8, the 2012 module's rule.
pub fn query_encoding(label: Option<&str>) -> &'static Encoding {
    let Some(label) = label else { return UTF_8 };
    lookup(label.as_bytes()).map_or(UTF_8, Charset::query_encoding)
}

/// Encodes `s` in `enc` (an unrepresentable character as `?`, not `&#NNNN;`) and appends it to
/// `out`, percent-encoding the octets in `set` or above 0x7F.
pub fn encode_query_into(s: &str, enc: &'static Encoding, set: &OctetSet, out: &mut String) {
    if enc == UTF_8 || s.is_ascii() && enc != ISO_2022_JP {
        // Every ASCII-compatible encoding but ISO-2022-JP writes ASCII as itself.
        encode_utf8_into(s, set, out);
        return;
    }
    let mut encoder = enc.new_encoder();
    let mut src = s;
    let mut buf = [0u8; 1024];
    loop {
        let (result, read, written) =
            encoder.encode_from_utf8_without_replacement(src, &mut buf, false);
        encode_bytes_into(&buf[..written], set, out);
        src = &src[read..];
        match result {
            EncoderResult::InputEmpty => break,
            EncoderResult::OutputFull => {}
            EncoderResult::Unmappable(_) => {
                // Step 5: `?` goes through the encoder: a stateful one first returns to ASCII.
                let mut q = "?";
                loop {
                    let (r, read, written) =
                        encoder.encode_from_utf8_without_replacement(q, &mut buf, false);
                    encode_bytes_into(&buf[..written], set, out);
                    q = &q[read..];
                    if !matches!(r, EncoderResult::OutputFull) {
                        break;
                    }
                }
            }
        }
    }
    // Flush: a stateful encoder ends in ASCII.
    loop {
        let (result, _, written) = encoder.encode_from_utf8_without_replacement("", &mut buf, true);
        encode_bytes_into(&buf[..written], set, out);
        if !matches!(result, EncoderResult::OutputFull) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_labels_are_whatwg_labels() {
        for l in [
            "utf-8",
            "UTF8",
            " Shift_JIS\t",
            "sjis",
            "windows-1252",
            "latin1",
            "euc-jp",
            "utf-16le",
            "iso-2022-jp",
            "replacement",
        ] {
            assert!(is_known_label(l.as_bytes()), "{l:?}");
        }
        for l in ["", " ", "shiftjis", "utf-7", "latin-1", "utf_8", "sjis\0"] {
            assert!(!is_known_label(l.as_bytes()), "{l:?}");
        }
        assert!(!is_known_label(b"sj\xFFis"));
    }

    /// The early test of `utf-8` answers as the table does, for every spelling of five octets
    /// that differs from it in case or in one octet.
    #[test]
    fn the_utf8_shortcut_is_the_table() {
        let mut labels: Vec<Vec<u8>> = Vec::new();
        for mask in 0..8u8 {
            let mut l = b"utf-8".to_vec();
            for (i, c) in l.iter_mut().take(3).enumerate() {
                if mask & (1 << i) != 0 {
                    c.make_ascii_uppercase();
                }
            }
            labels.push(l);
        }
        for i in 0..5 {
            for o in 0..=255u8 {
                let mut l = b"utf-8".to_vec();
                l[i] = o;
                labels.push(l);
            }
        }
        labels.extend([b"utf-8 ".to_vec(), b" utf-8".to_vec(), b"utf8".to_vec()]);
        let mut utf8 = 0;
        for l in &labels {
            let want = Encoding::for_label(l).map(Charset);
            assert_eq!(lookup(l), want, "{:?}", String::from_utf8_lossy(l));
            utf8 += usize::from(want == Some(Charset::UTF_8));
        }
        // The case variants, and `utf-8` once per octet position.
        assert!(utf8 >= 8 + 5 + 3 * 2, "{utf8}");
    }

    /// The memo answers as the table does, whatever label came before (a label, its prefix, one
    /// longer than the memo holds, an unknown one).
    #[test]
    fn the_memo_is_the_table() {
        let long = format!("{}utf-8", " ".repeat(40));
        let labels = [
            "shift_jis",
            "shift_jis",
            "shift_ji",
            "SHIFT_JIS ",
            "latin1",
            "utf-8",
            "UTF8",
            "no-such",
            "no-such",
            long.as_str(),
            "",
            "iso-2022-jp",
            "shift_jis",
        ];
        for l in labels.iter().chain(labels.iter().rev()) {
            assert_eq!(
                lookup_memo(l.as_bytes()),
                Encoding::for_label(l.as_bytes()).map(Charset),
                "{l:?}"
            );
        }
    }

    #[test]
    fn resolve_label_names_the_encoding() {
        assert_eq!(resolve_label(b" Shift_JIS\t").unwrap().name(), "Shift_JIS");
        assert_eq!(resolve_label(b"latin1").unwrap().name(), "windows-1252");
        assert_eq!(resolve_label(b"utf8").unwrap(), Charset::UTF_8);
        // A known label whose encoding is not ASCII-compatible writes the query in UTF-8.
        assert_eq!(resolve_label(b"utf-16le").unwrap().query_encoding(), UTF_8);
        assert_eq!(
            resolve_label(b"iso-2022-jp").unwrap().query_encoding(),
            ISO_2022_JP
        );
        // Every encoding's name is one of its labels.
        for l in [
            "sjis",
            "euc-kr",
            "gbk",
            "big5",
            "koi8-u",
            "x-user-defined",
            "replacement",
        ] {
            let c = resolve_label(l.as_bytes()).unwrap();
            assert_eq!(resolve_label(c.name().as_bytes()), Ok(c), "{l}");
        }
    }

    #[test]
    fn the_one_message() {
        let m = |l: &[u8]| resolve_label(l).unwrap_err().to_string();
        assert_eq!(
            m(b"shiftjs"),
            r#"unknown charset label "shiftjs" (a WHATWG Encoding Standard label, e.g. "utf-8", "shift_jis", "windows-1252")"#
        );
        assert_eq!(
            m(b""),
            r#"unknown charset label "" (a WHATWG Encoding Standard label, e.g. "utf-8", "shift_jis", "windows-1252")"#
        );
        // Escaped in ASCII: quotes, backslashes, controls, non-ASCII characters, invalid octets.
        let shown = |l: &[u8]| {
            let s = m(l);
            let q = &s["unknown charset label ".len()..s.rfind(" (a WHATWG").unwrap()];
            q.to_string()
        };
        assert_eq!(shown(b"a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(shown(b"\t\n\r\0\x1b\x7f"), r#""\t\n\r\x00\x1B\x7F""#);
        assert_eq!(shown("é€😀".as_bytes()), r#""\u{e9}\u{20ac}\u{1f600}""#);
        assert_eq!(shown(b"sj\xFFis\xE6\x97"), r#""sj\xFFis\xE6\x97""#);
        // Cut after 64 bytes of the label, never inside a character, with the length said.
        let long = "x".repeat(63) + "é" + &"y".repeat(10_000);
        let s = m(long.as_bytes());
        assert!(s.starts_with(&format!(
            "unknown charset label \"{}\"... (",
            "x".repeat(63)
        )));
        assert!(
            s.contains(&format!("({} bytes; a WHATWG", long.len())),
            "{s}"
        );
        let e = resolve_label(long.as_bytes()).unwrap_err();
        assert_eq!(e.label_len(), long.len());
        // A label of exactly 64 bytes is shown whole.
        assert!(!m(&[b'z'; 64]).contains("bytes;"));
        assert!(m(&[b'z'; 65]).contains("(65 bytes;"));
    }

    #[test]
    fn the_message_is_ascii_and_bounded() {
        // The worst cases for each shown octet: invalid octets, two-octet characters, controls.
        let worst: [&[u8]; 5] = [
            &[0xFF; 100],
            &"\u{80}".repeat(100).into_bytes(),
            &"\u{7ff}".repeat(100).into_bytes(),
            &[0x01; 100],
            &"\u{10ffff}".repeat(100).into_bytes(),
        ];
        for l in worst {
            let s = resolve_label(l).unwrap_err().to_string();
            assert!(s.is_ascii(), "{s}");
            assert!(s.len() <= MESSAGE_MAX, "{} > {MESSAGE_MAX}: {s}", s.len());
        }
        let e = UnknownCharset {
            shown: vec![0xFF; UnknownCharset::SHOWN_MAX].into(),
            len: usize::MAX,
        };
        assert!(e.to_string().len() <= MESSAGE_MAX);
    }
}
