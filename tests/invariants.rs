//! The invariants of PLAN.md section 5 (`tests/common/invariants.rs`) over
//! (a) every input of the conformance suite and the fuzz corpus, and
//! (b) proptest properties on generated URL-like strings.
//!
//! `WURL_FUZZ_SEEDS=1 cargo test --test invariants corpus_replay` also writes
//! every conformance input into `fuzz/corpus/<target>/` as the fuzzers' seed
//! corpus (`scripts/fuzz.sh` does this).

#[path = "common/dat.rs"]
#[allow(dead_code)]
mod dat;
#[path = "common/datasets.rs"]
mod datasets;
#[path = "common/invariants.rs"]
mod invariants;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use invariants::alloc::CountingAlloc;
use invariants::{Differential, check_all};
use proptest::prelude::*;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// The fuzz targets, which share one input format
/// (`invariants::FuzzCase::from_bytes`).
const TARGETS: [&str; 5] = ["parse", "resolve", "canonicalize", "c_abi", "differential"];

/// One input of the suite: `(data, base, charset)`; an empty base means
/// "resolve against the input itself", as the conformance judge does.
type Triple = (String, Option<String>, Option<String>);

fn conformance_inputs() -> Vec<Triple> {
    let mut files: Vec<String> = dat::canon_files();
    files.push("parsing.dat".into());
    files.push("resolving.dat".into());
    let mut set: BTreeSet<Triple> = BTreeSet::new();
    for f in &files {
        for t in dat::load(f) {
            let data = t.get("data").unwrap_or("").to_owned();
            let base = t.get("base").filter(|b| !b.is_empty()).map(str::to_owned);
            let charset = t.get("charset").map(str::to_owned);
            if let Some(b) = &base {
                // Each base is also an input of its own.
                set.insert((b.clone(), None, None));
            }
            set.insert((data, base, charset));
        }
    }
    let tsv = std::fs::read_to_string(dat::data_dir().join("url_to_canon_url.tsv")).unwrap();
    let field = |s: &str| -> Option<String> {
        (s != "\\N")
            .then(|| dat::unescape(&s.replace("\\\\", "\u{E000}")).replace('\u{E000}', "\\"))
    };
    for line in tsv
        .lines()
        .filter(|l| !l.starts_with("# ") && !l.is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        set.insert((
            field(cols[0]).unwrap_or_default(),
            field(cols[1]),
            field(cols[2]),
        ));
    }
    set.into_iter().collect()
}

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// Every file of `fuzz/corpus/*/` and `fuzz/regressions/`.
fn fuzz_files() -> Vec<PathBuf> {
    let mut v = Vec::new();
    let mut dirs = vec![fuzz_dir().join("regressions"), fuzz_dir().join("seeds")];
    if let Ok(rd) = std::fs::read_dir(fuzz_dir().join("corpus")) {
        dirs.extend(rd.filter_map(|e| e.ok()).map(|e| e.path()));
    }
    for d in dirs {
        if let Ok(rd) = std::fs::read_dir(&d) {
            // `conf-*` files are the conformance inputs written as seeds,
            // replayed above already.
            v.extend(rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| {
                p.is_file()
                    && !p
                        .file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with("conf-"))
            }));
        }
    }
    v.sort();
    v
}

fn write_seeds(inputs: &[Triple]) {
    for t in TARGETS {
        let dir = fuzz_dir().join("corpus").join(t);
        std::fs::create_dir_all(&dir).unwrap();
        for (data, base, charset) in inputs {
            let case = invariants::FuzzCase {
                input: data.clone().into_bytes(),
                base: base.clone().map(String::into_bytes),
                charset: charset.clone().unwrap_or_default().into_bytes(),
                control: [0; 4],
            };
            let bytes = case.to_bytes();
            let name = format!("conf-{:016x}", fnv1a(&bytes));
            std::fs::write(dir.join(name), bytes).unwrap();
        }
    }
}

fn fnv1a(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf29ce484222325u64, |h, &c| {
        (h ^ c as u64).wrapping_mul(0x100000001b3)
    })
}

fn run(
    label: &str,
    input: &str,
    base: Option<&str>,
    charset: Option<&str>,
    stats: &mut BTreeMap<Differential, usize>,
    failures: &mut Vec<String>,
) {
    let r = std::panic::catch_unwind(|| check_all(input, base, charset));
    match r {
        Ok(Ok(out)) => {
            for d in out.differentials {
                *stats.entry(d).or_default() += 1;
            }
        }
        Ok(Err(e)) => failures.push(format!(
            "{label}: input={input:?} base={base:?} charset={charset:?}\n    {e}"
        )),
        Err(_) => failures.push(format!(
            "{label}: PANIC input={input:?} base={base:?} charset={charset:?}"
        )),
    }
}

/// (a) The corpus replay: every input of the conformance suite (every
/// `data` and `base` of every `.dat` file and the TSV) and every file of the
/// fuzz corpus through every invariant.
#[test]
fn corpus_replay() {
    let inputs = conformance_inputs();
    if std::env::var_os("WURL_FUZZ_SEEDS").is_some() {
        write_seeds(&inputs);
    }
    let mut stats = BTreeMap::new();
    let mut failures = Vec::new();
    for (data, base, charset) in &inputs {
        run(
            "conformance",
            data,
            base.as_deref(),
            charset.as_deref(),
            &mut stats,
            &mut failures,
        );
    }
    let files = fuzz_files();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let case = invariants::FuzzCase::from_bytes(&bytes);
        if let Err(e) = case.check() {
            failures.push(format!("{}:\n    {e}", f.display()));
        }
    }
    eprintln!(
        "corpus replay: {} conformance inputs, {} fuzz corpus files, {} failures; mandated differentials seen: {stats:?}",
        inputs.len(),
        files.len(),
        failures.len()
    );
    for f in failures.iter().take(60) {
        eprintln!("{f}");
    }
    assert!(failures.is_empty(), "{} invariant failures", failures.len());
    assert!(inputs.len() > 9000, "only {} inputs", inputs.len());
}

// ---------------------------------------------------------------------
// (b) Proptest properties.

/// Pieces URLs are made of, weighted toward what breaks parsers: the fuzz
/// dictionary of PLAN.md section 5.
const TOKENS: &[&str] = &[
    "http:",
    "https:",
    "ws:",
    "ftp:",
    "file:",
    "foo:",
    "mailto:",
    "javascript:",
    "data:",
    "c:",
    "C|",
    "//",
    "///",
    "/",
    "\\",
    "\\\\",
    "@",
    ":",
    "[",
    "]",
    "::",
    "::ffff:",
    "?",
    "#",
    ".",
    "..",
    "../",
    "./",
    "%2e",
    "%2E",
    "%2f",
    "%5c",
    "%40",
    "%25",
    "%00",
    "%3A",
    "%5B",
    "%41",
    "%C3%A9",
    "%FF",
    "xn--",
    "xn--a-",
    "0x",
    "0",
    "1",
    "255",
    "256",
    "4294967296",
    "10.0.0.1",
    "localhost",
    "a",
    "B",
    "-",
    "_",
    "~",
    " ",
    "\t",
    "\n",
    "\u{b}",
    "\u{0}",
    "\u{1}",
    "\u{7f}",
    "\u{80}",
    "\u{85}",
    "\u{9f}",
    "é",
    "ß",
    "ς",
    "\u{AD}",
    "\u{200C}",
    "\u{200D}",
    "\u{3002}",
    "\u{FF0E}",
    "\u{FF61}",
    "\u{05D0}",
    "\u{0627}",
    "\u{FDFA}",
    "\u{2100}",
    "\u{FF0F}",
    "\u{FF1F}",
    "\u{FF03}",
    "\u{FF20}",
    "\u{FE6B}",
    "\u{FF1A}",
    "\u{FF05}",
    "\u{FF3C}",
    "\u{FF3B}",
    "\u{FF3D}",
    "\u{2488}",
    "\u{2474}",
    "\u{A0}",
    "\u{FEFF}",
    "\u{202E}",
    "\u{10FFFD}",
    "\u{FFFF}",
    "\u{FDD0}",
    "\u{E000}",
    "\u{4E00}",
    "\u{1F600}",
    "=",
    "&",
    ";",
    "'",
    "\"",
    "<",
    ">",
    "^",
    "`",
    "{",
    "|",
    "}",
    "!",
    "$",
    "*",
    "+",
    ",",
];

const CHARSETS: &[&str] = &[
    "utf-8",
    "iso-2022-jp",
    "shift_jis",
    "euc-jp",
    "windows-1252",
    "utf-16",
    "utf-16be",
    "replacement",
    "x-user-defined",
    "ibm037",
    "utf-7",
    "gb18030",
    "big5",
    "koi8-r",
    "\u{0}",
    "bogus",
];

fn url_like() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            8 => prop::sample::select(TOKENS).prop_map(str::to_owned),
            1 => any::<char>().prop_map(String::from),
            1 => "[a-z0-9]{1,8}",
        ],
        0..24,
    )
    .prop_map(|v| v.concat())
}

fn base_like() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        2 => Just(None),
        2 => prop::sample::select(&invariants::BASES[..]).prop_map(|b| Some(b.to_owned())),
        1 => url_like().prop_map(|b| Some(format!("http://{b}"))),
        1 => url_like().prop_map(Some),
    ]
}

fn charset_like() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        3 => Just(None),
        2 => prop::sample::select(CHARSETS).prop_map(|c| Some(c.to_owned())),
    ]
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    /// Every invariant on generated absolute and relative URLs.
    #[test]
    fn prop_all_invariants(x in url_like(), base in base_like(), cs in charset_like()) {
        if let Err(e) = check_all(&x, base.as_deref(), cs.as_deref()) {
            prop_assert!(false, "{}", e);
        }
    }

    /// Network URLs specifically (the cross-parser host check, strict mode).
    #[test]
    fn prop_network_urls(scheme in prop::sample::select(&invariants::NETWORK_SCHEMES[..]),
                         slashes in "[/\\\\]{0,4}", rest in url_like()) {
        let x = format!("{scheme}:{slashes}{rest}");
        if let Err(e) = check_all(&x, None, None) {
            prop_assert!(false, "{}", e);
        }
    }

    /// Raw bytes through every C ABI function: no panic, results equal to
    /// the Rust API on the replaced text, limits and out-parameters.
    #[test]
    fn prop_c_abi_bytes(bytes in prop::collection::vec(any::<u8>(), 0..64),
                        tail in url_like(), control in any::<[u8; 4]>()) {
        let mut input = bytes;
        input.extend_from_slice(tail.as_bytes());
        let case = invariants::FuzzCase { input, base: None, charset: Vec::new(), control };
        if let Err(e) = case.check() {
            prop_assert!(false, "{}", e);
        }
    }
}

// ---------------------------------------------------------------------
// Idempotence where the 2012 module loses it (issue 10): `file:` references
// against `file:` bases with `%2F`, `%5C`, nested escapes, dot segments and
// drive letters, and references against bases that are not canonical.

/// Pieces of `file:` paths that resolution and canonicalization treat
/// specially.
const FILE_PIECES: &[&str] = &[
    "a",
    "B",
    "c:",
    "C|",
    "%43%3A",
    "%63|",
    "%2F",
    "%2f",
    "%5C",
    "%5c",
    "%2%66",
    "%2%46",
    "%5%63",
    "%%35%63",
    "%%32%66",
    "%%32%46",
    "%2%65",
    "%%32%65",
    "%2e",
    "%2E",
    ".",
    "..",
    "/",
    "\\",
    "//",
    "///",
    "%",
    "%2",
    "%25",
    "%41",
    "%3F",
    "?",
    "#",
    "localhost",
    "\u{FF0F}",
    "\u{FC}",
    "%00",
    ":",
];

fn file_path_like() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FILE_PIECES), 0..12).prop_map(|v| v.concat())
}

/// A `file:` reference: relative, absolute-path, `file:` without slashes,
/// `file:` with an authority, or a drive.
fn file_ref_like() -> impl Strategy<Value = String> {
    (
        prop::sample::select(
            &[
                "", "/", "\\", "file:", "file:/", "file://", "file:///", "c:", "//",
            ][..],
        ),
        file_path_like(),
    )
        .prop_map(|(p, r)| format!("{p}{r}"))
}

/// A `file:` base, often not canonical (escapes, dot segments, drives).
fn file_base_like() -> impl Strategy<Value = String> {
    (
        prop::sample::select(
            &[
                "file:",
                "file:/",
                "file://",
                "file:///",
                "file://host/",
                "c:/",
                "\\\\srv\\",
            ][..],
        ),
        file_path_like(),
    )
        .prop_map(|(p, r)| format!("{p}{r}"))
}

/// Any base, deliberately not canonical: dot segments, escapes, case.
fn unnormalized_base_like() -> impl Strategy<Value = String> {
    (
        prop::sample::select(
            &[
                "http://Ex.COM:80",
                "HTTPS://a",
                "foo://h",
                "foo:",
                "ftp://u@h",
                "file://",
            ][..],
        ),
        prop::collection::vec(
            prop::sample::select(
                &[
                    "/", "/.", "/..", "/%2e", "/%2E%2e", "/a", "/%41", "\\", "/%2%65", "/%2F",
                    "/%5c", "?q", "#f", "/%3%35",
                ][..],
            ),
            0..8,
        ),
    )
        .prop_map(|(p, v)| format!("{p}{}", v.concat()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    /// `file:` references against `file:` bases: every invariant, I3
    /// (idempotence) without exception among them.
    #[test]
    fn prop_file_references_against_file_bases(r in file_ref_like(), b in file_base_like()) {
        if let Err(e) = check_all(&r, Some(&b), None) {
            prop_assert!(false, "{}", e);
        }
        if let Err(e) = check_all(&r, None, None) {
            prop_assert!(false, "{}", e);
        }
    }

    /// Short references (empty, `?`, `#`, paths with dot segments) against
    /// bases that are not canonical.
    #[test]
    fn prop_references_against_unnormalized_bases(
        r in prop::sample::select(&["", " ", "?", "?x", "#", "#y", "x", "./x", "../x", "%2e%2e/x", "%2%65/x", "/x/../y", "http:", "file:"][..]),
        b in unnormalized_base_like(),
    ) {
        if let Err(e) = check_all(r, Some(&b), None) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// I3 over every line of every benchmark dataset, the input its own base
/// (and, for `links_synth.tsv`, each link against its page).
#[test]
fn dataset_lines_are_idempotent() {
    let mut n = 0usize;
    let mut failures = Vec::new();
    for (name, input, base) in datasets::all_rows() {
        n += 1;
        if let Some(y) = invariants::canon(&input, base.as_deref(), None)
            && let Err(e) = invariants::i3_idempotence(&y, None)
        {
            failures.push(format!("{name}: {input:?} base {base:?}: {e}"));
        }
    }
    for f in failures.iter().take(20) {
        eprintln!("{f}");
    }
    eprintln!(
        "{n} dataset lines checked, {} not idempotent",
        failures.len()
    );
    assert!(failures.is_empty());
    assert!(n > 100_000, "only {n} dataset lines");
}
