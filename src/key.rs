//! Keys: the canonical serialization with the opt-in [`Rules`] applied and, optionally, in
//! [SURT](crate::surt) form. Once the thread is warm, no call allocates beyond `out`'s growth.

use crate::scratch::{Side, with_side};

use crate::api::{Input, Model};
use crate::canonicalize::{CanonOptions, ResolvedOptions};
use crate::record::{InvalidReason, Url};
use crate::rules::Rules;
use crate::surt::{SurtOptions, surt_into};

/// The version of wurl's keys: of every canonical URL, ruled URL and SURT key it makes, in both
/// models. It is bumped by every change of a key that CHANGELOG.md lists ("Canonical output",
/// "Keys"), so that a stored key can name the version that made it and a crawl can refuse to
/// mix versions (`wurl canon --key-version N`, `wurl_key_version()`). `tests/key_version.rs`
/// checks that CHANGELOG.md names this number.
pub const KEY_VERSION: u32 = 1;

/// What [`key_into`] and [`key_of_into`] make of a canonical URL.
#[derive(Clone, Copy, Debug, Default)]
pub struct KeyOptions<'a> {
    /// The rules to apply (`None`: none).
    pub rules: Option<&'a Rules>,
    /// Write the SURT form of the ruled URL (`None`: the URL itself).
    pub surt: Option<SurtOptions>,
}

/// Appends the key of `canonical` (a wurl canonical serialization of the 2012 model) to `out`:
/// rules, then SURT.
pub fn key_of_into(canonical: &str, key: &KeyOptions, out: &mut String) {
    key_of_model_into(canonical, Model::Canon2012, key, out);
}

/// [`key_of_into`] for a serialization made by `model`: the rules keep a change only where
/// `model` gives the ruled URL back ([`Rules::apply_model_into`]).
pub fn key_of_model_into(canonical: &str, model: Model, key: &KeyOptions, out: &mut String) {
    match (key.rules.filter(|r| !r.is_empty()), &key.surt) {
        (None, None) => out.push_str(canonical),
        (Some(r), None) => r.apply_model_into(canonical, model, out),
        (None, Some(s)) => surt_into(canonical, s, out),
        (Some(r), Some(s)) => with_side(Side::KeyRuled, |ruled| {
            r.apply_model_into(canonical, model, ruled);
            surt_into(ruled, s, out);
        }),
    }
}

/// [`canon_into`](crate::canon_into) (`input` against `base`, or itself, canonicalized with
/// `opts`), then [`key_of_into`], appended to `out`; an invalid URL appends nothing.
/// ```
/// let rules = wurl::Rules::parse("strip-www,drop-fragment").unwrap();
/// let key = wurl::KeyOptions { rules: Some(&rules), surt: Some(Default::default()) };
/// let mut out = String::new();
/// wurl::key_into(None, "HTTP://WWW.Example.com/a#b", &Default::default(), &key, &mut out).unwrap();
/// assert_eq!(out, "com,example)/a");
/// ```
pub fn key_into(
    base: Option<&Url>,
    input: &str,
    opts: &CanonOptions,
    key: &KeyOptions,
    out: &mut String,
) -> Result<(), InvalidReason> {
    key_input_into(base, input, &opts.resolve(), key, out)
}

/// [`key_into`] with the options resolved: for many calls with one charset label, resolved once.
pub fn key_into_resolved(
    base: Option<&Url>,
    input: &str,
    opts: &ResolvedOptions,
    key: &KeyOptions,
    out: &mut String,
) -> Result<(), InvalidReason> {
    key_input_into(base, input, opts, key, out)
}

pub(crate) fn key_input_into<'a, I: Input<'a>>(
    base: Option<&Url>,
    input: I,
    opts: &ResolvedOptions,
    key: &KeyOptions,
    out: &mut String,
) -> Result<(), InvalidReason> {
    if key.rules.is_none_or(Rules::is_empty) && key.surt.is_none() {
        return crate::api::canon(base, input, opts, out);
    }
    with_side(Side::KeyCanon, |canon| {
        crate::api::canon(base, input, opts, &mut *canon)?;
        key_of_into(canon, key, out);
        Ok(())
    })
}

/// Appends the key of `url`, from any stage: the key of its canonicalization with the default
/// options ([`crate::canonicalize()`] with no charset); an invalid URL appends nothing.
pub fn key_of_url_into(url: &Url, key: &KeyOptions, out: &mut String) -> Result<(), InvalidReason> {
    let c = crate::canonicalize(url, None);
    if let Some(r) = c.invalid_reason() {
        return Err(r);
    }
    if let Some(s) = c.as_str() {
        key_of_into(s, key, out);
    }
    Ok(())
}

/// [`key_into`] in the URL Standard model ([`canon_standard_into`](crate::canon_standard_into):
/// `input` against the URL string `base`, or alone); see docs/keys.md, URL Standard model.
pub fn key_standard_into(
    base: Option<&str>,
    input: &str,
    charset: Option<&str>,
    key: &KeyOptions,
    out: &mut String,
) -> Result<(), crate::standard::Invalid> {
    key_standard_input_into(base, input, charset, key, out)
}

pub(crate) fn key_standard_input_into<'a, I: Input<'a>>(
    base: Option<&str>,
    input: I,
    charset: Option<&str>,
    key: &KeyOptions,
    out: &mut String,
) -> Result<(), crate::standard::Invalid> {
    if key.rules.is_none_or(Rules::is_empty) && key.surt.is_none() {
        return crate::api::canon_standard(base, input, charset, out);
    }
    with_side(Side::KeyCanon, |canon| {
        crate::api::canon_standard(base, input, charset, &mut *canon)?;
        key_of_model_into(canon, Model::UrlStandard, key, out);
        Ok(())
    })
}
