//! Processing: chunks of lines are read, processed (on the calling thread,
//! or on N worker threads) and written in input order.
//!
//! With N workers, a reader thread cuts the input into chunks, the workers
//! process them, and the calling thread writes the results in sequence. The
//! number of chunks in flight (read but not yet written) is bounded by a
//! pool of tokens, so memory stays constant whatever the input size.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use wurl::{CanonOptions, InvalidReason, Url};

use crate::format;
use crate::input::{Chunk, Source, bytes_to_string};
use crate::{Format, InvalidPolicy};

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
    pub charset: Option<String>,
    pub strict: bool,
    pub format: Format,
    pub invalid: InvalidPolicy,
    pub quiet: bool,
    /// Inputs are arguments (diagnostics say "argument N", not "line N").
    pub arg_numbers: bool,
}

impl Ctx {
    fn opts(&self) -> CanonOptions<'_> {
        CanonOptions {
            charset: self.charset.as_deref(),
            network_strict: self.strict,
        }
    }

    /// The record of `input` for this mode.
    fn record(&self, input: &str) -> Url {
        match self.mode {
            Mode::Parse => wurl::parse(input),
            Mode::Resolve => match &self.base {
                Some(b) => wurl::resolve(b, input),
                None => wurl::resolve(&wurl::parse(input), input),
            },
            Mode::Canon => {
                let resolved = match &self.base {
                    Some(b) => wurl::resolve(b, input),
                    None => wurl::resolve(&wurl::parse(input), input),
                };
                wurl::canonicalize_with(&resolved, &self.opts())
            }
        }
    }

    /// The reason to report. Without `--base` each input is its own base,
    /// and the library then says "base URL is invalid" for an input that
    /// does not parse; its own parse failure says more.
    fn explain(&self, input: &str, why: InvalidReason) -> InvalidReason {
        if self.base.is_none() && self.mode == Mode::Canon && why == InvalidReason::InvalidBase {
            wurl::parse(input).invalid_reason().unwrap_or(why)
        } else {
            why
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    pub total: u64,
    pub invalid: u64,
    /// Bytes of the inputs (line ends excluded).
    pub bytes: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.total += o.total;
        self.invalid += o.invalid;
        self.bytes += o.bytes;
    }

    pub fn print_stats(&self, elapsed: Duration) {
        let secs = elapsed.as_secs_f64().max(1e-9);
        eprintln!(
            "wurl: {} URLs ({} valid, {} invalid) in {:.3} s: {:.0} URLs/s, {:.1} MB/s",
            self.total,
            self.total - self.invalid,
            self.invalid,
            secs,
            self.total as f64 / secs,
            self.bytes as f64 / secs / 1e6,
        );
    }
}

/// The result of a run.
pub struct Outcome {
    pub counts: Counts,
    pub elapsed: Duration,
    /// An I/O error that stopped the run.
    pub error: Option<String>,
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
}

impl Done {
    fn clear(&mut self) {
        self.out.clear();
        self.diag.clear();
        self.counts = Counts::default();
        self.failed = false;
    }
}

fn process_chunk(ctx: &Ctx, chunk: &Chunk, d: &mut Done) {
    d.input_bytes = chunk.bytes;
    d.flush = chunk.flush;
    let opts = ctx.opts();
    let text = ctx.format == Format::Text;
    for (i, line) in chunk.lines().enumerate() {
        let input = bytes_to_string(line);
        d.counts.total += 1;
        d.counts.bytes += line.len() as u64;
        let result: Result<(), InvalidReason> = if text {
            if ctx.mode == Mode::Canon {
                wurl::canon_into(ctx.base.as_ref(), &input, &opts, &mut d.out)
                    .map_err(|why| ctx.explain(&input, why))
            } else {
                let u = ctx.record(&input);
                if wurl::serialize::serialize_into(&u, &mut d.out) {
                    Ok(())
                } else {
                    Err(u
                        .invalid_reason()
                        .expect("an unserializable URL is invalid"))
                }
            }
        } else {
            let u = ctx.record(&input);
            let why = u.invalid_reason().map(|why| ctx.explain(&input, why));
            if why.is_none() || ctx.invalid == InvalidPolicy::Blank {
                match ctx.format {
                    Format::Tsv => format::tsv_row(&mut d.out, &u, why),
                    _ => format::json_row(&mut d.out, &u, why),
                }
            }
            why.map_or(Ok(()), Err)
        };
        match result {
            Ok(()) => {
                if text {
                    d.out.push('\n');
                }
            }
            Err(why) => {
                d.counts.invalid += 1;
                if !ctx.quiet || ctx.invalid == InvalidPolicy::Fail {
                    let what = if ctx.arg_numbers { "argument" } else { "line" };
                    let n = chunk.first_line + i as u64;
                    let _ = writeln!(d.diag, "wurl: {what} {n}: {why}: {input:?}");
                }
                match ctx.invalid {
                    InvalidPolicy::Blank if text => d.out.push('\n'),
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

enum Stop {
    /// Stop quietly (`--invalid fail`, or the reader of the output went away).
    Quiet,
    Error(String),
}

/// Writes processed chunks in order.
struct Sink<W: Write> {
    out: BufWriter<W>,
    bar: Option<ProgressBar>,
    counts: Counts,
}

impl<W: Write> Sink<W> {
    fn write_str(&mut self, s: &str) -> Result<(), Stop> {
        self.out.write_all(s.as_bytes()).map_err(write_error)
    }

    fn emit(&mut self, d: &Done) -> Result<(), Stop> {
        self.counts.add(&d.counts);
        self.write_str(&d.out)?;
        if !d.diag.is_empty() {
            // Output before diagnostics, so that a terminal shows them in
            // order.
            self.out.flush().map_err(write_error)?;
            match &self.bar {
                Some(bar) => bar.suspend(|| eprint!("{}", d.diag)),
                None => eprint!("{}", d.diag),
            }
        }
        if let Some(bar) = &self.bar {
            bar.inc(d.input_bytes);
        }
        if d.failed {
            return Err(Stop::Quiet);
        }
        if d.flush {
            self.out.flush().map_err(write_error)?;
        }
        Ok(())
    }
}

fn write_error(e: io::Error) -> Stop {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Stop::Quiet
    } else {
        Stop::Error(format!("writing output: {e}"))
    }
}

fn read_error(e: io::Error) -> Stop {
    Stop::Error(format!("reading input: {e}"))
}

fn progress_bar(size: u64) -> ProgressBar {
    let bar = ProgressBar::new(size);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ({bytes_per_sec}, ETA {eta})",
        )
        .expect("valid template"),
    );
    bar
}

/// Runs `ctx` over `source` with `jobs` workers, writing to standard output.
pub fn run(ctx: Ctx, source: Source, jobs: usize, progress: bool) -> Outcome {
    let start = Instant::now();
    let bar = if progress {
        source.size().map(progress_bar)
    } else {
        None
    };
    let stdout = io::stdout();
    let mut sink = Sink {
        out: BufWriter::with_capacity(64 * 1024, stdout.lock()),
        bar,
        counts: Counts::default(),
    };
    let mut result = if ctx.format == Format::Tsv {
        sink.write_str(&format::tsv_header())
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
    let flushed = sink.out.flush().map_err(write_error);
    if let Some(bar) = &sink.bar {
        bar.finish_and_clear();
    }
    let error = match result.and(flushed) {
        Err(Stop::Error(e)) => Some(e),
        _ => None,
    };
    Outcome {
        counts: sink.counts,
        elapsed: start.elapsed(),
        error,
    }
}

fn run_serial<W: Write>(ctx: &Ctx, mut source: Source, sink: &mut Sink<W>) -> Result<(), Stop> {
    let mut chunk = Chunk::default();
    let mut done = Done::default();
    while source.next_chunk(&mut chunk).map_err(read_error)? {
        done.clear();
        process_chunk(ctx, &chunk, &mut done);
        sink.emit(&done)?;
    }
    Ok(())
}

enum Msg {
    Done(u64, Done),
    ReadError(u64, io::Error),
}

fn run_parallel<W: Write>(
    ctx: Ctx,
    mut source: Source,
    jobs: usize,
    sink: &mut Sink<W>,
) -> Result<(), Stop> {
    let ctx = Arc::new(ctx);
    let in_flight = jobs * IN_FLIGHT_PER_WORKER;
    // A chunk may be read only with a token; the writer gives it back once
    // the chunk is written.
    let (token_tx, token_rx) = mpsc::sync_channel::<()>(in_flight);
    for _ in 0..in_flight {
        token_tx.send(()).expect("the token channel has room");
    }
    let (work_tx, work_rx) = mpsc::sync_channel::<(u64, Chunk)>(in_flight);
    let work_rx = Arc::new(Mutex::new(work_rx));
    let (done_tx, done_rx) = mpsc::channel::<Msg>();

    // The threads are not joined: when the writer stops early, they end as
    // their channels close, and the reader may be blocked on a read that
    // the process exit interrupts.
    {
        let done_tx = done_tx.clone();
        thread::spawn(move || {
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
        });
    }
    for _ in 0..jobs {
        let ctx = Arc::clone(&ctx);
        let work_rx = Arc::clone(&work_rx);
        let done_tx = done_tx.clone();
        thread::spawn(move || {
            loop {
                let job = work_rx.lock().map(|rx| rx.recv());
                let Ok(Ok((seq, chunk))) = job else { return };
                let mut d = Done::default();
                process_chunk(&ctx, &chunk, &mut d);
                if done_tx.send(Msg::Done(seq, d)).is_err() {
                    return;
                }
            }
        });
    }
    drop(done_tx);

    let mut pending: BTreeMap<u64, Msg> = BTreeMap::new();
    let mut next = 0u64;
    for msg in done_rx {
        let seq = match &msg {
            Msg::Done(s, _) | Msg::ReadError(s, _) => *s,
        };
        pending.insert(seq, msg);
        while let Some(msg) = pending.remove(&next) {
            match msg {
                Msg::Done(_, d) => {
                    sink.emit(&d)?;
                    let _ = token_tx.send(());
                    next += 1;
                }
                Msg::ReadError(_, e) => return Err(read_error(e)),
            }
        }
    }
    Ok(())
}
