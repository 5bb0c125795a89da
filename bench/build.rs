//! Probes for the optional peers (libcurl's URL API and uriparser) with
//! pkg-config and enables `cfg(wurl_bench_curl)` / `cfg(wurl_bench_uriparser)`
//! for the ones found, so that a machine without them still builds.
//!
//! Set `WURL_BENCH_NO_CURL=1` or `WURL_BENCH_NO_URIPARSER=1` to leave one out
//! even when it is installed.

use std::env;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(wurl_bench_curl)");
    println!("cargo::rustc-check-cfg=cfg(wurl_bench_curl_punycode)");
    println!("cargo::rustc-check-cfg=cfg(wurl_bench_uriparser)");
    println!("cargo::rerun-if-env-changed=WURL_BENCH_NO_CURL");
    println!("cargo::rerun-if-env-changed=WURL_BENCH_NO_URIPARSER");
    println!("cargo::rerun-if-changed=build.rs");

    // The versions of the Rust peers, for the report's header.
    let lock_path = std::path::Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap())
        .join("..")
        .join("Cargo.lock");
    println!("cargo::rerun-if-changed={}", lock_path.display());
    let lock = std::fs::read_to_string(&lock_path).unwrap_or_default();
    for (krate, var) in [
        ("ada-url", "WURL_BENCH_ADA_VERSION"),
        ("url", "WURL_BENCH_URL_VERSION"),
    ] {
        let v = locked_version(&lock, krate).unwrap_or_else(|| "?".to_owned());
        println!("cargo::rustc-env={var}={v}");
    }

    let off = |var: &str| env::var_os(var).is_some_and(|v| !v.is_empty() && v != "0");

    // curl_url() and friends appeared in 7.62.0; CURLU_PUNYCODE in 7.88.0.
    if !off("WURL_BENCH_NO_CURL") {
        match pkg_config::Config::new()
            .atleast_version("7.62.0")
            .probe("libcurl")
        {
            Ok(lib) => {
                println!("cargo::rustc-cfg=wurl_bench_curl");
                if version_at_least(&lib.version, &[7, 88, 0]) {
                    println!("cargo::rustc-cfg=wurl_bench_curl_punycode");
                }
                println!("cargo::rustc-env=WURL_BENCH_CURL_VERSION={}", lib.version);
            }
            Err(e) => println!("cargo::warning=libcurl not found, curl row left out: {e}"),
        }
    }

    if !off("WURL_BENCH_NO_URIPARSER") {
        match pkg_config::Config::new()
            .atleast_version("0.9.0")
            .probe("liburiparser")
        {
            Ok(lib) => {
                println!("cargo::rustc-cfg=wurl_bench_uriparser");
                println!(
                    "cargo::rustc-env=WURL_BENCH_URIPARSER_VERSION={}",
                    lib.version
                );
            }
            Err(e) => {
                println!("cargo::warning=liburiparser not found, uriparser row left out: {e}")
            }
        }
    }
}

fn version_at_least(version: &str, min: &[u32]) -> bool {
    let have: Vec<u32> = version
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap_or(0))
        .collect();
    for (i, &m) in min.iter().enumerate() {
        let h = have.get(i).copied().unwrap_or(0);
        if h != m {
            return h > m;
        }
    }
    true
}

/// The version of `krate` in a Cargo.lock (the first one, if several).
fn locked_version(lock: &str, krate: &str) -> Option<String> {
    let mut lines = lock.lines();
    let want = format!("name = \"{krate}\"");
    while let Some(l) = lines.next() {
        if l.trim() == want {
            let v = lines.next()?.trim().strip_prefix("version = ")?;
            return Some(v.trim_matches('"').to_owned());
        }
    }
    None
}
