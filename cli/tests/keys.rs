//! `wurl canon --rules SPEC` and `--format surt` (issue 28): the examples of
//! the issue, agreement with the library, and bad specifications.

mod common;

use common::{kasztp, wurl, wurl_file};

const NONE: Option<&[u8]> = None;

#[test]
fn the_issue_examples() {
    let r = wurl(
        &[
            "canon",
            "--rules",
            "drop-fragment,strip-www,sort-query,strip-session-ids,drop-params=utm_*",
            "http://www.Example.com/x;jsessionid=ABC?b=2&utm_source=x&a=1#f",
        ],
        NONE,
    );
    assert_eq!(
        (r.code, r.out()),
        (0, "http://example.com/x?a=1&b=2\n".to_owned())
    );
    let r = wurl(
        &[
            "canon",
            "--format",
            "surt",
            "http://www.Example.com/a/b?z=1&a=2",
        ],
        NONE,
    );
    assert_eq!(
        (r.code, r.out()),
        (0, "com,example,www)/a/b?z=1&a=2\n".to_owned())
    );
    let r = wurl(
        &[
            "canon",
            "-f",
            "surt",
            "--surt-scheme",
            "http://www.Example.com/a/b?z=1&a=2",
        ],
        NONE,
    );
    assert_eq!(r.out(), "http://(com,example,www)/a/b?z=1&a=2\n");
    // Without --rules, the 2012 key.
    let r = wurl(
        &["canon", "http://www.Example.com/x;jsessionid=ABC?b=2#f"],
        NONE,
    );
    assert_eq!(r.out(), "http://www.example.com/x;jsessionid=ABC?b=2#f\n");
}

#[test]
fn rules_and_surt_together_and_with_base() {
    let r = wurl(
        &[
            "canon",
            "--base",
            "http://www2.a.com/dir/",
            "--rules",
            "strip-www,sort-query",
            "-f",
            "surt",
            "x?b&a",
            "http://:99999/",
            "mailto:x?b&a",
        ],
        NONE,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.out(), "com,a)/dir/x?a&b\n\nmailto:x?a&b\n");
}

#[test]
fn pairs_with_rules_and_surt() {
    let r = wurl(
        &[
            "canon",
            "--pairs",
            "--rules",
            "strip-www,sort-query",
            "-f",
            "surt",
        ],
        Some(b"http://www.a.com/d/\tx?b&a\nhttp://b.org/\t../y#f\n".as_slice()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.out(), "com,a)/d/x?a&b\norg,b)/y#f\n");
}

#[test]
fn json_and_tsv_show_the_ruled_url() {
    let r = wurl(
        &[
            "canon",
            "-f",
            "json",
            "--rules",
            "drop-userinfo,drop-fragment",
            "http://u:p@a.com/#f",
        ],
        NONE,
    );
    let out = r.out();
    assert!(
        out.starts_with("{\"url\":\"http://a.com/\",\"scheme\":\"http\",\"user\":null"),
        "{out}"
    );
    assert!(out.contains("\"fragment\":null"), "{out}");
}

#[test]
fn bad_rules_are_usage_errors_naming_the_part() {
    for (spec, part) in [
        ("sort-querry", "\"sort-querry\""),
        ("drop-params=a||b", "\"drop-params=a||b\""),
        ("strip-www,strip-www", "\"strip-www\""),
        ("drop-fragment,", "empty rule"),
    ] {
        let r = wurl(&["canon", "--rules", spec, "http://a/"], NONE);
        assert_eq!(r.code, 2, "{spec}");
        assert!(r.stdout.is_empty());
        assert!(r.stderr.starts_with("wurl: --rules: "), "{}", r.stderr);
        assert!(r.stderr.contains(part), "{spec}: {}", r.stderr);
    }
    let r = wurl(&["parse", "--format", "surt", "http://a/"], NONE);
    assert_eq!(r.code, 2);
    // The message is the library's, with nothing of the specification
    // added: a long specification is quoted only as the library quotes it.
    let long = format!("drop-fragment,{}", "sort-querry".repeat(9000));
    let r = wurl(&["canon", "--rules", &long, "http://a/"], NONE);
    let lib = wurl::Rules::parse(&long).unwrap_err().to_string();
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr, format!("wurl: --rules: {lib}\n"));
}

#[test]
fn surt_scheme_needs_format_surt() {
    for fmt in [&[][..], &["-f", "text"], &["-f", "tsv"], &["-f", "json"]] {
        let args = [&["canon", "--surt-scheme"][..], fmt, &["http://a/"]].concat();
        let r = wurl(&args, NONE);
        assert_eq!((r.code, r.out().as_str()), (2, ""), "{args:?}");
        assert!(r.stderr.contains("--surt-scheme") && r.stderr.contains("--format surt"));
    }
    let r = wurl(&["canon", "-f", "surt", "--surt-scheme", "http://a/"], NONE);
    assert_eq!((r.code, r.out().as_str()), (0, "http://(a)/\n"));
}

/// On the kasztp dataset, `--rules` and `--format surt` give what the
/// library gives, serially and with two workers.
#[test]
fn agrees_with_the_library_on_kasztp() {
    let Some(path) = kasztp() else { return };
    let spec = "drop-fragment,strip-www,sort-query,strip-session-ids,drop-params=utm_*|*id";
    let rules = wurl::Rules::parse(spec).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let want: Vec<String> = text
        .lines()
        .map(|l| {
            let mut s = String::new();
            match wurl::canon_into(None, l, &Default::default(), &mut s) {
                Ok(()) => wurl::surt::surt(&rules.apply(&s), &Default::default()),
                Err(_) => String::new(),
            }
        })
        .collect();
    for jobs in ["1", "2"] {
        let r = wurl_file(
            &[
                "canon",
                "-q",
                "--allow-invalid",
                "-j",
                jobs,
                "--rules",
                spec,
                "-f",
                "surt",
            ],
            &path,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(r.lines(), want, "-j {jobs}");
    }
}

/// Keys are canonical URLs of the page's own site: what `wurl canon --rules`
/// prints, `wurl canon` leaves unchanged, with no host the URL does not
/// have; session ids go, article ids stay; `sort-query` is a total order;
/// `normalize-escapes`.
#[test]
fn keys_are_canonical_and_of_the_same_site() {
    let canon = |args: &[&str]| {
        let r = wurl(args, NONE);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        r.out().trim_end_matches('\n').to_owned()
    };
    for (spec, input, want) in [
        (
            "strip-session-ids",
            "http:/;jsessionid=1/evil.com/x",
            "http:/;jsessionid=1/evil.com/x",
        ),
        (
            "drop-userinfo",
            "https://u@//evil.com:443/",
            "https://u@//evil.com:443/",
        ),
        ("strip-www", "http://www.0x7f.1/", "http://www.0x7f.1/"),
        (
            "strip-session-ids",
            "http://a/.;jsessionid=x/b",
            "http://a/.;jsessionid=x/b",
        ),
        (
            "strip-session-ids",
            "http://slashdot.org/article.pl?sid=00/11/23/1616201",
            "http://slashdot.org/article.pl?sid=00/11/23/1616201",
        ),
        (
            "strip-session-ids",
            "http://a.com/x;jsessionid=ABC?PHPSESSID=hl5dk4od9258lu1p4kkklbdm65&sid=0123456789abcdef0123456789abcdef&q",
            "http://a.com/x?q",
        ),
        ("sort-query", "http://a/?a=&a", "http://a/?a&a="),
        ("sort-query", "http://a/?a&a=", "http://a/?a&a="),
        (
            "normalize-escapes",
            "http://a/%7euser/%2f?q=%4a",
            "http://a/~user/%2F?q=J",
        ),
    ] {
        let key = canon(&["canon", "--rules", spec, input]);
        assert_eq!(key, want, "{spec} on {input}");
        assert_eq!(canon(&["canon", &key]), key, "{spec} on {input}");
        let surt = canon(&["canon", "--rules", spec, "-f", "surt", input]);
        assert!(!surt.starts_with("com,evil"), "{surt}");
    }
    // The SURT form of a URL with an empty host keeps the empty authority
    // when the path starts with `//`, which would read as one.
    let surt = canon(&[
        "canon",
        "--rules",
        "drop-userinfo",
        "-f",
        "surt",
        "https://u@//evil.com:443/",
    ]);
    assert_eq!(surt, "https:////evil.com:443/");
}

/// A `drop-params` pattern that can never match the canonical form is a
/// usage error naming the octet; a huge bad specification gives a short
/// message.
#[test]
fn impossible_patterns_and_huge_specifications() {
    for (spec, octet) in [
        ("drop-params=x\"y", "'\"'"),
        ("drop-params=x<y", "'<'"),
        ("drop-params=a|x>", "'>'"),
    ] {
        let r = wurl(&["canon", "--rules", spec, "http://a/"], NONE);
        assert_eq!(r.code, 2, "{spec}");
        assert!(r.stderr.contains(octet), "{spec}: {}", r.stderr);
    }
    let huge = format!("drop-fragment,{}", "x".repeat(98 * 1024));
    let r = wurl(&["canon", "--rules", &huge, "http://a/"], NONE);
    assert_eq!(r.code, 2);
    assert!(r.stderr.len() < 400, "{} bytes", r.stderr.len());
}
