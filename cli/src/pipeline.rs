//! Processing: chunks of lines are read, processed (on the calling thread,
//! or on N worker threads) and written in input order.
//!
//! With N workers, a reader thread cuts the input into chunks, the workers
//! process them, and the calling thread writes the results in sequence. The
//! number of chunks in flight (read but not yet written) is bounded by a
//! pool of tokens, so memory stays constant whatever the input size.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use encoding_rs::Encoding;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use wurl::{InvalidReason, Url};

use crate::format;
use crate::get::{Template, Values};
use crate::input::{Chunk, MAX_INPUT_LEN, Source, bytes_to_string, quote};
use crate::output::{CheckedTerm, Diag, Output, OutputError};
use crate::{Format, InvalidPolicy};

/// The reason given for a line longer than [`MAX_INPUT_LEN`].
pub const TOO_LONG: &str = "input longer than 16 MiB";
/// The reason given, with `--strict-utf8`, for an input that is not valid
/// UTF-8.
pub const NOT_UTF8: &str = "not valid UTF-8";
/// The reason given for a `--pairs` record without a TAB.
pub const NO_TAB: &str = "no TAB: expected base<TAB>reference";
/// A UTF-8 byte order mark. Only the one at the very start of the input is
/// dropped (by the reader); one that starts a later line is kept, since
/// dropping it could change the output of a valid line, but an invalid
/// line's reason names it and `--stats` counts such lines.
const BOM: &[u8] = b"\xEF\xBB\xBF";
const _: () = assert!(MAX_INPUT_LEN == 16 << 20, "TOO_LONG names the limit");

/// Chunks in flight per worker.
const IN_FLIGHT_PER_WORKER: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Canon,
    Parse,
    Resolve,
}

/// What to do with each URL.
pub struct Ctx {
    pub mode: Mode,
    /// The parsed `--base`.
    pub base: Option<Url>,
    /// `--base` as given (the URL Standard model parses it itself).
    pub base_text: Option<String>,
    /// `--model`: which model canonicalizes (`canon` only).
    pub model: wurl::Model,
    /// `--charset` as given (the URL Standard model reads the label itself).
    pub charset: Option<String>,
    /// The 2012 model's options: `--charset` resolved once, and `--strict`.
    pub opts: wurl::ResolvedOptions,
    /// `--rules`, compiled.
    pub rules: Option<wurl::Rules>,
    /// `--format surt` (and `--surt-scheme`).
    pub surt: Option<wurl::surt::SurtOptions>,
    pub format: Format,
    pub invalid: InvalidPolicy,
    pub quiet: bool,
    /// Inputs are arguments (diagnostics say "argument N", not "line N").
    pub arg_numbers: bool,
    /// The output record terminator: `\n`, or NUL with `-z`.
    pub end: char,
    /// `--pairs`: each input is `base<TAB>reference`, the reference
    /// resolved against its own record's base (`base` is then `None`).
    pub pairs: bool,
    /// `--decode`: the inputs' encoding when it is not UTF-8.
    pub decode: Option<&'static Encoding>,
    /// `--strict-utf8`: an input that is not valid in its encoding is
    /// invalid (else its bad octets are read as U+FFFD).
    pub strict_utf8: bool,
    /// `--get`: the line of each input is this template's (`canon`, text
    /// format; `surt` then holds the SURT options of `{surt}`).
    pub get: Option<Template>,
}

/// Why an input is invalid: one of the library's reasons (static), or a
/// composed one ("base is invalid: …").
type Why = Cow<'static, str>;

impl Ctx {
    /// The input's text and whether it was malformed in the input encoding
    /// (UTF-8, or `--decode`'s): its bad octets are then U+FFFD, one per
    /// maximal malformed sequence, as the C ABI reads invalid UTF-8.
    fn decode<'a>(&self, bytes: &'a [u8]) -> (Cow<'a, str>, bool) {
        match self.decode {
            None => {
                // `from_utf8_lossy` borrows exactly when the input is valid.
                let text = bytes_to_string(bytes);
                let bad = matches!(text, Cow::Owned(_));
                (text, bad)
            }
            Some(enc) => enc.decode_without_bom_handling(bytes),
        }
    }

    /// The name of the input encoding, for messages.
    pub fn encoding_name(&self) -> &'static str {
        self.decode.map_or("UTF-8", Encoding::name)
    }

    /// How an input is quoted in a message: its decoded text (the first
    /// bytes only of one too long to be read).
    fn quote(&self, bytes: &[u8], len: u64) -> String {
        match self.decode {
            Some(enc) if len == bytes.len() as u64 => {
                let (text, _) = enc.decode_without_bom_handling(bytes);
                quote(text.as_bytes(), text.len() as u64)
            }
            _ => quote(bytes, len),
        }
    }

    /// The record of `input` for this mode, resolved against `base` (for
    /// `canon`, `None` means the input is its own base).
    fn record(&self, base: Option<&Url>, input: &str) -> Url {
        match self.mode {
            Mode::Parse => wurl::parse(input),
            Mode::Resolve => match base {
                Some(b) => wurl::resolve(b, input),
                None => wurl::resolve(&wurl::parse(input), input),
            },
            Mode::Canon => {
                let resolved = match base {
                    Some(b) => wurl::resolve(b, input),
                    None => wurl::resolve(&wurl::parse(input), input),
                };
                let canon = wurl::canonicalize_resolved(&resolved, &self.opts);
                // With --rules, the record of the ruled URL (which is
                // canonical, so parsing finds its components).
                match (&self.rules, canon.as_str()) {
                    (Some(r), Some(s)) => wurl::parse(&r.apply(s)),
                    _ => canon,
                }
            }
        }
    }

    /// The reason to report. Without a base each input is its own base,
    /// whose reason the library gives (`wurl::own_base_reason`).
    fn explain(&self, base: Option<&Url>, input: &str, why: InvalidReason) -> InvalidReason {
        if base.is_none() && self.mode == Mode::Canon {
            wurl::own_base_reason(input, why)
        } else {
            why
        }
    }

    /// What a diagnostic calls an input: "argument", "record" (`-z`) or
    /// "line".
    fn input_name(&self) -> &'static str {
        if self.arg_numbers {
            "argument"
        } else if self.end == '\0' {
            "record"
        } else {
            "line"
        }
    }

    /// Processes one input of the URL Standard model (`canon`, text or
    /// surt format): `input` resolved against the URL string `base`.
    fn one_standard(&self, out: &mut String, base: Option<&str>, input: &str) -> Result<(), Why> {
        if let Some(t) = &self.get {
            let mut canon = String::new();
            wurl::canon_standard_into(base, input, self.charset.as_deref(), &mut canon)
                .map_err(|why| Cow::Borrowed(why.as_str()))?;
            self.render_get(t, out, &canon);
            return Ok(());
        }
        let key = wurl::KeyOptions {
            rules: self.rules.as_ref(),
            surt: self.surt,
        };
        wurl::key_standard_into(base, input, self.charset.as_deref(), &key, out)
            .map_err(|why| Cow::Borrowed(why.as_str()))
    }

    /// Appends the `--get` line of the canonical URL `canon`: only the
    /// values the template names are made.
    fn render_get(&self, t: &Template, out: &mut String, canon: &str) {
        let (mut key, mut surt) = (String::new(), String::new());
        if t.needs_key() || t.needs_surt() {
            let ruled = wurl::KeyOptions {
                rules: self.rules.as_ref(),
                surt: None,
            };
            wurl::key_of_into(canon, &ruled, &mut key);
        }
        if t.needs_surt() {
            wurl::surt::surt_into(&key, &self.surt.unwrap_or_default(), &mut surt);
        }
        let parsed = t.needs_components().then(|| wurl::parse(canon));
        let values = Values {
            url: canon,
            parsed: parsed.as_ref(),
            key: &key,
            surt: &surt,
        };
        t.render(out, &values);
    }

    /// `why`, naming the byte order mark the input starts with (`bom`):
    /// the library's reason alone ("no scheme") does not say why a line that
    /// looks like a URL is not one.
    fn noted(&self, why: Why, bom: bool) -> Why {
        if bom {
            Cow::Owned(format!(
                "{why}; the {} starts with a byte order mark (U+FEFF, octets EF BB BF), as each file's first line does when files that have one are joined",
                self.input_name()
            ))
        } else {
            why
        }
    }

    /// An input that is invalid before it reaches the library (`why`):
    /// its `tsv`/`json` record (with `--invalid blank`), and the reason.
    fn refuse(
        &self,
        out: &mut String,
        base_col: Option<Option<&str>>,
        why: Why,
        bom: bool,
    ) -> Result<(), Why> {
        let why = self.noted(why, bom);
        if !matches!(self.format, Format::Text | Format::Surt)
            && self.invalid == InvalidPolicy::Blank
        {
            self.row(out, base_col, None, Some(&why));
        }
        Err(why)
    }

    /// Writes the `tsv` or `json` record of one input. `base` is the base
    /// column of `--pairs` (outer `None`: no such column; inner `None`: the
    /// base is absent).
    fn row(
        &self,
        out: &mut String,
        base: Option<Option<&str>>,
        url: Option<&Url>,
        why: Option<&str>,
    ) {
        match self.format {
            Format::Tsv => format::tsv_row(out, base, url, why, self.end),
            _ => format::json_row(out, base, url, why, self.end),
        }
    }

    /// Processes one input (`input`, resolved against `base`; `bom`: it
    /// starts with a byte order mark): appends its output (without the
    /// terminator, for `text`) to `out`.
    fn one(
        &self,
        out: &mut String,
        base: Option<&Url>,
        base_col: Option<Option<&str>>,
        input: &str,
        bom: bool,
    ) -> Result<(), Why> {
        if matches!(self.format, Format::Text | Format::Surt) {
            if let Some(t) = &self.get {
                let mut canon = String::new();
                wurl::canon_into_resolved(base, input, &self.opts, &mut canon).map_err(|why| {
                    self.noted(Cow::Borrowed(self.explain(base, input, why).as_str()), bom)
                })?;
                self.render_get(t, out, &canon);
                Ok(())
            } else if self.mode == Mode::Canon {
                let key = wurl::KeyOptions {
                    rules: self.rules.as_ref(),
                    surt: self.surt,
                };
                wurl::key_into_resolved(base, input, &self.opts, &key, out).map_err(|why| {
                    self.noted(Cow::Borrowed(self.explain(base, input, why).as_str()), bom)
                })
            } else {
                let u = self.record(base, input);
                if wurl::serialize::serialize_into(&u, out) {
                    Ok(())
                } else {
                    // An unserializable URL is invalid.
                    Err(self.noted(
                        Cow::Borrowed(
                            u.invalid_reason()
                                .map_or("invalid URL", InvalidReason::as_str),
                        ),
                        bom,
                    ))
                }
            }
        } else {
            let u = self.record(base, input);
            let why = u
                .invalid_reason()
                .map(|why| self.noted(Cow::Borrowed(self.explain(base, input, why).as_str()), bom));
            if why.is_none() || self.invalid == InvalidPolicy::Blank {
                self.row(out, base_col, Some(&u), why.as_deref());
            }
            why.map_or(Ok(()), Err)
        }
    }
}

/// The parsed base of `--pairs` records: consecutive records with the same
/// base (a page's links come together) parse it once.
#[derive(Default)]
struct BaseCache {
    /// The base's bytes as they were in the input.
    key: Vec<u8>,
    /// The parsed base; `None` before the first record.
    url: Option<Url>,
    /// The base's bytes were malformed in the input encoding.
    malformed: bool,
}

impl BaseCache {
    /// The parsed base of `bytes` (or why it is invalid), and whether its
    /// bytes were malformed in the input encoding.
    fn get(&mut self, ctx: &Ctx, bytes: &[u8]) -> (Result<&Url, Why>, bool) {
        if self.url.is_none() || self.key != bytes {
            self.key.clear();
            self.key.extend_from_slice(bytes);
            let (text, malformed) = ctx.decode(bytes);
            self.url = Some(wurl::parse(&text));
            self.malformed = malformed;
        }
        let url = match &self.url {
            Some(u) => match u.invalid_reason() {
                None => Ok(u),
                Some(why) => Err(Cow::Owned(format!("base is invalid: {}", why.as_str()))),
            },
            None => Err(Cow::Borrowed("internal error: no base")),
        };
        (url, self.malformed)
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    pub total: u64,
    /// Invalid inputs, too long ones included.
    pub invalid: u64,
    /// Inputs longer than [`MAX_INPUT_LEN`].
    pub too_long: u64,
    /// Inputs not valid in the input encoding (UTF-8 or `--decode`'s):
    /// invalid with `--strict-utf8`, else read with U+FFFD.
    pub malformed: u64,
    /// Bytes of the inputs (line ends excluded).
    pub bytes: u64,
    /// Inputs that start with a byte order mark (not the input's first
    /// line, whose mark the reader drops).
    pub bom: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.total += o.total;
        self.invalid += o.invalid;
        self.too_long += o.too_long;
        self.malformed += o.malformed;
        self.bytes += o.bytes;
        self.bom += o.bom;
    }
}

/// The result of a run.
pub struct Outcome {
    pub counts: Counts,
    pub elapsed: Duration,
    /// Complete output records written.
    pub records: u64,
    /// What stopped the run (input, output or internal error); `None` when
    /// it ran to the end or stopped at an invalid input (`--invalid fail`).
    pub error: Option<String>,
    /// Standard output failed: the output is incomplete.
    pub output_failed: bool,
    /// The input encoding's name and `--strict-utf8`, for the count of
    /// malformed inputs.
    pub encoding: &'static str,
    pub strict_utf8: bool,
}

impl Outcome {
    /// The `--stats` line.
    pub fn stats_line(&self) -> String {
        let c = &self.counts;
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        let mut s = format!(
            "wurl: {} URLs ({} valid, {} invalid",
            c.total,
            c.total - c.invalid,
            c.invalid
        );
        if c.too_long > 0 {
            let _ = write!(s, ", {} of them too long", c.too_long);
        }
        if c.malformed > 0 && self.strict_utf8 {
            let _ = write!(s, ", {} of them not valid {}", c.malformed, self.encoding);
        } else if c.malformed > 0 {
            let _ = write!(
                s,
                "; {} not valid {}, read with U+FFFD",
                c.malformed, self.encoding
            );
        }
        if c.bom > 0 {
            let _ = write!(s, "; {} started with a byte order mark", c.bom);
        }
        let _ = write!(
            s,
            ") in {:.3} s: {:.0} URLs/s, {:.1} MB/s; {} records written",
            secs,
            c.total as f64 / secs,
            c.bytes as f64 / secs / 1e6,
            self.records,
        );
        if self.output_failed {
            s.push_str(", output INCOMPLETE");
        }
        s.push('\n');
        s
    }
}

/// The processed form of a chunk.
#[derive(Debug, Default)]
struct Done {
    out: String,
    /// Diagnostics for standard error.
    diag: String,
    counts: Counts,
    /// `--invalid fail` met an invalid URL: stop after this chunk.
    failed: bool,
    /// Input bytes of the chunk, for the progress bar.
    input_bytes: u64,
    /// Flush the output after this chunk (the input had nothing more
    /// buffered: an interactive or slow producer is waiting for answers).
    flush: bool,
    /// The warnings for the chunk's first input of each [`Warning`] kind,
    /// each with where it goes in `diag`; the writer shows only the run's
    /// first of each kind.
    warnings: Vec<(usize, Warning, String)>,
}

/// A warning shown once a run, for the first input it concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Warning {
    /// An input holds a TAB (without `--pairs`).
    Tab,
    /// An input is not valid in its encoding (without `--strict-utf8`).
    Malformed,
}

impl Done {
    fn clear(&mut self) {
        self.out.clear();
        self.diag.clear();
        self.counts = Counts::default();
        self.failed = false;
        self.warnings.clear();
    }
}

/// The index of the first line of `chunk` that holds a TAB. Lines are
/// stored back to back in `chunk.data`, so one search over the data finds
/// it.
fn first_tab_line(chunk: &Chunk) -> Option<usize> {
    let p = memchr::memchr(b'\t', &chunk.data)?;
    let i = chunk.lines.partition_point(|l| l.end <= p);
    let l = chunk.lines.get(i)?;
    if l.start <= p {
        Some(i)
    } else {
        // In bytes that belong to no line (a byte order mark): look on.
        chunk.lines[i..]
            .iter()
            .position(|l| memchr::memchr(b'\t', chunk.bytes_of(l)).is_some())
            .map(|k| i + k)
    }
}

fn process_chunk(ctx: &Ctx, chunk: &Chunk, d: &mut Done) {
    d.input_bytes = chunk.bytes;
    d.flush = chunk.flush;
    let text = matches!(ctx.format, Format::Text | Format::Surt);
    // Without --pairs a TAB is removed by the algorithm's preprocessing, so
    // `page<TAB>link` silently becomes one wrong URL: say so (once per run;
    // the writer keeps the first).
    let tab_line = if ctx.pairs {
        None
    } else {
        first_tab_line(chunk)
    };
    let mut bases = BaseCache::default();
    // The chunk's malformed-input warning was written (the writer keeps
    // the run's first).
    let mut warned = false;
    for (i, line) in chunk.lines.iter().enumerate() {
        let bytes = chunk.bytes_of(line);
        let n = chunk.first_line + i as u64;
        if tab_line == Some(i) {
            let warning = format!(
                "wurl: warning: {} {n} holds a TAB, which the algorithm removes (\"BASE<TAB>REF\" becomes one wrong URL); for base<TAB>reference input use --pairs (wurl canon --pairs, wurl resolve --pairs)\n",
                ctx.input_name()
            );
            d.warnings.push((d.diag.len(), Warning::Tab, warning));
        }
        d.counts.total += 1;
        d.counts.bytes += line.len;
        let bom = bytes.starts_with(BOM);
        if bom {
            d.counts.bom += 1;
        }
        let result: Result<(), Why> = if line.too_long {
            d.counts.too_long += 1;
            // Not read whole, so not split: with --pairs its base is absent
            // too.
            let base_col = ctx.pairs.then_some(None);
            ctx.refuse(&mut d.out, base_col, Cow::Borrowed(TOO_LONG), bom)
        } else if ctx.pairs {
            match memchr::memchr(b'\t', bytes) {
                None => ctx.refuse(&mut d.out, Some(None), Cow::Borrowed(NO_TAB), bom),
                Some(t) if ctx.model == wurl::Model::UrlStandard => ctx
                    .one_standard(
                        &mut d.out,
                        Some(&bytes_to_string(&bytes[..t])),
                        &bytes_to_string(&bytes[t + 1..]),
                    )
                    .map_err(|why| ctx.noted(why, bom)),
                Some(t) => {
                    let (base_bytes, reference) = (&bytes[..t], &bytes[t + 1..]);
                    let base_text = if text {
                        None
                    } else {
                        Some(ctx.decode(base_bytes).0)
                    };
                    let base_col = Some(base_text.as_deref());
                    let (base, base_malformed) = bases.get(ctx, base_bytes);
                    let (reference, ref_malformed) = ctx.decode(reference);
                    let checked = if base_malformed || ref_malformed {
                        malformed(ctx, d, n, &mut warned)
                    } else {
                        Ok(())
                    };
                    match checked.and(base) {
                        Ok(base) => ctx.one(&mut d.out, Some(base), base_col, &reference, bom),
                        Err(why) => ctx.refuse(&mut d.out, base_col, why, bom),
                    }
                }
            }
        } else if ctx.model == wurl::Model::UrlStandard {
            ctx.one_standard(
                &mut d.out,
                ctx.base_text.as_deref(),
                &bytes_to_string(bytes),
            )
            .map_err(|why| ctx.noted(why, bom))
        } else {
            let (input, bad) = ctx.decode(bytes);
            let checked = if bad {
                malformed(ctx, d, n, &mut warned)
            } else {
                Ok(())
            };
            match checked {
                Ok(()) => ctx.one(&mut d.out, ctx.base.as_ref(), None, &input, bom),
                Err(why) => ctx.refuse(&mut d.out, None, why, bom),
            }
        };
        match result {
            Ok(()) => {
                if text {
                    d.out.push(ctx.end);
                }
            }
            Err(why) => {
                d.counts.invalid += 1;
                if !ctx.quiet || ctx.invalid == InvalidPolicy::Fail {
                    let _ = writeln!(
                        d.diag,
                        "wurl: {} {n}: {why}: {}",
                        ctx.input_name(),
                        ctx.quote(bytes, line.len)
                    );
                }
                match ctx.invalid {
                    InvalidPolicy::Blank if text => d.out.push(ctx.end),
                    InvalidPolicy::Blank | InvalidPolicy::Skip => {}
                    InvalidPolicy::Fail => {
                        d.failed = true;
                        return;
                    }
                }
            }
        }
    }
}

/// Counts input `n`, which is malformed in the input encoding. With
/// `--strict-utf8` it is invalid (the reason is returned); otherwise it is
/// read with U+FFFD replacement, which can give different inputs one URL,
/// so the chunk's first such input gets a warning (the writer shows the
/// run's first).
fn malformed(ctx: &Ctx, d: &mut Done, n: u64, warned: &mut bool) -> Result<(), Why> {
    d.counts.malformed += 1;
    if ctx.strict_utf8 {
        return Err(match ctx.decode {
            None => Cow::Borrowed(NOT_UTF8),
            Some(enc) => Cow::Owned(format!("not valid {}", enc.name())),
        });
    }
    if !*warned {
        *warned = true;
        let warning = format!(
            "wurl: warning: {} {n} is not valid {}: its malformed octets are read as U+FFFD, so different inputs can give one URL (--stats counts such inputs, only the first is named; --strict-utf8 rejects them; --decode LABEL reads another encoding)\n",
            ctx.input_name(),
            ctx.encoding_name()
        );
        d.warnings.push((d.diag.len(), Warning::Malformed, warning));
    }
    Ok(())
}

/// Processes a chunk; a panic (a bug) becomes an error instead of a crash
/// or, with worker threads, a hang.
fn process_chunk_caught(ctx: &Ctx, chunk: &Chunk, d: &mut Done) -> Result<(), Stop> {
    catch_unwind(AssertUnwindSafe(|| process_chunk(ctx, chunk, d))).map_err(|_| {
        let last = chunk.first_line + chunk.lines.len() as u64 - 1;
        Stop::Internal(format!(
            "internal error while processing inputs {}..={last} (please report it)",
            chunk.first_line
        ))
    })
}

enum Stop {
    /// `--invalid fail` met an invalid input.
    Invalid,
    Output(OutputError),
    Read(io::Error),
    Internal(String),
}

/// Writes processed chunks in order.
struct Sink {
    out: Output,
    diag: Arc<Diag>,
    bar: Option<ProgressBar>,
    counts: Counts,
    /// The warnings shown (each kind is shown once a run).
    warned: Vec<Warning>,
}

impl Sink {
    fn emit(&mut self, d: &Done) -> Result<(), Stop> {
        self.counts.add(&d.counts);
        self.out.push(d.out.as_bytes()).map_err(Stop::Output)?;
        let mut diag = Cow::Borrowed(d.diag.as_str());
        if d.warnings.iter().any(|(_, k, _)| !self.warned.contains(k)) {
            // Each warning goes where its input's diagnostics begin (the
            // positions grow with the input order).
            let mut s = String::with_capacity(d.diag.len() + 512);
            let mut from = 0;
            for (at, kind, warning) in &d.warnings {
                if !self.warned.contains(kind) {
                    self.warned.push(*kind);
                    s.push_str(&d.diag[from..*at]);
                    s.push_str(warning);
                    from = *at;
                }
            }
            s.push_str(&d.diag[from..]);
            diag = Cow::Owned(s);
        }
        if !diag.is_empty() {
            // Output before diagnostics, so that a terminal shows them in
            // order.
            self.out.flush().map_err(Stop::Output)?;
            match &self.bar {
                Some(bar) => bar.suspend(|| self.diag.write(&diag)),
                None => self.diag.write(&diag),
            };
        }
        if let Some(bar) = &self.bar {
            bar.inc(d.input_bytes);
        }
        if d.failed {
            return Err(Stop::Invalid);
        }
        if d.flush {
            self.out.flush().map_err(Stop::Output)?;
        }
        Ok(())
    }
}

/// The progress bar of a run over `source` when `progress` is asked for and the input's size is
/// known.
pub fn progress_for(source: &Source, progress: bool, diag: &Arc<Diag>) -> Option<ProgressBar> {
    progress
        .then(|| source.size().map(|size| progress_bar(size, diag)))
        .flatten()
}

fn progress_bar(size: u64, diag: &Arc<Diag>) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(size),
        ProgressDrawTarget::term_like(Box::new(CheckedTerm::stderr(Arc::clone(diag)))),
    );
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ({bytes_per_sec}, ETA {eta})",
    ) {
        bar.set_style(style);
    }
    bar
}

/// Runs `ctx` over `source` with `jobs` workers, writing to `out` and
/// reporting to `diag`.
pub fn run(
    ctx: Ctx,
    source: Source,
    jobs: usize,
    progress: bool,
    out: Output,
    diag: &Arc<Diag>,
) -> Outcome {
    let start = Instant::now();
    let bar = progress_for(&source, progress, diag);
    let mut sink = Sink {
        out,
        diag: Arc::clone(diag),
        bar,
        counts: Counts::default(),
        warned: Vec::new(),
    };
    let (encoding, strict_utf8) = (ctx.encoding_name(), ctx.strict_utf8);
    let mut result = if ctx.format == Format::Tsv {
        sink.out
            .push(format::tsv_header(ctx.end, ctx.pairs).as_bytes())
            .map_err(Stop::Output)
    } else {
        Ok(())
    };
    if result.is_ok() {
        result = if jobs <= 1 {
            run_serial(&ctx, source, &mut sink)
        } else {
            run_parallel(ctx, source, jobs, &mut sink)
        };
    }
    // What was processed before a stop is written.
    let flushed = sink.out.flush().map_err(Stop::Output);
    if let Some(bar) = &sink.bar {
        bar.finish_and_clear();
    }
    let stop = match (result, flushed) {
        (Err(e @ Stop::Output(_)), _) | (_, Err(e)) | (Err(e), Ok(())) => Some(e),
        (Ok(()), Ok(())) => None,
    };
    let (error, output_failed) = match stop {
        None | Some(Stop::Invalid) => (None, false),
        Some(Stop::Output(e)) => (Some(e.to_string()), true),
        Some(Stop::Read(e)) => (Some(format!("reading input: {e}")), false),
        Some(Stop::Internal(e)) => (Some(e), false),
    };
    Outcome {
        counts: sink.counts,
        elapsed: start.elapsed(),
        records: sink.out.records(),
        error,
        output_failed,
        encoding,
        strict_utf8,
    }
}

fn run_serial(ctx: &Ctx, mut source: Source, sink: &mut Sink) -> Result<(), Stop> {
    let mut chunk = Chunk::default();
    let mut done = Done::default();
    while source.next_chunk(&mut chunk).map_err(Stop::Read)? {
        done.clear();
        process_chunk_caught(ctx, &chunk, &mut done)?;
        sink.emit(&done)?;
    }
    Ok(())
}

enum Msg {
    Done(u64, Done),
    ReadError(u64, io::Error),
    Internal(u64, Stop),
}

fn run_parallel(ctx: Ctx, mut source: Source, jobs: usize, sink: &mut Sink) -> Result<(), Stop> {
    let ctx = Arc::new(ctx);
    let in_flight = jobs * IN_FLIGHT_PER_WORKER;
    // A chunk may be read only with a token; the writer gives it back once
    // the chunk is written.
    let (token_tx, token_rx) = mpsc::sync_channel::<()>(in_flight);
    for _ in 0..in_flight {
        let _ = token_tx.send(());
    }
    let (work_tx, work_rx) = mpsc::sync_channel::<(u64, Chunk)>(in_flight);
    let work_rx = Arc::new(Mutex::new(work_rx));
    let (done_tx, done_rx) = mpsc::channel::<Msg>();

    // When the writer stops early the threads are not joined: they end as
    // their channels close, and the reader may be blocked on a read that
    // the process exit interrupts. When every chunk was written, they have
    // all returned (the loop below ends only once every sender of `done_tx`
    // is dropped), and they are joined so that none is still exiting when
    // the process does (valgrind would report its stack as possibly lost).
    let mut threads = Vec::with_capacity(jobs + 1);
    {
        let done_tx = done_tx.clone();
        threads.push(thread::spawn(move || {
            let mut seq = 0;
            while token_rx.recv().is_ok() {
                let mut chunk = Chunk::default();
                match source.next_chunk(&mut chunk) {
                    Ok(true) => {
                        if work_tx.send((seq, chunk)).is_err() {
                            return;
                        }
                    }
                    Ok(false) => return,
                    Err(e) => {
                        let _ = done_tx.send(Msg::ReadError(seq, e));
                        return;
                    }
                }
                seq += 1;
            }
        }));
    }
    for _ in 0..jobs {
        let ctx = Arc::clone(&ctx);
        let work_rx = Arc::clone(&work_rx);
        let done_tx = done_tx.clone();
        threads.push(thread::spawn(move || {
            loop {
                let job = work_rx.lock().map(|rx| rx.recv());
                let Ok(Ok((seq, chunk))) = job else { return };
                let mut d = Done::default();
                let msg = match process_chunk_caught(&ctx, &chunk, &mut d) {
                    Ok(()) => Msg::Done(seq, d),
                    Err(e) => Msg::Internal(seq, e),
                };
                if done_tx.send(msg).is_err() {
                    return;
                }
            }
        }));
    }
    drop(done_tx);

    let mut pending: BTreeMap<u64, Msg> = BTreeMap::new();
    let mut next = 0u64;
    for msg in done_rx {
        let seq = match &msg {
            Msg::Done(s, _) | Msg::ReadError(s, _) | Msg::Internal(s, _) => *s,
        };
        pending.insert(seq, msg);
        while let Some(msg) = pending.remove(&next) {
            match msg {
                Msg::Done(_, d) => {
                    sink.emit(&d)?;
                    let _ = token_tx.send(());
                    next += 1;
                }
                Msg::ReadError(_, e) => return Err(Stop::Read(e)),
                Msg::Internal(_, e) => return Err(e),
            }
        }
    }
    for t in threads {
        // A chunk's panic is caught inside the worker (`Msg::Internal`), so
        // a thread that panicked anyway has nothing left to report.
        let _ = t.join();
    }
    Ok(())
}
