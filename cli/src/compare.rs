//! `wurl compare`: each input canonicalized by both models (the 2012
//! algorithm and the URL Standard), and where they differ, why, in
//! classes (the first class that explains a difference, in the order of
//! [`Class::ALL`]), with a few examples per class.
//!
//! One pass over the input, streaming: per line, the two canonicalizations,
//! a string comparison, and for the lines that differ, the classification
//! (a parse of each result into components).

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Instant;

use crate::format::json_string;
use crate::input::{Bases, Source, shown_len};
use crate::output::{Diag, Output};

/// Why the two models' results for one input differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// The 2012 model finds the URL invalid, the URL Standard does not.
    Invalid2012Only,
    /// The URL Standard finds the URL invalid, the 2012 model does not.
    InvalidStandardOnly,
    /// A `file:` URL (either result), whose forms the models write apart.
    File,
    /// Another scheme or port.
    SchemePort,
    /// The host differs, and one of them, or the input, is international:
    /// IDNA 2003 (Nameprep) against UTS #46.
    HostIdna,
    /// The host differs, and one of them is an IPv4 or IPv6 address.
    HostIp,
    /// Another ASCII host, not an address: characters one model escapes
    /// and the other keeps (`"`), or removes.
    HostOther,
    /// The paths are the same once percent-decoded: another encode set
    /// (or octets one model decodes).
    PathPercentEncoding,
    /// The path differs otherwise, and the input holds a backslash.
    PathBackslash,
    /// The path differs otherwise, and the input holds a dot segment (`.`,
    /// `..`, `%2e` ...).
    PathDotSegments,
    /// The query differs (encode set, or the charset's encoding).
    QueryEncoding,
    /// The fragment differs.
    Fragment,
    /// Anything else (user-info, another path).
    Other,
}

impl Class {
    /// Every class, in the order they are tried.
    pub const ALL: [Class; 13] = [
        Class::Invalid2012Only,
        Class::InvalidStandardOnly,
        Class::File,
        Class::SchemePort,
        Class::HostIdna,
        Class::HostIp,
        Class::HostOther,
        Class::PathPercentEncoding,
        Class::PathBackslash,
        Class::PathDotSegments,
        Class::QueryEncoding,
        Class::Fragment,
        Class::Other,
    ];

    /// The name in the table, the JSON and `--show-all`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Invalid2012Only => "invalid-2012-only",
            Class::InvalidStandardOnly => "invalid-url-standard-only",
            Class::File => "file",
            Class::SchemePort => "scheme-port",
            Class::HostIdna => "host-idna",
            Class::HostIp => "host-ip",
            Class::HostOther => "host-other",
            Class::PathBackslash => "path-backslash",
            Class::PathDotSegments => "path-dot-segments",
            Class::PathPercentEncoding => "path-percent-encoding",
            Class::QueryEncoding => "query-encoding",
            Class::Fragment => "fragment",
            Class::Other => "other",
        }
    }

    /// A short description, for the table.
    pub fn description(self) -> &'static str {
        match self {
            Class::Invalid2012Only => "invalid in the 2012 model only",
            Class::InvalidStandardOnly => "invalid in the URL Standard only",
            Class::File => "file: URL",
            Class::SchemePort => "scheme or port",
            Class::HostIdna => "host: IDNA 2003 vs UTS #46",
            Class::HostIp => "host: IPv4/IPv6 address forms",
            Class::HostOther => "host: other (ASCII characters escaped or kept)",
            Class::PathBackslash => "path: backslash",
            Class::PathDotSegments => "path: dot segments",
            Class::PathPercentEncoding => "path: percent-encoding sets",
            Class::QueryEncoding => "query encoding",
            Class::Fragment => "fragment",
            Class::Other => "other",
        }
    }
}

/// Whether `s` holds a dot segment before its query: a segment, between
/// `/` or `\\`, that is `.` or `..` with any dot written `%2e`. Only
/// segments short enough to be one are looked at (no copy of a long one).
fn has_dot_segment(s: &str) -> bool {
    let end = s.find(['?', '#']).unwrap_or(s.len());
    s[..end].split(['/', '\\']).any(|seg| {
        seg.len() <= 6 && {
            let seg = seg.to_ascii_lowercase().replace("%2e", ".");
            seg == "." || seg == ".."
        }
    })
}

/// The octets of `s` percent-decoded, one at a time (a path can be as long
/// as the input: it is compared without a decoded copy).
fn percent_decoded(s: &str) -> impl Iterator<Item = u8> + '_ {
    let b = s.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        let c = *b.get(i)?;
        if c == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            i += 3;
            return Some(h * 16 + l);
        }
        i += 1;
        Some(c)
    })
}

fn hex(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

/// Whether `host` is an IPv4 address in dotted-decimal form or an IPv6
/// literal.
fn is_ip(host: &str) -> bool {
    host.starts_with('[')
        || (!host.is_empty()
            && host.split('.').count() == 4
            && host
                .split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit())))
}

/// A value a [`Side`] keeps: whole when at most its limit long (compared
/// exactly), else its length and a 128-bit digest, so that a result as long
/// as a huge input need not stay in memory beside the other result. Values
/// are compared by digest only when they are longer than the limit; two
/// different values of the same length with the same 128-bit digest are
/// not a practical concern for a report.
#[derive(Debug, PartialEq, Eq)]
enum Value {
    Whole(Vec<u8>),
    Digest(u64, u64, u64),
}

impl Value {
    /// `bytes` (`len` of them, as an iterator so that a decoded path needs
    /// no copy) kept whole up to `limit`.
    fn of(len: usize, bytes: impl Iterator<Item = u8>, limit: usize) -> Value {
        if len <= limit {
            return Value::Whole(bytes.collect());
        }
        use std::hash::{DefaultHasher, Hasher};
        // Two hashers with different keys (a prefix octet) give 128 bits.
        let (mut a, mut b) = (DefaultHasher::new(), DefaultHasher::new());
        b.write_u8(1);
        let mut buf = [0u8; 4096];
        let mut n = 0;
        for c in bytes {
            buf[n] = c;
            n += 1;
            if n == buf.len() {
                a.write(&buf);
                b.write(&buf);
                n = 0;
            }
        }
        a.write(&buf[..n]);
        b.write(&buf[..n]);
        Value::Digest(len as u64, a.finish(), b.finish())
    }

    fn of_str(s: Option<&str>, limit: usize) -> Option<Value> {
        s.map(|s| Value::of(s.len(), s.bytes(), limit))
    }
}

/// What the classification needs of one result: its components as the
/// 2012 parser splits it, and a few facts about them.
#[derive(Debug)]
struct Side {
    /// The whole result (`None`: invalid).
    url: Option<Value>,
    file: bool,
    scheme: Option<Value>,
    port: Option<Value>,
    host: Option<Value>,
    /// The host is international (non-ASCII, or an `xn--` label).
    host_intl: bool,
    host_ip: bool,
    user: Option<Value>,
    password: Option<Value>,
    path: Option<Value>,
    /// The path percent-decoded.
    path_decoded: Option<Value>,
    query: Option<Value>,
    fragment: Option<Value>,
}

impl Side {
    /// The summary of `result` (`None`: invalid), values kept whole up to
    /// `limit` bytes.
    fn of(result: Option<&str>, limit: usize) -> Side {
        let url = result.map(wurl::parse);
        let get = |c: wurl::Component| url.as_ref().and_then(|u| u.get(c));
        let val = |c| Value::of_str(get(c), limit);
        let host = get(wurl::Component::Host);
        let path = get(wurl::Component::Path);
        Side {
            url: Value::of_str(result, limit),
            file: get(wurl::Component::Scheme).is_some_and(|s| s.eq_ignore_ascii_case("file")),
            scheme: val(wurl::Component::Scheme),
            port: val(wurl::Component::Port),
            host: val(wurl::Component::Host),
            host_intl: host.is_some_and(|h| !h.is_ascii() || h.contains("xn--")),
            host_ip: host.is_some_and(is_ip),
            user: val(wurl::Component::User),
            password: val(wurl::Component::Password),
            path: val(wurl::Component::Path),
            path_decoded: path
                .map(|p| Value::of(percent_decoded(p).count(), percent_decoded(p), limit)),
            query: val(wurl::Component::Query),
            fragment: val(wurl::Component::Fragment),
        }
    }
}

/// What the classification needs of the input and its base.
struct InputFacts {
    /// The input or its base is not ASCII.
    non_ascii: bool,
    backslash: bool,
    dot_segment: bool,
}

impl InputFacts {
    fn of(base: Option<&str>, input: &str) -> InputFacts {
        let either = |f: &dyn Fn(&str) -> bool| f(input) || base.is_some_and(f);
        InputFacts {
            non_ascii: !input.is_ascii() || !base.is_none_or(str::is_ascii),
            backslash: either(&|s| s.contains('\\')),
            dot_segment: either(&has_dot_segment),
        }
    }
}

/// The class of a difference between `old` (the 2012 result) and `new`
/// (the URL Standard's) for `input` (the reference) against `base`;
/// `None` when they agree (both the same URL, or both invalid).
pub fn classify(
    base: Option<&str>,
    input: &str,
    old: Option<&str>,
    new: Option<&str>,
) -> Option<Class> {
    match (old, new) {
        (None, None) => None,
        (Some(a), Some(b)) if a == b => None,
        _ => classify_sides(
            &InputFacts::of(base, input),
            &Side::of(old, usize::MAX),
            &Side::of(new, usize::MAX),
        ),
    }
}

/// [`classify`] on the summaries of the two results.
fn classify_sides(facts: &InputFacts, o: &Side, n: &Side) -> Option<Class> {
    match (&o.url, &n.url) {
        (None, None) => return None,
        (Some(a), Some(b)) if a == b => return None,
        (None, Some(_)) => return Some(Class::Invalid2012Only),
        (Some(_), None) => return Some(Class::InvalidStandardOnly),
        (Some(_), Some(_)) => {}
    }
    if o.file || n.file {
        return Some(Class::File);
    }
    if o.scheme != n.scheme || o.port != n.port {
        return Some(Class::SchemePort);
    }
    if o.host != n.host {
        if o.host.is_none() || n.host.is_none() {
            // An authority in one model only (`http:a`).
            return Some(Class::Other);
        }
        if o.host_intl || n.host_intl || facts.non_ascii {
            return Some(Class::HostIdna);
        }
        if o.host_ip || n.host_ip {
            return Some(Class::HostIp);
        }
        return Some(Class::HostOther);
    }
    if o.user != n.user || o.password != n.password {
        return Some(Class::Other);
    }
    if o.path != n.path {
        if o.path_decoded == n.path_decoded {
            return Some(Class::PathPercentEncoding);
        }
        if facts.backslash {
            return Some(Class::PathBackslash);
        }
        if facts.dot_segment {
            return Some(Class::PathDotSegments);
        }
        return Some(Class::Other);
    }
    if o.query != n.query {
        return Some(Class::QueryEncoding);
    }
    if o.fragment != n.fragment {
        return Some(Class::Fragment);
    }
    Some(Class::Other)
}

/// A URL Standard result longer than this is summarized as soon as it is
/// made (see [`CompareCtx::compare`]); shorter ones, nearly all, are
/// compared whole.
const BIG_RESULT: usize = 64 * 1024;

/// What `compare` is asked for.
pub struct CompareCtx {
    /// `--base`, as given.
    pub base: Option<String>,
    /// `--pairs`.
    pub pairs: bool,
    /// `--charset` as given (the URL Standard model reads the label itself).
    pub charset: Option<String>,
    /// The 2012 model's options: `--charset` resolved once.
    pub opts: wurl::ResolvedOptions,
    /// `-f json`.
    pub json: bool,
    /// `-f html`.
    pub html: bool,
    /// `--show-all`.
    pub show_all: bool,
    /// Examples kept per class.
    pub examples: usize,
}

/// One example of a class, each value kept cut as messages cut values
/// (its first [`QUOTE_MAX`](crate::input::QUOTE_MAX) bytes, then `…`): a few huge lines must not make the
/// summary, or the memory that holds it until the end, huge (`--show-all`
/// prints the whole lines as they go).
struct Example {
    base: Option<String>,
    input: String,
    old: Option<String>,
    new: Option<String>,
    /// Some value was cut.
    cut: bool,
}

impl Example {
    /// The example of `p`; `new_cut`: its URL Standard result is already
    /// only the first bytes of a longer one.
    fn of(p: &Pair, new_cut: bool) -> Example {
        let mut cut = false;
        let mut keep = |v: &str, was_cut: bool| {
            let n = shown_len(v.as_bytes());
            if n < v.len() || was_cut {
                cut = true;
                format!("{}…", &v[..n])
            } else {
                v.to_owned()
            }
        };
        Example {
            base: p.base.map(|v| keep(v, false)),
            input: keep(p.input, false),
            old: p.old.map(|v| keep(v, false)),
            new: p.new.map(|v| keep(v, new_cut)),
            cut,
        }
    }
}

/// The counts of a run.
#[derive(Default)]
struct Tally {
    inputs: u64,
    same: u64,
    both_invalid: u64,
    counts: [u64; Class::ALL.len()],
    examples: Vec<Vec<Example>>,
}

/// The two results of one input.
struct Pair<'a> {
    base: Option<&'a str>,
    input: &'a str,
    old: Option<&'a str>,
    new: Option<&'a str>,
}

impl CompareCtx {
    /// Canonicalizes `input` against `base` with both models, into `old`
    /// and `new`, and classifies the difference: (2012 valid, URL Standard
    /// valid, the class, `new` holds only the first bytes of its result).
    ///
    /// The URL Standard's result is made first. When it is longer than
    /// [`BIG_RESULT`] (and not `--show-all`, which prints it whole), it is
    /// summarized ([`Side`]) and released before the 2012 result is made,
    /// keeping only what an example shows: the input and the two results
    /// of a huge line never add up with the parsers' own copies, so memory
    /// stays within about 3 times the input.
    fn compare(
        &self,
        base: Option<&str>,
        base_2012: Option<&wurl::Url>,
        input: &str,
        old: &mut String,
        new: &mut String,
    ) -> (bool, bool, Option<Class>, bool) {
        old.clear();
        new.clear();
        let b = wurl::canon_standard_into(base, input, self.charset.as_deref(), new).is_ok();
        let big = !self.show_all && new.len() > BIG_RESULT;
        let new_side = big.then(|| Side::of(b.then_some(new.as_str()), BIG_RESULT));
        if big {
            *new = new[..shown_len(new.as_bytes())].to_owned();
        }
        let a = wurl::canon_into_resolved(base_2012, input, &self.opts, old).is_ok();
        let class = match new_side {
            None => classify(base, input, a.then_some(old), b.then_some(new)),
            Some(n) => classify_sides(
                &InputFacts::of(base, input),
                &Side::of(a.then_some(old.as_str()), BIG_RESULT),
                &n,
            ),
        };
        (a, b, class, big)
    }

    /// Writes one `--show-all` line.
    fn show(&self, out: &mut String, class: Class, p: &Pair) {
        if self.json {
            out.push_str("{\"class\":");
            json_string(out, Some(class.name()));
            if self.pairs || self.base.is_some() {
                out.push_str(",\"base\":");
                json_string(out, p.base);
            }
            out.push_str(",\"input\":");
            json_string(out, Some(p.input));
            out.push_str(",\"2012\":");
            json_string(out, p.old);
            out.push_str(",\"url_standard\":");
            json_string(out, p.new);
            out.push_str("}\n");
        } else {
            let field = |out: &mut String, v: Option<&str>| {
                out.push('\t');
                out.push_str(&v.unwrap_or("(invalid)").replace(['\t', '\n', '\r'], " "));
            };
            out.push_str(class.name());
            if self.pairs {
                field(out, p.base);
            }
            field(out, Some(p.input));
            field(out, p.old);
            field(out, p.new);
            out.push('\n');
        }
    }
}

/// Runs `compare` over `source`, the results to `out`, messages and the
/// progress bar to `diag`. Returns the exit status.
pub fn run(ctx: &CompareCtx, mut source: Source, progress: bool, diag: &Arc<Diag>) -> u8 {
    let start = Instant::now();
    let bar = crate::pipeline::progress_for(&source, progress, diag);
    let mut out = Output::stdout(b'\n');
    let mut tally = Tally {
        examples: (0..Class::ALL.len()).map(|_| Vec::new()).collect(),
        ..Tally::default()
    };
    let mut bases = Bases::new(ctx.pairs, ctx.base.as_deref());
    let (mut old, mut new) = (String::new(), String::new());
    let mut text = String::new();
    let result = source.each_chunk(bar, |chunk| {
        text.clear();
        for line in &chunk.lines {
            tally.inputs += 1;
            let Some(r) = bases.record(chunk.bytes_of(line)) else {
                // A record without a TAB: invalid in both models.
                tally.both_invalid += 1;
                continue;
            };
            let (a, b, class, new_cut) =
                ctx.compare(r.base.as_deref(), r.base_2012, &r.input, &mut old, &mut new);
            let p = Pair {
                base: r.base.as_deref(),
                input: &r.input,
                old: a.then_some(old.as_str()),
                new: b.then_some(new.as_str()),
            };
            match class {
                None if a => tally.same += 1,
                None => tally.both_invalid += 1,
                Some(class) => {
                    let i = class as usize;
                    tally.counts[i] += 1;
                    if tally.examples[i].len() < ctx.examples {
                        tally.examples[i].push(Example::of(&p, new_cut));
                    }
                    if ctx.show_all {
                        ctx.show(&mut text, class, &p);
                    }
                }
            }
        }
        if !text.is_empty() {
            out.push(text.as_bytes()).map_err(|e| e.to_string())?;
        }
        Ok(())
    });
    if let Err(e) = result {
        let _ = out.flush();
        diag.write(&format!("wurl: {e}\n"));
        return crate::EXIT_ERROR;
    }
    let summary = if ctx.json {
        json_summary(ctx, &tally)
    } else if ctx.html {
        html_summary(ctx, &tally)
    } else {
        text_summary(ctx, &tally, start.elapsed().as_secs_f64())
    };
    match out.push(summary.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => crate::EXIT_OK,
        Err(e) => {
            diag.write(&format!("wurl: {e}\n"));
            crate::EXIT_ERROR
        }
    }
}

/// The number of inputs that differ.
fn differ(t: &Tally) -> u64 {
    t.counts.iter().sum()
}

fn share(n: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

/// One line of a table cell: `s` cut to `max` characters.
fn cut(s: &str, max: usize) -> String {
    let one = s.replace(['\t', '\n', '\r'], " ");
    if one.chars().count() <= max {
        one
    } else {
        let mut c: String = one.chars().take(max - 1).collect();
        c.push('…');
        c
    }
}

fn text_summary(ctx: &CompareCtx, t: &Tally, secs: f64) -> String {
    let d = differ(t);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} inputs: {} the same in both models, {} invalid in both, {} differ ({:.2}%)  [{:.2} s]",
        t.inputs,
        t.same,
        t.both_invalid,
        d,
        share(d, t.inputs),
        secs
    );
    let _ = writeln!(
        s,
        "\n{:<26} {:>10} {:>8}  what",
        "class", "count", "% input"
    );
    for c in Class::ALL {
        let n = t.counts[c as usize];
        let _ = writeln!(
            s,
            "{:<26} {:>10} {:>7.2}%  {}",
            c.name(),
            n,
            share(n, t.inputs),
            c.description()
        );
    }
    if ctx.examples > 0 && d > 0 {
        s.push_str("\nExamples (input => 2012 | url-standard):\n");
        for c in Class::ALL {
            let ex = &t.examples[c as usize];
            if ex.is_empty() {
                continue;
            }
            let _ = writeln!(s, "  {}:", c.name());
            for e in ex {
                let r = |v: &Option<String>| cut(v.as_deref().unwrap_or("(invalid)"), 70);
                match &e.base {
                    Some(b) if ctx.pairs => {
                        let _ = writeln!(s, "    {} + {}", cut(b, 60), cut(&e.input, 70));
                    }
                    _ => {
                        let _ = writeln!(s, "    {}", cut(&e.input, 100));
                    }
                }
                let _ = writeln!(s, "      2012:         {}", r(&e.old));
                let _ = writeln!(s, "      url-standard: {}", r(&e.new));
            }
        }
    }
    s
}

fn html_summary(ctx: &CompareCtx, t: &Tally) -> String {
    use crate::html::{Bar, Group, page};
    let bars: Vec<Bar> = Class::ALL
        .into_iter()
        .map(|c| Bar {
            label: c.name(),
            note: c.description(),
            count: t.counts[c as usize],
            colour: "#4a78b5",
        })
        .collect();
    let groups: Vec<Group> = Class::ALL
        .into_iter()
        .filter(|c| !t.examples[*c as usize].is_empty())
        .flat_map(|c| {
            t.examples[c as usize].iter().map(move |e| {
                let r = |v: &Option<String>| v.clone().unwrap_or_else(|| "(invalid)".into());
                let mut lines = Vec::new();
                if let Some(b) = e.base.as_ref().filter(|_| ctx.pairs || ctx.base.is_some()) {
                    lines.push(format!("base:         {b}"));
                }
                lines.push(format!("2012:         {}", r(&e.old)));
                lines.push(format!("url-standard: {}", r(&e.new)));
                Group {
                    class: c.name(),
                    heading: e.input.clone(),
                    count: t.counts[c as usize],
                    lines,
                }
            })
        })
        .collect();
    page(
        "wurl compare: the 2012 model against the URL Standard",
        &[
            ("inputs", "inputs", t.inputs),
            ("same", "the same in both models", t.same),
            ("both_invalid", "invalid in both", t.both_invalid),
            ("differ", "differ", differ(t)),
        ],
        "differences per class",
        &bars,
        "examples (input, then both results)",
        &groups,
    )
}

fn json_summary(ctx: &CompareCtx, t: &Tally) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "{{\"inputs\":{},\"same\":{},\"both_invalid\":{},\"differ\":{},\"classes\":[",
        t.inputs,
        t.same,
        t.both_invalid,
        differ(t)
    );
    for (k, c) in Class::ALL.into_iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        s.push_str("{\"class\":");
        json_string(&mut s, Some(c.name()));
        s.push_str(",\"description\":");
        json_string(&mut s, Some(c.description()));
        let _ = write!(s, ",\"count\":{},\"examples\":[", t.counts[c as usize]);
        for (j, e) in t.examples[c as usize].iter().enumerate() {
            if j > 0 {
                s.push(',');
            }
            s.push('{');
            if ctx.pairs || ctx.base.is_some() {
                s.push_str("\"base\":");
                json_string(&mut s, e.base.as_deref());
                s.push(',');
            }
            s.push_str("\"input\":");
            json_string(&mut s, Some(&e.input));
            s.push_str(",\"2012\":");
            json_string(&mut s, e.old.as_deref());
            s.push_str(",\"url_standard\":");
            json_string(&mut s, e.new.as_deref());
            let _ = write!(s, ",\"cut\":{}}}", e.cut);
        }
        s.push_str("]}");
    }
    s.push_str("]}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments_and_decoding() {
        assert!(has_dot_segment("http://a/b/%2E%2e/c"));
        assert!(has_dot_segment("http://a/b\\..\\c"));
        assert!(!has_dot_segment("http://a/b/c?x=/../"));
        assert_eq!(
            percent_decoded("a%7Bb%zz%4").collect::<Vec<_>>(),
            b"a{b%zz%4"
        );
        // Every escape of a 3-character tail decodes; `%4` at the end does not.
        assert_eq!(percent_decoded("%41%4").collect::<Vec<_>>(), b"A%4");
        assert!(is_ip("1.2.3.4") && is_ip("[::1]") && !is_ip("1.2.3") && !is_ip("a.b.c.d"));
    }

    #[test]
    fn digests_classify_as_whole_values_do() {
        // Every value summarized as a digest (limit 0) gives the class the
        // whole values give, on the committed table of every class.
        let table = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/compare-classes.tsv"
        ))
        .unwrap();
        let mut classes = 0;
        for line in table
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let (_, input) = line.split_once('\t').unwrap();
            let (mut old, mut new) = (String::new(), String::new());
            let a = wurl::canon_into(None, input, &Default::default(), &mut old).is_ok();
            let b = wurl::canon_standard_into(None, input, None, &mut new).is_ok();
            let (old, new) = (a.then_some(old.as_str()), b.then_some(new.as_str()));
            let whole = classify(None, input, old, new);
            let digested = classify_sides(
                &InputFacts::of(None, input),
                &Side::of(old, 0),
                &Side::of(new, 0),
            );
            assert_eq!(whole, digested, "{input:?}");
            classes += usize::from(whole.is_some());
        }
        assert!(classes >= Class::ALL.len(), "{classes} differing rows");
    }

    #[test]
    fn agreeing_results_have_no_class() {
        assert_eq!(
            classify(None, "x", Some("http://a/"), Some("http://a/")),
            None
        );
        assert_eq!(classify(None, "x", None, None), None);
    }
}
