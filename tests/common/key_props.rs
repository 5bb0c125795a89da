//! The properties of every key, shared by `tests/key_properties.rs` and
//! the `rules` fuzz target (which includes this file by path): for a rules
//! specification `R`, a model `M` (2012 or the URL Standard) and an input
//! `u` whose canonicalization `c` in `M` is valid, with `k = key_R(u)` in `M`:
//!
//! * `k` is `R` applied to `c` in `M`, and in the 2012 model the key of the
//!   handle of `u` resolved against itself (the bulk path and the handle
//!   path agree);
//! * `k` is canonical: `M`'s canonicalization gives it back unchanged;
//! * `k` is stable: `key_R(k) == k` in `M`;
//! * `k` has `c`'s scheme, port and host (under `strip-www`, `c`'s host
//!   or `c`'s host without leading `www`/`www<digits>` labels), and an
//!   authority exactly where `c` has one;
//! * its SURT form is made without a panic.
#![allow(dead_code)]

use wurl::surt::{SurtOptions, surt};
use wurl::{CanonOptions, KeyOptions, Model, Rules};

/// The components a key must keep: scheme, host, port (as written: both
/// URLs are canonical in their model).
fn site(model: Model, s: &str) -> Option<(String, Option<String>, Option<String>)> {
    if model == Model::UrlStandard {
        return standard_site(s);
    }
    let u = wurl::parse(s);
    let own = |x: Option<&str>| x.map(str::to_owned);
    Some((own(u.scheme())?, own(u.host()), own(u.port())))
}

/// [`site`] of a URL Standard serialization, as that model reads it: the scheme up to the first
/// `:`, then an authority only right after `//`, up to the first `/`, `?` or `#` (its host after
/// the last `@`, its port after a `:` outside brackets). `jhttp:////E%2e/` has the empty host and
/// the path `//E%2e/`, where the 2012 parser would read the host `E%2e`.
fn standard_site(s: &str) -> Option<(String, Option<String>, Option<String>)> {
    let (scheme, rest) = s.split_once(':')?;
    let Some(rest) = rest.strip_prefix("//") else {
        return Some((scheme.to_owned(), None, None));
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let auth = &rest[..end];
    let hostport = auth.rsplit_once('@').map_or(auth, |(_, h)| h);
    let (host, port) = match hostport.rfind(':') {
        Some(i) if !hostport[i..].contains(']') => {
            (&hostport[..i], Some(hostport[i + 1..].to_owned()))
        }
        _ => (hostport, None),
    };
    Some((scheme.to_owned(), Some(host.to_owned()), port))
}

/// Whether `short` is `long` without leading `www`/`www<digits>` labels.
fn is_www_stripped(long: &str, short: &str) -> bool {
    let Some(prefix) = long.strip_suffix(short).and_then(|p| p.strip_suffix('.')) else {
        return false;
    };
    prefix.split('.').all(|l| {
        l.strip_prefix("www")
            .is_some_and(|d| d.bytes().all(|c| c.is_ascii_digit()))
    })
}

/// `input` canonicalized in `model` (no base, default options).
fn canon_in(model: Model, input: &str) -> Option<String> {
    let mut c = String::new();
    let ok = match model {
        Model::UrlStandard => wurl::canon_standard_into(None, input, None, &mut c).is_ok(),
        _ => wurl::canon_into(None, input, &CanonOptions::default(), &mut c).is_ok(),
    };
    ok.then_some(c)
}

/// The key of `input` in `model` (no base, default options).
fn key_in(model: Model, input: &str, key: &KeyOptions) -> Result<String, String> {
    let mut k = String::new();
    match model {
        Model::UrlStandard => {
            wurl::key_standard_into(None, input, None, key, &mut k).map_err(|e| format!("{e:?}"))?
        }
        _ => wurl::key_into(None, input, &CanonOptions::default(), key, &mut k)
            .map_err(|e| format!("{e:?}"))?,
    }
    Ok(k)
}

/// Checks the properties above for `input` under `rules` in the 2012 model.
pub fn check_key(rules: &Rules, input: &str) -> Result<(), String> {
    check_key_in(Model::Canon2012, rules, input)
}

/// Checks the properties above for `input` under `rules` in `model`.
pub fn check_key_in(model: Model, rules: &Rules, input: &str) -> Result<(), String> {
    let Some(c) = canon_in(model, input) else {
        return Ok(());
    };
    let key_opts = KeyOptions {
        rules: Some(rules),
        surt: None,
    };
    let k = key_in(model, input, &key_opts)
        .map_err(|e| format!("the key of a valid URL is invalid: {e}"))?;
    let spec = rules.as_str();
    let m = model.name();
    let ctx = || format!("model {m}, rules {spec:?}, input {input:?}, canonical {c:?}, key {k:?}");
    // The documented output bound (`wurl_output_bound`) holds for keys too, its NUL included.
    if k.len() >= wurl::output_bound(0, input.len()) {
        return Err(format!(
            "the key is longer than the output bound: {}",
            ctx()
        ));
    }
    let mut applied = String::new();
    rules.apply_model_into(&c, model, &mut applied);
    if applied != k {
        return Err(format!(
            "the key is not the rules on the canonical URL: {}",
            ctx()
        ));
    }
    if model == Model::Canon2012 {
        let mut h = String::new();
        let own = wurl::resolve(&wurl::parse(input), input);
        wurl::key_of_url_into(&own, &key_opts, &mut h)
            .map_err(|e| format!("handle key refused: {e:?}: {}", ctx()))?;
        if h != k {
            return Err(format!("handle key {h:?} differs: {}", ctx()));
        }
    }
    match canon_in(model, &k) {
        Some(again) if again == k => {}
        again => return Err(format!("key not canonical (gives {again:?}): {}", ctx())),
    }
    let twice = key_in(model, &k, &key_opts)?;
    if twice != k {
        return Err(format!("key not stable (gives {twice:?}): {}", ctx()));
    }
    let (Some(a), Some(b)) = (site(model, &c), site(model, &k)) else {
        return Err(format!("no scheme: {}", ctx()));
    };
    let www = spec.split(',').any(|p| p == "strip-www");
    let host_ok = match (&a.1, &b.1) {
        (None, None) => true,
        (Some(x), Some(y)) => x == y || (www && is_www_stripped(x, y)),
        _ => false,
    };
    if a.0 != b.0 || a.2 != b.2 || !host_ok {
        return Err(format!(
            "scheme, host or port changed ({a:?} -> {b:?}): {}",
            ctx()
        ));
    }
    let authority = |s: &str| {
        let rest = &s[s.find(':').map_or(0, |i| i + 1)..];
        rest.starts_with("//")
    };
    if authority(&c) != authority(&k) {
        return Err(format!("authority appeared or went: {}", ctx()));
    }
    let _ = surt(&k, &SurtOptions { with_scheme: true });
    Ok(())
}

/// The rules of a fuzz case: `spec` when it compiles, else the rules
/// chosen by the bits of `bits` (one a rule), so that most cases check a
/// key.
pub fn rules_of(spec: &str, bits: u8) -> Rules {
    if let Ok(r) = Rules::parse(spec) {
        return r;
    }
    const ALL: [&str; 7] = [
        "drop-userinfo",
        "strip-www",
        "normalize-escapes",
        "strip-session-ids",
        "drop-params=utm_*|*id|s*",
        "sort-query",
        "drop-fragment",
    ];
    let chosen: Vec<&str> = (0..7)
        .filter(|i| bits & (1 << i) != 0)
        .map(|i| ALL[i])
        .collect();
    Rules::parse(&chosen.join(",")).expect("known rules")
}
