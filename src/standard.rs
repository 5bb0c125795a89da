//! The second model, opt-in (`WURL_FLAG_URL_STANDARD`, `--model url-standard`, `model=`): the
//! WHATWG URL Standard's "basic URL parser" and "URL serializer", by the [`url`] crate (pure Rust,
//! with the Web Platform Tests, run here through every interface). The 2012 stages never call it.

use std::borrow::Cow;

use url::{ParseError, Url};

/// Why the parser failed: a static English description, its own or [`Self::INVALID_BASE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Invalid(&'static str);

impl Invalid {
    /// The base did not parse: every URL resolved against it is invalid.
    pub const INVALID_BASE: Invalid = Invalid("base URL is invalid");

    /// A static, specific English description, for logs.
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// The reason of `e`; a kind a later `url` adds (`#[non_exhaustive]`) is "invalid URL".
fn reason(e: ParseError) -> Invalid {
    Invalid(match e {
        ParseError::EmptyHost => "empty host",
        ParseError::IdnaError => "invalid international domain name",
        ParseError::InvalidPort => "invalid port number",
        ParseError::InvalidIpv4Address => "invalid IPv4 address",
        ParseError::InvalidIpv6Address => "invalid IPv6 address",
        ParseError::InvalidDomainCharacter => "invalid domain character",
        ParseError::RelativeUrlWithoutBase => "relative URL without a base",
        ParseError::RelativeUrlWithCannotBeABaseBase => "relative URL with a cannot-be-a-base base",
        ParseError::Overflow => "URLs more than 4 GB are not supported",
        _ => "invalid URL",
    })
}

/// The query encoder (the output encoding) of `charset`; `None` for UTF-8 and for unknown labels.
fn encoder(charset: Option<&str>) -> Option<&'static encoding_rs::Encoding> {
    let enc = encoding_rs::Encoding::for_label(charset?.trim().as_bytes())?.output_encoding();
    (enc != encoding_rs::UTF_8).then_some(enc)
}

/// "Percent-encode after encoding" up to the percent-encoding: a character `enc` lacks becomes
/// `%26%23NNN%3B` (decimal; the parser keeps `%`); ISO-2022-JP takes `encoding_rs`'s `&#NNN;`.
fn encode_query(enc: &'static encoding_rs::Encoding, s: &str) -> Vec<u8> {
    use encoding_rs::EncoderResult;
    if enc == encoding_rs::ISO_2022_JP {
        return enc.encode(s).0.into_owned();
    }
    let mut encoder = enc.new_encoder();
    let mut out = Vec::with_capacity(s.len() + 16);
    let mut rest = s;
    loop {
        let (res, read) = encoder.encode_from_utf8_to_vec_without_replacement(rest, &mut out, true);
        rest = &rest[read..];
        match res {
            EncoderResult::InputEmpty => return out,
            EncoderResult::OutputFull => out.reserve(rest.len() + 16),
            EncoderResult::Unmappable(c) => {
                out.extend_from_slice(format!("%26%23{}%3B", u32::from(c)).as_bytes());
            }
        }
    }
}

/// Gives a closure an encoding override's signature, which inference does not find alone.
fn for_each_str<F: for<'s> Fn(&'s str) -> Cow<'s, [u8]>>(f: F) -> F {
    f
}

/// Parses `input` against `base` (`None`: alone) with the query encoding of `charset`.
fn parse(base: Option<&str>, input: &str, charset: Option<&str>) -> Result<Url, Invalid> {
    let base = match base {
        Some(b) => Some(Url::parse(b).map_err(|_| Invalid::INVALID_BASE)?),
        None => None,
    };
    let enc = encoder(charset);
    let encode = for_each_str(move |s| match enc {
        Some(e) => Cow::Owned(encode_query(e, s)),
        None => Cow::Borrowed(s.as_bytes()),
    });
    let over: &dyn Fn(&str) -> Cow<'_, [u8]> = &encode;
    Url::options()
        .base_url(base.as_ref())
        .encoding_override(enc.map(|_| over))
        .parse(input)
        .map_err(reason)
}

/// Appends the URL Standard's serialization of `input` against `base` (`None`: alone) to `out`,
/// or says why it is invalid. `charset`: a special URL's query encoding label (`None`: UTF-8).
pub fn canon_into(
    base: Option<&str>,
    input: &str,
    charset: Option<&str>,
    out: &mut String,
) -> Result<(), Invalid> {
    let url = fixed_point(parse(base, input, charset)?);
    out.push_str(url.as_str());
    Ok(())
}

/// The parser's result, parsed once more where its serialization would not give it back, so that
/// the model's output is a fixed point. The parser applies the Windows drive letter quirk ("if
/// url's scheme is "file", url's path is empty, and buffer is a Windows drive letter": `|` becomes
/// `:` and a host is dropped) only to a first segment, before it removes a `file:` path's leading
/// empty segments; a drive letter those segments hid (`file://h//c:/x` gives `file://h/c:/x`) is
/// first only in its serialization, whose host the quirk then drops (`file:///c:/x`). Without a
/// host the serialization parses back as it is.
fn fixed_point(url: Url) -> Url {
    if url.scheme() != "file"
        || url.host_str().is_none_or(str::is_empty)
        || !drive_letter_first(url.path())
    {
        return url;
    }
    // A serialization always parses; the second result is stable (its host is empty, its drive
    // letter normalized).
    Url::parse(url.as_str()).unwrap_or(url)
}

/// Whether `path`'s first segment is a Windows drive letter (an ASCII letter, then `:` or `|`).
fn drive_letter_first(path: &str) -> bool {
    matches!(path.as_bytes(), [b'/', l, b':' | b'|', rest @ ..]
        if l.is_ascii_alphabetic() && matches!(rest.first(), None | Some(b'/')))
}

/// [`canon_into`] as a new string.
/// ```
/// assert_eq!(wurl::standard::canon(None, "http://faß.de/a\\b", None).unwrap(), "http://xn--fa-hia.de/a/b");
/// ```
pub fn canon(base: Option<&str>, input: &str, charset: Option<&str>) -> Result<String, Invalid> {
    parse(base, input, charset).map(|u| String::from(fixed_point(u)))
}
