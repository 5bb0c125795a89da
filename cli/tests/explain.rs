//! `wurl explain`: the examples of issue 49's "done when" (two URLs that share a key, with the
//! steps that made them equal; with `--rules strip-www`, where two keys part), its JSON, `--pairs`,
//! and the exit statuses of a bad URL and of usage errors.

mod common;

use common::wurl;
use serde_json::Value;

const FIRST: &str = "HTTP://www.Example.COM:80/a/./b/../c?q=é#f";
const SECOND: &str = "http://www.example.com/a/c?q=%C3%A9#f";

fn json(args: &[&str], stdin: Option<&[u8]>) -> Vec<Value> {
    let run = wurl(args, stdin);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.lines()
        .iter()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

/// The `what` of each step of URL `k` whose stage is `stage`.
fn whats<'v>(v: &'v Value, k: usize, stage: &str) -> Vec<&'v str> {
    v["urls"][k]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["stage"] == stage)
        .map(|s| s["what"].as_str().unwrap())
        .collect()
}

#[test]
fn two_urls_that_share_a_key_and_the_steps_that_made_them_equal() {
    let run = wurl(&["explain", FIRST, SECOND], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = run.out();
    assert!(
        out.contains("Same key: http://www.example.com/a/c?q=%C3%A9#f"),
        "{out}"
    );
    for step in [
        "scheme      lower case",
        "\"HTTP\" → \"http\"",
        "host        lower case (Nameprep)",
        "\"www.Example.COM\" → \"www.example.com\"",
        "port        default port 80 dropped",
        "\"80\" → (absent)",
        "path        remove dot-segments",
        "\"/a/./b/../c\" → \"/a/c\"",
        "query       encoded as UTF-8, then percent-encoded (the query set)",
        "\"q=é\" → \"q=%C3%A9\"",
    ] {
        assert!(out.contains(step), "no {step:?} in\n{out}");
    }
    // The second URL is its own key: no step changed it.
    let second = &out[out.find("URL 2:").unwrap()..out.find("Same key").unwrap()];
    assert!(second.contains("no step changed it"), "{second}");

    let v = &json(&["explain", "-f", "json", FIRST, SECOND], None)[0];
    assert_eq!(v["same_key"], true);
    assert_eq!(v["parts_at"], Value::Null);
    assert_eq!(whats(v, 0, "scheme"), ["lower case"]);
    assert_eq!(whats(v, 0, "host"), ["lower case (Nameprep)"]);
    assert_eq!(whats(v, 0, "port"), ["default port 80 dropped"]);
    assert_eq!(whats(v, 0, "path"), ["remove dot-segments"]);
    assert_eq!(whats(v, 0, "query").len(), 1);
    assert_eq!(v["urls"][0]["key"], v["urls"][1]["key"]);
    // The stages' order is the specification's.
    let stages: Vec<&str> = v["urls"][0]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["stage"].as_str().unwrap())
        .filter(|s| *s != "parse")
        .collect();
    assert_eq!(stages, ["scheme", "host", "port", "path", "query"]);
}

#[test]
fn with_strip_www_it_says_where_two_keys_part() {
    let run = wurl(
        &[
            "explain",
            "--rules",
            "strip-www",
            FIRST,
            "http://www2.example.com/a/c",
        ],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = run.out();
    assert!(
        out.contains("Different keys: they part at the query"),
        "{out}"
    );
    assert!(out.contains("rule        strip-www"), "{out}");
    let v = &json(
        &[
            "explain",
            "-f",
            "json",
            "--rules",
            "strip-www",
            FIRST,
            "http://www2.example.com/a/c",
        ],
        None,
    )[0];
    assert_eq!(v["same_key"], false);
    assert_eq!(v["parts_at"]["component"], "query");
    assert_eq!(v["parts_at"]["first"], "q=%C3%A9");
    assert_eq!(v["parts_at"]["second"], Value::Null);
    assert_eq!(whats(v, 1, "rule"), ["strip-www"]);
    assert_eq!(v["urls"][1]["key"], "http://example.com/a/c");
    assert_eq!(v["urls"][1]["surt"], "com,example)/a/c");
    // Without a query and fragment the two get one key; without the rule they part at the host.
    let v = &json(
        &[
            "explain",
            "-f",
            "json",
            "--rules",
            "strip-www",
            "http://www.example.com/a/c",
            "http://www2.example.com/a/c",
        ],
        None,
    )[0];
    assert_eq!(v["same_key"], true);
    let v = &json(
        &[
            "explain",
            "-f",
            "json",
            "http://www.example.com/a/c",
            "http://www2.example.com/a/c",
        ],
        None,
    )[0];
    assert_eq!(v["parts_at"]["component"], "host");
    assert_eq!(v["parts_at"]["first"], "www.example.com");
    assert_eq!(v["parts_at"]["second"], "www2.example.com");
}

#[test]
fn pairs_base_and_models() {
    let lines = json(
        &["explain", "--pairs", "-f", "json"],
        Some(b"http://a/b\thttp://A:80/b\nhttp://x/y\n"),
    );
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["same_key"], true);
    assert_eq!(lines[0]["urls"].as_array().unwrap().len(), 2);
    assert_eq!(lines[1]["same_key"], Value::Null);
    assert_eq!(lines[1]["urls"][0]["key"], "http://x/y");

    let v = &json(
        &[
            "explain",
            "-f",
            "json",
            "--base",
            "http://example.com/dir/",
            "../x?é",
        ],
        None,
    )[0];
    assert_eq!(v["urls"][0]["base"], "http://example.com/dir/");
    assert_eq!(v["urls"][0]["canonical"], "http://example.com/x?%C3%A9");
    assert!(
        whats(v, 0, "resolve")
            .iter()
            .any(|w| w.contains("taken from the base"))
    );

    let v = &json(
        &[
            "explain",
            "-f",
            "json",
            "--charset",
            "windows-1252",
            "http://a/?é",
        ],
        None,
    )[0];
    assert_eq!(v["urls"][0]["canonical"], "http://a/?%E9");
    assert_eq!(
        whats(v, 0, "query"),
        ["encoded as windows-1252, then percent-encoded (the query set)"]
    );

    let v = &json(
        &[
            "explain",
            "-f",
            "json",
            "--model",
            "url-standard",
            "http://faß.de/a\\b/../c",
        ],
        None,
    )[0];
    assert_eq!(v["model"], "url-standard");
    assert_eq!(v["urls"][0]["key"], "http://xn--fa-hia.de/a/c");
    assert_eq!(v["urls"][0]["steps"].as_array().unwrap().len(), 0);
    let run = wurl(&["explain", "--model", "url-standard", "http://a/"], None);
    assert!(
        run.out().contains("its steps are not observed"),
        "{}",
        run.out()
    );
}

#[test]
fn a_bad_url_and_usage_errors() {
    // An invalid URL: its reason in the report and on standard error, exit status 1 as for canon.
    let run = wurl(&["explain", "http://%5Bx/"], None);
    assert_eq!(run.code, 1);
    assert!(
        run.out()
            .contains("invalid     host begins with percent-encoded '['"),
        "{}",
        run.out()
    );
    assert!(
        run.stderr
            .contains("URL 1 is invalid (host begins with percent-encoded '[')"),
        "{}",
        run.stderr
    );
    let canon = wurl(&["canon", "http://%5Bx/"], None);
    assert_eq!(canon.code, run.code);
    let run = wurl(&["explain", "-f", "json", "http://%5Bx/"], None);
    assert_eq!(run.code, 1);
    let v: Value = serde_json::from_str(&run.out()).unwrap();
    assert_eq!(
        v["urls"][0]["invalid"],
        "host begins with percent-encoded '['"
    );
    assert_eq!(v["urls"][0]["key"], Value::Null);

    // A line too long to read is invalid, not explained from its first bytes.
    let mut long = b"http://a/".to_vec();
    long.resize(17 << 20, b'b');
    long.extend_from_slice(b"\nhttp://A/\n");
    let run = wurl(&["explain", "-f", "json"], Some(&long));
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("input longer than 16 MiB"),
        "{}",
        run.stderr
    );
    assert_eq!(run.lines().len(), 1, "only the second line is explained");

    for (args, msg) in [
        (
            vec!["explain", "--rules", "strip-ww", "http://a/"],
            "--rules",
        ),
        (
            vec!["explain", "--charset", "nope", "http://a/"],
            "--charset",
        ),
        (
            vec!["explain", "--base", "no base", "x"],
            "--base is invalid",
        ),
        (
            vec!["explain", "http://a/", "http://b/", "http://c/"],
            "one URL, or two",
        ),
        (
            vec![
                "explain",
                "--strict",
                "--model",
                "url-standard",
                "http://a/",
            ],
            "--strict",
        ),
    ] {
        let run = wurl(&args, None);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(msg), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}");
    }
}
