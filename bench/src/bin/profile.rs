//! `wurl-profile`: runs one wurl entry point (by default `wurl_canon_into`
//! through the C ABI) over one dataset N times and nothing else (on a links
//! dataset, each link resolved against its page), for use
//! under `perf record` or `valgrind --tool=callgrind`. See `bench/README.md`.

use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use wurl_bench::{Dataset, Lib, Scratch, default_data_dir, run};

const USAGE: &str = "\
usage: wurl-profile [options]

  --dataset D     a dataset name (kasztp, node_files, idn_synth, pagewritten, pagehard,
                  hrefs, links_synth) or a path of a file with one URL per line (named
                  *.esc.txt: with \t, \n, \r, \\ escapes; named *.tsv: page<TAB>link
                  per line); default kasztp
  --iters N       passes over the dataset, default 20
  --lib L         what to run: wurl-into (default), wurl-handle, wurl-rust,
                  or any other library of wurl-bench --list
  --data-dir DIR  where the named datasets are (default bench/data)
  --print0        run nothing: write the dataset's URLs (links) as the benchmark
                  feeds them, each followed by a NUL (for `wurl canon -z`)
  -h, --help      this text";

fn main() -> ExitCode {
    let mut dataset = "kasztp".to_owned();
    let mut iters = 20usize;
    let mut lib = Lib::WurlInto;
    let mut data_dir = default_data_dir();
    let mut print0 = false;
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().unwrap_or_default();
        match arg.as_str() {
            "--dataset" => dataset = value(),
            "--iters" => match value().parse() {
                Ok(n) => iters = n,
                Err(_) => return usage_error("--iters needs a number"),
            },
            "--lib" | "--api" => {
                let v = value();
                match Lib::from_name(&v) {
                    Some(l) => lib = l,
                    None => return usage_error(&format!("unknown library {v:?}")),
                }
            }
            "--data-dir" => data_dir = value().into(),
            "--print0" => print0 = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ => return usage_error(&format!("unknown argument {arg:?}")),
        }
    }
    let ds = match Dataset::load(&dataset, &data_dir) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("wurl-profile: {e}");
            return ExitCode::FAILURE;
        }
    };
    if print0 {
        // The decoded bytes (an escaped list's TAB, LF and CR as they are):
        // what the library gets from the benchmark, so that another program
        // can be given the same inputs.
        let mut out = Vec::with_capacity(ds.bytes + ds.urls().len());
        for u in ds.urls() {
            out.extend_from_slice(u.as_bytes());
            out.push(0);
        }
        if std::io::stdout().write_all(&out).is_err() {
            eprintln!("wurl-profile: cannot write the output");
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    let mut scratch = Scratch::default();
    let t = Instant::now();
    let mut accepted = 0;
    for _ in 0..iters {
        accepted = run(lib, &ds, &mut scratch);
    }
    let dt = t.elapsed();
    // URLs, or links of a links dataset.
    let calls = ds.urls().len() * iters;
    println!(
        "{}: {} x {} URLs ({} bytes) with {}: {:.3} s, {:.1} ns/URL, {} accepted per pass",
        ds.name,
        iters,
        ds.urls().len(),
        ds.bytes,
        lib.name(),
        dt.as_secs_f64(),
        dt.as_secs_f64() * 1e9 / calls.max(1) as f64,
        accepted
    );
    ExitCode::SUCCESS
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("wurl-profile: {msg}\n\n{USAGE}");
    ExitCode::from(2)
}
