//! `wurl::explain` is observed from the stages that compute the key, so its key must be the bulk
//! call's: checked on every golden-key row (`tests/data/golden-keys.tsv.xz`, with its base and
//! charset), in both models, without rules and with every rule, and its SURT against the bulk
//! call's SURT key. Then the steps it reports for the examples of docs/keys.md.

#[path = "common/golden.rs"]
#[allow(dead_code)]
mod golden;

use std::path::PathBuf;

use golden::parse_rows;
use wurl::surt::SurtOptions;
use wurl::{CanonOptions, ExplainOptions, KeyOptions, Model, Rules, Stage};

/// Every rule, so that each one's report road is compared with the one pass.
const ALL_RULES: &str = "drop-userinfo,strip-www,normalize-escapes,strip-session-ids,\
                         drop-params=utm_*|sid|fbclid,sort-query,drop-fragment";

fn bulk_2012(
    base: Option<&wurl::Url>,
    input: &str,
    opts: &CanonOptions,
    rules: Option<&Rules>,
    surt: bool,
) -> Result<String, String> {
    let key = KeyOptions {
        rules,
        surt: surt.then(SurtOptions::default),
    };
    let mut out = String::new();
    wurl::key_into(base, input, opts, &key, &mut out)
        .map(|()| out)
        .map_err(|r| r.as_str().to_owned())
}

fn bulk_standard(
    base: Option<&str>,
    input: &str,
    charset: Option<&str>,
    rules: Option<&Rules>,
    surt: bool,
) -> Result<String, String> {
    let key = KeyOptions {
        rules,
        surt: surt.then(SurtOptions::default),
    };
    let mut out = String::new();
    wurl::key_standard_into(base, input, charset, &key, &mut out)
        .map(|()| out)
        .map_err(|r| r.as_str().to_owned())
}

/// The differences between explain and the bulk calls on one row, described.
fn check_row(r: &golden::Row, rules: &Rules, failures: &mut Vec<String>) {
    let (input, b, charset) = (r.input.as_str(), r.base.as_deref(), r.charset.as_deref());
    let parsed_base = b.map(wurl::parse);
    let canon = CanonOptions {
        charset,
        network_strict: false,
    };
    for model in [Model::Canon2012, Model::UrlStandard] {
        for rules in [None, Some(rules)] {
            let opts = ExplainOptions {
                base: b,
                canon,
                model,
                rules,
            };
            let t = wurl::explain(input, &opts);
            let (key, surt) = match model {
                Model::UrlStandard => (
                    bulk_standard(b, input, charset, rules, false),
                    bulk_standard(b, input, charset, rules, true),
                ),
                _ => (
                    bulk_2012(parsed_base.as_ref(), input, &canon, rules, false),
                    bulk_2012(parsed_base.as_ref(), input, &canon, rules, true),
                ),
            };
            let got_key = t
                .key
                .clone()
                .ok_or_else(|| t.canonical.clone().unwrap_err());
            let got_surt = t
                .surt
                .clone()
                .ok_or_else(|| t.canonical.clone().unwrap_err());
            // Without rules the key is the canonical URL, which the golden file records.
            if model == Model::Canon2012 && rules.is_none() && got_key != r.key {
                failures.push(format!(
                    "{input:?} base {b:?}: explain {got_key:?}, golden {:?}",
                    r.key
                ));
            }
            if got_key != key || got_surt != surt {
                failures.push(format!(
                    "{input:?} base {b:?} {model:?} rules {:?}: explain {got_key:?} {got_surt:?}, \
                     bulk {key:?} {surt:?}",
                    rules.map(Rules::as_str)
                ));
            }
        }
    }
}

/// Every golden row; about a minute in a debug build on two cores, so CI's `extra` step runs it
/// in release (`cargo test --release -p wurl-canon --test explain -- --include-ignored`).
#[test]
#[ignore = "every golden row: run in release by CI's extra step"]
fn explain_key_is_the_bulk_calls_on_every_golden_row() {
    check_rows(1);
}

/// Every 16th golden row, in every build.
#[test]
fn explain_key_is_the_bulk_calls_on_a_sixteenth_of_the_golden_rows() {
    check_rows(16);
}

/// Explains every `step`th golden row and compares it with the bulk calls.
fn check_rows(step: usize) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden-keys.tsv.xz");
    let rows: Vec<_> = parse_rows(&path).into_iter().step_by(step).collect();
    assert!(rows.len() * step > 200_000, "{} golden rows", rows.len());
    let rules = Rules::parse(ALL_RULES).unwrap();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunk = rows.len().div_ceil(threads);
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = rows
            .chunks(chunk)
            .map(|part| {
                let rules = &rules;
                s.spawn(move || {
                    let mut failures = Vec::new();
                    for r in part {
                        check_row(r, rules, &mut failures);
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    eprintln!(
        "{} golden rows explained in 2 models x 2 rule sets: {} differ from the bulk call",
        rows.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} differences, the first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
}

/// The steps of a trace as `(stage, what)`.
fn steps(t: &wurl::Trace) -> Vec<(Stage, &str)> {
    t.steps.iter().map(|s| (s.stage, s.what.as_str())).collect()
}

#[test]
fn the_stages_report_their_steps_in_the_specifications_order() {
    let t = wurl::explain(
        "HTTP://www.Example.COM:80/a/./b/../c?q=é#f",
        &Default::default(),
    );
    assert_eq!(
        t.canonical.as_deref(),
        Ok("http://www.example.com/a/c?q=%C3%A9#f")
    );
    let changed: Vec<_> = steps(&t)
        .into_iter()
        .filter(|(s, _)| *s != Stage::Parse)
        .collect();
    assert_eq!(
        changed,
        [
            (Stage::Scheme, "lower case"),
            (Stage::Host, "lower case (Nameprep)"),
            (Stage::Port, "default port 80 dropped"),
            (Stage::Path, "remove dot-segments"),
            (
                Stage::Query,
                "encoded as UTF-8, then percent-encoded (the query set)"
            ),
        ]
    );
    let path = t.steps.iter().find(|s| s.stage == Stage::Path).unwrap();
    assert_eq!(path.before.as_deref(), Some("/a/./b/../c"));
    assert_eq!(path.after.as_deref(), Some("/a/c"));
    // The components as parsed, absent ones left out, the empty ones kept.
    let parsed: Vec<_> = t
        .steps
        .iter()
        .filter(|s| s.stage == Stage::Parse)
        .map(|s| (s.what.as_str(), s.after.as_deref()))
        .collect();
    assert_eq!(
        parsed,
        [
            ("scheme", Some("HTTP")),
            ("host", Some("www.Example.COM")),
            ("port", Some("80")),
            ("path", Some("/a/./b/../c")),
            ("query", Some("q=é")),
            ("fragment", Some("f")),
        ]
    );
    let t = wurl::explain("http://h/?#", &Default::default());
    let parsed: Vec<_> = steps(&t)
        .into_iter()
        .filter(|(s, _)| *s == Stage::Parse)
        .collect();
    assert_eq!(
        parsed.len(),
        5,
        "{parsed:?}: the empty query and fragment are present"
    );
}

#[test]
fn host_steps_come_from_canonicalize_host() {
    let host_steps = |u: &str| {
        let t = wurl::explain(u, &Default::default());
        t.steps
            .into_iter()
            .filter(|s| s.stage == Stage::Host)
            .map(|s| (s.what, s.before.unwrap(), s.after.unwrap()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        host_steps("http://B%C3%BCcher.de/"),
        [
            (
                "percent-decoded (UTF-8)".into(),
                "B%C3%BCcher.de".into(),
                "Bücher.de".into()
            ),
            (
                "lower case (Nameprep)".into(),
                "Bücher.de".into(),
                "bücher.de".into()
            ),
            ("Punycode".into(), "bücher".into(), "xn--bcher-kva".into()),
        ]
    );
    assert_eq!(
        host_steps("http://0x7f.1/"),
        [(
            "IPv4 address, read as 2 number(s) (hex, decimal), the last filling 3 octets".into(),
            "0x7f.1".into(),
            "127.0.0.1".into()
        )]
    );
    assert_eq!(host_steps("http://example.com/"), []);
}

#[test]
fn rules_report_each_change_and_compare_finds_where_keys_part() {
    let rules = Rules::parse("strip-www,sort-query").unwrap();
    let opts = ExplainOptions {
        rules: Some(&rules),
        ..Default::default()
    };
    let a = wurl::explain("http://www.example.com/a/c?b=1&a=2", &opts);
    let rule_steps: Vec<_> = steps(&a)
        .into_iter()
        .filter(|(s, _)| *s == Stage::Rule)
        .map(|(_, w)| w)
        .collect();
    assert_eq!(rule_steps, ["strip-www", "sort-query"]);
    assert_eq!(a.key.as_deref(), Some("http://example.com/a/c?a=2&b=1"));
    assert_eq!(a.surt.as_deref(), Some("com,example)/a/c?a=2&b=1"));
    let b = wurl::explain("http://www2.example.com/a/c?a=2&b=1", &opts);
    assert!(wurl::compare(&a, &b).same_key);
    let c = wurl::explain("http://www2.example.org/a/c", &opts);
    let cmp = wurl::compare(&a, &c);
    assert!(!cmp.same_key);
    assert_eq!(
        cmp.parts_at,
        Some((
            "host",
            Some("example.com".into()),
            Some("example.org".into())
        ))
    );
    // A change the soundness check refuses is reported, and not made.
    let t = wurl::explain(
        "http://www.1.2.3/",
        &ExplainOptions {
            rules: Some(&Rules::parse("strip-www").unwrap()),
            ..Default::default()
        },
    );
    assert_eq!(t.key.as_deref(), Some("http://www.1.2.3/"));
    assert!(
        steps(&t)[..]
            .iter()
            .any(|(s, w)| *s == Stage::Rule && w.contains("not kept"))
    );
}

#[test]
fn an_invalid_url_has_its_reason_and_no_key() {
    let t = wurl::explain("http://%5Bx/", &Default::default());
    let mut bulk = String::new();
    let why = wurl::canon_into(None, "http://%5Bx/", &Default::default(), &mut bulk).unwrap_err();
    assert_eq!(t.canonical, Err(why.as_str().to_owned()));
    assert!(
        t.steps
            .iter()
            .any(|s| s.stage == Stage::Host && s.what == why.as_str())
    );
    assert_eq!((t.key, t.surt), (None, None));
    let t = wurl::explain(
        "x",
        &ExplainOptions {
            base: Some("not a url"),
            ..Default::default()
        },
    );
    assert!(t.canonical.is_err());
    let cmp = wurl::compare(&t, &wurl::explain("http://a/", &Default::default()));
    assert!(!cmp.same_key && cmp.parts_at.is_none());
}
