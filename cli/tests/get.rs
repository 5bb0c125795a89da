//! `wurl canon --get TEMPLATE`: the names, braces, absent and empty
//! components, escaping, usage errors, invalid inputs, and the interplay
//! with --rules, --model, --base, --pairs, -z, -j and --format.

mod common;

use common::{lib_canon, wurl};

const NONE: Option<&[u8]> = None;

#[test]
fn host_and_path() {
    let r = wurl(&["canon", "--get", "{host} {path}"], Some(b"http://a/b\n"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.out(), "a /b\n");
}

#[test]
fn every_name_is_a_component_of_the_canonical_url() {
    let input = "HTTP://us:pw@Example.COM:8080/a/./b?q=é#f";
    let t = "{scheme}|{user}|{password}|{host}|{port}|{path}|{query}|{fragment}";
    let r = wurl(&["canon", "--get", t, input], NONE);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The library's own split of its canonical URL.
    let canon = lib_canon(None, input, None, false);
    let u = wurl::parse(&canon);
    let expect: Vec<&str> = wurl::Component::ALL
        .iter()
        .map(|&c| u.get(c).unwrap_or(""))
        .collect();
    assert_eq!(r.out(), format!("{}\n", expect.join("|")));
    assert_eq!(
        r.out(),
        "http|us|pw|example.com|8080|/a/b|q=%C3%A9|f\n",
        "certain under the spec"
    );
}

#[test]
fn absent_and_empty_print_nothing_braces_are_literal() {
    let r = wurl(
        &[
            "canon",
            "--get",
            "{{[{port}][{query}][{fragment}]}}",
            "http://a/?#",
            "http://a:80/",
        ],
        NONE,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.lines(), ["{[][][]}", "{[][][]}"]);
}

#[test]
fn url_key_and_surt_with_rules() {
    let input = "http://www.Example.com/x?b=2&a=1#f";
    let r = wurl(
        &[
            "canon",
            "--rules",
            "strip-www,sort-query,drop-fragment",
            "--get",
            "{url}\t{key}\t{surt}\t{host}",
            input,
        ],
        NONE,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let key = wurl(
        &[
            "canon",
            "--rules",
            "strip-www,sort-query,drop-fragment",
            input,
        ],
        NONE,
    );
    let surt = wurl(
        &[
            "canon",
            "--rules",
            "strip-www,sort-query,drop-fragment",
            "-f",
            "surt",
            input,
        ],
        NONE,
    );
    let url = wurl(&["canon", input], NONE);
    let expect = format!(
        "{}\t{}\t{}\twww.example.com\n",
        url.out().trim_end(),
        key.out().trim_end(),
        surt.out().trim_end()
    );
    assert_eq!(r.out(), expect);
    assert_eq!(
        r.out(),
        "http://www.example.com/x?b=2&a=1#f\thttp://example.com/x?a=1&b=2\tcom,example)/x?a=1&b=2\twww.example.com\n"
    );
    // Without --rules the key is the canonical URL; --surt-scheme keeps
    // the scheme of {surt}.
    let r = wurl(
        &[
            "canon",
            "--surt-scheme",
            "--get",
            "{key} {surt}",
            "http://a.b/",
        ],
        NONE,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.out(), "http://a.b/ http://(b,a)/\n");
}

#[test]
fn unknown_names_and_bad_templates_are_usage_errors() {
    for (t, what) in [
        ("{hots}", "unknown name \"hots\""),
        ("{host", "a { without its }"),
        ("a}", "a lone }"),
        ("{}", "unknown name \"\""),
        ("a\nb", "line end"),
        ("a\rb", "line end"),
    ] {
        let r = wurl(&["canon", "--get", t], Some(b"http://a/\n"));
        assert_eq!(r.code, 2, "{t:?}");
        assert!(r.stdout.is_empty(), "{t:?}: nothing read or written");
        assert!(
            r.stderr.starts_with("wurl: --get ") && r.stderr.contains(what),
            "{t:?}: {}",
            r.stderr
        );
    }
    for f in ["tsv", "json", "surt"] {
        let r = wurl(&["canon", "-f", f, "--get", "{url}", "http://a/"], NONE);
        assert_eq!(r.code, 2, "--get with -f {f}");
        assert!(r.stderr.contains("--get"), "{}", r.stderr);
    }
    // --get is for canon only.
    assert_eq!(
        wurl(&["parse", "--get", "{url}", "http://a/"], NONE).code,
        2
    );
}

#[test]
fn values_keep_one_line_per_input() {
    // With -z a raw LF reaches the algorithm, which removes it: the value
    // never holds one, and each output record is one record.
    let r = wurl(
        &["canon", "-z", "--get", "{path}\t{query}"],
        Some(b"http://a/x\ny?q\tr\0http://b/\0"),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, b"/xy\tqr\0/\t\0");
}

#[test]
fn invalid_inputs_as_for_text() {
    let stdin = b"http://a/\nnope\nhttp://b/\n";
    let r = wurl(&["canon", "--get", "{host}"], Some(stdin));
    assert_eq!(r.code, 1);
    assert_eq!(r.out(), "a\n\nb\n", "blank: an empty line");
    assert!(r.stderr.contains("line 2: no scheme"), "{}", r.stderr);
    let r = wurl(
        &[
            "canon",
            "--get",
            "{host}",
            "--invalid",
            "skip",
            "--allow-invalid",
        ],
        Some(stdin),
    );
    assert_eq!((r.code, r.out().as_str()), (0, "a\nb\n"));
    let r = wurl(
        &["canon", "--get", "{host}", "--invalid", "fail"],
        Some(stdin),
    );
    assert_eq!((r.code, r.out().as_str()), (1, "a\n"));
}

#[test]
fn base_pairs_model_and_jobs() {
    let r = wurl(
        &[
            "canon",
            "--base",
            "http://h/d/",
            "--get",
            "{url} {path}",
            "../x",
        ],
        NONE,
    );
    assert_eq!(r.out(), "http://h/x /x\n");
    let r = wurl(
        &["canon", "--pairs", "--get", "{host}{path}"],
        Some(b"http://a.com/b/c\t../d\nno-tab\n"),
    );
    assert_eq!(r.out(), "a.com/d\n\n");
    assert!(r.stderr.contains("no TAB"), "{}", r.stderr);
    let r = wurl(
        &[
            "canon",
            "--model",
            "url-standard",
            "--get",
            "{host} {url}",
            "http://faß.de/a\\b/../c",
        ],
        NONE,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.out(), "xn--fa-hia.de http://xn--fa-hia.de/a/c\n");
    // -j N: the same output as -j 1, across many chunks.
    let stdin: String = (0..20_000)
        .map(|i| {
            if i % 97 == 0 {
                "bad url\n".to_owned()
            } else {
                format!("http://h{}.example/p/{i}?q={i}#f\n", i % 13)
            }
        })
        .collect();
    let t = "{host}\t{path}\t{query}\t{key}";
    let one = wurl(&["canon", "--get", t, "-q"], Some(stdin.as_bytes()));
    let four = wurl(
        &["canon", "--get", t, "-q", "-j", "4"],
        Some(stdin.as_bytes()),
    );
    assert_eq!(one.lines().len(), 20_000);
    assert_eq!(one.stdout, four.stdout);
    assert_eq!(
        one.lines()[1],
        "h1.example\t/p/1\tq=1\thttp://h1.example/p/1?q=1#f"
    );
}
