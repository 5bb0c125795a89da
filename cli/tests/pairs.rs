//! `wurl canon --pairs` and `wurl resolve --pairs` (issue 27): records
//! `base<TAB>reference`, each reference resolved against its own record's
//! base; and the warning for a TAB without `--pairs`.

mod common;

use common::{data_path, lib_canon, wurl, wurl_file};
use serde_json::Value;

const NONE: Option<&[u8]> = None;

/// The synthetic (page, link) dataset, relative to `cli/`.
const LINKS: &str = "../bench/data/links_synth.tsv";

/// The (page, link) pairs of `links_synth.tsv`, or `None` (with a note)
/// when the checkout lacks it.
fn links() -> Option<(std::path::PathBuf, Vec<(String, String)>)> {
    let p = data_path(LINKS);
    if !p.is_file() {
        eprintln!("skipped: {} not found", p.display());
        return None;
    }
    let text = std::fs::read_to_string(&p).unwrap();
    let pairs = text
        .lines()
        .map(|l| {
            let (page, link) = l.split_once('\t').expect("page<TAB>link");
            (page.to_owned(), link.to_owned())
        })
        .collect();
    Some((p, pairs))
}

/// What `wurl SUB --base BASE -- REFS...` prints, one run.
fn with_base(sub: &str, base: &str, refs: &[&str]) -> Vec<u8> {
    let mut args = vec![sub, "-q", "--base", base, "--"];
    args.extend_from_slice(refs);
    let r = wurl(&args, NONE);
    assert!(r.code == 0 || r.code == 1, "{sub} --base: {}", r.stderr);
    r.stdout
}

fn json_lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8(out.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON {l:?}: {e}")))
        .collect()
}

#[test]
fn a_pair_gives_what_base_gives() {
    let r = wurl(&["canon", "--pairs"], Some(b"http://a.com/b/c\t../d\n"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, "");
    assert_eq!(r.stdout, with_base("canon", "http://a.com/b/c", &["../d"]));
    // RFC 3986 5.2.4: "../" from the directory /b/ of /b/c goes up to /.
    assert_eq!(r.out(), "http://a.com/d\n");
    let r = wurl(&["canon", "--pairs"], Some(b"http://a.com/b/c/\t../d\n"));
    assert_eq!(r.out(), "http://a.com/b/d\n");
    // Arguments are records too.
    let r = wurl(&["resolve", "--pairs", "http://a/b/c/d;p?q\t../g"], NONE);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        with_base("resolve", "http://a/b/c/d;p?q", &["../g"])
    );
}

#[test]
fn links_synth_equals_the_per_page_results_on_every_line() {
    let Some((path, pairs)) = links() else { return };
    assert_eq!(pairs.len(), 24_120);
    let r = wurl_file(&["canon", "--pairs"], &path);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    let got: Vec<&str> = out.split_terminator('\n').collect();
    assert_eq!(got.len(), pairs.len(), "one output line per record");
    // Every line against the library's bulk path with the page as base
    // (what `wurl canon --base PAGE` runs).
    for (i, ((page, link), g)) in pairs.iter().zip(&got).enumerate() {
        let want = lib_canon(Some(page), link, None, false);
        assert_eq!(*g, want, "line {}: {page:?} {link:?}", i + 1);
    }
    // And against `wurl canon --base PAGE -- LINKS` itself: one run per
    // page, all 6,439 of them.
    let mut pages = 0;
    let mut i = 0;
    while i < pairs.len() {
        let page = &pairs[i].0;
        let end = i + pairs[i..].iter().take_while(|(p, _)| p == page).count();
        let refs: Vec<&str> = pairs[i..end].iter().map(|(_, l)| l.as_str()).collect();
        let want = with_base("canon", page, &refs);
        let mine: String = got[i..end].iter().map(|l| format!("{l}\n")).collect();
        assert_eq!(
            mine,
            String::from_utf8(want).unwrap(),
            "page {page:?} (lines {}..={end})",
            i + 1
        );
        pages += 1;
        i = end;
    }
    assert_eq!(pages, 6_439, "one run per page");
    // -j N: the same bytes, in order.
    for jobs in ["2", "3"] {
        let par = wurl_file(&["canon", "--pairs", "-j", jobs], &path);
        assert!(par.stdout == r.stdout, "-j {jobs} differs from -j 1");
        assert_eq!(par.code, 0);
    }
}

#[test]
fn resolve_pairs_equals_resolve_base() {
    let Some((_, pairs)) = links() else { return };
    // The first 300 records, one `resolve --base` run per page.
    let pairs = &pairs[..300];
    let input: String = pairs.iter().map(|(p, l)| format!("{p}\t{l}\n")).collect();
    let r = wurl(&["resolve", "--pairs"], Some(input.as_bytes()));
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    let mut want = Vec::new();
    let mut i = 0;
    while i < pairs.len() {
        let page = &pairs[i].0;
        let end = i + pairs[i..].iter().take_while(|(p, _)| p == page).count();
        let refs: Vec<&str> = pairs[i..end].iter().map(|(_, l)| l.as_str()).collect();
        want.extend(with_base("resolve", page, &refs));
        i = end;
    }
    assert!(
        r.stdout == want,
        "resolve --pairs differs from resolve --base"
    );
}

#[test]
fn base_changes_are_seen() {
    // Consecutive records with the same base share its parse; a base that
    // differs, returns, or follows an invalid one is parsed anew.
    let bases = [
        "http://a/x/",
        "http://a/x/",
        "http://b/y/",
        "http://a/x/",
        "nope",
        "http://a/x/",
        "http://a/x",
        "http://a/x",
        "",
        "http://c/",
    ];
    let mut input = String::new();
    let mut want = Vec::new();
    for (i, b) in bases.iter().enumerate() {
        let reference = format!("r{i}");
        input.push_str(&format!("{b}\t{reference}\n"));
        want.push(lib_canon(Some(b), &reference, None, false));
    }
    for jobs in ["1", "2"] {
        let r = wurl(&["canon", "--pairs", "-j", jobs], Some(input.as_bytes()));
        assert_eq!(r.code, 1, "two invalid bases");
        assert_eq!(r.lines(), want, "-j {jobs}");
        assert!(want[4].is_empty() && want[8].is_empty() && !want[5].is_empty());
    }
}

#[test]
fn invalid_records_have_clear_reasons() {
    let input = b"http://a/\tb\nno tab here\n\t../x\nmailto:\t/x\nhttp://a/\thttp://a:99999/\n";
    let r = wurl(&["canon", "--pairs"], Some(input));
    assert_eq!(r.code, 1);
    assert_eq!(r.out(), "http://a/b\n\n\n\n\n", "aligned with the input");
    let why_empty = wurl::parse("").invalid_reason().unwrap().as_str();
    let why_mailto = wurl::resolve(&wurl::parse("mailto:"), "/x")
        .invalid_reason()
        .unwrap()
        .as_str();
    let why_port = wurl::canonicalize(&wurl::parse("http://a:99999/"), None)
        .invalid_reason()
        .unwrap()
        .as_str();
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(
        lines,
        [
            "wurl: line 2: no TAB: expected base<TAB>reference: \"no tab here\"".to_owned(),
            format!("wurl: line 3: base is invalid: {why_empty}: \"\\t../x\""),
            format!("wurl: line 4: {why_mailto}: \"mailto:\\t/x\""),
            format!("wurl: line 5: {why_port}: \"http://a/\\thttp://a:99999/\""),
        ]
    );
    // An invalid base is reported as such, with its own parse failure.
    let r = wurl(&["resolve", "--pairs"], Some(b"//h/p\tx\n"));
    assert_eq!(r.code, 1);
    let why = wurl::parse("//h/p").invalid_reason().unwrap().as_str();
    assert_eq!(
        r.stderr,
        format!("wurl: line 1: base is invalid: {why}: \"//h/p\\tx\"\n")
    );
    // The policies apply as to any invalid input.
    let r = wurl(&["canon", "--pairs", "--invalid", "skip"], Some(input));
    assert_eq!(r.out(), "http://a/b\n");
    let r = wurl(&["canon", "--pairs", "--invalid", "fail"], Some(input));
    assert_eq!((r.code, r.out()), (1, "http://a/b\n".to_owned()));
    assert_eq!(r.stderr.lines().count(), 1);
    let r = wurl(&["canon", "--pairs", "--allow-invalid", "-q"], Some(input));
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
}

#[test]
fn the_first_tab_separates() {
    // A TAB in the reference is removed by preprocessing; one in the base
    // cannot be (the first TAB ends the base).
    let r = wurl(&["canon", "--pairs"], Some(b"http://a/d/\tx\ty\n"));
    assert_eq!(
        r.out(),
        format!("{}\n", lib_canon(Some("http://a/d/"), "x\ty", None, false))
    );
    assert_eq!(r.out(), "http://a/d/xy\n");
    // An empty reference resolves to the base (without its fragment).
    let r = wurl(&["canon", "--pairs"], Some(b"HTTP://A/d?q#f\t\n"));
    assert_eq!(r.stdout, with_base("canon", "HTTP://A/d?q#f", &[""]));
}

#[test]
fn tsv_and_json_include_the_base() {
    let input = b"http://a/p/\tq?\nno tab\n\tx\nhttp://a/\thttp://a:99999/\n";
    let r = wurl(&["canon", "--pairs", "-f", "tsv"], Some(input));
    assert_eq!(r.code, 1);
    let out = r.out();
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0][..2], ["base", "url"]);
    assert_eq!(rows[0].len(), 11);
    assert!(rows.iter().all(|r| r.len() == 11), "{out}");
    // Present, absent (no TAB) and empty bases are distinct.
    assert_eq!(rows[1][..2], ["http://a/p/", "http://a/p/q?"]);
    assert_eq!(rows[1][8], "", "query present and empty");
    assert_eq!(rows[1][10], "\\N", "valid");
    assert_eq!(rows[2][0], "\\N", "no TAB: no base");
    assert_eq!(rows[2][10], "no TAB: expected base<TAB>reference");
    assert_eq!(rows[3][0], "", "an empty base");
    assert!(rows[3][10].starts_with("base is invalid: "));
    assert_eq!(rows[4][0], "http://a/");
    assert_eq!(rows[4][1], "\\N", "invalid: no serialization");
    // The components of the failed canonicalization, as without --pairs.
    let plain = wurl(
        &[
            "canon",
            "-f",
            "tsv",
            "--base",
            "http://a/",
            "http://a:99999/",
        ],
        NONE,
    );
    let plain_row = plain.out().lines().nth(1).unwrap().to_owned();
    assert_eq!(rows[4][1..].join("\t"), plain_row);

    let r = wurl(&["canon", "--pairs", "-f", "json"], Some(input));
    let v = json_lines(&r.stdout);
    assert_eq!(v.len(), 4);
    assert_eq!(v[0]["base"], "http://a/p/");
    assert_eq!(v[0]["query"], "");
    assert_eq!(v[0]["fragment"], Value::Null);
    assert_eq!(v[1]["base"], Value::Null);
    assert_eq!(v[1]["reason"], "no TAB: expected base<TAB>reference");
    assert_eq!(v[2]["base"], "");
    assert_eq!(v[2]["invalid"], true);
    // Each object is the one without --pairs, with "base" in front.
    let plain = wurl(
        &["canon", "-f", "json", "--base", "http://a/p/", "q?"],
        NONE,
    );
    let mut obj = json_lines(&plain.stdout).remove(0);
    let mut mine = v[0].clone();
    mine.as_object_mut().unwrap().remove("base");
    obj.as_object_mut().unwrap().sort_keys();
    mine.as_object_mut().unwrap().sort_keys();
    assert_eq!(mine, obj);
    assert!(
        String::from_utf8(r.stdout)
            .unwrap()
            .starts_with("{\"base\":")
    );
    // The base is written as given (escaped), not as parsed.
    let r = wurl(
        &["resolve", "--pairs", "-f", "tsv"],
        Some(b"HTTP://A\\B/\tc\n"),
    );
    assert_eq!(
        r.out().lines().nth(1).unwrap().split('\t').next(),
        Some("HTTP://A\\\\B/")
    );
}

#[test]
fn tsv_escapes_control_octets_in_every_column() {
    // A raw NUL or other control octet never reaches the TSV output: the
    // base column holds the input as given, so it is where they appear.
    let r = wurl(
        &["canon", "--pairs", "-f", "tsv"],
        Some(b"http://a/\x00\x01\x1f\x7f\\\tx\n"),
    );
    let out = r.out();
    let row = out.lines().nth(1).unwrap();
    assert_eq!(
        row.split('\t').next(),
        Some("http://a/\\x00\\x01\\x1F\\x7F\\\\")
    );
    assert!(
        !out.bytes()
            .any(|b| (b < 0x20 && b != b'\t' && b != b'\n') || b == 0x7f)
    );
    let r = wurl(&["parse", "-f", "tsv"], Some(b"http://a/\x00b#\x02\n"));
    let out = r.out();
    let cols: Vec<&str> = out.lines().nth(1).unwrap().split('\t').collect();
    assert_eq!(cols[0], "http://a/\\x00b#\\x02");
    assert_eq!((cols[6], cols[8]), ("/\\x00b", "\\x02"));
}

#[test]
fn invalid_utf8_in_pairs() {
    // In the base or the reference: read with U+FFFD and warned about once,
    // or with --strict-utf8 an invalid record (its base column kept).
    let input = b"http://a/\xE9/\tx\nhttp://b/\ty\xE9\nhttp://c/\tz\n";
    let r = wurl(&["canon", "--pairs", "--stats"], Some(input));
    assert_eq!(
        r.lines(),
        ["http://a/%EF%BF%BD/x", "http://b/y%EF%BF%BD", "http://c/z"]
    );
    assert_eq!(r.code, 0);
    assert_eq!(warnings(&r.stderr).len(), 1, "{}", r.stderr);
    assert!(warnings(&r.stderr)[0].contains("line 1 is not valid UTF-8"));
    assert!(r.stderr.contains("2 not valid UTF-8"), "{}", r.stderr);
    let r = wurl(
        &["canon", "--pairs", "--strict-utf8", "-f", "json"],
        Some(input),
    );
    assert_eq!(r.code, 1);
    let v = json_lines(&r.stdout);
    assert_eq!(v.len(), 3);
    assert_eq!(v[0]["base"], "http://a/\u{FFFD}/");
    assert_eq!(
        (&v[0]["reason"], &v[1]["reason"]),
        (&"not valid UTF-8".into(), &"not valid UTF-8".into())
    );
    assert_eq!(v[2]["url"], "http://c/z");
    assert!(r.stderr.contains("line 2: not valid UTF-8"), "{}", r.stderr);
    // --decode reads both halves.
    let r = wurl(
        &["canon", "--pairs", "--decode", "windows-1252", "-j", "2"],
        Some(b"http://a/\xE9/\tx\xE8\n"),
    );
    assert_eq!((r.code, r.out().as_str()), (0, "http://a/%C3%A9/x%C3%A8\n"));
    assert_eq!(
        r.out(),
        wurl(&["canon", "--base", "http://a/é/", "xè"], None).out()
    );
}

#[test]
fn null_separated_pairs() {
    // -z: records end with NUL, TAB still separates; a LF is an ordinary
    // byte of the reference (removed by preprocessing).
    let r = wurl(
        &["canon", "--pairs", "-z"],
        Some(b"http://a/b/\tc\nd\0no tab\0http://x/\t?q\0"),
    );
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout,
        format!(
            "{}\0\0{}\0",
            lib_canon(Some("http://a/b/"), "c\nd", None, false),
            lib_canon(Some("http://x/"), "?q", None, false)
        )
        .into_bytes()
    );
    assert!(
        r.stderr.starts_with("wurl: record 2: no TAB"),
        "{}",
        r.stderr
    );
}

#[test]
fn pairs_and_base_conflict() {
    assert_eq!(
        wurl(&["canon", "--pairs", "--base", "http://a/", "x"], NONE).code,
        2
    );
    assert_eq!(
        wurl(&["resolve", "--pairs", "--base", "http://a/", "x"], NONE).code,
        2
    );
    assert_eq!(wurl(&["resolve", "x"], NONE).code, 2, "neither");
    assert_eq!(wurl(&["parse", "--pairs", "x"], NONE).code, 2);
    let r = wurl(&["canon", "--help"], NONE);
    assert!(r.out().contains("--pairs"));
    let r = wurl(&["--help"], NONE);
    assert!(r.out().contains("no TAB: expected base<TAB>reference"));
}

// ---- the warning without --pairs --------------------------------------------

/// The warning lines of a run's standard error.
fn warnings(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.contains("warning")).collect()
}

#[test]
fn a_tab_without_pairs_warns_once() {
    let input = b"http://ok/\nhttp://a.com/b/c\t../d\nhttp://e/\tf\nbad\n";
    for sub in ["canon", "parse"] {
        for jobs in ["1", "2"] {
            let r = wurl(&[sub, "-j", jobs], Some(input));
            let w = warnings(&r.stderr);
            assert_eq!(w.len(), 1, "{sub} -j {jobs}: {}", r.stderr);
            assert!(
                w[0].contains("line 2") && w[0].contains("--pairs"),
                "{}",
                w[0]
            );
            // The line is still processed as the algorithm says (the TAB
            // removed), and the exit status is what it would be.
            assert_eq!(r.code, 1, "`bad` is invalid");
            if sub == "canon" {
                assert_eq!(
                    r.lines()[1],
                    lib_canon(None, "http://a.com/b/c\t../d", None, false)
                );
                assert_eq!(r.lines()[1], "http://a.com/b/c../d");
            }
        }
    }
    // In order with the other diagnostics, before the one of line 4.
    let r = wurl(&["canon"], Some(input));
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stderr);
    assert!(lines[0].contains("warning") && lines[1].starts_with("wurl: line 4: "));
    // The exit status does not change: 0 when every line is valid.
    let r = wurl(&["resolve", "--base", "http://h/", "a\tb"], NONE);
    assert_eq!(r.code, 0);
    assert!(warnings(&r.stderr)[0].contains("argument 1"));
    let r = wurl(&["canon", "-q", "-z"], Some(b"http://a/\0http://a/\tb\0"));
    assert_eq!(r.code, 0);
    assert_eq!(warnings(&r.stderr).len(), 1, "shown with -q too");
    assert!(r.stderr.contains("record 2"));
}

#[test]
fn the_warning_is_once_per_run_across_chunks() {
    // Many chunks, TABs in many of them, several workers: one warning, for
    // the first TAB line, and the same standard error as -j 1.
    let mut input = String::new();
    for i in 0..20_000 {
        if i % 1000 == 999 {
            input.push_str(&format!("http://a/{i}\tx\n"));
        } else if i % 3001 == 0 {
            input.push_str("invalid\n");
        } else {
            input.push_str(&format!("http://a/{i}\n"));
        }
    }
    let serial = wurl(&["canon"], Some(input.as_bytes()));
    assert_eq!(warnings(&serial.stderr).len(), 1);
    assert!(warnings(&serial.stderr)[0].contains("line 1000 "));
    for jobs in ["2", "4"] {
        let par = wurl(&["canon", "-j", jobs], Some(input.as_bytes()));
        assert_eq!(par.stderr, serial.stderr, "-j {jobs}");
        assert!(par.stdout == serial.stdout);
    }
}

#[test]
fn no_warning_with_pairs_or_without_tabs() {
    let r = wurl(&["canon", "--pairs"], Some(b"http://a/\tb\nhttp://a/\tc\n"));
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    let r = wurl(&["canon"], Some(b"http://a/\nhttp://b/ c\n"));
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    // With a byte order mark before the first line.
    let r = wurl(&["canon"], Some(b"\xEF\xBB\xBFhttp://a/\nhttp://b/\tc\n"));
    assert!(warnings(&r.stderr)[0].contains("line 2"), "{}", r.stderr);
}
