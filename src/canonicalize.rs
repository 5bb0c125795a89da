//! "Steps to canonicalize a URL" (spec section "Canonicalization").
use crate::record::Url;

/// Options of canonicalization.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanonOptions<'a> {
    /// Encoding label for the query (the document's encoding); `None` = UTF-8.
    pub charset: Option<&'a str>,
    /// `WURL_FLAG_NETWORK_STRICT`.
    pub network_strict: bool,
}

pub fn canonicalize(url: &Url, charset: Option<&str>) -> Url {
    canonicalize_with(url, &CanonOptions { charset, network_strict: false })
}

pub fn canonicalize_with(url: &Url, _opts: &CanonOptions) -> Url {
    url.clone()
}

pub fn with_canon_buffer<R>(
    base: Option<&Url>,
    input: &str,
    opts: &CanonOptions,
    f: impl FnOnce(Option<&[u8]>) -> R,
) -> R {
    let b;
    let base = match base {
        Some(b) => b,
        None => {
            b = crate::parse::parse(input);
            &b
        }
    };
    let r = canonicalize_with(&crate::resolve::resolve(base, input), opts);
    let s = r.serialize();
    f(s.as_deref().map(str::as_bytes))
}

/// The bulk path of the Rust API: resolves `input` against `base` (or, when
/// `base` is `None`, against `input` itself, like `url_to_canon_url`),
/// canonicalizes it and appends the serialization to `out`. Returns the
/// reason when the result is invalid (then nothing is appended).
pub fn canon_into(
    base: Option<&Url>,
    input: &str,
    opts: &CanonOptions,
    out: &mut String,
) -> Result<(), crate::record::InvalidReason> {
    let b;
    let base = match base {
        Some(b) => b,
        None => {
            b = crate::parse::parse(input);
            &b
        }
    };
    let r = canonicalize_with(&crate::resolve::resolve(base, input), opts);
    if let Some(why) = r.invalid_reason() {
        return Err(why);
    }
    crate::serialize::serialize_into(&r, out);
    Ok(())
}
