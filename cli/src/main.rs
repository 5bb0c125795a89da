//! `wurl`: URL canonicalization, parsing and resolution on the command line,
//! one URL per line, streaming, optionally in parallel.
//!
//! On Unix the program starts in `sys.rs` (its own C `main`, to see which
//! standard streams were closed at start); elsewhere in `main` below.

#![cfg_attr(all(unix, not(test)), no_main)]

mod audit;
mod compare;
mod explain;
mod format;
mod generate;
mod get;
mod html;
mod input;
mod output;
mod pipeline;
mod sys;

use std::ffi::OsString;
use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use crate::input::Source;
use crate::output::{Diag, Output};
use crate::pipeline::{Ctx, Mode};

/// Exit status: every input was valid (or `--allow-invalid`), all output
/// and all messages were written.
/// `wurl --version`: the package's version and the version of the keys the library makes
/// (`wurl::KEY_VERSION`; a test checks the two agree).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (key version 1)");

const EXIT_OK: u8 = 0;
/// Exit status: at least one input was invalid (with `--invalid fail`: the
/// run stopped at the first one).
const EXIT_INVALID: u8 = 1;
/// Exit status: usage error, unknown `--charset`, unreadable input, or
/// standard output could not be written (closed, full, broken pipe).
const EXIT_ERROR: u8 = 2;
/// Exit status: the output is complete, but some message (diagnostic,
/// warning, `--stats`, progress bar) could not be written to standard error.
const EXIT_STDERR: u8 = 3;

const MAIN_HELP: &str = "\
Input:
  URLs are taken from the arguments or, when there are none, from standard
  input (or --input FILE; -i - is standard input), one per line. LF and CRLF
  line ends are accepted, and a UTF-8 byte order mark at the start of the
  input is dropped; one that starts a later line (files joined with cat)
  is kept, but an invalid line's reason names it, and --stats counts such
  lines. With -z, inputs and outputs end with NUL instead (CR
  and LF are then ordinary bytes). Every input line gives one output line
  (or none, with --invalid skip), in input order, also with -j N. A line
  longer than 16 MiB is not read into memory: it is an invalid input
  (\"input longer than 16 MiB\").

Encodings (--decode, --strict-utf8):
  Inputs are read as UTF-8. Invalid UTF-8 is decoded with U+FFFD
  replacement, as the C ABI does, so different inputs can give one URL: the
  run's first such input gets one warning on standard error, and --stats
  counts them all. --strict-utf8 makes each such input invalid instead
  (\"not valid UTF-8\"), handled as --invalid says. --decode LABEL reads the
  inputs (not --base) in another encoding, a WHATWG label such as
  windows-1252 or shift_jis: the link dump of a page in that encoding. The
  query is still encoded as --charset says (give both for the page's own
  query encoding).

Pairs (canon --pairs, resolve --pairs):
  Each input is base<TAB>reference: the reference is resolved against the
  base of its own record (the text before the first TAB), so a crawler's
  (page, link) stream goes through one process. A valid record gives what
  `wurl canon --base BASE REFERENCE` gives. A record without a TAB is
  invalid (\"no TAB: expected base<TAB>reference\"), and so is one whose
  base does not parse (\"base is invalid: REASON\"; an empty base too).
  Consecutive records with the same base parse it once. tsv and json begin
  each record with its base. Without --pairs, the first input holding a TAB
  gets a warning: the algorithm removes TABs, so base<TAB>reference would
  silently become one wrong URL.

Output formats (--format):
  text  the serialization, one URL per line (the default)
  tsv   a header row, then per URL: url, scheme, user, password, host, port,
        path, query, fragment, invalid (the reason). As in PostgreSQL's COPY
        text format, an absent value is \\N, an empty one an empty field, and
        backslash, TAB, LF and CR are written \\\\, \\t, \\n and \\r, and
        every other control octet (NUL to 0x1F, DEL) \\xHH (\\x00, \\x7F).
  json  one object per line: {\"url\", the eight components, \"invalid\",
        \"reason\"}, with null for absent components (and for url and reason).
  surt  (canon only) the SURT form of the canonical URL, after --rules:
        com,example,www)/a?q (--surt-scheme keeps the scheme).

--get TEMPLATE (canon):
  One line per input from TEMPLATE: {scheme} {user} {password} {host}
  {port} {path} {query} {fragment} are the components of the canonical URL
  (absent and empty both print nothing; -f json tells them apart), {url}
  the canonical URL, {key} it after --rules, {surt} the SURT form of the
  key (--surt-scheme keeps the scheme). {{ and }} are literal braces; other
  text, TAB included, is written as it is. An unknown name, a lone { or },
  or a line end in TEMPLATE is a usage error (exit status 2), and so is
  --get with --format tsv, json or surt. A value's TAB, LF, CR and NUL are
  written %09, %0A, %0D, %00, so one input gives one line. Invalid inputs
  are handled as --invalid says (as for text); --base, --pairs, --charset,
  --model, -z and -j work as for text.

Messages quote at most the first 200 bytes of an input or of an option's
value, then … and its length in bytes.

Invalid URLs (--invalid):
  blank  (default) text: an empty line; tsv/json: the record with its reason.
         The reason goes to standard error with the line number and the
         input (at most its first 200 bytes), so output lines stay aligned
         with input lines.
  skip   no output line; the reason still goes to standard error.
  fail   stop at the first invalid URL (what came before it is written).
  --allow-invalid: invalid inputs do not make the exit status 1.

Output is written in whole lines. A run that was cut short (killed, or
standard output failed) can be told by its exit status, and by the last
line having no line end; --stats counts the records written.

Exit status:
  0  every URL was valid (or --allow-invalid), and everything was written
  1  at least one URL was invalid (--invalid fail: the run stopped at it)
  2  usage error (an invalid --base, an unknown --charset or --decode label
     too), input not readable, or standard output
     could not be written (closed, full, broken pipe): output incomplete
  3  the output is complete, but some message could not be written to
     standard error (closed, full, broken pipe); takes precedence over 0
     and 1

Examples:
  wurl canon 'HTTP://Example.COM:80/a/./b/../c?q=%C3%A9#f'
  wurl canon --base http://example.com/dir/ ../x ?q '#frag'
  wurl canon -j 4 --stats < urls.txt > canonical.txt
  wurl canon --format json --invalid skip < urls.txt | jq .host
  wurl canon --base http://a/ --invalid skip --allow-invalid -q < links.txt
  wurl canon --pairs < page-link.tsv
  find . -print0 | wurl parse -z -f json
  wurl canon --charset shift_jis --base http://example.jp/ < links.txt
  wurl canon --decode windows-1252 --charset windows-1252 < links-1252.txt
  wurl parse --format tsv 'http://user:@host/p?#'
  wurl resolve --base http://a/b/c/d --format json '../g'
  wurl canon --model url-standard 'http://faß.de/a\\b/../c'   # the URL Standard's URL
  wurl compare -i urls.txt      # where the 2012 model and the URL Standard differ";

/// URL canonicalization (the 2012 Web::URL::Canonicalize algorithm), one URL
/// per line.
#[derive(Parser, Debug)]
#[command(name = "wurl", version = VERSION, about, after_help = MAIN_HELP)]
pub struct Cli {
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
  printf 'http://a.com/b/c\t../d\\n' | wurl canon --pairs   # http://a.com/b/d
  wurl canon --strict -j 0 --stats < urls.txt > out.txt
  wurl canon --format tsv --invalid fail -i urls.txt
  wurl canon --rules 'drop-fragment,strip-www,sort-query,drop-params=utm_*' < urls.txt
  wurl canon --format surt 'http://www.Example.com/a/b?z=1&a=2'
  printf 'http://a/b\\n' | wurl canon --get '{host} {path}'   # a /b
  wurl canon --model url-standard 'http://faß.de/a\\b/../c'   # http://xn--fa-hia.de/a/c")]
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
  wurl resolve --base http://a/b/c/d --format json < refs.txt
  wurl resolve --pairs --format tsv < page-link.tsv")]
    Resolve(ResolveArgs),
    /// Canonicalize each URL with both models (2012 and the URL Standard)
    /// and report where they differ: counts per class of difference, with
    /// examples.
    #[command(after_help = "Classes (the first that explains a difference):
  invalid-2012-only, invalid-url-standard-only  one model rejects the URL
  file                   a file: URL
  scheme-port            another scheme or port
  host-idna              another host, international: IDNA 2003 vs UTS #46
  host-ip                another host, an IPv4 or IPv6 address form
  host-other             another ASCII host: characters escaped or kept
  path-percent-encoding  the same path once percent-decoded
  path-backslash         another path; the input holds a backslash
  path-dot-segments      another path; the input holds . or .. segments
  query-encoding         another query
  fragment               another fragment
  other                  anything else (user-info, path, no //)

Examples:
  wurl compare 'http://faß.de/a\\b/../c'
  wurl compare -i urls.txt -f json > classes.json
  wurl compare --pairs --show-all < page-link.tsv")]
    Compare(CompareArgs),
    /// Report what a rule set merges: different canonical URLs that get one
    /// key, by rule and by risk class, riskiest first, with examples.
    #[command(
        after_help = "Classes (riskiest first; docs/keys.md, \"Auditing a rule set\"):
  content-parameter  high    a removed parameter with different values, not session tokens
  fragment-route     high    a removed fragment route (#! or #/)
  www-numbered       high    different or numbered www labels removed (www2)
  userinfo           medium  different user information removed
  parameter-order    medium  parameters in another order, or empty ones
  session-parameter  low     a removed session token, ;jsessionid=
  www                low     a plain www label removed
  escapes            low     escapes of unreserved characters decoded
  fragment           low     a removed fragment (no route)

Memory is bounded: at most --max-keys keys (each with its first canonical
URL) and canonical URLs (8 bytes each) are remembered, and --max-groups
groups with --examples examples; what is past the caps is counted.

Examples:
  wurl audit --rules drop-params=sid < urls.txt
  wurl audit --rules strip-www,drop-fragment -f json -i urls.txt
  wurl audit --pairs --rules sort-query < page-link.tsv"
    )]
    Audit(AuditArgs),
    /// Explain a URL's key: the steps that changed it, in the
    /// specification's order (preprocessing, the components as parsed,
    /// resolution, scheme, host, port, path, query, fragment), each rule's
    /// change, the key and its SURT. With two URLs: whether they share a
    /// key, else the first component where their keys part.
    #[command(after_help = "Input:
  One URL, or two to compare, as arguments. Without arguments, each line of
  standard input (or --input) is explained alone; with --pairs a line
  URL1<TAB>URL2 compares its two URLs (a line without a TAB is one URL).
  Every URL is resolved against --base, or is its own base.

Models:
  2012 (the default): the steps are reported by the stages that compute the
  key, as they take them. url-standard: the URL is the url crate's, whose
  parser reports no steps; the result, the rules' steps, the key and the
  SURT are shown.

Exit status: 0, or 1 when a URL is invalid (its reason is in the report
and on standard error), 2 for a usage error (an unknown --rules,
--charset, an invalid --base, more than two URL arguments).

Examples:
  wurl explain 'HTTP://www.Example.COM:80/a/./b/../c?q=é#f' 'http://www.example.com/a/c?q=%C3%A9#f'
  wurl explain --rules strip-www http://www.example.com/a/c http://www2.example.com/a/c
  wurl explain -f json --base http://example.com/dir/ '../x?b=1&a=2'
  printf 'http://a/b\thttp://A/b\n' | wurl explain --pairs")]
    Explain(ExplainArgs),
    /// Print the man page or a shell completion script to standard output
    /// (used by the build; hidden).
    #[command(hide = true)]
    Generate {
        #[arg(value_enum)]
        what: generate::What,
    },
}

#[derive(Args, Debug)]
struct CanonArgs {
    /// Resolve each input against this base URL (without it, each input is
    /// its own base).
    #[arg(long, value_name = "URL")]
    base: Option<OsString>,
    /// Each input is a base URL and a reference separated by a TAB: resolve
    /// the reference against the base of its own record.
    #[arg(long, conflicts_with = "base")]
    pairs: bool,
    /// Encoding label for the query (the document's encoding; default
    /// UTF-8). A WHATWG Encoding Standard label; an unknown one is an error.
    #[arg(long, value_name = "LABEL")]
    charset: Option<String>,
    /// Network-strict mode: also reject hosts that other parsers
    /// (WHATWG, curl) would read differently.
    #[arg(long)]
    strict: bool,
    /// Opt-in dedup rules applied after canonicalization, comma-separated:
    /// drop-fragment, strip-www, sort-query, drop-params=GLOB|GLOB...,
    /// strip-session-ids, drop-userinfo, normalize-escapes (see
    /// docs/keys.md).
    #[arg(long, value_name = "SPEC")]
    rules: Option<String>,
    /// With --format surt: keep the scheme (`http://(com,example)/`); a
    /// usage error with any other format.
    #[arg(long)]
    surt_scheme: bool,
    /// The model of URLs: the 2012 Web::URL::Canonicalize algorithm, or the
    /// WHATWG URL Standard's parser and serializer (text and surt formats;
    /// not with --strict). --rules and SURT apply to either.
    #[arg(long, value_enum, default_value_t = ModelArg::Y2012, value_name = "MODEL")]
    model: ModelArg,
    /// Refuse to run (exit status 2) unless the library makes keys of
    /// this version (`wurl --version` names it), so that a crawl never
    /// stores keys of two versions side by side.
    #[arg(long, value_name = "N")]
    key_version: Option<u32>,
    /// Print TEMPLATE per input instead of the URL: {scheme} {user}
    /// {password} {host} {port} {path} {query} {fragment} (of the canonical
    /// URL; absent and empty both print nothing), {url} (the canonical URL),
    /// {key} (after --rules), {surt} (SURT of the key); {{ and }} are
    /// literal braces. More (escaping, usage errors) in `wurl --help`.
    #[arg(long, value_name = "TEMPLATE")]
    get: Option<String>,
    #[command(flatten)]
    common: Common,
}

/// `--model`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModelArg {
    /// The 2012 Web::URL::Canonicalize algorithm (the default).
    #[value(name = "2012")]
    Y2012,
    /// The WHATWG URL Standard (UTS #46 hosts, `\` as `/`, ...).
    UrlStandard,
}

impl ModelArg {
    pub fn model(self) -> wurl::Model {
        match self {
            ModelArg::Y2012 => wurl::Model::Canon2012,
            ModelArg::UrlStandard => wurl::Model::UrlStandard,
        }
    }
}

#[derive(Args, Debug)]
struct CompareArgs {
    /// URLs to compare; without any, URLs are read from standard input (or
    /// --input), one per line.
    #[arg(value_name = "URL")]
    urls: Vec<OsString>,
    /// Read URLs from this file instead of standard input (- is standard
    /// input).
    #[arg(short, long, value_name = "FILE", conflicts_with = "urls")]
    input: Option<PathBuf>,
    /// Resolve each input against this base URL (without it, each input is
    /// its own base).
    #[arg(long, value_name = "URL")]
    base: Option<OsString>,
    /// Each input is a base URL and a reference separated by a TAB.
    #[arg(long, conflicts_with = "base")]
    pairs: bool,
    /// Encoding label for the query (default UTF-8).
    #[arg(long, value_name = "LABEL")]
    charset: Option<String>,
    /// Output: a table (text), one JSON object (json) or one HTML page
    /// (html).
    #[arg(short, long, value_enum, default_value_t = CompareFormat::Text)]
    format: CompareFormat,
    /// Also print every input that differs, with its class and both
    /// results (TAB-separated, or one JSON object per line), before the
    /// summary.
    #[arg(long)]
    show_all: bool,
    /// Examples kept per class. Each value of an example is kept cut to its
    /// first 200 bytes (at a character boundary, then `…`; in JSON the
    /// example then has "cut":true), and the table cuts it further to fit;
    /// --show-all prints whole lines.
    #[arg(long, value_name = "N", default_value_t = 3)]
    examples: usize,
    /// Never show a progress bar (it is shown only when standard error is a
    /// terminal and the input is a file of known size).
    #[arg(long)]
    no_progress: bool,
}

#[derive(Args, Debug)]
struct AuditArgs {
    /// URLs to audit; without any, URLs are read from standard input (or
    /// --input), one per line.
    #[arg(value_name = "URL")]
    urls: Vec<OsString>,
    /// Read URLs from this file instead of standard input (- is standard
    /// input).
    #[arg(short, long, value_name = "FILE", conflicts_with = "urls")]
    input: Option<PathBuf>,
    /// The rules to audit (as for `wurl canon --rules`).
    #[arg(long, value_name = "SPEC", default_value = "")]
    rules: String,
    /// Resolve each input against this base URL.
    #[arg(long, value_name = "URL")]
    base: Option<OsString>,
    /// Each input is a base URL and a reference separated by a TAB.
    #[arg(long, conflicts_with = "base")]
    pairs: bool,
    /// Encoding label for the query (default UTF-8).
    #[arg(long, value_name = "LABEL")]
    charset: Option<String>,
    /// The model of URLs (as for `wurl canon --model`).
    #[arg(long, value_enum, default_value_t = ModelArg::Y2012, value_name = "MODEL")]
    model: ModelArg,
    /// Output: a report (text), one JSON object (json) or one HTML page
    /// (html).
    #[arg(short, long, value_enum, default_value_t = CompareFormat::Text)]
    format: CompareFormat,
    /// Examples kept per group (each cut to its first 200 bytes).
    #[arg(long, value_name = "N", default_value_t = 3)]
    examples: usize,
    /// Keys (and canonical URLs) remembered at most.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    max_keys: usize,
    /// Merge groups kept at most (their merges are counted in any case).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    max_groups: usize,
    /// Never show a progress bar (it is shown only when standard error is a
    /// terminal and the input is a file of known size).
    #[arg(long)]
    no_progress: bool,
}

#[derive(Args, Debug)]
struct ExplainArgs {
    /// One URL to explain, or two to compare; without any, URLs are read
    /// from standard input (or --input), one per line.
    #[arg(value_name = "URL")]
    urls: Vec<OsString>,
    /// Read URLs from this file instead of standard input (- is standard
    /// input).
    #[arg(short, long, value_name = "FILE", conflicts_with = "urls")]
    input: Option<PathBuf>,
    /// Resolve each URL against this base URL (without it, each URL is its
    /// own base).
    #[arg(long, value_name = "URL")]
    base: Option<OsString>,
    /// Each input line is two URLs separated by a TAB: the two are
    /// explained and compared.
    #[arg(long, conflicts_with = "urls")]
    pairs: bool,
    /// The rules of the key (as for `wurl canon --rules`).
    #[arg(long, value_name = "SPEC")]
    rules: Option<String>,
    /// The model of URLs (as for `wurl canon --model`).
    #[arg(long, value_enum, default_value_t = ModelArg::Y2012, value_name = "MODEL")]
    model: ModelArg,
    /// Encoding label for the query (default UTF-8).
    #[arg(long, value_name = "LABEL")]
    charset: Option<String>,
    /// Network-strict mode (as for `wurl canon --strict`; 2012 model).
    #[arg(long)]
    strict: bool,
    /// Output: the steps as text, or one JSON object per explanation.
    #[arg(short, long, value_enum, default_value_t = ExplainFormat::Text)]
    format: ExplainFormat,
}

/// `explain --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExplainFormat {
    /// The steps, one per line, for a terminal.
    Text,
    /// One JSON object per explanation, on one line.
    Json,
}

/// `compare --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    /// A table, with examples.
    Text,
    /// One JSON object (after the `--show-all` lines, one object each).
    Json,
    /// One self-contained HTML page: a chart of the classes, the summary
    /// and the examples (not with --show-all).
    Html,
}

#[derive(Args, Debug)]
struct ParseArgs {
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
struct ResolveArgs {
    /// The base URL to resolve each input against.
    #[arg(long, value_name = "URL", required_unless_present = "pairs")]
    base: Option<OsString>,
    /// Each input is a base URL and a reference separated by a TAB: resolve
    /// the reference against the base of its own record.
    #[arg(long, conflicts_with = "base")]
    pairs: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
struct Common {
    /// URLs to process; without any, URLs are read from standard input (or
    /// --input), one per line.
    #[arg(value_name = "URL")]
    urls: Vec<OsString>,
    /// Read URLs from this file instead of standard input (- is standard
    /// input).
    #[arg(short, long, value_name = "FILE", conflicts_with = "urls")]
    input: Option<PathBuf>,
    /// Inputs and outputs end with NUL instead of a line end.
    #[arg(short = 'z', long = "null")]
    null: bool,
    /// Read the inputs in this encoding (a WHATWG Encoding Standard label:
    /// windows-1252, shift_jis, ...), e.g. a link dump of a page in it;
    /// default UTF-8. The query is still encoded as --charset says.
    #[arg(long, value_name = "LABEL")]
    decode: Option<String>,
    /// An input that is not valid UTF-8 (or not valid in the --decode
    /// encoding) is invalid, instead of being read with U+FFFD replacement.
    #[arg(long)]
    strict_utf8: bool,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// What to do with an invalid URL.
    #[arg(long, value_enum, default_value_t = InvalidPolicy::Blank, value_name = "POLICY")]
    invalid: InvalidPolicy,
    /// Invalid inputs are expected: they do not make the exit status 1
    /// (not with --invalid fail).
    #[arg(long)]
    allow_invalid: bool,
    /// Worker threads (0 = one per CPU). Output order is the input order.
    #[arg(short, long, value_name = "N", default_value_t = 1)]
    jobs: usize,
    /// Print counts, URLs/s and the records written to standard error at
    /// the end.
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
    /// Tab-separated components with a header row; absent = \N; backslash,
    /// TAB, LF, CR written \\, \t, \n, \r, other control octets \xHH.
    Tsv,
    /// One JSON object per line; absent = null.
    Json,
    /// The SURT form of the (ruled) canonical URL (canon only).
    Surt,
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

/// `--charset`, resolved once for the run: the encoding it names (`None`:
/// no label, UTF-8), or `Err` after the library's one message for a label
/// that names no encoding (the library would read it as UTF-8, so a
/// misspelt label would silently mean UTF-8).
fn resolve_charset(label: Option<&str>, diag: &Diag) -> Result<Option<wurl::Charset>, ()> {
    label
        .map(|l| wurl::charset::resolve_label(l.as_bytes()))
        .transpose()
        .map_err(|e| {
            diag.write(&format!("wurl: --charset: {e}\n"));
        })
}

/// The encoding `--decode LABEL` names: `None` for UTF-8 (the default
/// reading), `Err` with the message for a label that is unknown or names an
/// encoding whose lines cannot be found by their LF or NUL octet.
fn input_encoding(label: &str) -> Result<Option<&'static encoding_rs::Encoding>, String> {
    let enc = match wurl::charset::resolve_label(label.as_bytes()) {
        Ok(c) => c.encoding(),
        Err(e) => return Err(format!("wurl: --decode: {e}\n")),
    };
    if enc == encoding_rs::UTF_8 {
        return Ok(None);
    }
    // ISO-2022-JP is not ASCII-compatible in encoding_rs's sense, but LF
    // and NUL are themselves in it and a line returns to ASCII before its
    // end, so it can be read line by line; UTF-16 and the replacement
    // encoding cannot.
    if enc.is_ascii_compatible() || enc == encoding_rs::ISO_2022_JP {
        Ok(Some(enc))
    } else {
        Err(format!(
            "wurl: --decode {}: {} input cannot be read line by line (its line ends are not the octet LF)\n",
            input::quote_value(label),
            enc.name()
        ))
    }
}

/// `e` with every value it quotes cut as messages cut them
/// ([`input::cut_value`]): clap quotes an invalid value (`--model`,
/// `--format`, `-j`, ...) or an unknown argument whole.
fn capped(mut e: clap::Error) -> clap::Error {
    use clap::error::ContextValue;
    let cut = |s: &str| input::cut_value(s).into_owned();
    let long = |s: &str| s.len() > input::QUOTE_MAX;
    let fixed: Vec<_> = e
        .context()
        .filter_map(|(kind, v)| {
            let v = match v {
                ContextValue::String(s) if long(s) => ContextValue::String(cut(s)),
                ContextValue::Strings(v) if v.iter().any(|s| long(s)) => {
                    ContextValue::Strings(v.iter().map(|s| cut(s)).collect())
                }
                ContextValue::StyledStr(s) if long(&s.to_string()) => {
                    ContextValue::StyledStr(cut(&s.to_string()).into())
                }
                ContextValue::StyledStrs(v) if v.iter().any(|s| long(&s.to_string())) => {
                    ContextValue::StyledStrs(v.iter().map(|s| cut(&s.to_string()).into()).collect())
                }
                _ => return None,
            };
            Some((kind, v))
        })
        .collect();
    for (kind, v) in fixed {
        e.insert(kind, v);
    }
    e
}

/// The usage error for a `--base` that `model` reads as invalid: every URL resolved against it
/// would be invalid, so a run could only give empty or skipped output.
fn invalid_base(base: Option<&str>, model: wurl::Model) -> Option<String> {
    let b = base?;
    let why = if model == wurl::Model::UrlStandard {
        wurl::canon_standard_into(None, b, None, &mut String::new())
            .err()?
            .to_string()
    } else {
        wurl::parse(b).invalid_reason()?.to_string()
    };
    Some(format!(
        "wurl: --base is invalid ({why}): {} (every URL resolved against it would be invalid)\n",
        input::quote_value(b)
    ))
}

fn lossy(s: &OsString) -> String {
    input::bytes_to_string(&input::os_bytes(s)).into_owned()
}

/// The Rust entry point, where `sys.rs` does not provide one.
#[cfg(not(all(unix, not(test))))]
fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(run(sys::args(), sys::Streams::default()))
}

/// Writes `text` to standard output; false when it could not be written.
fn print_stdout(text: &[u8], streams: sys::Streams) -> bool {
    if streams.stdout_closed {
        return false;
    }
    let mut out = Output::stdout(b'\n');
    out.push(text).is_ok() && out.flush().is_ok()
}

/// The whole program; returns the exit status. Never panics: a panic (a bug)
/// is caught and gives exit status 2.
pub fn run(args: Vec<OsString>, streams: sys::Streams) -> u8 {
    let diag = Diag::new(streams.stderr_closed);
    let status = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_checked(args, streams, &diag)
    }));
    let status = status.unwrap_or_else(|_| {
        diag.write("wurl: internal error (please report it)\n");
        EXIT_ERROR
    });
    if status != EXIT_ERROR && diag.failed() {
        EXIT_STDERR
    } else {
        status
    }
}

fn run_checked(args: Vec<OsString>, streams: sys::Streams, diag: &Arc<Diag>) -> u8 {
    let (mut rules, mut surt_scheme, mut model) = (None, false, wurl::Model::Canon2012);
    let mut get = None;
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let e = capped(e);
            // --help and --version go to standard output, errors to
            // standard error, both checked (clap's own printing ignores
            // write errors).
            let text = e.render().to_string();
            let code = u8::try_from(e.exit_code()).unwrap_or(EXIT_ERROR);
            let written = if e.use_stderr() {
                diag.write(&text)
            } else {
                print_stdout(text.as_bytes(), streams)
            };
            return if written || e.use_stderr() {
                code
            } else {
                EXIT_ERROR
            };
        }
    };
    let (mode, base, pairs, charset, strict, common) = match cli.command {
        Command::Canon(a) => {
            if let Some(n) = a.key_version.filter(|n| *n != wurl::KEY_VERSION) {
                diag.write(&format!(
                    "wurl: --key-version {n}: this wurl makes keys of version {}; its keys would not be those of version {n}\n",
                    wurl::KEY_VERSION
                ));
                return EXIT_ERROR;
            }
            // Keys (issue 28): the rules are compiled once, here.
            match a.rules.as_deref().map(wurl::Rules::parse).transpose() {
                Ok(r) => rules = r,
                Err(e) => {
                    diag.write(&format!("wurl: --rules: {e}\n"));
                    return EXIT_ERROR;
                }
            }
            surt_scheme = a.surt_scheme;
            model = a.model.model();
            if let Some(t) = &a.get {
                match get::Template::parse(t) {
                    Ok(t) => get = Some(t),
                    Err(msg) => {
                        diag.write(&msg);
                        return EXIT_ERROR;
                    }
                }
                if a.common.format != Format::Text {
                    diag.write(
                        "wurl: --get writes its own line: it cannot be used with --format (tsv, json, surt); {surt} gives the SURT form\n",
                    );
                    return EXIT_ERROR;
                }
            }
            if model == wurl::Model::UrlStandard {
                let why = if a.strict {
                    Some(
                        "--strict tests the 2012 result; it cannot be used with --model url-standard",
                    )
                } else if matches!(a.common.format, Format::Tsv | Format::Json) && get.is_none() {
                    Some("--model url-standard writes the serialization: use --format text or surt")
                } else {
                    None
                };
                if let Some(why) = why {
                    diag.write(&format!("wurl: {why}\n"));
                    return EXIT_ERROR;
                }
            }
            (Mode::Canon, a.base, a.pairs, a.charset, a.strict, a.common)
        }
        Command::Parse(a) => (Mode::Parse, None, false, None, false, a.common),
        Command::Resolve(a) => (Mode::Resolve, a.base, a.pairs, None, false, a.common),
        Command::Compare(a) => return run_compare(a, streams, diag),
        Command::Audit(a) => return run_audit(a, streams, diag),
        Command::Explain(a) => return run_explain(a, streams, diag),
        Command::Generate { what } => {
            let text = generate::generate(what, Cli::command());
            return if print_stdout(&text, streams) {
                EXIT_OK
            } else {
                diag.write("wurl: writing standard output failed\n");
                EXIT_ERROR
            };
        }
    };
    if common.format == Format::Surt && mode != Mode::Canon {
        diag.write("wurl: --format surt is for wurl canon (SURT is of a canonical URL)\n");
        return EXIT_ERROR;
    }
    if surt_scheme && common.format != Format::Surt && get.is_none() {
        diag.write(
            "wurl: --surt-scheme is for --format surt or --get with {surt} (the other formats have no SURT form)\n",
        );
        return EXIT_ERROR;
    }
    if common.allow_invalid && common.invalid == InvalidPolicy::Fail {
        let e = Cli::command().error(
            clap::error::ErrorKind::ArgumentConflict,
            "--allow-invalid cannot be used with --invalid fail",
        );
        diag.write(&e.render().to_string());
        return EXIT_ERROR;
    }
    let Ok(resolved) = resolve_charset(charset.as_deref(), diag) else {
        return EXIT_ERROR;
    };
    let decode = match common.decode.as_deref().map(input_encoding).transpose() {
        Ok(d) => d.flatten(),
        Err(msg) => {
            diag.write(&msg);
            return EXIT_ERROR;
        }
    };
    // Every URL resolved against an invalid base is invalid, so the run
    // could only give empty or skipped output: a usage error, whatever
    // --invalid and --allow-invalid say. The base is read by the model that
    // resolves against it.
    let base_text = base.as_ref().map(lossy);
    if let Some(msg) = invalid_base(base_text.as_deref(), model) {
        diag.write(&msg);
        return EXIT_ERROR;
    }
    let base = base_text.as_deref().map(wurl::parse);
    if streams.stdout_closed {
        diag.write("wurl: standard output is closed: nothing can be written\n");
        return EXIT_ERROR;
    }
    let jobs = if common.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        common.jobs
    };
    let sep = if common.null { b'\0' } else { b'\n' };
    let Some(source) = open_source(common.urls, common.input.as_deref(), sep, &streams, diag)
    else {
        return EXIT_ERROR;
    };
    let progress = !common.no_progress && !streams.stderr_closed && io::stderr().is_terminal();
    let ctx = Ctx {
        mode,
        base,
        base_text,
        model,
        charset,
        opts: wurl::ResolvedOptions::new(resolved, strict),
        rules,
        surt: (common.format == Format::Surt || get.is_some()).then_some(wurl::surt::SurtOptions {
            with_scheme: surt_scheme,
        }),
        format: common.format,
        invalid: common.invalid,
        quiet: common.quiet,
        arg_numbers: source.is_args(),
        end: char::from(sep),
        pairs,
        decode,
        strict_utf8: common.strict_utf8,
        get,
    };
    let outcome = pipeline::run(ctx, source, jobs, progress, Output::stdout(sep), diag);
    if common.stats {
        diag.write(&outcome.stats_line());
    }
    if let Some(e) = &outcome.error {
        diag.write(&format!("wurl: {e}\n"));
        return EXIT_ERROR;
    }
    if diag.lost() > 0 {
        // Standard error may work again (a full disk that was freed).
        diag.write(&format!(
            "wurl: {} messages could not be written to standard error\n",
            diag.lost()
        ));
    }
    if outcome.counts.invalid > 0 && !common.allow_invalid {
        EXIT_INVALID
    } else {
        EXIT_OK
    }
}

/// `wurl compare`.
/// Where the inputs come from: the URLs given as arguments, else the
/// `--input` file (`-` is standard input), else standard input, records
/// separated by `sep`. `None` (the reason written) when it cannot be read.
fn open_source(
    urls: Vec<OsString>,
    input: Option<&std::path::Path>,
    sep: u8,
    streams: &sys::Streams,
    diag: &Diag,
) -> Option<Source> {
    if !urls.is_empty() {
        return Some(Source::args(urls));
    }
    if let Some(path) = input.filter(|p| p.as_os_str() != "-") {
        return Source::file(path, sep)
            .map_err(|e| {
                let name = input::quote_value(input::os_bytes(path.as_os_str()));
                diag.write(&format!("wurl: {name}: {e}\n"))
            })
            .ok();
    }
    if streams.stdin_closed {
        diag.write("wurl: standard input is closed\n");
        return None;
    }
    Source::stdin(sep)
        .map_err(|e| diag.write(&format!("wurl: standard input: {e}\n")))
        .ok()
}

fn run_explain(a: ExplainArgs, streams: sys::Streams, diag: &Arc<Diag>) -> u8 {
    if resolve_charset(a.charset.as_deref(), diag).is_err() {
        return EXIT_ERROR;
    }
    let rules = match a.rules.as_deref().map(wurl::Rules::parse).transpose() {
        Ok(r) => r,
        Err(e) => {
            diag.write(&format!("wurl: --rules: {e}\n"));
            return EXIT_ERROR;
        }
    };
    let model = a.model.model();
    if a.strict && model == wurl::Model::UrlStandard {
        diag.write(
            "wurl: --strict tests the 2012 result; it cannot be used with --model url-standard\n",
        );
        return EXIT_ERROR;
    }
    // As for `canon`: every URL resolved against an invalid base is invalid.
    let base = a.base.as_ref().map(lossy);
    if let Some(msg) = invalid_base(base.as_deref(), model) {
        diag.write(&msg);
        return EXIT_ERROR;
    }
    if streams.stdout_closed {
        diag.write("wurl: standard output is closed: nothing can be written\n");
        return EXIT_ERROR;
    }
    if a.urls.len() > 2 {
        diag.write(&format!(
            "wurl: explain takes one URL, or two to compare; {} were given (--pairs reads URL1<TAB>URL2 lines)\n",
            a.urls.len()
        ));
        return EXIT_ERROR;
    }
    let Some(source) = open_source(a.urls, a.input.as_deref(), b'\n', &streams, diag) else {
        return EXIT_ERROR;
    };
    let ctx = explain::ExplainCtx {
        base,
        pairs: a.pairs,
        charset: a.charset,
        strict: a.strict,
        model,
        rules,
        json: a.format == ExplainFormat::Json,
    };
    explain::run(&ctx, source, diag)
}

fn run_audit(a: AuditArgs, streams: sys::Streams, diag: &Arc<Diag>) -> u8 {
    let Ok(resolved) = resolve_charset(a.charset.as_deref(), diag) else {
        return EXIT_ERROR;
    };
    if streams.stdout_closed {
        diag.write("wurl: standard output is closed: nothing can be written\n");
        return EXIT_ERROR;
    }
    let Some(source) = open_source(a.urls, a.input.as_deref(), b'\n', &streams, diag) else {
        return EXIT_ERROR;
    };
    let progress = !a.no_progress && !streams.stderr_closed && io::stderr().is_terminal();
    let ctx = audit::AuditCtx {
        base: a.base.as_ref().map(lossy),
        pairs: a.pairs,
        charset: a.charset,
        opts: wurl::ResolvedOptions::new(resolved, false),
        model: a.model.model(),
        spec: a.rules,
        json: a.format == CompareFormat::Json,
        html: a.format == CompareFormat::Html,
        examples: a.examples,
        max_keys: a.max_keys,
        max_groups: a.max_groups,
    };
    audit::run(&ctx, source, progress, diag)
}

fn run_compare(a: CompareArgs, streams: sys::Streams, diag: &Arc<Diag>) -> u8 {
    let Ok(resolved) = resolve_charset(a.charset.as_deref(), diag) else {
        return EXIT_ERROR;
    };
    if streams.stdout_closed {
        diag.write("wurl: standard output is closed: nothing can be written\n");
        return EXIT_ERROR;
    }
    let Some(source) = open_source(a.urls, a.input.as_deref(), b'\n', &streams, diag) else {
        return EXIT_ERROR;
    };
    let progress = !a.no_progress && !streams.stderr_closed && io::stderr().is_terminal();
    if a.show_all && a.format == CompareFormat::Html {
        diag.write(
            "wurl: --show-all is for the text and json formats (an HTML page holds the examples)\n",
        );
        return EXIT_ERROR;
    }
    let ctx = compare::CompareCtx {
        base: a.base.as_ref().map(lossy),
        pairs: a.pairs,
        charset: a.charset,
        opts: wurl::ResolvedOptions::new(resolved, false),
        json: a.format == CompareFormat::Json,
        html: a.format == CompareFormat::Html,
        show_all: a.show_all,
        examples: a.examples,
    };
    compare::run(&ctx, source, progress, diag)
}
