//! Times the library's bulk path (`wurl::canon_into`) over the lines of a
//! file, the baseline for the throughput of `wurl canon`:
//!
//! ```sh
//! cargo run --release -p wurl-cli --example bulk_timing -- bench/data/kasztp.txt
//! time target/release/wurl canon < bench/data/kasztp.txt > /dev/null
//! ```
//!
//! The lines are read and decoded up front (as the tool does, BOM and CR
//! dropped), so only canonicalization is timed. Prints the best of N runs.

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "bench/data/kasztp.txt".into());
    let runs: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(10);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    let opts = wurl::CanonOptions::default();
    let mut out = String::with_capacity(1 << 20);
    let mut best = f64::INFINITY;
    let mut invalid = 0;
    for _ in 0..runs {
        invalid = 0;
        let t = Instant::now();
        for (i, l) in lines.iter().enumerate() {
            if wurl::canon_into(None, l, &opts, &mut out).is_err() {
                invalid += 1;
            }
            out.push('\n');
            if i % 2048 == 2047 {
                out.clear();
            }
        }
        out.clear();
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "canon_into: {} URLs ({invalid} invalid), best of {runs}: {:.2} ms, {:.0} ns/URL, {:.0} URLs/s",
        lines.len(),
        best * 1e3,
        best * 1e9 / lines.len() as f64,
        lines.len() as f64 / best
    );
}
