//! Keys: the canonical serialization with the opt-in [`Rules`] applied and,
//! optionally, in [SURT](crate::surt) form — one call for crawler loops,
//! on top of [`canon_into`](crate::canon_into).

use std::cell::RefCell;

use crate::api::Input;
use crate::canonicalize::CanonOptions;
use crate::record::{InvalidReason, Url};
use crate::rules::Rules;
use crate::surt::{SurtOptions, surt_into};

/// What [`key_into`] and [`key_of_into`] make of a canonical URL.
#[derive(Clone, Copy, Debug, Default)]
pub struct KeyOptions<'a> {
    /// The rules to apply (`None`: none).
    pub rules: Option<&'a Rules>,
    /// Write the SURT form of the ruled URL (`None`: the URL itself).
    pub surt: Option<SurtOptions>,
}

thread_local! {
    /// The canonical serialization, between canonicalization and the key.
    static CANON: RefCell<String> = const { RefCell::new(String::new()) };
    /// The ruled URL, between the rules and SURT.
    static RULED: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Runs `f` with an empty per-thread buffer of `cell` (see
/// [`with_local`](crate::scratch::with_local)).
fn with_buf<R>(
    cell: &'static std::thread::LocalKey<RefCell<String>>,
    f: impl FnOnce(&mut String) -> R,
) -> R {
    crate::scratch::with_local(cell, String::capacity, |b| {
        b.clear();
        f(b)
    })
}

/// Appends the key of `canonical` (a serialization made by wurl's
/// canonicalization) to `out`: the rules applied, then the SURT form when
/// asked for. No allocation beyond `out`'s growth once the thread is warm.
pub fn key_of_into(canonical: &str, key: &KeyOptions, out: &mut String) {
    match (key.rules.filter(|r| !r.is_empty()), &key.surt) {
        (None, None) => out.push_str(canonical),
        (Some(r), None) => r.apply_into(canonical, out),
        (None, Some(s)) => surt_into(canonical, s, out),
        (Some(r), Some(s)) => with_buf(&RULED, |ruled| {
            r.apply_into(canonical, ruled);
            surt_into(ruled, s, out);
        }),
    }
}

/// The bulk path with a key: [`canon_into`](crate::canon_into) (resolution
/// against `base`, or against `input` itself, and canonicalization with
/// `opts`), then [`key_of_into`], appended to `out`. Returns the reason
/// when the URL is invalid (then nothing is appended). No allocation per
/// call beyond `out`'s growth once the thread is warm.
///
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
    key_input_into(base, input, opts, key, out)
}

/// [`key_into`] of any input of the entry layer (the C ABI's bytes too).
pub(crate) fn key_input_into<'a, I: Input<'a>>(
    base: Option<&Url>,
    input: I,
    opts: &CanonOptions,
    key: &KeyOptions,
    out: &mut String,
) -> Result<(), InvalidReason> {
    if key.rules.is_none_or(Rules::is_empty) && key.surt.is_none() {
        return crate::api::canon(base, input, opts, out);
    }
    with_buf(&CANON, |canon| {
        crate::api::canon(base, input, opts, &mut *canon)?;
        key_of_into(canon, key, out);
        Ok(())
    })
}

/// Appends the key of the URL `url` to `out`: the key of its
/// canonicalization (with the default options, as [`crate::canonicalize()`]
/// with no charset), whatever stage `url` comes from — a parsed or
/// resolved record is canonicalized first, and a canonical one is its own
/// canonicalization. Returns the reason when the canonical URL is invalid
/// (then nothing is appended).
///
/// ```
/// let url = wurl::parse("HTTP://WWW.Example.COM:80/a/../b?b&a");
/// let rules = wurl::Rules::parse("strip-www,sort-query").unwrap();
/// let key = wurl::KeyOptions { rules: Some(&rules), surt: Some(Default::default()) };
/// let mut out = String::new();
/// wurl::key_of_url_into(&url, &key, &mut out).unwrap();
/// assert_eq!(out, "com,example)/b?a&b");
/// ```
pub fn key_of_url_into(url: &Url, key: &KeyOptions, out: &mut String) -> Result<(), InvalidReason> {
    let c = crate::canonicalize(url, None);
    if let Some(r) = c.invalid_reason() {
        return Err(r);
    }
    // A valid record has a serialization.
    if let Some(s) = c.as_str() {
        key_of_into(s, key, out);
    }
    Ok(())
}

/// [`key_into`] in the URL Standard model: [`canon_standard_into`]
/// (`input` against the URL string `base`, or on its own), then
/// [`key_of_into`], appended to `out`. The rules and SURT read the URL
/// Standard's serialization as they read a 2012 one (see docs/keys.md,
/// "Keys of the URL Standard model").
///
/// [`canon_standard_into`]: crate::canon_standard_into
///
/// ```
/// let rules = wurl::Rules::parse("strip-www").unwrap();
/// let key = wurl::KeyOptions { rules: Some(&rules), surt: Some(Default::default()) };
/// let mut out = String::new();
/// wurl::key_standard_into(None, "http://www.faß.de/a\\b", None, &key, &mut out).unwrap();
/// assert_eq!(out, "de,xn--fa-hia)/a/b");
/// ```
pub fn key_standard_into(
    base: Option<&str>,
    input: &str,
    charset: Option<&str>,
    key: &KeyOptions,
    out: &mut String,
) -> Result<(), crate::standard::Invalid> {
    key_standard_input_into(base, input, charset, key, out)
}

/// [`key_standard_into`] of any input of the entry layer.
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
    with_buf(&CANON, |canon| {
        crate::api::canon_standard(base, input, charset, &mut *canon)?;
        key_of_into(canon, key, out);
        Ok(())
    })
}
