//! The query's character encoding (spec "Percent-encoding" steps 3, 5, 6
//! and NOTES.md): labels resolve as the WHATWG Encoding Standard says
//! (`encoding_rs`); an unknown label, UTF-16 and replacement mean UTF-8, and
//! so does any encoding that is not ASCII-compatible — except ISO-2022-JP,
//! which counted as ASCII-compatible in 2011 and is used as it is.

use encoding_rs::{EncoderResult, Encoding, ISO_2022_JP, UTF_8};

use crate::percent::{OctetSet, encode_bytes_into, encode_utf8_into};

/// Whether `label` names an encoding: it is a label of the WHATWG Encoding
/// Standard ("get an encoding": ASCII case-insensitive, surrounding ASCII
/// whitespace ignored). The empty label names none. [`query_encoding`]
/// reads a label that names none as UTF-8, as the 2012 algorithm does, so
/// an interface that takes a label from its user checks it with this first:
/// a misspelt label (`shiftjis` for `shift_jis`) would otherwise silently
/// mean UTF-8.
pub fn is_known_label(label: &[u8]) -> bool {
    Encoding::for_label(label).is_some()
}

/// The encoding to use for the query of a hierarchical URL, given the
/// document's encoding label (`None` = UTF-8).
pub fn query_encoding(label: Option<&str>) -> &'static Encoding {
    let Some(label) = label else { return UTF_8 };
    match Encoding::for_label(label.as_bytes()) {
        Some(e) => {
            let e = e.output_encoding();
            if e.is_ascii_compatible() || e == ISO_2022_JP {
                e
            } else {
                UTF_8
            }
        }
        None => UTF_8,
    }
}

/// Encodes `s` in `enc`, writing a `?` for each character the encoding
/// cannot represent (not encoding_rs's `&#NNNN;`), and percent-encodes the
/// resulting octets that are in `set` or above 0x7F, appending to `out`.
pub fn encode_query_into(s: &str, enc: &'static Encoding, set: &OctetSet, out: &mut String) {
    if enc == UTF_8 || s.is_ascii() && enc != ISO_2022_JP {
        // Every ASCII-compatible encoding other than ISO-2022-JP writes
        // ASCII as itself.
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
                // Step 5: an unrepresentable character becomes `?`, which
                // goes through the encoder so that a stateful encoding
                // (ISO-2022-JP) first returns to ASCII.
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
}
