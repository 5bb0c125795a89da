//! `wurl`: URL canonicalization, parsing and resolution on the command line,
//! one URL per line, streaming, optionally in parallel.

mod format;
mod input;
mod pipeline;

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::input::Source;
use crate::pipeline::{Ctx, Mode, Outcome};

/// Exit status: every input was valid.
const EXIT_OK: u8 = 0;
/// Exit status: at least one input was invalid (with `--invalid fail`: the
/// run stopped at the first one).
const EXIT_INVALID: u8 = 1;
/// Exit status: usage error (clap also exits with 2) or I/O error.
const EXIT_ERROR: u8 = 2;

const MAIN_HELP: &str = "\
Input:
  URLs are taken from the arguments or, when there are none, from standard
  input (or --input FILE), one per line. LF and CRLF line ends are accepted,
  a UTF-8 byte order mark at the start of the input is dropped, and invalid
  UTF-8 is decoded with U+FFFD replacement. Every input line gives one output
  line (or none, with --invalid skip), in input order, also with -j N.

Output formats (--format):
  text  the serialization, one URL per line (the default)
  tsv   a header row, then per URL: url, scheme, user, password, host, port,
        path, query, fragment, invalid (the reason). As in PostgreSQL's COPY
        text format, an absent value is \\N, an empty one an empty field, and
        backslash, TAB, LF and CR are written \\\\, \\t, \\n and \\r.
  json  one object per line: {\"url\", the eight components, \"invalid\",
        \"reason\"}, with null for absent components (and for url and reason).

Invalid URLs (--invalid):
  blank  (default) text: an empty line; tsv/json: the record with its reason.
         The reason goes to standard error with the line number, so output
         lines stay aligned with input lines.
  skip   no output line; the reason still goes to standard error.
  fail   stop at the first invalid URL (what came before it is written).

Exit status:
  0  every URL was valid
  1  at least one URL was invalid
  2  usage error or I/O error

Examples:
  wurl canon 'HTTP://Example.COM:80/a/./b/../c?q=%C3%A9#f'
  wurl canon --base http://example.com/dir/ ../x ?q '#frag'
  wurl canon -j 4 --stats < urls.txt > canonical.txt
  wurl canon --format json --invalid skip < urls.txt | jq .host
  wurl canon --charset shift_jis --base http://example.jp/ < links.txt
  wurl parse --format tsv 'http://user:@host/p?#'
  wurl resolve --base http://a/b/c/d --format json '../g'";

/// URL canonicalization (the 2012 Web::URL::Canonicalize algorithm), one URL
/// per line.
#[derive(Parser, Debug)]
#[command(name = "wurl", version, about, after_help = MAIN_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Canonicalize URLs: resolve each against --base (or itself),
    /// canonicalize and serialize.
    #[command(after_help = "Examples:
  wurl canon 'HTTP://Example.COM:80/a/./b/../c'      # http://example.com/a/c
  wurl canon --base http://example.com/dir/ ../x     # http://example.com/x
  wurl canon --strict -j 0 --stats < urls.txt > out.txt
  wurl canon --format tsv --invalid fail -i urls.txt")]
    Canon(CanonArgs),
    /// Parse URLs into their raw components, without resolution or
    /// canonicalization.
    #[command(after_help = "Examples:
  wurl parse --format json 'http://user@host:80/p?q#f'
  wurl parse --format tsv < urls.txt")]
    Parse(ParseArgs),
    /// Resolve URLs against --base, without canonicalization.
    #[command(after_help = "Examples:
  wurl resolve --base http://a/b/c/d ../g ?y '#s'
  wurl resolve --base http://a/b/c/d --format json < refs.txt")]
    Resolve(ResolveArgs),
}

#[derive(Args, Debug)]
struct CanonArgs {
    /// Resolve each input against this base URL (without it, each input is
    /// its own base).
    #[arg(long, value_name = "URL")]
    base: Option<OsString>,
    /// Encoding label for the query (the document's encoding; default UTF-8).
    #[arg(long, value_name = "LABEL")]
    charset: Option<String>,
    /// Network-strict mode: also reject hosts that other parsers
    /// (WHATWG, curl) would read differently.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
struct ParseArgs {
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
struct ResolveArgs {
    /// The base URL to resolve each input against.
    #[arg(long, value_name = "URL", required = true)]
    base: OsString,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
struct Common {
    /// URLs to process; without any, URLs are read from standard input (or
    /// --input), one per line.
    #[arg(value_name = "URL")]
    urls: Vec<OsString>,
    /// Read URLs from this file instead of standard input.
    #[arg(short, long, value_name = "FILE", conflicts_with = "urls")]
    input: Option<PathBuf>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// What to do with an invalid URL.
    #[arg(long, value_enum, default_value_t = InvalidPolicy::Blank, value_name = "POLICY")]
    invalid: InvalidPolicy,
    /// Worker threads (0 = one per CPU). Output order is the input order.
    #[arg(short, long, value_name = "N", default_value_t = 1)]
    jobs: usize,
    /// Print counts and URLs/s to standard error at the end.
    #[arg(long)]
    stats: bool,
    /// Do not report invalid URLs on standard error.
    #[arg(short, long)]
    quiet: bool,
    /// Never show a progress bar (it is shown only when standard error is a
    /// terminal and the input is a file of known size).
    #[arg(long)]
    no_progress: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The serialization.
    Text,
    /// Tab-separated components with a header row; absent = \N.
    Tsv,
    /// One JSON object per line; absent = null.
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InvalidPolicy {
    /// No output for an invalid URL.
    Skip,
    /// An empty line (text) or a record with the reason (tsv, json).
    Blank,
    /// Stop at the first invalid URL with exit status 1.
    Fail,
}

fn lossy(s: &OsString) -> String {
    input::bytes_to_string(&input::os_bytes(s)).into_owned()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let (mode, base, charset, strict, common) = match cli.command {
        Command::Canon(a) => (Mode::Canon, a.base, a.charset, a.strict, a.common),
        Command::Parse(a) => (Mode::Parse, None, None, false, a.common),
        Command::Resolve(a) => (Mode::Resolve, Some(a.base), None, false, a.common),
    };
    let base = base.as_ref().map(|b| wurl::parse(&lossy(b)));
    if let Some(why) = base.as_ref().and_then(wurl::Url::invalid_reason) {
        eprintln!(
            "wurl: warning: --base is invalid ({why}): every URL resolved against it is invalid"
        );
    }
    let jobs = if common.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        common.jobs
    };
    let source = if !common.urls.is_empty() {
        Source::args(common.urls)
    } else if let Some(path) = &common.input {
        match Source::file(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("wurl: {}: {e}", path.display());
                return ExitCode::from(EXIT_ERROR);
            }
        }
    } else {
        match Source::stdin() {
            Ok(s) => s,
            Err(e) => {
                eprintln!("wurl: standard input: {e}");
                return ExitCode::from(EXIT_ERROR);
            }
        }
    };
    let progress = !common.no_progress && io::stderr().is_terminal();
    let ctx = Ctx {
        mode,
        base,
        charset,
        strict,
        format: common.format,
        invalid: common.invalid,
        quiet: common.quiet,
        arg_numbers: source.is_args(),
    };
    let outcome = pipeline::run(ctx, source, jobs, progress);
    if common.stats {
        outcome.counts.print_stats(outcome.elapsed);
    }
    match outcome {
        Outcome { error: Some(e), .. } => {
            let _ = io::stdout().flush();
            eprintln!("wurl: {e}");
            ExitCode::from(EXIT_ERROR)
        }
        Outcome { counts, .. } if counts.invalid > 0 => ExitCode::from(EXIT_INVALID),
        _ => ExitCode::from(EXIT_OK),
    }
}
