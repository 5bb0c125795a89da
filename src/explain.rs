//! Why a URL has its key: the steps of the stages that changed it, as those stages report them
//! while they compute the key ([`crate::trace`]), then each rule's change, the key and its SURT;
//! and for two URLs, whether they share a key or the first component where their keys part.
//! `wurl explain` and Python's `wurl.explain` print this.
//!
//! The trace takes the stages (no fast exit) with an observer: the fast exits give what the stages
//! give (`tests/fast_exit_differential.rs`), and `tests/explain.rs` checks that the trace's key is
//! the bulk call's on every golden-key row.
//!
//! In the URL Standard model the URL is the `url` crate's, whose parser reports no steps: the
//! trace holds its result, the rules' steps, the key and the SURT.

use crate::api::Model;
use crate::canonicalize::{CanonOptions, canon_staged_with};
use crate::rules::Rules;
use crate::split::split;
use crate::surt::{SurtOptions, surt_into};
use crate::trace::{Recorder, Step};

/// What [`explain`] explains.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExplainOptions<'a> {
    /// The base URL the input is resolved against (`None`: the input itself).
    pub base: Option<&'a str>,
    /// Canonicalization's options (the query's encoding, network-strict mode).
    pub canon: CanonOptions<'a>,
    /// The model (the 2012 algorithm, or the URL Standard).
    pub model: Model,
    /// The rules of the key (`None`: none).
    pub rules: Option<&'a Rules>,
}

/// The steps that made a URL's key, in the order taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub model: Model,
    pub input: String,
    pub base: Option<String>,
    /// Each step that changed something, in order: preprocessing, the components as parsed,
    /// resolution, each component's canonicalization, each rule.
    pub steps: Vec<Step>,
    /// The canonical URL, or why the URL is invalid (then no key).
    pub canonical: Result<String, String>,
    /// The key: the canonical URL with the rules applied.
    pub key: Option<String>,
    /// The SURT form of the key.
    pub surt: Option<String>,
}

/// Explains the key of `input` (against `opts.base`, or itself): the stages' steps as they take
/// them, the rules' changes, the key and its SURT.
/// ```
/// let t = wurl::explain("HTTP://Example.COM:80/a/./b/../c", &Default::default());
/// assert_eq!(t.key.as_deref(), Some("http://example.com/a/c"));
/// assert!(t.steps.iter().any(|s| s.what == "default port 80 dropped"));
/// ```
pub fn explain(input: &str, opts: &ExplainOptions) -> Trace {
    let mut rec = Recorder::default();
    let mut canon = String::new();
    let canonical = match opts.model {
        Model::UrlStandard => {
            crate::standard::canon_into(opts.base, input, opts.canon.charset, &mut canon)
                .map_err(|e| e.as_str().to_owned())
        }
        _ => {
            let base = opts.base.map(crate::parse);
            crate::scratch::with(crate::scratch::Used::ALL, |sc| {
                canon_staged_with(base.as_ref(), input, &opts.canon, &mut canon, sc, &mut rec)
            })
            .map_err(|e| e.as_str().to_owned())
        }
    };
    let (key, surt) = match &canonical {
        Ok(()) => {
            let mut key = String::new();
            match opts.rules {
                Some(r) => r.apply_model_with(&canon, opts.model, &mut key, &mut rec),
                None => key.push_str(&canon),
            }
            let mut s = String::new();
            surt_into(&key, &SurtOptions::default(), &mut s);
            (Some(key), Some(s))
        }
        Err(_) => (None, None),
    };
    // The stages report in the order they run; the port rules run before the walk of the
    // components, HOSTPATH before both: the report is in the specification's order (stable).
    let mut steps = rec.steps;
    steps.sort_by_key(|s| s.stage);
    Trace {
        model: opts.model,
        input: input.to_owned(),
        base: opts.base.map(str::to_owned),
        steps,
        canonical: canonical.map(|()| canon),
        key,
        surt,
    }
}

/// How the keys of two traces compare.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// Both URLs are valid and have one key.
    pub same_key: bool,
    /// The first component of the key, in serialization order (`scheme`, `user-info`, `host`,
    /// `port`, `path`, `query`, `fragment`), where the keys differ, with each key's value of it
    /// (`None`: absent); `None` when the keys are equal or one URL is invalid.
    pub parts_at: Option<(&'static str, Option<String>, Option<String>)>,
}

/// Compares the keys of `a` and `b`.
pub fn compare(a: &Trace, b: &Trace) -> Comparison {
    let (Some(x), Some(y)) = (&a.key, &b.key) else {
        return Comparison {
            same_key: false,
            parts_at: None,
        };
    };
    if x == y {
        return Comparison {
            same_key: true,
            parts_at: None,
        };
    }
    let (cx, cy) = (key_components(x), key_components(y));
    let parts_at = cx
        .into_iter()
        .zip(cy)
        .find(|((_, p), (_, q))| p != q)
        .map(|((name, p), (_, q))| (name, p.map(str::to_owned), q.map(str::to_owned)));
    Comparison {
        same_key: false,
        // Equal components in every place are equal keys: the place is found.
        parts_at,
    }
}

/// The components of a key (a canonical serialization), by name, in order.
fn key_components(k: &str) -> [(&'static str, Option<&str>); 7] {
    let sp = split(k);
    let a = sp.authority.as_ref();
    let get = |r: Option<std::ops::Range<usize>>| r.map(|r| &k[r]);
    [
        ("scheme", Some(&k[sp.scheme.clone()])),
        ("user-info", get(a.and_then(|a| a.userinfo.clone()))),
        ("host", get(a.map(|a| a.host.clone()))),
        ("port", get(a.and_then(|a| a.port.clone()))),
        ("path", Some(&k[sp.path.clone()])),
        ("query", get(sp.query.clone())),
        ("fragment", get(sp.fragment.clone())),
    ]
}
