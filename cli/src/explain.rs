//! `wurl explain`: why a URL has its key. The steps come from the library's trace
//! ([`wurl::explain()`]): the stages that compute the key report each change as they make it, so
//! this module only formats them. With two URLs (two arguments, or `URL1<TAB>URL2` lines with
//! `--pairs`): whether they share a key, else the first component where their keys part.

use std::fmt::Write as _;
use std::io;
use std::sync::Arc;

use wurl::{Comparison, ExplainOptions, Stage, Trace};

use crate::format::json_string;
use crate::input::{Chunk, Source, bytes_to_string, cut_value};
use crate::output::{Diag, Output};

/// What `wurl explain` was asked.
pub struct ExplainCtx {
    pub base: Option<String>,
    pub pairs: bool,
    pub charset: Option<String>,
    pub strict: bool,
    pub model: wurl::Model,
    pub rules: Option<wurl::Rules>,
    pub json: bool,
}

impl ExplainCtx {
    fn explain(&self, input: &str) -> Trace {
        let opts = ExplainOptions {
            base: self.base.as_deref(),
            canon: wurl::CanonOptions {
                charset: self.charset.as_deref(),
                network_strict: self.strict,
            },
            model: self.model,
            rules: self.rules.as_ref(),
        };
        wurl::explain(input, &opts)
    }
}

/// Explains each input of `source`: every argument together (one URL or two), or each line (a
/// pair with `--pairs` when it holds a TAB). Returns the exit status: 1 when a URL is invalid.
pub fn run(ctx: &ExplainCtx, mut source: Source, diag: &Arc<Diag>) -> u8 {
    let mut out = Output::stdout(b'\n');
    // Set by `emit` and by the line loop.
    let invalid = std::cell::Cell::new(false);
    let mut report = String::new();
    let mut emit = |urls: &[String], out: &mut Output| -> Result<(), String> {
        let traces: Vec<Trace> = urls.iter().map(|u| ctx.explain(u)).collect();
        for (k, t) in traces.iter().enumerate() {
            if let Err(why) = &t.canonical {
                invalid.set(true);
                diag.write(&format!(
                    "wurl: URL {} is invalid ({why}): {}\n",
                    k + 1,
                    crate::input::quote_value(&t.input)
                ));
            }
        }
        let cmp = (traces.len() == 2).then(|| wurl::compare(&traces[0], &traces[1]));
        report.clear();
        if ctx.json {
            json_report(&traces, cmp.as_ref(), &mut report);
        } else {
            text_report(&traces, cmp.as_ref(), &mut report);
        }
        out.push(report.as_bytes()).map_err(|e| e.to_string())
    };
    let mut chunk = Chunk::default();
    let result: Result<(), String> = (|| {
        if source.is_args() {
            // The arguments are one explanation: one URL, or two to compare.
            let mut urls = Vec::new();
            while source
                .next_chunk(&mut chunk)
                .map_err(|e: io::Error| format!("reading input: {e}"))?
            {
                for line in &chunk.lines {
                    urls.push(bytes_to_string(chunk.bytes_of(line)).into_owned());
                }
            }
            if urls.len() > 2 {
                return Err(format!(
                    "explain takes one URL, or two to compare; {} were given (--pairs reads URL1<TAB>URL2 lines)",
                    urls.len()
                ));
            }
            return emit(&urls, &mut out);
        }
        while source
            .next_chunk(&mut chunk)
            .map_err(|e: io::Error| format!("reading input: {e}"))?
        {
            for line in &chunk.lines {
                let bytes = chunk.bytes_of(line);
                // Only its first bytes were kept: it is invalid, as for every command.
                if line.too_long {
                    invalid.set(true);
                    diag.write(&format!(
                        "wurl: {}: {}\n",
                        crate::pipeline::TOO_LONG,
                        crate::input::quote(bytes, line.len)
                    ));
                    continue;
                }
                let urls: Vec<String> = match memchr::memchr(b'\t', bytes).filter(|_| ctx.pairs) {
                    Some(t) => vec![
                        bytes_to_string(&bytes[..t]).into_owned(),
                        bytes_to_string(&bytes[t + 1..]).into_owned(),
                    ],
                    None => vec![bytes_to_string(bytes).into_owned()],
                };
                emit(&urls, &mut out)?;
            }
            if chunk.flush {
                out.flush().map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    })();
    let flushed = out.flush().map_err(|e| e.to_string());
    if let Err(e) = result.and(flushed) {
        diag.write(&format!("wurl: {e}\n"));
        return crate::EXIT_ERROR;
    }
    if invalid.get() {
        crate::EXIT_INVALID
    } else {
        crate::EXIT_OK
    }
}

/// A value as the text report shows it: quoted (cut when long), or `(absent)`.
fn shown(v: Option<&str>) -> String {
    match v {
        Some(v) => format!("{:?}", cut_value(v)),
        None => "(absent)".to_owned(),
    }
}

/// The stage's label in the text report.
fn label(s: Stage) -> &'static str {
    match s {
        Stage::Preprocess => "preprocess",
        Stage::Parse => "parsed",
        Stage::Resolve => "resolve",
        Stage::Rule => "rule",
        other => other.name(),
    }
}

fn text_trace(k: usize, n: usize, t: &Trace, s: &mut String) {
    let which = if n == 2 {
        format!("URL {}", k + 1)
    } else {
        "URL".to_owned()
    };
    let _ = writeln!(s, "{which}: {}", shown(Some(&t.input)));
    if let Some(b) = &t.base {
        let _ = writeln!(s, "  base        {}", shown(Some(b)));
    }
    if t.model == wurl::Model::UrlStandard {
        let _ = writeln!(
            s,
            "  model       url-standard: the url crate's parser and serializer (its steps are not observed)"
        );
    }
    let step = |st: &wurl::Step, s: &mut String| {
        let _ = writeln!(s, "  {:<11} {}", label(st.stage), st.what);
        if st.before.is_some() || st.after.is_some() {
            let _ = writeln!(
                s,
                "  {:<11}   {} → {}",
                "",
                shown(st.before.as_deref()),
                shown(st.after.as_deref())
            );
        }
    };
    // Preprocessing, then the components as parsed on one line, then every other step.
    let (pre, rest): (Vec<_>, Vec<_>) =
        t.steps.iter().partition(|st| st.stage == Stage::Preprocess);
    for st in &pre {
        step(st, s);
    }
    let parsed: Vec<String> = rest
        .iter()
        .filter(|st| st.stage == Stage::Parse && st.after.is_some())
        .map(|st| format!("{} {}", st.what, shown(st.after.as_deref())))
        .collect();
    if !parsed.is_empty() {
        let _ = writeln!(s, "  {:<11} {}", "parsed", parsed.join("  "));
    }
    let others: Vec<_> = rest
        .into_iter()
        .filter(|st| !(st.stage == Stage::Parse && st.after.is_some()))
        .collect();
    // The canonical URL, then the rules' steps on it.
    let (rules, stages): (Vec<_>, Vec<_>) =
        others.into_iter().partition(|st| st.stage == Stage::Rule);
    for st in &stages {
        step(st, s);
    }
    match &t.canonical {
        Ok(c) => {
            if pre.is_empty() && stages.is_empty() && t.model == wurl::Model::Canon2012 {
                let _ = writeln!(s, "  {:<11} no step changed it", "");
            }
            let _ = writeln!(s, "  {:<11} {c}", "canonical");
        }
        Err(why) => {
            let _ = writeln!(s, "  {:<11} {why}", "invalid");
        }
    }
    for st in &rules {
        step(st, s);
    }
    if let (Some(key), Some(surt)) = (&t.key, &t.surt) {
        let _ = writeln!(s, "  {:<11} {key}", "key");
        let _ = writeln!(s, "  {:<11} {surt}", "SURT");
    }
}

/// The steps of `t` that changed it, as a short list (`scheme: lower case, ...`).
fn changes(t: &Trace) -> String {
    let list: Vec<String> = t
        .steps
        .iter()
        .filter(|st| st.stage != Stage::Parse)
        .map(|st| format!("{} {}", label(st.stage), st.what))
        .collect();
    if list.is_empty() {
        "none (already its key)".to_owned()
    } else {
        list.join("; ")
    }
}

fn text_report(traces: &[Trace], cmp: Option<&Comparison>, s: &mut String) {
    for (k, t) in traces.iter().enumerate() {
        if k > 0 {
            s.push('\n');
        }
        text_trace(k, traces.len(), t, s);
    }
    let Some(cmp) = cmp else {
        return;
    };
    s.push('\n');
    if cmp.same_key {
        let _ = writeln!(s, "Same key: {}", traces[0].key.as_deref().unwrap_or(""));
        for (k, t) in traces.iter().enumerate() {
            let _ = writeln!(s, "  URL {}: {}", k + 1, changes(t));
        }
    } else if let Some((comp, a, b)) = &cmp.parts_at {
        let _ = writeln!(s, "Different keys: they part at the {comp}");
        let _ = writeln!(s, "  URL 1 {}", shown(a.as_deref()));
        let _ = writeln!(s, "  URL 2 {}", shown(b.as_deref()));
    } else {
        let _ = writeln!(s, "Different keys: a URL is invalid");
    }
}

fn json_trace(t: &Trace, s: &mut String) {
    s.push_str("{\"input\":");
    json_string(s, Some(&t.input));
    s.push_str(",\"base\":");
    json_string(s, t.base.as_deref());
    s.push_str(",\"steps\":[");
    for (k, st) in t.steps.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        s.push_str("{\"stage\":");
        json_string(s, Some(st.stage.name()));
        s.push_str(",\"what\":");
        json_string(s, Some(&st.what));
        s.push_str(",\"before\":");
        json_string(s, st.before.as_deref());
        s.push_str(",\"after\":");
        json_string(s, st.after.as_deref());
        s.push('}');
    }
    s.push_str("],\"canonical\":");
    json_string(s, t.canonical.as_deref().ok());
    s.push_str(",\"invalid\":");
    json_string(s, t.canonical.as_ref().err().map(String::as_str));
    s.push_str(",\"key\":");
    json_string(s, t.key.as_deref());
    s.push_str(",\"surt\":");
    json_string(s, t.surt.as_deref());
    s.push('}');
}

/// One JSON object per explanation, on one line: `{"model", "urls": [trace...], "same_key",
/// "parts_at"}` (`same_key` and `parts_at` null for one URL).
fn json_report(traces: &[Trace], cmp: Option<&Comparison>, s: &mut String) {
    s.push_str("{\"model\":");
    json_string(s, traces.first().map(|t| t.model.name()));
    s.push_str(",\"urls\":[");
    for (k, t) in traces.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        json_trace(t, s);
    }
    s.push_str("],\"same_key\":");
    match cmp {
        Some(c) => s.push_str(if c.same_key { "true" } else { "false" }),
        None => s.push_str("null"),
    }
    s.push_str(",\"parts_at\":");
    match cmp.and_then(|c| c.parts_at.as_ref()) {
        Some((comp, a, b)) => {
            s.push_str("{\"component\":");
            json_string(s, Some(comp));
            s.push_str(",\"first\":");
            json_string(s, a.as_deref());
            s.push_str(",\"second\":");
            json_string(s, b.as_deref());
            s.push('}');
        }
        None => s.push_str("null"),
    }
    s.push_str("}\n");
}
