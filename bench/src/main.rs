//! `wurl-bench`: times wurl side by side with ada-url, rust-url and (when
//! installed at build time) curl and uriparser over the datasets of
//! `bench/data/`. See `bench/README.md`.
//!
//! Each dataset is loaded into memory once. One *sample* is one library
//! handling every URL of the dataset once (or, on a links dataset, resolving
//! every link against its page), single-threaded. Every
//! repetition takes one sample of every library, in an order that rotates
//! from one repetition to the next (so no library always runs first or after
//! the same neighbour); the report gives the median over the repetitions.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use wurl_bench::{
    DATASETS, Dataset, Kind, Lib, Scratch, default_data_dir, link_outputs, output, run,
    thread_cpu_time,
};

/// How a sample is timed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Clock {
    /// The benchmark thread's CPU time ([`thread_cpu_time`]).
    Cpu,
    /// Wall-clock time ([`Instant`]).
    Wall,
}

impl Clock {
    /// Runs `f` and returns its result and how long it took on this clock.
    fn time<R>(self, f: impl FnOnce() -> R) -> (R, Duration) {
        match self {
            Clock::Cpu => {
                let t0 = thread_cpu_time().unwrap_or_default();
                let r = f();
                let t1 = thread_cpu_time().unwrap_or_default();
                (r, t1.saturating_sub(t0))
            }
            Clock::Wall => {
                let t0 = Instant::now();
                let r = f();
                (r, t0.elapsed())
            }
        }
    }
}

const USAGE: &str = "\
usage: wurl-bench [options]

  --reps N           repetitions (timed samples per library), default 11;
                     the median is reported
  --warmup N         untimed passes per library before timing, default 1
  --dataset D[,D..]  dataset names (kasztp, node_files, idn_synth,
                     pagewritten, pagehard, hrefs, links_synth) or paths of
                     files: one URL per line; for a file named *.esc.txt, one
                     URL per line with \t, \n, \r and \\ decoded; for a file
                     named *.tsv, page<TAB>link per line (the links
                     operation); repeatable; default all
  --libs L[,L..]     libraries to run (see --list); default all
  --data-dir DIR     where the named datasets are (default bench/data)
  --clock C          what a sample's time is: cpu (the thread's CPU time,
                     the default where available: Linux) or wall
  --markdown         print the tables as Markdown
  --check            do not time: compare the outputs (the wurl paths
                     with each other, and each peer with wurl-into)
  --examples N       with --check: how many differing URLs to show, default 3
  --list             list the libraries and datasets and exit
  -h, --help         this text

Run it as: cargo run --release -p wurl-bench -- [options]";

struct Args {
    reps: usize,
    warmup: usize,
    datasets: Vec<String>,
    libs: Vec<Lib>,
    data_dir: PathBuf,
    markdown: bool,
    check: bool,
    clock: Clock,
    examples: usize,
}

fn parse_args() -> Result<Option<Args>, String> {
    let mut a = Args {
        reps: 11,
        warmup: 1,
        datasets: Vec::new(),
        libs: Vec::new(),
        data_dir: default_data_dir(),
        markdown: false,
        check: false,
        clock: if thread_cpu_time().is_some() {
            Clock::Cpu
        } else {
            Clock::Wall
        },
        examples: 3,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let (key, inline) = match arg.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| format!("{key} needs a value"))
        };
        let number = |v: String| {
            v.parse::<usize>()
                .map_err(|_| format!("{key}: not a number: {v}"))
        };
        match key.as_str() {
            "--reps" => a.reps = number(value()?)?.max(1),
            "--warmup" => a.warmup = number(value()?)?,
            "--examples" => a.examples = number(value()?)?,
            "--dataset" | "--datasets" => a.datasets.extend(
                value()?
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned),
            ),
            "--libs" | "--lib" => {
                for name in value()?.split(',').filter(|s| !s.is_empty()) {
                    let lib = Lib::from_name(name)
                        .ok_or_else(|| format!("unknown library {name:?} (see --list)"))?;
                    if !a.libs.contains(&lib) {
                        a.libs.push(lib);
                    }
                }
            }
            "--data-dir" => a.data_dir = PathBuf::from(value()?),
            "--clock" => {
                a.clock = match value()?.as_str() {
                    "cpu" if thread_cpu_time().is_some() => Clock::Cpu,
                    "cpu" => return Err("--clock cpu: no thread CPU clock here".into()),
                    "wall" => Clock::Wall,
                    v => return Err(format!("--clock: want cpu or wall, not {v:?}")),
                }
            }
            "--markdown" => a.markdown = true,
            "--check" => a.check = true,
            "--list" => {
                println!("libraries (URL lists / links datasets):");
                for &lib in Lib::ALL {
                    println!("  {:<14} {}", lib.name(), lib.describe());
                    println!("  {:<14} links: {}", "", lib.describe_links());
                }
                println!("datasets: {}", DATASETS.join(", "));
                return Ok(None);
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(None);
            }
            _ => return Err(format!("unknown argument {arg:?}\n\n{USAGE}")),
        }
    }
    if a.datasets.is_empty() {
        a.datasets = DATASETS.iter().map(|s| (*s).to_owned()).collect();
    }
    if a.libs.is_empty() {
        a.libs = Lib::ALL.to_vec();
    }
    // Report order is the order of Lib::ALL, whatever the command line said.
    a.libs.sort_by_key(|l| Lib::ALL.iter().position(|x| x == l));
    Ok(Some(a))
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(Some(a)) => a,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wurl-bench: {e}");
            return ExitCode::from(2);
        }
    };
    print_header(&args);
    let mut failed = false;
    // `--check`: what the fast exits took of all the datasets checked.
    let mut taken = (0usize, 0usize);
    for spec in &args.datasets {
        let ds = match Dataset::load(spec, &args.data_dir) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("wurl-bench: {e}");
                return ExitCode::FAILURE;
            }
        };
        if args.check {
            let (ok, share) = check(&args, &ds);
            failed |= !ok;
            taken.0 += share.0;
            taken.1 += share.1;
        } else {
            let results = bench(&args, &ds);
            print_table(&args, &ds, &results);
        }
    }
    if let Some(load) = load_average().filter(|_| !args.check) {
        println!("\nload average (1 min) at the end: {load}");
    }
    if args.check {
        let share = taken.0 as f64 / taken.1.max(1) as f64;
        let ok = share >= FAST_EXIT_FLOOR;
        println!(
            "\nfast exits, all datasets: {} of {} ({:.1} %, at least {:.0} %): {}",
            taken.0,
            taken.1,
            100.0 * share,
            100.0 * FAST_EXIT_FLOOR,
            if ok { "ok" } else { "FAILED" }
        );
        failed |= !ok;
    }
    if failed {
        println!("\ncheck FAILED");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn print_header(args: &Args) {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let mut peers = vec![
        format!("ada-url {}", env!("WURL_BENCH_ADA_VERSION")),
        format!("url {}", env!("WURL_BENCH_URL_VERSION")),
    ];
    if let Some(v) = option_env!("WURL_BENCH_CURL_VERSION") {
        peers.push(format!("libcurl {v}"));
    }
    if let Some(v) = option_env!("WURL_BENCH_URIPARSER_VERSION") {
        peers.push(format!("uriparser {v}"));
    }
    println!("wurl {} vs {}", wurl::VERSION, peers.join(", "));
    println!("cpu: {cpu}");
    if args.check {
        println!("mode: --check (outputs compared, nothing timed)");
    } else {
        println!(
            "{} rep(s) (median reported), {} warm-up pass(es), single-threaded, libraries interleaved, {}",
            args.reps,
            args.warmup,
            match args.clock {
                Clock::Cpu => "thread CPU time",
                Clock::Wall => "wall-clock time",
            }
        );
        if let Some(load) = load_average() {
            println!("load average (1 min) at start: {load}");
        }
        if args.reps < 11 {
            println!("note: fewer than 11 repetitions; numbers are indicative only");
        }
        if cfg!(debug_assertions) {
            println!("WARNING: debug build; run with --release");
        }
    }
}

/// The 1-minute load average (Linux), to say how busy the machine was.
fn load_average() -> Option<String> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
}

struct LibResult {
    lib: Lib,
    median: Duration,
    min: Duration,
    accepted: usize,
    /// The accepted count changed between passes (it should not).
    unstable: bool,
}

fn bench(args: &Args, ds: &Dataset) -> Vec<LibResult> {
    let libs = &args.libs;
    let mut scratch: Vec<Scratch> = libs.iter().map(|_| Scratch::default()).collect();
    let mut accepted: Vec<Option<usize>> = vec![None; libs.len()];
    let mut unstable = vec![false; libs.len()];
    let mut record = |i: usize, n: usize| match accepted[i] {
        None => accepted[i] = Some(n),
        Some(a) if a != n => unstable[i] = true,
        Some(_) => {}
    };
    let progress = std::io::stderr().is_terminal();

    for _ in 0..args.warmup {
        for (i, &lib) in libs.iter().enumerate() {
            let n = run(lib, ds, &mut scratch[i]);
            record(i, n);
        }
    }
    let mut samples: Vec<Vec<Duration>> = vec![Vec::with_capacity(args.reps); libs.len()];
    for rep in 0..args.reps {
        if progress {
            eprint!("\r{}: repetition {}/{}  ", ds.name, rep + 1, args.reps);
            let _ = std::io::stderr().flush();
        }
        for k in 0..libs.len() {
            let i = (rep + k) % libs.len();
            let (n, dt) = args.clock.time(|| run(libs[i], ds, &mut scratch[i]));
            samples[i].push(dt);
            record(i, n);
        }
    }
    if progress {
        eprint!("\r{:60}\r", "");
    }
    libs.iter()
        .enumerate()
        .map(|(i, &lib)| {
            let s = &mut samples[i];
            s.sort_unstable();
            LibResult {
                lib,
                median: median(s),
                min: s[0],
                accepted: accepted[i].unwrap_or(0),
                unstable: unstable[i],
            }
        })
        .collect()
}

/// The median of sorted samples (the mean of the middle two for an even count).
fn median(sorted: &[Duration]) -> Duration {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}

fn print_table(args: &Args, ds: &Dataset, results: &[LibResult]) {
    let n = ds.urls().len();
    let per_url = |d: Duration| d.as_secs_f64() * 1e9 / n.max(1) as f64;
    let ada = results.iter().find(|r| r.lib == Lib::Ada).map(|r| r.median);
    let rust_url = results
        .iter()
        .find(|r| r.lib == Lib::RustUrl)
        .map(|r| r.median);
    let ratio = |d: Duration, to: Option<Duration>| match to {
        Some(t) if !t.is_zero() => format!("{:.2}x", d.as_secs_f64() / t.as_secs_f64()),
        _ => "-".to_owned(),
    };

    let (per, min_per) = match ds.kind() {
        Kind::Urls => ("ns/URL", "min ns/URL"),
        Kind::Links => ("ns/link", "min ns/link"),
    };
    let head = vec![
        "library", per, min_per, "MB/s", "vs ada", "vs url", "accepted",
    ];
    let rows: Vec<Vec<String>> = results
        .iter()
        .map(|r| {
            let mb_s = ds.bytes as f64 / r.median.as_secs_f64().max(1e-12) / 1e6;
            let mut row = vec![
                r.lib.name().to_owned(),
                format!("{:.1}", per_url(r.median)),
                format!("{:.1}", per_url(r.min)),
                format!("{mb_s:.1}"),
                ratio(r.median, ada),
                ratio(r.median, rust_url),
            ];
            row.push(format!(
                "{} ({:.1}%){}",
                r.accepted,
                100.0 * r.accepted as f64 / n.max(1) as f64,
                if r.unstable { " UNSTABLE" } else { "" }
            ));
            row
        })
        .collect();

    println!();
    match ds.kind() {
        Kind::Urls => println!(
            "dataset {}: {} URLs, {} bytes ({:.1} B/URL)",
            ds.name,
            n,
            ds.bytes,
            ds.bytes as f64 / n.max(1) as f64
        ),
        Kind::Links => println!(
            "dataset {} (links: each link resolved against its page): {} links on {} pages, \
             {} bytes (links + each page once)",
            ds.name,
            n,
            ds.pages().len(),
            ds.bytes,
        ),
    }
    if args.markdown {
        println!("| {} |", head.join(" | "));
        let align: Vec<&str> = head
            .iter()
            .map(|h| if *h == "library" { "---" } else { "---:" })
            .collect();
        println!("|{}|", align.join("|"));
        for row in &rows {
            println!("| {} |", row.join(" | "));
        }
    } else {
        let widths: Vec<usize> = (0..head.len())
            .map(|c| {
                rows.iter()
                    .map(|r| r[c].len())
                    .chain([head[c].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: &[&str]| {
            let mut s = String::new();
            for (c, cell) in cells.iter().enumerate() {
                if c == 0 {
                    s.push_str(&format!("{cell:<w$}", w = widths[c]));
                } else {
                    s.push_str(&format!("  {cell:>w$}", w = widths[c]));
                }
            }
            println!("{}", s.trim_end());
        };
        line(&head);
        for row in &rows {
            line(&row.iter().map(String::as_str).collect::<Vec<_>>());
        }
    }
}

/// The least share of the datasets checked that the fast exits must take
/// for `--check` to pass: of the ASCII canonical forms of a URL list, those
/// the recognizer accepts; of a links file's links, those the merge answers
/// against their page. They decline only shapes that are rare in these
/// URLs (user information, segments that start with `.`, absolute links
/// that are not canonical); below this, a change has cost them the input
/// they are for.
const FAST_EXIT_FLOOR: f64 = 0.99;

/// The least share of each dataset on its own: lower, for a set where
/// those shapes are less rare.
const FAST_EXIT_FLOOR_EACH: f64 = 0.97;

/// `--check`: the wurl paths must give the same output, and the fast
/// exits must take at least [`FAST_EXIT_FLOOR_EACH`] of the dataset; each
/// peer is compared with wurl-into (informative: the algorithms differ). On
/// a links dataset each library is called as its timed runner calls it (the
/// page parsed once, where its API allows), page by page. Returns whether
/// the checks passed, and what the fast exits took: `(taken, of)`.
fn check(args: &Args, ds: &Dataset) -> (bool, (usize, usize)) {
    let libs: Vec<Lib> = args
        .libs
        .iter()
        .copied()
        .filter(|&l| l != Lib::Floor)
        .collect();
    let mut scratch = Scratch::default();
    // The rows that must give wurl-into's output: the same canonicalization
    // through other calls (a charset label that means UTF-8 is the default).
    let wurl_paths = [
        Lib::WurlInto,
        Lib::WurlIntoUtf8,
        Lib::WurlHandle,
        Lib::WurlRust,
    ];
    let mut wurl_disagree = 0usize;
    let mut examples = Vec::new();
    // Per library: (accepted, same output as wurl-into).
    let mut stats = vec![(0usize, 0usize); libs.len()];
    // One item: what to show for it, each library's output, wurl-into's.
    let mut compare = |shown: String, outs: &[Option<String>], reference: &Option<String>| {
        let paths = libs
            .iter()
            .zip(outs)
            .filter(|(l, _)| wurl_paths.contains(l));
        if paths.clone().any(|(_, o)| o != reference) {
            wurl_disagree += 1;
            if examples.len() < args.examples {
                let lines: Vec<String> = paths
                    .map(|(l, o)| format!("    {:<14} {o:?}", l.name()))
                    .collect();
                examples.push(format!("  {shown}\n{}", lines.join("\n")));
            }
        }
        for (i, o) in outs.iter().enumerate() {
            if o.is_some() {
                stats[i].0 += 1;
                if o == reference {
                    stats[i].1 += 1;
                }
            }
        }
    };
    match ds.kind() {
        Kind::Urls => {
            for &u in ds.urls() {
                let outs: Vec<Option<String>> =
                    libs.iter().map(|&l| output(l, u, &mut scratch)).collect();
                let reference = output(Lib::WurlInto, u, &mut scratch);
                compare(format!("{u:?}"), &outs, &reference);
            }
        }
        Kind::Links => {
            for p in ds.pages() {
                let links = &ds.urls()[p.links.clone()];
                let mut outs_by_lib: Vec<Vec<Option<String>>> = libs
                    .iter()
                    .map(|&l| link_outputs(l, p.url, links, &mut scratch))
                    .collect();
                let reference = link_outputs(Lib::WurlInto, p.url, links, &mut scratch);
                for (k, &link) in links.iter().enumerate() {
                    let outs: Vec<Option<String>> = outs_by_lib
                        .iter_mut()
                        .map(|o| std::mem::take(&mut o[k]))
                        .collect();
                    compare(
                        format!("page {:?} link {link:?}", p.url),
                        &outs,
                        &reference[k],
                    );
                }
            }
        }
    }
    let n = ds.urls().len();
    let what = match ds.kind() {
        Kind::Urls => "URL(s)",
        Kind::Links => "link(s)",
    };
    println!();
    match ds.kind() {
        Kind::Urls => println!("dataset {}: {n} URLs", ds.name),
        Kind::Links => println!(
            "dataset {} (links): {n} links on {} pages",
            ds.name,
            ds.pages().len()
        ),
    }
    let compared: Vec<&str> = libs
        .iter()
        .filter(|l| wurl_paths.contains(l))
        .map(|l| l.name())
        .collect();
    println!(
        "  wurl paths ({}) disagree on {wurl_disagree} {what}",
        compared.join(" / ")
    );
    for e in &examples {
        println!("{e}");
    }
    println!(
        "  {:<14} {:>9} {:>22}",
        "library", "accepted", "same output as wurl"
    );
    for (i, &lib) in libs.iter().enumerate() {
        println!("  {:<14} {:>9} {:>22}", lib.name(), stats[i].0, stats[i].1);
    }
    let (taken, of, what) = fast_exit_share(ds);
    let share = taken as f64 / of.max(1) as f64;
    let ok = share >= FAST_EXIT_FLOOR_EACH;
    println!(
        "  fast exits: {taken} of {of} {what} ({:.1} %, at least {:.0} %): {}",
        100.0 * share,
        100.0 * FAST_EXIT_FLOOR_EACH,
        if ok { "ok" } else { "FAILED" }
    );
    (ok && wurl_disagree == 0, (taken, of))
}

/// How much of `ds` the fast exits take: `(taken, of, what)`.
fn fast_exit_share(ds: &Dataset) -> (usize, usize, &'static str) {
    let opts = wurl::CanonOptions::default();
    match ds.kind() {
        Kind::Urls => {
            let (mut taken, mut of) = (0, 0);
            let mut y = String::new();
            for &u in ds.urls() {
                y.clear();
                // The recognizer reads ASCII only (non-ASCII input is decoded
                // first): a canonical form that keeps a fragment's non-ASCII
                // characters is not for it.
                if wurl::canon_into(None, u, &opts, &mut y).is_ok() && y.is_ascii() {
                    of += 1;
                    taken += usize::from(wurl::api::fast_exit_taken(None, &y));
                }
            }
            (taken, of, "ASCII canonical forms recognized")
        }
        Kind::Links => {
            let mut taken = 0;
            for p in ds.pages() {
                let page = wurl::parse(p.url);
                taken += ds.urls()[p.links.clone()]
                    .iter()
                    .filter(|l| wurl::api::fast_exit_taken(Some(&page), l))
                    .count();
            }
            (taken, ds.urls().len(), "links merged")
        }
    }
}
