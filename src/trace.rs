//! The observer of the stages: what `wurl explain` and [`crate::explain()`] report is seen by the
//! stages that compute the key, as they compute it, never by a second implementation. A stage
//! that reports takes an [`Observe`] generically; every other call passes `()`, whose methods are
//! empty and whose [`Observe::ON`] is false, so that the report (and anything built only for it)
//! is compiled out of the normal calls.

/// The part of the algorithm a step belongs to, in the specification's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Stage {
    /// "Steps to preprocess a string".
    Preprocess,
    /// "Steps to parse a URL": a component as parsed.
    Parse,
    /// "Steps to resolve a URL": a component resolution changed.
    Resolve,
    /// Canonicalization of the scheme.
    Scheme,
    /// Canonicalization of the user.
    User,
    /// Canonicalization of the password.
    Password,
    /// CanonicalizeHost (and `file:`'s HOSTPATH).
    Host,
    /// The port rules.
    Port,
    /// The path rules.
    Path,
    /// The query's encoding.
    Query,
    /// The fragment's rule.
    Fragment,
    /// A dedup rule (`crate::rules`).
    Rule,
}

impl Stage {
    /// The stage's name as `wurl explain -f json` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Preprocess => "preprocess",
            Stage::Parse => "parse",
            Stage::Resolve => "resolve",
            Stage::Scheme => "scheme",
            Stage::User => "user",
            Stage::Password => "password",
            Stage::Host => "host",
            Stage::Port => "port",
            Stage::Path => "path",
            Stage::Query => "query",
            Stage::Fragment => "fragment",
            Stage::Rule => "rule",
        }
    }
}

/// What a stage reports as it runs. The default methods do nothing and are inlined away; a stage
/// computes a report's arguments only under `if O::ON`.
pub trait Observe {
    /// Whether steps are observed.
    const ON: bool = false;

    /// A step of `stage`, described by `what` (the specification's words), from `before` to
    /// `after` (`None`: absent).
    #[inline(always)]
    fn step(&mut self, stage: Stage, what: &str, before: Option<&str>, after: Option<&str>) {
        let _ = (stage, what, before, after);
    }
}

/// Nothing observed: every normal call.
impl Observe for () {}

/// One step observed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub stage: Stage,
    /// What the step did, in the specification's words.
    pub what: String,
    /// The value before the step (`None`: absent).
    pub before: Option<String>,
    /// The value after it (`None`: absent).
    pub after: Option<String>,
}

/// An observer that keeps every step, in order.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    pub steps: Vec<Step>,
}

impl Observe for Recorder {
    const ON: bool = true;

    fn step(&mut self, stage: Stage, what: &str, before: Option<&str>, after: Option<&str>) {
        self.steps.push(Step {
            stage,
            what: what.to_owned(),
            before: before.map(str::to_owned),
            after: after.map(str::to_owned),
        });
    }
}
