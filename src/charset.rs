//! The query's encoding (spec "Percent-encoding" steps 3, 5, 6; NOTES.md): labels resolve by the
//! WHATWG Encoding Standard (`encoding_rs`); an unknown label, UTF-16, replacement and any other
//! non-ASCII-compatible encoding mean UTF-8, except ISO-2022-JP (ASCII-compatible in 2011).

use encoding_rs::{EncoderResult, Encoding, ISO_2022_JP, UTF_8};

use crate::percent::{OctetSet, encode_bytes_into, encode_utf8_into};

/// Whether `label` names a WHATWG encoding ("get an encoding": ASCII case-insensitive, surrounding
/// ASCII whitespace ignored; `""` names none). [`query_encoding`] reads an unknown label as UTF-8,
/// so check a user's label with this first (`shiftjis` would silently mean UTF-8).
pub fn is_known_label(label: &[u8]) -> bool {
    Encoding::for_label(label).is_some()
}

/// The encoding for a hierarchical URL's query, from the document's label (`None`: UTF-8).
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
}
