//! `-f html` of `audit` and `compare`: the page's figures are the JSON report's. The tests marked
//! `ignore` open the page in headless Chromium and read the figures back from its DOM (CI's `html`
//! step runs them: `cargo test -p wurl-cli --test html -- --include-ignored`); with
//! `WURL_SCREENSHOT=FILE.png` the audit test also saves a screenshot of the page.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{data_path, kasztp, wurl_file};
use serde_json::Value;

/// The value of `data-NAME="KEY"` followed by `>VALUE<` (a summary figure) in `html`.
fn figure(html: &str, key: &str) -> Option<u64> {
    let at = html.find(&format!("data-figure=\"{key}\">"))? + key.len() + 15;
    html[at..].split('<').next()?.trim().parse().ok()
}

/// The `(label, count)` of every bar of the chart.
fn bars(html: &str) -> Vec<(String, u64)> {
    html.split("data-label=\"")
        .skip(1)
        .map(|rest| {
            let (label, rest) = rest.split_once('"').unwrap();
            let count = rest.split("data-count=\"").nth(1).unwrap();
            let count = count.split('"').next().unwrap().parse().unwrap();
            (label.replace("&lt;", "<").replace("&amp;", "&"), count)
        })
        .collect()
}

fn run(args: &[&str], input: &Path) -> String {
    let r = wurl_file(args, input);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.out()
}

/// The audit page and the JSON report of the same run agree, and so do the compare page and its
/// JSON: `html` is the page itself or the DOM a browser made of it.
fn check_audit(html: &str, json: &Value) {
    for k in [
        "inputs",
        "invalid",
        "canonical",
        "keys",
        "merged",
        "untracked",
    ] {
        assert_eq!(figure(html, k), json[k].as_u64(), "{k}");
    }
    let b = bars(html);
    for c in json["classes"].as_array().unwrap() {
        let name = c["class"].as_str().unwrap();
        let count = b.iter().find(|(l, _)| l == name).map(|x| x.1);
        assert_eq!(count, c["merges"].as_u64(), "{name}");
    }
    let groups = html.matches("class=\"group\"").count();
    assert_eq!(groups, json["groups"].as_array().unwrap().len());
}

fn check_compare(html: &str, json: &Value) {
    for k in ["inputs", "same", "both_invalid", "differ"] {
        assert_eq!(figure(html, k), json[k].as_u64(), "{k}");
    }
    let b = bars(html);
    for c in json["classes"].as_array().unwrap() {
        let name = c["class"].as_str().unwrap();
        let count = b.iter().find(|(l, _)| l == name).map(|x| x.1);
        assert_eq!(count, c["count"].as_u64(), "{name}");
    }
}

fn kasztp_or_data() -> PathBuf {
    kasztp().unwrap_or_else(|| data_path("tests/data/audit-classes.tsv"))
}

fn audit_pages() -> (String, Value) {
    let k = kasztp_or_data();
    let args = ["audit", "--rules", "drop-params=sid"];
    let html = run(&[&args[..], &["-f", "html"]].concat(), &k);
    let json = serde_json::from_str(&run(&[&args[..], &["-f", "json"]].concat(), &k)).unwrap();
    (html, json)
}

fn compare_pages() -> (String, Value) {
    let input = data_path("../bench/data/pagewritten.txt");
    let html = run(&["compare", "-f", "html"], &input);
    let json = serde_json::from_str(&run(&["compare", "-f", "json"], &input)).unwrap();
    (html, json)
}

#[test]
fn audit_page_holds_the_reports_figures() {
    let (html, json) = audit_pages();
    assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
    // Self-contained: no script, no external resource.
    for no in ["<script", "src=", "<link", "url("] {
        assert!(!html.contains(no), "{no}");
    }
    check_audit(&html, &json);
    assert!(
        json["merged"].as_u64().unwrap() > 0,
        "the page shows merges"
    );
}

#[test]
fn compare_page_holds_the_reports_figures() {
    let (html, json) = compare_pages();
    check_compare(&html, &json);
    assert!(json["differ"].as_u64().unwrap() > 0);
}

#[test]
fn compare_show_all_is_not_for_html() {
    let r = wurl_file(
        &["compare", "-f", "html", "--show-all"],
        &data_path("tests/data/compare-classes.tsv"),
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--show-all"), "{}", r.stderr);
}

/// Headless Chromium (Debian's `chromium`), or `CHROMIUM`.
fn chromium() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".to_owned())
}

/// The DOM Chromium makes of `html`, written to a file of its own.
fn dom_of(html: &str, name: &str) -> (String, PathBuf) {
    let dir = std::env::temp_dir().join(format!("wurl-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join(name);
    std::fs::write(&page, html).unwrap();
    let out = Command::new(chromium())
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium (CHROMIUM=path to choose one)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (String::from_utf8(out.stdout).unwrap(), page)
}

#[test]
#[ignore = "needs headless Chromium: cargo test -p wurl-cli --test html -- --include-ignored"]
fn audit_page_in_chromium() {
    let (html, json) = audit_pages();
    let (dom, page) = dom_of(&html, "audit.html");
    assert!(dom.contains("<svg"), "{dom}");
    check_audit(&dom, &json);
    if let Ok(shot) = std::env::var("WURL_SCREENSHOT") {
        let st = Command::new(chromium())
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
            ])
            .arg("--window-size=1100,900")
            .arg(format!("--screenshot={shot}"))
            .arg(format!("file://{}", page.display()))
            .status()
            .unwrap();
        assert!(st.success() && Path::new(&shot).is_file(), "{shot}");
    }
}

#[test]
#[ignore = "needs headless Chromium: cargo test -p wurl-cli --test html -- --include-ignored"]
fn compare_page_in_chromium() {
    let (html, json) = compare_pages();
    let (dom, _) = dom_of(&html, "compare.html");
    check_compare(&dom, &json);
}
