//! `wurl compare`: the class it gives each input of a committed table
//! (tests/data/compare-classes.tsv, inputs for every class), the counts of
//! its summary, `--pairs`, and `canon --model`.

mod common;

use common::{data_path, wurl};
use serde_json::Value;

const NONE: Option<&[u8]> = None;

/// The table: `(class, input)` per row.
fn table() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(data_path("tests/data/compare-classes.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (c, i) = l.split_once('\t').expect("class<TAB>input");
            (c.to_owned(), i.to_owned())
        })
        .collect()
}

/// Every class `compare` knows, in its order.
const CLASSES: [&str; 13] = [
    "invalid-2012-only",
    "invalid-url-standard-only",
    "file",
    "scheme-port",
    "host-idna",
    "host-ip",
    "host-other",
    "path-percent-encoding",
    "path-backslash",
    "path-dot-segments",
    "query-encoding",
    "fragment",
    "other",
];

#[test]
fn every_class_of_the_table() {
    let rows = table();
    let stdin: String = rows.iter().map(|(_, i)| format!("{i}\n")).collect();
    let r = wurl(
        &["compare", "--show-all", "-f", "json"],
        Some(stdin.as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<Value> = r
        .lines()
        .iter()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    let (summary, shown) = lines.split_last().expect("a summary");
    // One --show-all line per differing row, in input order, with its class.
    let differing: Vec<&(String, String)> = rows
        .iter()
        .filter(|(c, _)| c != "same" && c != "both-invalid")
        .collect();
    assert_eq!(shown.len(), differing.len());
    for ((class, input), got) in differing.iter().zip(shown) {
        assert_eq!(got["input"], input.as_str());
        assert_eq!(got["class"], class.as_str(), "{input}");
        // The results are those of the two models.
        let canon = |model: &str| {
            let r = wurl(&["canon", "--model", model, input.as_str()], None);
            (r.code == 0).then(|| r.out().trim_end_matches('\n').to_owned())
        };
        assert_eq!(
            got["2012"].as_str().map(str::to_owned),
            canon("2012"),
            "{input}"
        );
        assert_eq!(
            got["url_standard"].as_str().map(str::to_owned),
            canon("url-standard"),
            "{input}"
        );
    }
    // Every class has a row, and the summary counts them.
    let count = |c: &str| rows.iter().filter(|(k, _)| k == c).count() as u64;
    assert_eq!(summary["inputs"], rows.len() as u64);
    assert_eq!(summary["same"], count("same"));
    assert_eq!(summary["both_invalid"], count("both-invalid"));
    assert_eq!(summary["differ"], differing.len() as u64);
    let classes = summary["classes"].as_array().unwrap();
    assert_eq!(classes.len(), CLASSES.len());
    for (c, want) in classes.iter().zip(CLASSES) {
        assert_eq!(c["class"], want);
        assert!(count(want) > 0, "no row of the table for {want}");
        assert_eq!(c["count"], count(want), "{want}");
        let ex = c["examples"].as_array().unwrap();
        assert_eq!(ex.len() as u64, count(want).min(3), "{want}");
    }
}

#[test]
fn text_table_pairs_and_base() {
    let r = wurl(&["compare", "http://faß.de/", "http://a/"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    assert!(
        out.starts_with("2 inputs: 1 the same in both models, 0 invalid in both, 1 differ"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("host-idna ") && l.contains(" 1 ")),
        "{out}"
    );
    assert!(out.contains("url-standard: http://xn--fa-hia.de/"), "{out}");
    // --pairs: each reference against its own base.
    let stdin = "foo://h/a/b\tc\\d\njavascript:/a/b\t../c\nhttp://a/b/\tc\nno tab\n";
    let r = wurl(
        &["compare", "--pairs", "--show-all"],
        Some(stdin.as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines = r.lines();
    assert_eq!(
        lines[0],
        "path-backslash\tfoo://h/a/b\tc\\d\tfoo://h/a/c/d\tfoo://h/a/c\\d"
    );
    assert_eq!(
        lines[1],
        "invalid-2012-only\tjavascript:/a/b\t../c\t(invalid)\tjavascript:/c"
    );
    assert!(
        lines[2].starts_with("4 inputs: 1 the same in both models, 1 invalid in both, 2 differ")
    );
    // --base.
    let r = wurl(
        &[
            "compare",
            "--base",
            "http://a/b/",
            "--show-all",
            "c\\d",
            "x",
        ],
        None,
    );
    let first = &r.lines()[0];
    assert!(
        first.starts_with("2 inputs: 2 the same in both models, 0 invalid in both, 0 differ"),
        "{first}"
    );
}

#[test]
fn canon_model_option() {
    let ex = "http://faß.de/a\\b/../c";
    let r = wurl(&["canon", "--model", "url-standard", ex], None);
    assert_eq!(
        (r.code, r.out().as_str()),
        (0, "http://xn--fa-hia.de/a/c\n")
    );
    let r = wurl(&["canon", ex], None);
    assert_eq!((r.code, r.out().as_str()), (0, "http://fass.de/a/c\n"));
    // --pairs, --base, rules and SURT.
    let r = wurl(
        &["canon", "--model", "url-standard", "--pairs"],
        Some(b"http://a.com/b/c\t../d e\n"),
    );
    assert_eq!(r.out(), "http://a.com/d%20e\n");
    let r = wurl(
        &[
            "canon",
            "--model",
            "url-standard",
            "--base",
            "http://www.x.com/a/",
            "--rules",
            "strip-www,sort-query",
            "-f",
            "surt",
            "../b?z&a#f",
        ],
        None,
    );
    assert_eq!(r.out(), "com,x)/b?a&z#f\n");
    // Invalid: the parser's reason; refused options.
    let r = wurl(
        &["canon", "--model", "url-standard", "http://a:99999/"],
        None,
    );
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("invalid port number"), "{}", r.stderr);
    for bad in [&["--strict"][..], &["-f", "json"][..]] {
        let mut args = vec!["canon", "--model", "url-standard"];
        args.extend_from_slice(bad);
        args.push("http://a/");
        assert_eq!(wurl(&args, None).code, 2, "{bad:?}");
    }
}

#[test]
fn examples_are_cut_and_the_output_is_bounded() {
    // One line of 1.2 MB whose results differ in the path's escapes: the
    // summary keeps at most 200 bytes of each value, whatever the line's
    // length; --show-all still prints the line and both results whole.
    let line = format!("http://a/b{}\n", "c%7e".repeat(300_000));
    let r = wurl(&["compare", "-f", "json"], Some(line.as_bytes()));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.len() < 4096, "{} bytes of JSON", r.stdout.len());
    let v: Value = serde_json::from_str(r.out().trim_end()).unwrap();
    assert_eq!(v["differ"], 1);
    let class = v["classes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["count"] == 1)
        .unwrap();
    assert_eq!(class["class"], "path-percent-encoding");
    let ex = &class["examples"][0];
    assert_eq!(ex["cut"], true);
    for k in ["input", "2012", "url_standard"] {
        let s = ex[k].as_str().unwrap();
        assert!(s.len() <= 203 && s.ends_with('…'), "{k}: {} bytes", s.len());
    }
    assert!(
        ex["input"]
            .as_str()
            .unwrap()
            .starts_with("http://a/bc%7ec%7e")
    );
    assert!(ex["2012"].as_str().unwrap().starts_with("http://a/bc~c~"));
    let r = wurl(&["compare"], Some(line.as_bytes()));
    assert!(r.stdout.len() < 4096, "{} bytes of table", r.stdout.len());
    assert!(r.out().contains("path-percent-encoding"));
    let r = wurl(
        &["compare", "--show-all", "-f", "json"],
        Some(line.as_bytes()),
    );
    let first: Value = serde_json::from_str(&r.lines()[0]).unwrap();
    assert_eq!(first["input"].as_str().unwrap(), line.trim_end());
    assert_eq!(first["class"], "path-percent-encoding");
    // A short example is kept whole.
    let r = wurl(&["compare", "-f", "json", "http://a/%7e"], NONE);
    let v: Value = serde_json::from_str(r.out().trim_end()).unwrap();
    let ex = &v["classes"][7]["examples"][0];
    assert_eq!(
        (ex["input"].as_str(), &ex["cut"]),
        (Some("http://a/%7e"), &Value::Bool(false))
    );
}
