//! `wurl audit`: the merges a rule set makes, by rule and class, on kasztp and on the committed
//! table of every class.

mod common;

use common::{data_path, kasztp, wurl, wurl_file};
use serde_json::Value;

fn json(run: &common::Run) -> Value {
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&run.out()).expect("one JSON object")
}

fn merges(v: &Value, class: &str) -> u64 {
    v["classes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["class"] == class)
        .unwrap()["merges"]
        .as_u64()
        .unwrap()
}

/// `drop-params=sid` on kasztp merges Slashcode's articles (`article.pl?sid=00/11/23/1616201`)
/// and PHP-Nuke's (`article.php?sid=15733`): content ids, the riskiest class, at the top.
#[test]
fn drop_params_sid_merges_content_ids_on_kasztp() {
    let Some(k) = kasztp() else { return };
    let v = json(&wurl_file(
        &["audit", "--rules", "drop-params=sid", "-f", "json"],
        &k,
    ));
    assert_eq!(v["inputs"], 48010);
    let content = merges(&v, "content-parameter");
    assert!(content >= 40, "{content} content-parameter merges");
    assert_eq!(
        v["merged"].as_u64(),
        Some(content),
        "every merge is of content ids"
    );
    let groups = v["groups"].as_array().unwrap();
    let top: Vec<&str> = groups
        .iter()
        .take(8)
        .map(|g| {
            assert_eq!(g["class"], "content-parameter", "{g}");
            g["key"].as_str().unwrap()
        })
        .collect();
    for want in [
        "https://slashdot.org/article.pl",
        "https://yro.slashdot.org/article.pl",
        "https://www.worthplaying.com/article.php",
    ] {
        assert!(top.contains(&want), "{want} among {top:?}");
    }
}

/// `strip-session-ids` keeps those ids (its `sid` needs a 32-character token): no content merge.
#[test]
fn strip_session_ids_merges_no_content_on_kasztp() {
    let Some(k) = kasztp() else { return };
    let v = json(&wurl_file(
        &["audit", "--rules", "strip-session-ids", "-f", "json"],
        &k,
    ));
    assert_eq!(merges(&v, "content-parameter"), 0);
    assert!(merges(&v, "session-parameter") >= 1);
}

/// Every row of the table through the command: the two URLs give one merge of the row's class.
#[test]
fn each_class_through_the_command() {
    let table = std::fs::read_to_string(data_path("tests/data/audit-classes.tsv")).unwrap();
    let mut rows = 0;
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let input = format!("{}\n{}\n{}\n", f[2], f[3], f[2]);
        let v = json(&wurl(
            &["audit", "--rules", f[1], "-f", "json"],
            Some(input.as_bytes()),
        ));
        assert_eq!(v["inputs"], 3, "{line}");
        assert_eq!(
            v["canonical"], 2,
            "{line}: the repeated line is one canonical URL"
        );
        assert_eq!(v["merged"], 1, "{line}");
        assert_eq!(merges(&v, f[0]), 1, "{line}");
        assert_eq!(v["groups"][0]["class"], f[0], "{line}");
        rows += 1;
    }
    assert!(rows >= 15, "{rows} rows");
}

/// Past `--max-keys` canonical URLs are counted as not tracked, never lost; invalid lines are
/// counted too.
#[test]
fn caps_and_invalid_lines_are_counted() {
    let input = b"http://a/1\nhttp://a/2\nhttp://a/3\nhttp://a/4\nhttp://a:99999/\n";
    let v = json(&wurl(
        &["audit", "--max-keys", "2", "-f", "json"],
        Some(input),
    ));
    assert_eq!(v["inputs"], 5);
    assert_eq!(v["invalid"], 1);
    assert_eq!(v["canonical"], 2);
    assert_eq!(v["untracked"], 2);
    let text = wurl(&["audit", "--max-keys", "2"], Some(input));
    assert!(
        text.out()
            .contains("2 canonical URLs past the cap of 2 were not tracked"),
        "{}",
        text.out()
    );
}

#[test]
fn bad_rules_and_charset_are_usage_errors() {
    let r = wurl(&["audit", "--rules", "strip-nothing"], Some(b"http://a/\n"));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("strip-nothing"), "{}", r.stderr);
    let r = wurl(&["audit", "--charset", "shiftjs"], Some(b"http://a/\n"));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("shiftjs"), "{}", r.stderr);
}

/// `--pairs`: each link resolved against its page.
#[test]
fn pairs_resolve_links() {
    let input = b"http://a/dir/\tx?sid=1\nhttp://a/dir/\tx?sid=2\n";
    let v = json(&wurl(
        &[
            "audit",
            "--pairs",
            "--rules",
            "drop-params=sid",
            "-f",
            "json",
        ],
        Some(input),
    ));
    assert_eq!(v["groups"][0]["key"], "http://a/dir/x");
    assert_eq!(merges(&v, "content-parameter"), 1);
}
