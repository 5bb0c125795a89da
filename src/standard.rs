//! The second model: the WHATWG URL Standard's URL parser and serializer,
//! beside the 2012 algorithm of the rest of the crate. Opt-in everywhere
//! (`WURL_FLAG_URL_STANDARD`, `--model url-standard`, `model=`); the 2012
//! model stays the default and its stages never call into this module.
//!
//! The parser is the [`url`] crate (the Servo project's, the URL parser
//! most Rust programs use), not a new implementation: it is pure Rust (the library stays free of C and C++),
//! its IDNA step is the `idna` crate that the 2012 model already uses for
//! its strict mode (so UTS #46 comes from one place), and it tracks the
//! Web Platform Tests' `urltestdata.json`, which ships with it and which
//! this crate's tests run through every interface (with the few cases the
//! crate itself lists as expected failures).
//!
//! What the model does, in the terms of the URL Standard: "basic URL
//! parser" of the input against the base (itself parsed, without a base),
//! then "URL serializer" (fragment included). The query is encoded with
//! the charset when one is given and the URL is special (the standard's
//! "encoding" argument, which its `<a href>` uses: the document's
//! encoding's output encoding, characters it cannot encode written as
//! `%26%23NNN%3B`); UTF-8 otherwise.
//!
//! A URL the parser fails on is invalid, with the reason it gives
//! ([`Invalid`]); a base that fails is "base URL is invalid".

use std::borrow::Cow;

use url::{ParseError, Url};

/// Why the URL Standard's parser failed: a static English description,
/// the parser's own ("empty host", "invalid international domain name",
/// ...), or "base URL is invalid" when the base failed to parse.
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

/// The reason of a parse failure. `ParseError` is `#[non_exhaustive]`: a
/// kind a later version adds is "invalid URL".
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

/// The query encoder of `charset`: `None` for UTF-8 (the parser's own),
/// and for labels the Encoding Standard does not know (as the 2012 model
/// takes them: UTF-8). The standard encodes with the encoding's output
/// encoding (UTF-16 and replacement give UTF-8), and writes a character
/// the encoding cannot represent as a decimal numeric character reference
/// before percent-encoding, which is what `encoding_rs`'s `encode` does.
fn encoder(charset: Option<&str>) -> Option<&'static encoding_rs::Encoding> {
    let enc = encoding_rs::Encoding::for_label(charset?.trim().as_bytes())?.output_encoding();
    (enc != encoding_rs::UTF_8).then_some(enc)
}

/// The query `s` in the encoding `enc`, as the standard's "percent-encode
/// after encoding" gives it before the percent-encoding itself: a
/// character `enc` cannot represent is written `%26%23`, its code point in
/// decimal, `%3B` (the parser leaves `%` as it is, and percent-encodes the
/// other octets). ISO-2022-JP, a stateful encoding whose encoder must
/// return to ASCII before such a reference, takes `encoding_rs`'s own
/// replacement, `&#NNN;` with the escape sequences it needs (of which the
/// parser then escapes only the `#`).
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

/// Gives a closure the signature of an encoding override (the result
/// borrowed from the argument), which inference does not find alone.
fn for_each_str<F: for<'s> Fn(&'s str) -> Cow<'s, [u8]>>(f: F) -> F {
    f
}

/// Parses `input` against `base` (`None`: without a base) under the URL
/// Standard, with the query encoding of `charset` (`None`: UTF-8).
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

/// Resolves `input` against `base` (or, when `base` is `None`, parses it
/// on its own) under the URL Standard and appends its serialization to
/// `out`. Returns why the URL is invalid otherwise (then nothing is
/// appended). `charset`: the query's encoding label (`None`: UTF-8).
///
/// ```
/// let mut out = String::new();
/// wurl::standard::canon_into(None, "http://faß.de/a\\b/../c", None, &mut out).unwrap();
/// assert_eq!(out, "http://xn--fa-hia.de/a/c");
/// let why = wurl::standard::canon_into(None, "http://a:99999/", None, &mut out);
/// assert_eq!(why.unwrap_err().as_str(), "invalid port number");
/// ```
pub fn canon_into(
    base: Option<&str>,
    input: &str,
    charset: Option<&str>,
    out: &mut String,
) -> Result<(), Invalid> {
    let url = parse(base, input, charset)?;
    out.push_str(url.as_str());
    Ok(())
}

/// [`canon_into`] as a new string.
pub fn canon(base: Option<&str>, input: &str, charset: Option<&str>) -> Result<String, Invalid> {
    parse(base, input, charset).map(String::from)
}
