//! `wurl audit`: what a rule set merges. Each input is canonicalized (in the model asked for) and
//! keyed with the rules; different canonical URLs that get one key are a merge. A merge is
//! attributed to the rule whose step made the two URLs equal (the rules are applied one at a
//! time, in their order) and put in a risk class by what that rule removed: a query parameter
//! whose values look like content ids, a numbered `www` label, a fragment route, ... (see
//! [`Class`] and docs/keys.md, "Auditing a rule set").
//!
//! One pass, streaming, memory bounded by its caps: at most `max_keys` keys (each with its first
//! canonical URL) and as many canonical URLs (a 64-bit hash each) are remembered, and at most
//! `max_groups` merge groups with `examples` examples each; lines past the caps are counted as
//! not tracked, never silently dropped.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use crate::format::json_string;
use crate::input::{Bases, Source, shown_len};
use crate::output::{Diag, Output};

/// The risk of a class of merge: how likely the merged canonical URLs are different pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Risk {
    High,
    Medium,
    Low,
}

impl Risk {
    fn name(self) -> &'static str {
        match self {
            Risk::High => "high",
            Risk::Medium => "medium",
            Risk::Low => "low",
        }
    }
}

/// Why two canonical URLs got one key: the rule that made them equal and what it removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// A removed query parameter whose values differ and are not session tokens: content ids
    /// (`article.pl?sid=00/11/23/1616201`, `article.php?sid=15733`).
    ContentParameter,
    /// A removed fragment that is a route (`#!/page`, `#/page`): single-page sites address pages
    /// by it.
    FragmentRoute,
    /// `strip-www` removed `www` labels that differ (`www` against `www2`), or a numbered one.
    WwwNumbered,
    /// Different user information removed.
    UserInfo,
    /// The same parameters in another order, or empty ones.
    ParameterOrder,
    /// A removed parameter whose values are session tokens (long runs of letters and digits), or
    /// a `;jsessionid=` path parameter.
    SessionParameter,
    /// `strip-www` removed a plain `www` label.
    Www,
    /// Escapes of unreserved characters decoded, hex digits upper-cased.
    Escapes,
    /// A removed fragment that is no route.
    Fragment,
    /// Anything else.
    Other,
}

impl Class {
    /// Every class, riskiest first (the order of the report).
    pub const ALL: [Class; 10] = [
        Class::ContentParameter,
        Class::FragmentRoute,
        Class::WwwNumbered,
        Class::UserInfo,
        Class::ParameterOrder,
        Class::SessionParameter,
        Class::Www,
        Class::Escapes,
        Class::Fragment,
        Class::Other,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Class::ContentParameter => "content-parameter",
            Class::FragmentRoute => "fragment-route",
            Class::WwwNumbered => "www-numbered",
            Class::UserInfo => "userinfo",
            Class::ParameterOrder => "parameter-order",
            Class::SessionParameter => "session-parameter",
            Class::Www => "www",
            Class::Escapes => "escapes",
            Class::Fragment => "fragment",
            Class::Other => "other",
        }
    }

    pub fn risk(self) -> Risk {
        match self {
            Class::ContentParameter | Class::FragmentRoute | Class::WwwNumbered => Risk::High,
            Class::UserInfo | Class::ParameterOrder | Class::Other => Risk::Medium,
            Class::SessionParameter | Class::Www | Class::Escapes | Class::Fragment => Risk::Low,
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Class::ContentParameter => {
                "a removed parameter with different values, not session tokens: content ids"
            }
            Class::FragmentRoute => {
                "a removed fragment route (#! or #/): pages of a single-page site"
            }
            Class::WwwNumbered => "different or numbered www labels removed (www2, www1355544)",
            Class::UserInfo => "different user information removed",
            Class::ParameterOrder => "parameters in another order, or empty ones",
            Class::SessionParameter => {
                "a removed session token (long letters and digits, ;jsessionid=)"
            }
            Class::Www => "a plain www label removed",
            Class::Escapes => "escapes of unreserved characters decoded",
            Class::Fragment => "a removed fragment (no route)",
            Class::Other => "anything else",
        }
    }
}

/// Whether `v` looks like a session token rather than a content id: at least 16 letters, digits,
/// `-` and `_`, with both a letter and a digit, or at least 32 letters and digits (what
/// `strip-session-ids` takes for `sid`). Content ids are short numbers or dates
/// (`15733`, `00/11/23/1616201`).
pub fn is_token(v: &str) -> bool {
    let b = v.as_bytes();
    let word = b
        .iter()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_'));
    let alnum = b.iter().all(u8::is_ascii_alphanumeric);
    (alnum && b.len() >= 32)
        || (word
            && b.len() >= 16
            && b.iter().any(u8::is_ascii_digit)
            && b.iter().any(u8::is_ascii_alphabetic))
}

/// The query of a serialization (`None`: none), up to its fragment.
fn query_of(url: &str) -> Option<&str> {
    let end = url.find('#').unwrap_or(url.len());
    let q = url[..end].find('?')?;
    Some(&url[q + 1..end])
}

/// The fragment of a serialization (`None`: none).
fn fragment_of(url: &str) -> Option<&str> {
    url.find('#').map(|i| &url[i + 1..])
}

/// The host of a serialization with an authority (`scheme://[userinfo@]host[:port]`).
fn host_of(url: &str) -> Option<&str> {
    let rest = &url[url.find("://")? + 3..];
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let auth = &rest[..end];
    let auth = auth.rsplit_once('@').map_or(auth, |(_, h)| h);
    Some(match auth.rfind(':') {
        Some(i) if !auth.ends_with(']') => &auth[..i],
        _ => auth,
    })
}

/// The leading `www` / `wwwN` labels of `host` (with their dots).
fn www_labels(host: &str) -> &str {
    let mut end = 0;
    let b = host.as_bytes();
    while b[end..].starts_with(b"www") {
        let mut i = end + 3;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if b.get(i) != Some(&b'.') {
            break;
        }
        end = i + 1;
    }
    &host[..end]
}

/// The (name, value) parameters of a query, empty ones left out.
fn params(q: Option<&str>) -> Vec<(&str, &str)> {
    q.map_or_else(Vec::new, |q| {
        q.split('&')
            .filter(|p| !p.is_empty())
            .map(|p| p.split_once('=').unwrap_or((p, "")))
            .collect()
    })
}

/// The parameters of `before` that `after` no longer has (as a multiset).
fn removed<'a>(before: &'a str, after: &str) -> Vec<(&'a str, &'a str)> {
    let mut kept = params(query_of(after));
    let mut out = Vec::new();
    for p in params(query_of(before)) {
        match kept.iter().position(|k| *k == p) {
            Some(i) => {
                kept.swap_remove(i);
            }
            None => out.push(p),
        }
    }
    out
}

/// One rule of the specification, compiled alone, with its name.
pub struct Step {
    pub name: &'static str,
    pub rules: wurl::Rules,
}

/// The steps of `spec`, one rule each, in the order the rules are applied (`wurl::Rules::each`):
/// one at a time in that order, they give the key of all of them together.
pub fn steps(spec: &str) -> Result<Vec<Step>, String> {
    let all = wurl::Rules::parse(spec).map_err(|e| e.to_string())?;
    Ok(all
        .each()
        .map(|(name, rules)| Step { name, rules })
        .collect())
}

/// The values of `url` after each step: `out[0]` is `url`, `out[k + 1]` after step `k`.
fn trail(url: &str, steps: &[Step], model: wurl::Model) -> Vec<String> {
    let mut out = vec![url.to_owned()];
    for s in steps {
        let mut next = String::new();
        s.rules
            .apply_model_into(out.last().unwrap(), model, &mut next);
        out.push(next);
    }
    out
}

/// The step that made `a` and `b` (different canonical URLs with one key) equal, and the class of
/// the merge.
pub fn classify(a: &str, b: &str, steps: &[Step], model: wurl::Model) -> (usize, Class) {
    let (ta, tb) = (trail(a, steps, model), trail(b, steps, model));
    let Some(k) = (0..steps.len()).find(|&k| ta[k] != tb[k] && ta[k + 1] == tb[k + 1]) else {
        return (steps.len(), Class::Other);
    };
    let (va, vb) = (&ta[k], &tb[k]);
    let class = match steps[k].name {
        "drop-params" | "strip-session-ids" => {
            let (ra, rb) = (removed(va, &ta[k + 1]), removed(vb, &tb[k + 1]));
            if ra.is_empty() && rb.is_empty() {
                // The path parameter `;jsessionid=`.
                Class::SessionParameter
            } else {
                let names: HashSet<&str> = ra.iter().chain(&rb).map(|p| p.0).collect();
                let values = |r: &[(&str, &str)], n: &str| {
                    let mut v: Vec<String> = r
                        .iter()
                        .filter(|p| p.0 == n)
                        .map(|p| p.1.to_owned())
                        .collect();
                    v.sort();
                    v
                };
                let content = names.iter().any(|n| {
                    let (x, y) = (values(&ra, n), values(&rb, n));
                    x != y && x.iter().chain(&y).any(|v| !v.is_empty() && !is_token(v))
                });
                if content {
                    Class::ContentParameter
                } else {
                    Class::SessionParameter
                }
            }
        }
        "strip-www" => {
            let (ha, hb) = (host_of(va).unwrap_or(""), host_of(vb).unwrap_or(""));
            let (wa, wb) = (www_labels(ha), www_labels(hb));
            let numbered = |w: &str| w.bytes().any(|c| c.is_ascii_digit());
            if wa != wb && !wa.is_empty() && !wb.is_empty() || numbered(wa) || numbered(wb) {
                Class::WwwNumbered
            } else {
                Class::Www
            }
        }
        "drop-fragment" => {
            let route = |u: &str| fragment_of(u).is_some_and(|f| f.starts_with(['!', '/']));
            if route(va) || route(vb) {
                Class::FragmentRoute
            } else {
                Class::Fragment
            }
        }
        "drop-userinfo" => Class::UserInfo,
        "sort-query" => Class::ParameterOrder,
        "normalize-escapes" => Class::Escapes,
        _ => Class::Other,
    };
    (k, class)
}

/// What `audit` is asked for.
pub struct AuditCtx {
    pub base: Option<String>,
    pub pairs: bool,
    /// `--charset` as given (the URL Standard model reads the label itself).
    pub charset: Option<String>,
    /// The 2012 model's options: `--charset` resolved once.
    pub opts: wurl::ResolvedOptions,
    pub model: wurl::Model,
    pub spec: String,
    pub json: bool,
    pub html: bool,
    pub examples: usize,
    pub max_keys: usize,
    pub max_groups: usize,
}

/// A key remembered: its first canonical URL and its merge group.
struct KeyEntry {
    first: Box<str>,
    group: Option<usize>,
}

/// Different canonical URLs with one key.
struct Group {
    key: String,
    /// Canonical URLs in the group beyond the first.
    merged: u64,
    classes: [u64; Class::ALL.len()],
    /// Distinct canonical URLs, the first one first, each cut as messages cut values.
    examples: Vec<String>,
}

impl Group {
    fn top(&self) -> Class {
        Class::ALL
            .into_iter()
            .find(|c| self.classes[*c as usize] > 0)
            .unwrap_or(Class::Other)
    }
}

#[derive(Default)]
struct Tally {
    inputs: u64,
    invalid: u64,
    canonical: u64,
    keys: u64,
    untracked: u64,
    merged: u64,
    by_class: [u64; Class::ALL.len()],
    /// Per step, and one more for "no single step".
    by_step: Vec<u64>,
    /// Merges in groups past `max_groups` (counted, no examples).
    ungrouped: u64,
}

fn hash(s: &str) -> u64 {
    let mut h = DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

/// Cut as messages cut values (`shown_len`, then `…`).
fn cut_value(v: &str) -> String {
    let n = shown_len(v.as_bytes());
    if n < v.len() {
        format!("{}…", &v[..n])
    } else {
        v.to_owned()
    }
}

/// The state of one run.
pub struct Audit<'c> {
    ctx: &'c AuditCtx,
    rules: wurl::Rules,
    steps: Vec<Step>,
    keys: HashMap<u64, KeyEntry>,
    seen: HashSet<u64>,
    groups: Vec<Group>,
    tally: Tally,
}

impl<'c> Audit<'c> {
    pub fn new(ctx: &'c AuditCtx) -> Result<Audit<'c>, String> {
        let rules = wurl::Rules::parse(&ctx.spec).map_err(|e| e.to_string())?;
        let steps = steps(&ctx.spec)?;
        let tally = Tally {
            by_step: vec![0; steps.len() + 1],
            ..Tally::default()
        };
        Ok(Audit {
            ctx,
            rules,
            steps,
            keys: HashMap::new(),
            seen: HashSet::new(),
            groups: Vec::new(),
            tally,
        })
    }

    /// The canonical URL of `input` against `base`, into `out`; `false`: invalid.
    fn canon(
        &self,
        base: Option<&str>,
        base_2012: Option<&wurl::Url>,
        input: &str,
        out: &mut String,
    ) -> bool {
        out.clear();
        match self.ctx.model {
            wurl::Model::UrlStandard => {
                wurl::canon_standard_into(base, input, self.ctx.charset.as_deref(), out).is_ok()
            }
            _ => wurl::canon_into_resolved(base_2012, input, &self.ctx.opts, out).is_ok(),
        }
    }

    /// Counts one canonical URL `c`.
    pub fn add(&mut self, c: &str, key: &mut String) {
        let ch = hash(c);
        if self.seen.contains(&ch) {
            return;
        }
        if self.seen.len() >= self.ctx.max_keys {
            self.tally.untracked += 1;
            return;
        }
        self.seen.insert(ch);
        self.tally.canonical += 1;
        key.clear();
        self.rules.apply_model_into(c, self.ctx.model, key);
        let kh = hash(key);
        let Some(entry) = self.keys.get_mut(&kh) else {
            self.keys.insert(
                kh,
                KeyEntry {
                    first: c.into(),
                    group: None,
                },
            );
            self.tally.keys += 1;
            return;
        };
        let (step, class) = classify(&entry.first, c, &self.steps, self.ctx.model);
        self.tally.merged += 1;
        self.tally.by_class[class as usize] += 1;
        self.tally.by_step[step] += 1;
        let g = match entry.group {
            Some(g) => Some(g),
            None if self.groups.len() < self.ctx.max_groups => {
                self.groups.push(Group {
                    key: cut_value(key),
                    merged: 0,
                    classes: [0; Class::ALL.len()],
                    examples: vec![cut_value(&entry.first)],
                });
                entry.group = Some(self.groups.len() - 1);
                entry.group
            }
            None => None,
        };
        match g {
            Some(g) => {
                let g = &mut self.groups[g];
                g.merged += 1;
                g.classes[class as usize] += 1;
                if g.examples.len() < self.ctx.examples.max(2) {
                    g.examples.push(cut_value(c));
                }
            }
            None => self.tally.ungrouped += 1,
        }
    }

    /// The groups, riskiest class first, then the most merged.
    fn ranked(&self) -> Vec<&Group> {
        let mut g: Vec<&Group> = self.groups.iter().collect();
        g.sort_by(|a, b| (a.top(), b.merged).cmp(&(b.top(), a.merged)));
        g
    }
}

/// Runs `audit` over `source`. Returns the exit status.
pub fn run(ctx: &AuditCtx, mut source: Source, progress: bool, diag: &Arc<Diag>) -> u8 {
    let mut audit = match Audit::new(ctx) {
        Ok(a) => a,
        Err(e) => {
            diag.write(&format!("wurl: --rules: {e}\n"));
            return crate::EXIT_ERROR;
        }
    };
    let bar = crate::pipeline::progress_for(&source, progress, diag);
    let mut bases = Bases::new(ctx.pairs, ctx.base.as_deref());
    let (mut c, mut key) = (String::new(), String::new());
    let result = source.each_chunk(bar, |chunk| {
        for line in &chunk.lines {
            audit.tally.inputs += 1;
            let valid = bases
                .record(chunk.bytes_of(line))
                .is_some_and(|r| audit.canon(r.base.as_deref(), r.base_2012, &r.input, &mut c));
            if valid {
                audit.add(&c, &mut key);
            } else {
                audit.tally.invalid += 1;
            }
        }
        Ok(())
    });
    let mut out = Output::stdout(b'\n');
    if let Err(e) = result {
        let _ = out.flush();
        diag.write(&format!("wurl: {e}\n"));
        return crate::EXIT_ERROR;
    }
    let report = if ctx.json {
        json_report(&audit)
    } else if ctx.html {
        html_report(&audit)
    } else {
        text_report(&audit)
    };
    match out.push(report.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => crate::EXIT_OK,
        Err(e) => {
            diag.write(&format!("wurl: {e}\n"));
            crate::EXIT_ERROR
        }
    }
}

fn step_name(a: &Audit, k: usize) -> &'static str {
    a.steps.get(k).map_or("(rules together)", |s| s.name)
}

fn text_report(a: &Audit) -> String {
    let t = &a.tally;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} inputs, {} invalid; {} canonical URLs, {} keys: {} canonical URLs merged into another's key (rules {:?}, model {})",
        t.inputs,
        t.invalid,
        t.canonical,
        t.keys,
        t.merged,
        a.ctx.spec,
        a.ctx.model.name()
    );
    if t.untracked > 0 {
        let _ = writeln!(
            s,
            "{} canonical URLs past the cap of {} were not tracked (--max-keys)",
            t.untracked, a.ctx.max_keys
        );
    }
    s.push_str("\nmerges by rule:\n");
    for (k, n) in t.by_step.iter().enumerate() {
        if *n > 0 || k < a.steps.len() {
            let _ = writeln!(s, "  {:<20} {:>10}", step_name(a, k), n);
        }
    }
    s.push_str("\nmerges by class (riskiest first):\n");
    for c in Class::ALL {
        let n = t.by_class[c as usize];
        let _ = writeln!(
            s,
            "  {:<18} {:<6} {:>10}  {}",
            c.name(),
            c.risk().name(),
            n,
            c.description()
        );
    }
    let ranked = a.ranked();
    if !ranked.is_empty() {
        let _ = writeln!(
            s,
            "\ngroups (riskiest first, then largest; {} groups{}):",
            ranked.len(),
            if t.ungrouped > 0 {
                format!(", {} merges past --max-groups not shown", t.ungrouped)
            } else {
                String::new()
            }
        );
        for g in ranked.iter().take(a.ctx.examples.max(1) * 10) {
            let _ = writeln!(
                s,
                "  [{}] {} canonical URLs -> {}",
                g.top().name(),
                g.merged + 1,
                g.key
            );
            for e in &g.examples {
                let _ = writeln!(s, "      {e}");
            }
        }
    }
    s
}

fn html_report(a: &Audit) -> String {
    use crate::html::{Bar, Group, page};
    let t = &a.tally;
    let names: Vec<&str> = (0..t.by_step.len()).map(|k| step_name(a, k)).collect();
    let colour = |r: Risk| match r {
        Risk::High => "#c0392b",
        Risk::Medium => "#e67e22",
        Risk::Low => "#7f8c8d",
    };
    let mut bars: Vec<Bar> = Class::ALL
        .into_iter()
        .map(|c| Bar {
            label: c.name(),
            note: c.risk().name(),
            count: t.by_class[c as usize],
            colour: colour(c.risk()),
        })
        .collect();
    bars.extend(
        t.by_step
            .iter()
            .enumerate()
            .filter(|(k, n)| **n > 0 || *k < a.steps.len())
            .map(|(k, n)| Bar {
                label: names[k],
                note: "rule",
                count: *n,
                colour: "#4a78b5",
            }),
    );
    let groups: Vec<Group> = a
        .ranked()
        .into_iter()
        .map(|g| Group {
            class: g.top().name(),
            heading: format!("{} ({} canonical URLs)", g.key, g.merged + 1),
            count: g.merged + 1,
            lines: g.examples.clone(),
        })
        .collect();
    page(
        &format!("wurl audit: what the rules {:?} merge", a.ctx.spec),
        &[
            ("inputs", "inputs", t.inputs),
            ("invalid", "invalid", t.invalid),
            ("canonical", "canonical URLs", t.canonical),
            ("keys", "keys", t.keys),
            (
                "merged",
                "canonical URLs merged into another's key",
                t.merged,
            ),
            (
                "untracked",
                "canonical URLs past --max-keys, not tracked",
                t.untracked,
            ),
        ],
        "merges per class (riskiest first) and per rule",
        &bars,
        "groups: one key, different canonical URLs (riskiest first, then largest)",
        &groups,
    )
}

fn json_report(a: &Audit) -> String {
    let t = &a.tally;
    let mut s = String::new();
    let _ = write!(
        s,
        "{{\"inputs\":{},\"invalid\":{},\"canonical\":{},\"keys\":{},\"merged\":{},\"untracked\":{},\"rules\":",
        t.inputs, t.invalid, t.canonical, t.keys, t.merged, t.untracked
    );
    json_string(&mut s, Some(&a.ctx.spec));
    s.push_str(",\"by_rule\":{");
    for (k, n) in t.by_step.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        json_string(&mut s, Some(step_name(a, k)));
        let _ = write!(s, ":{n}");
    }
    s.push_str("},\"classes\":[");
    for (k, c) in Class::ALL.into_iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        s.push_str("{\"class\":");
        json_string(&mut s, Some(c.name()));
        s.push_str(",\"risk\":");
        json_string(&mut s, Some(c.risk().name()));
        let _ = write!(s, ",\"merges\":{}}}", t.by_class[c as usize]);
    }
    let _ = write!(s, "],\"ungrouped\":{},\"groups\":[", t.ungrouped);
    for (k, g) in a.ranked().into_iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        s.push_str("{\"class\":");
        json_string(&mut s, Some(g.top().name()));
        s.push_str(",\"key\":");
        json_string(&mut s, Some(&g.key));
        let _ = write!(s, ",\"canonical\":{},\"examples\":[", g.merged + 1);
        for (j, e) in g.examples.iter().enumerate() {
            if j > 0 {
                s.push(',');
            }
            json_string(&mut s, Some(e));
        }
        s.push_str("]}");
    }
    s.push_str("]}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class_of(spec: &str, a: &str, b: &str) -> Class {
        let steps = steps(spec).unwrap();
        let r = wurl::Rules::parse(spec).unwrap();
        assert_eq!(r.apply(a), r.apply(b), "{a} {b}: one key");
        // The steps one at a time give the key of the rules together.
        for u in [a, b] {
            let t = trail(u, &steps, wurl::Model::Canon2012);
            assert_eq!(t.last().unwrap(), &r.apply(u), "{u}");
        }
        classify(a, b, &steps, wurl::Model::Canon2012).1
    }

    #[test]
    fn tokens_and_content_ids() {
        assert!(is_token("0123456789abcdef0123456789abcdef"));
        assert!(is_token("A1B2C3D4E5F6G7H8"));
        assert!(!is_token("00/11/23/1616201"));
        assert!(!is_token("15733"));
        assert!(!is_token("abcdefghijklmnopq"));
    }

    /// Each class on the committed table (cli/tests/data/audit-classes.tsv).
    #[test]
    fn classes_of_the_table() {
        let table = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/audit-classes.tsv"
        ))
        .unwrap();
        let mut seen = HashSet::new();
        for line in table
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let f: Vec<&str> = line.split('\t').collect();
            let [class, spec, a, b] = f[..] else {
                panic!("{line:?}: four fields")
            };
            assert_eq!(class_of(spec, a, b).name(), class, "{line:?}");
            seen.insert(class.to_owned());
        }
        // `Other` is for a rule this audit does not know: none yet.
        for c in Class::ALL.into_iter().filter(|c| *c != Class::Other) {
            assert!(seen.contains(c.name()), "{} has a row", c.name());
        }
    }

    #[test]
    fn steps_follow_the_rules_order() {
        let s = steps("drop-fragment,strip-www").unwrap();
        let names: Vec<&str> = s.iter().map(|s| s.name).collect();
        assert_eq!(names, ["strip-www", "drop-fragment"]);
    }
}
