//! Integration tests of the `wurl` binary: every option, the formats, invalid
//! handling and exit status, input decoding, and parallel = serial.

mod common;

use common::{kasztp, lib_canon, wurl, wurl_file};
use serde_json::Value;

const NONE: Option<&[u8]> = None;

fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON {l:?}: {e}")))
        .collect()
}

// ---- help and version -----------------------------------------------------

#[test]
fn help_has_examples_and_exit_status() {
    let r = wurl(&["--help"], NONE);
    assert_eq!(r.code, 0);
    let out = r.out();
    for s in [
        "Examples:",
        "wurl canon",
        "Exit status:",
        "\\N",
        "--invalid",
    ] {
        assert!(out.contains(s), "--help lacks {s:?}:\n{out}");
    }
    for sub in ["canon", "parse", "resolve"] {
        let r = wurl(&[sub, "--help"], NONE);
        assert_eq!(r.code, 0);
        assert!(
            r.out().contains("Examples:"),
            "{sub} --help has no examples"
        );
    }
}

#[test]
fn version() {
    let r = wurl(&["--version"], NONE);
    assert_eq!(r.code, 0);
    assert_eq!(
        r.out().trim(),
        format!(
            "wurl {} (key version {})",
            env!("CARGO_PKG_VERSION"),
            wurl::KEY_VERSION
        )
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(
        wurl(&["resolve", "x"], NONE).code,
        2,
        "resolve without --base"
    );
    assert_eq!(wurl(&["canon", "--format", "xml"], NONE).code, 2);
    assert_eq!(wurl(&["canon", "--invalid", "maybe"], NONE).code, 2);
    assert_eq!(
        wurl(&["parse", "--base", "http://a/", "x"], NONE).code,
        2,
        "parse takes no base"
    );
    assert_eq!(
        wurl(&["canon", "-i", "/nonexistent/wurl-input"], NONE).code,
        2
    );
    assert_eq!(
        wurl(&["canon", "-i", "/dev/null", "http://a/"], NONE).code,
        2,
        "--input and URL arguments"
    );
    assert_eq!(wurl::<&str>(&[], NONE).code, 2);
}

// ---- canon ----------------------------------------------------------------

#[test]
fn canon_certain_behaviour() {
    // Certain under the spec: scheme and host lowercased, default port
    // dropped, dot-segments removed, the query UTF-8 percent-encoded.
    let r = wurl(&["canon", "HTTP://Example.COM:80/a/./b/../c?q=é#f"], NONE);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.out(), "http://example.com/a/c?q=%C3%A9#f\n");
}

#[test]
fn canon_agrees_with_library_on_arguments_and_stdin() {
    let inputs = [
        "http://example.com/",
        "HTTP://Example.COM:80/a/./b/../c?q=é#f",
        "https://user:pw@[::1]:443/%7e?x#y",
        "mailto:A@B.c",
        "file:///C:/dir/../x",
        "javascript:alert(1)",
        "http://xn--nxasmq6b.example/",
        "http://日本.example/パス?クエリ",
    ];
    let expect: String = inputs
        .iter()
        .map(|i| lib_canon(None, i, None, false) + "\n")
        .collect();
    let r = wurl(&[&["canon"][..], &inputs[..]].concat(), NONE);
    assert_eq!(r.out(), expect);
    let stdin = inputs.join("\n");
    let r = wurl(&["canon"], Some(stdin.as_bytes()));
    assert_eq!(r.out(), expect);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn canon_base() {
    let base = "http://example.com/dir/sub/page?x#y";
    let inputs = [
        "../x",
        "?q",
        "#frag",
        "//other.example/p",
        "",
        "g;p=1/./h",
        "https://abs.example/",
    ];
    let r = wurl(
        &[&["canon", "--base", base][..], &inputs[..]].concat(),
        NONE,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let expect: Vec<String> = inputs
        .iter()
        .map(|i| lib_canon(Some(base), i, None, false))
        .collect();
    assert_eq!(r.lines(), expect);
    // Resolution results that are certain.
    assert_eq!(r.lines()[0], "http://example.com/dir/x");
    assert_eq!(r.lines()[2], "http://example.com/dir/sub/page?x#frag");
    assert_eq!(r.lines()[6], "https://abs.example/");
}

#[test]
fn an_invalid_base_is_a_usage_error() {
    // Whatever --invalid and --allow-invalid say: every URL resolved
    // against it would be invalid, even absolute ones.
    for extra in [
        &[][..],
        &["--invalid", "skip", "--allow-invalid"][..],
        &["--invalid", "fail"][..],
        &["-q", "-f", "json"][..],
    ] {
        for sub in ["canon", "resolve"] {
            let args = [&[sub, "--base", "example.com/x"][..], extra].concat();
            let r = wurl(&args, Some(b"http://a/\n../b\n"));
            assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
            assert_eq!(r.out(), "", "{args:?}");
            assert!(
                r.stderr.contains("--base is invalid (no scheme")
                    && r.stderr.contains("\"example.com/x\""),
                "{}",
                r.stderr
            );
        }
    }
    assert_eq!(wurl(&["canon", "--base", "", "http://a/"], NONE).code, 2);
    // A valid base still works with the same options.
    let r = wurl(
        &[
            "canon",
            "--base",
            "http://example.com/x",
            "--invalid",
            "skip",
            "--allow-invalid",
        ],
        Some(b"../b\n"),
    );
    assert_eq!((r.code, r.out().as_str()), (0, "http://example.com/b\n"));
}

#[test]
fn canon_charset() {
    let base = "http://example.jp/";
    let inputs = ["?q=あ", "/パス?q=あ#あ", "?q=é"];
    for cs in ["shift_jis", "euc-jp", "iso-8859-1", "utf-8"] {
        let r = wurl(
            &[&["canon", "--base", base, "--charset", cs][..], &inputs[..]].concat(),
            NONE,
        );
        let expect: Vec<String> = inputs
            .iter()
            .map(|i| lib_canon(Some(base), i, Some(cs), false))
            .collect();
        assert_eq!(r.lines(), expect, "charset {cs}");
    }
    // Certain under the spec: the query is encoded in the document charset.
    let r = wurl(
        &["canon", "--base", base, "--charset", "shift_jis", "?q=あ"],
        NONE,
    );
    assert_eq!(r.out(), "http://example.jp/?q=%82%A0\n");
}

#[test]
fn canon_strict() {
    let inputs = [
        "http://example.com/",
        "http://0x7f.1/",
        "http://1.2.3.09/",
        "http:///path",
        "http://[example]/",
        "http://faß.de/",
        "http://xn--fa-hia.de/",
        "mailto:x@y",
    ];
    for strict in [false, true] {
        let mut args = vec!["canon"];
        if strict {
            args.push("--strict");
        }
        args.extend(inputs);
        let r = wurl(&args, NONE);
        let expect: Vec<String> = inputs
            .iter()
            .map(|i| lib_canon(None, i, None, strict))
            .collect();
        assert_eq!(r.lines(), expect, "strict = {strict}");
        let any_invalid = expect.iter().any(String::is_empty);
        assert_eq!(
            r.code,
            i32::from(any_invalid),
            "strict = {strict}: {}",
            r.stderr
        );
    }
}

#[test]
fn canon_input_file_option() {
    let dir = std::env::temp_dir().join(format!("wurl-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("in.txt");
    std::fs::write(&f, "http://a/b/../c\nhttp://B/\n").unwrap();
    let r = wurl(&["canon", "-i", f.to_str().unwrap()], NONE);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(r.code, 0);
    assert_eq!(
        r.lines(),
        vec![
            lib_canon(None, "http://a/b/../c", None, false),
            lib_canon(None, "http://B/", None, false)
        ]
    );
}

// ---- input decoding -------------------------------------------------------

#[test]
fn crlf_lf_bom_and_last_line_without_newline() {
    let input = b"\xEF\xBB\xBFhttp://a/1\r\nhttp://a/2\nhttp://a/3\r\n\r\nhttp://a/4";
    let r = wurl(&["canon", "--base", "http://base/"], Some(input));
    let expect: Vec<String> = ["http://a/1", "http://a/2", "http://a/3", "", "http://a/4"]
        .iter()
        .map(|i| lib_canon(Some("http://base/"), i, None, false))
        .collect();
    assert_eq!(r.lines(), expect);
    assert_eq!(r.lines()[0], "http://a/1", "the BOM is dropped, the CR too");
    assert_eq!(
        r.lines()[3],
        "http://base/",
        "an empty line is an input (the base itself)"
    );
    assert_eq!(r.code, 0);
}

/// The warning lines of a run's standard error.
fn warnings(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.contains("warning")).collect()
}

#[test]
fn invalid_utf8_is_counted_and_warned_about_once() {
    let input = b"http://a/caf\xE9\nhttp://a/caf\xE8\nhttp://ok/\nhttp://a/caf\xFF\n";
    for jobs in ["1", "2"] {
        let r = wurl(&["canon", "--stats", "-j", jobs], Some(input));
        // Still read with U+FFFD replacement, as the C ABI does...
        assert_eq!(
            r.lines(),
            [
                "http://a/caf%EF%BF%BD",
                "http://a/caf%EF%BF%BD",
                "http://ok/",
                "http://a/caf%EF%BF%BD"
            ]
        );
        assert_eq!(r.code, 0, "the inputs are valid URLs");
        // ...but not silently: one warning, naming the first such line.
        let w = warnings(&r.stderr);
        assert_eq!(w.len(), 1, "{}", r.stderr);
        assert!(
            w[0].starts_with("wurl: warning: line 1 is not valid UTF-8")
                && w[0].contains("U+FFFD")
                && w[0].contains("--strict-utf8")
                && w[0].contains("--decode"),
            "{}",
            w[0]
        );
        assert!(
            r.stderr
                .contains("4 URLs (4 valid, 0 invalid; 3 not valid UTF-8, read with U+FFFD)"),
            "{}",
            r.stderr
        );
    }
    // Valid input: no warning, no count.
    let r = wurl(&["canon", "--stats"], Some("http://a/café\n".as_bytes()));
    assert!(warnings(&r.stderr).is_empty(), "{}", r.stderr);
    assert!(!r.stderr.contains("UTF-8"), "{}", r.stderr);
    // Arguments, parse and resolve, -q: the same single warning.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let arg = std::ffi::OsStr::from_bytes(b"http://a/\xFF");
        for sub in [
            &["canon", "-q"][..],
            &["parse"],
            &["resolve", "--base", "http://b/"],
        ] {
            let args: Vec<&std::ffi::OsStr> = sub
                .iter()
                .map(std::ffi::OsStr::new)
                .chain([arg, arg])
                .collect();
            let r = wurl(&args, NONE);
            assert_eq!(r.code, 0);
            let w = warnings(&r.stderr);
            assert_eq!(w.len(), 1, "{sub:?}: {}", r.stderr);
            assert!(w[0].contains("argument 1 is not valid UTF-8"), "{}", w[0]);
        }
    }
    // Once per run across chunks and workers, at the first such line, in
    // order with the other diagnostics.
    let mut big = Vec::new();
    for i in 0..20_000 {
        if i == 5 {
            big.extend_from_slice(b"bad\n");
        } else if i % 997 == 996 {
            big.extend_from_slice(format!("http://a/{i}").as_bytes());
            big.extend_from_slice(b"\xE9\n");
        } else {
            big.extend_from_slice(format!("http://a/{i}\n").as_bytes());
        }
    }
    let serial = wurl(&["canon", "--stats"], Some(&big));
    let w = warnings(&serial.stderr);
    assert_eq!(w.len(), 1, "{}", serial.stderr);
    assert!(w[0].contains("line 997 "), "{}", w[0]);
    let lines: Vec<&str> = serial.stderr.lines().collect();
    assert!(lines[0].starts_with("wurl: line 6: "), "{}", serial.stderr);
    assert!(lines[1].contains("warning"), "{}", serial.stderr);
    assert!(
        serial.stderr.contains("20 not valid UTF-8"),
        "{}",
        serial.stderr
    );
    let without_stats = |s: &str| -> String {
        s.lines()
            .filter(|l| !l.contains(" URLs ("))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    for jobs in ["2", "4"] {
        let par = wurl(&["canon", "--stats", "-j", jobs], Some(&big));
        assert_eq!(without_stats(&par.stderr), without_stats(&serial.stderr));
        assert!(par.stderr.contains("20 not valid UTF-8"), "{}", par.stderr);
        assert!(par.stdout == serial.stdout);
    }
}

#[test]
fn strict_utf8_rejects_invalid_utf8() {
    let input = b"http://a/caf\xE9\nhttp://ok/\n";
    let r = wurl(&["canon", "--strict-utf8", "--stats"], Some(input));
    assert_eq!(r.code, 1);
    assert_eq!(r.lines(), ["", "http://ok/"], "--invalid blank");
    assert!(
        r.stderr.contains("wurl: line 1: not valid UTF-8: "),
        "{}",
        r.stderr
    );
    assert!(warnings(&r.stderr).is_empty(), "a reason, not a warning");
    assert!(
        r.stderr
            .contains("2 URLs (1 valid, 1 invalid, 1 of them not valid UTF-8)"),
        "{}",
        r.stderr
    );
    // The --invalid policy applies as to any invalid input.
    let r = wurl(
        &[
            "canon",
            "--strict-utf8",
            "--invalid",
            "skip",
            "--allow-invalid",
        ],
        Some(input),
    );
    assert_eq!((r.code, r.out().as_str()), (0, "http://ok/\n"));
    let r = wurl(
        &["canon", "--strict-utf8", "--invalid", "fail"],
        Some(input),
    );
    assert_eq!((r.code, r.out().as_str()), (1, ""));
    let r = wurl(&["canon", "--strict-utf8", "-q"], Some(input));
    assert_eq!((r.code, r.stderr.as_str()), (1, ""));
    for (fmt, i) in [("tsv", 1), ("json", 0)] {
        let r = wurl(&["parse", "--strict-utf8", "-f", fmt], Some(input));
        assert_eq!(r.code, 1);
        let out = r.out();
        let row = out.lines().nth(i).unwrap();
        assert!(row.contains("not valid UTF-8"), "{row}");
        if fmt == "json" {
            let v = &json_lines(&out)[0];
            assert_eq!(
                (v["invalid"].as_bool(), v["url"].is_null()),
                (Some(true), true)
            );
        }
    }
    // Valid UTF-8 (and the byte order mark) passes.
    let r = wurl(
        &["canon", "--strict-utf8"],
        Some("\u{FEFF}http://a/é\n".as_bytes()),
    );
    assert_eq!((r.code, r.out().as_str()), (0, "http://a/%C3%A9\n"));
}

#[test]
fn decode_reads_another_encoding() {
    let r = wurl(
        &["canon", "--decode", "windows-1252"],
        Some(b"http://a/caf\xE9\n"),
    );
    assert_eq!((r.code, r.out().as_str()), (0, "http://a/caf%C3%A9\n"));
    assert_eq!(r.stderr, "");
    // Labels are WHATWG labels (latin1 is windows-1252); the query is
    // encoded as --charset says, independently.
    let sjis = b"http://a/\x82\xA0?q=\x82\xA0\n";
    let r = wurl(&["canon", "--decode", "Shift_JIS"], Some(sjis));
    assert_eq!(r.out(), "http://a/%E3%81%82?q=%E3%81%82\n");
    let r = wurl(
        &[
            "canon",
            "--decode",
            "sjis",
            "--charset",
            "shift_jis",
            "-j",
            "2",
        ],
        Some(sjis),
    );
    assert_eq!(r.out(), "http://a/%E3%81%82?q=%82%A0\n");
    assert_eq!(
        r.out(),
        lib_canon(None, "http://a/あ?q=あ", Some("shift_jis"), false) + "\n"
    );
    let r = wurl(
        &["parse", "--decode", "latin1", "-f", "json"],
        Some(b"http://a/\xE9"),
    );
    assert_eq!(json_lines(&r.out())[0]["path"], "/é");
    // Malformed in the named encoding: replaced and warned about, or
    // rejected with --strict-utf8 (the reason names the encoding).
    let bad = b"http://a/\x82\n";
    let r = wurl(&["canon", "--decode", "shift_jis", "--stats"], Some(bad));
    assert_eq!((r.code, r.out().as_str()), (0, "http://a/%EF%BF%BD\n"));
    assert!(
        warnings(&r.stderr)[0].contains("line 1 is not valid Shift_JIS"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("1 not valid Shift_JIS"), "{}", r.stderr);
    let r = wurl(
        &["canon", "--decode", "shift_jis", "--strict-utf8"],
        Some(bad),
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("line 1: not valid Shift_JIS"),
        "{}",
        r.stderr
    );
    // UTF-8 named explicitly is the default reading.
    let r = wurl(&["canon", "--decode", "utf8"], Some(b"http://a/\xE9\n"));
    assert_eq!(r.out(), "http://a/%EF%BF%BD\n");
    assert!(r.stderr.contains("not valid UTF-8"), "{}", r.stderr);
    // An unknown label, or an encoding whose lines do not end in LF, is a
    // usage error.
    for label in ["nope", "shiftjis", "utf-16le", "UTF-16", "replacement"] {
        let r = wurl(&["canon", "--decode", label, "http://a/"], NONE);
        assert_eq!((r.code, r.out().as_str()), (2, ""), "{label}");
        assert!(r.stderr.contains(&format!("{label:?}")), "{}", r.stderr);
    }
}

#[test]
fn invalid_utf8_is_replaced() {
    let r = wurl(&["canon"], Some(b"http://a/\xFF\xFEx?\xC3\n"));
    assert_eq!(
        r.out(),
        lib_canon(None, "http://a/\u{FFFD}\u{FFFD}x?\u{FFFD}", None, false) + "\n"
    );
    let r = wurl(&["parse", "-f", "json"], Some(b"http://a/\xFF"));
    assert_eq!(json_lines(&r.out())[0]["path"], "/\u{FFFD}");
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let arg = std::ffi::OsStr::from_bytes(b"http://a/\xFF");
        let r = wurl(&[std::ffi::OsStr::new("canon"), arg], NONE);
        assert_eq!(
            r.out(),
            lib_canon(None, "http://a/\u{FFFD}", None, false) + "\n"
        );
    }
}

// ---- parse and resolve ----------------------------------------------------

#[test]
fn parse_text_and_components() {
    // parse does not canonicalize: case and dot-segments stay.
    let r = wurl(&["parse", "HTTP://Ex.COM/a/../b"], NONE);
    assert_eq!(r.out(), "HTTP://Ex.COM/a/../b\n");
    let r = wurl(&["parse", "-f", "json", "HTTP://Ex.COM/a/../b"], NONE);
    let v = &json_lines(&r.out())[0];
    assert_eq!(v["scheme"], "HTTP");
    assert_eq!(v["host"], "Ex.COM");
    assert_eq!(v["path"], "/a/../b");
}

#[test]
fn resolve_raw() {
    let base = "http://a/b/c/d;p?q";
    let inputs = ["../g", "g?y#s", "HTTP://X/./y", "//h:99/p"];
    let r = wurl(
        &[&["resolve", "--base", base][..], &inputs[..]].concat(),
        NONE,
    );
    assert_eq!(r.code, 0);
    let b = wurl::parse(base);
    let expect: Vec<String> = inputs
        .iter()
        .map(|i| wurl::resolve(&b, i).serialize().unwrap())
        .collect();
    assert_eq!(r.lines(), expect);
    assert_eq!(r.lines()[..2], ["http://a/b/g", "http://a/b/c/g?y#s"]);
    // No canonicalization: the port stays, even the default one.
    let r = wurl(&["resolve", "--base", base, "//h:80/p"], NONE);
    assert_eq!(r.out(), "http://h:80/p\n");
}

#[test]
fn tsv_absent_versus_empty() {
    let r = wurl(
        &[
            "parse",
            "--format",
            "tsv",
            "http://user:@host/p?#",
            "http://host",
        ],
        NONE,
    );
    assert_eq!(r.code, 0);
    let out = r.out();
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(
        rows[0],
        [
            "url", "scheme", "user", "password", "host", "port", "path", "query", "fragment",
            "invalid"
        ]
    );
    // password, query, fragment present and empty; port absent.
    assert_eq!(
        rows[1],
        [
            "http://user:@host/p?#",
            "http",
            "user",
            "",
            "host",
            "\\N",
            "/p",
            "",
            "",
            "\\N"
        ]
    );
    // user, password, port, query and fragment absent.
    assert_eq!(rows[2][2], "\\N");
    assert_eq!(rows[2][3], "\\N");
    assert_eq!(rows[2][7], "\\N");
    assert_eq!(rows[2][8], "\\N");
    assert_eq!(rows.len(), 3);
}

#[test]
fn tsv_escapes_backslash() {
    let r = wurl(&["parse", "-f", "tsv", "javascript:a\\b"], NONE);
    let out = r.out();
    let row: Vec<&str> = out.lines().nth(1).unwrap().split('\t').collect();
    assert_eq!(row[0], "javascript:a\\\\b");
    assert_eq!(row[6], "a\\\\b");
    // Only the header for an empty input.
    let r = wurl(&["canon", "-f", "tsv"], Some(b""));
    assert_eq!(r.lines().len(), 1);
    assert_eq!(r.code, 0);
}

#[test]
fn json_absent_versus_empty() {
    let r = wurl(
        &[
            "parse",
            "--format",
            "json",
            "http://user:@host/p?#",
            "http://host",
        ],
        NONE,
    );
    assert_eq!(r.code, 0);
    let v = json_lines(&r.out());
    assert_eq!(v.len(), 2);
    assert_eq!(v[0]["url"], "http://user:@host/p?#");
    assert_eq!(v[0]["password"], "");
    assert_eq!(v[0]["query"], "");
    assert_eq!(v[0]["fragment"], "");
    assert_eq!(v[0]["port"], Value::Null);
    assert_eq!(v[0]["invalid"], false);
    assert_eq!(v[0]["reason"], Value::Null);
    for c in ["user", "password", "port", "query", "fragment"] {
        assert_eq!(v[1][c], Value::Null, "{c}");
    }
    // Escaping: quotes and backslashes survive a JSON round trip.
    let r = wurl(&["parse", "-f", "json", "javascript:\"a\\b\""], NONE);
    assert_eq!(json_lines(&r.out())[0]["path"], "\"a\\b\"");
}

#[test]
fn json_and_tsv_agree_with_library_components() {
    let inputs = [
        "HTTP://U:P@Example.COM:080/a/../b?c#d",
        "mailto:x@y?subject=1",
        "file:///c|/x",
    ];
    let r = wurl(&[&["canon", "-f", "json"][..], &inputs[..]].concat(), NONE);
    for (v, i) in json_lines(&r.out()).iter().zip(inputs) {
        let u = wurl::canonicalize_with(
            &wurl::resolve(&wurl::parse(i), i),
            &wurl::CanonOptions::default(),
        );
        for c in wurl::Component::ALL {
            assert_eq!(v[c.name()].as_str(), u.get(c), "{i}: {}", c.name());
        }
        assert_eq!(v["url"].as_str(), u.serialize().as_deref());
        assert_eq!(
            v["url"].as_str().unwrap_or(""),
            lib_canon(None, i, None, false),
            "json url = text output"
        );
    }
}

// ---- invalid URLs and exit status -----------------------------------------

const MIXED: &[u8] = b"http://a/1\nnot a url\nhttp://a/3\n";

#[test]
fn invalid_blank_is_default() {
    let r = wurl(&["canon"], Some(MIXED));
    assert_eq!(r.code, 1);
    assert_eq!(r.lines(), vec!["http://a/1", "", "http://a/3"]);
    assert!(r.stderr.starts_with("wurl: line 2: "), "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1);
    // Without --base the input is its own base; its own parse failure is
    // reported rather than "base URL is invalid".
    let own = wurl::parse("not a url").invalid_reason().unwrap();
    assert_eq!(r.stderr, format!("wurl: line 2: {own}: \"not a url\"\n"));
    let r = wurl(&["canon", "--invalid", "blank"], Some(MIXED));
    assert_eq!(r.lines(), vec!["http://a/1", "", "http://a/3"]);
}

#[test]
fn invalid_reason_on_stderr_for_arguments() {
    let r = wurl(&["canon", "http://a/", "nope"], NONE);
    assert_eq!(r.code, 1);
    assert!(r.stderr.starts_with("wurl: argument 2: "), "{}", r.stderr);
    assert!(r.stderr.contains("nope"), "{}", r.stderr);
}

#[test]
fn invalid_skip() {
    let r = wurl(&["canon", "--invalid", "skip"], Some(MIXED));
    assert_eq!(r.code, 1);
    assert_eq!(r.lines(), vec!["http://a/1", "http://a/3"]);
    assert!(r.stderr.contains("line 2"));
}

#[test]
fn invalid_fail() {
    let input = b"http://a/1\nhttp://a/2\nbad one\nhttp://a/4\nbad two\n";
    for jobs in ["1", "3"] {
        let r = wurl(&["canon", "--invalid", "fail", "-j", jobs], Some(input));
        assert_eq!(r.code, 1, "-j {jobs}");
        assert_eq!(r.lines(), vec!["http://a/1", "http://a/2"], "-j {jobs}");
        assert!(r.stderr.contains("line 3"), "{}", r.stderr);
        assert!(
            !r.stderr.contains("line 5"),
            "stops at the first: {}",
            r.stderr
        );
    }
}

#[test]
fn quiet() {
    let r = wurl(&["canon", "-q"], Some(MIXED));
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr, "");
    assert_eq!(r.lines().len(), 3);
}

#[test]
fn all_valid_exit_0() {
    let r = wurl(&["canon"], Some(b"http://a/\nhttps://b/\n"));
    assert_eq!(r.code, 0);
    assert_eq!(r.stderr, "");
    let r = wurl(&["canon"], Some(b""));
    assert_eq!(r.code, 0);
    assert!(r.stdout.is_empty());
}

#[test]
fn invalid_in_json_and_tsv() {
    let r = wurl(&["canon", "-f", "json"], Some(MIXED));
    assert_eq!(r.code, 1);
    let v = json_lines(&r.out());
    assert_eq!(v.len(), 3);
    assert_eq!(v[1]["invalid"], true);
    assert_eq!(v[1]["url"], Value::Null);
    let own = wurl::parse("not a url").invalid_reason().unwrap();
    assert_eq!(v[1]["reason"], own.as_str());
    assert_eq!(v[0]["invalid"], false);

    let r = wurl(&["canon", "-f", "tsv"], Some(MIXED));
    let out = r.out();
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[2][0], "\\N");
    assert_ne!(rows[2][9], "\\N");
    assert_eq!(rows[1][9], "\\N");

    let r = wurl(&["canon", "-f", "json", "--invalid", "skip"], Some(MIXED));
    assert_eq!(json_lines(&r.out()).len(), 2);
}

// ---- stats, progress, parallelism -----------------------------------------

#[test]
fn stats() {
    let r = wurl(&["canon", "--stats"], Some(MIXED));
    assert!(
        r.stderr.contains("3 URLs (2 valid, 1 invalid)"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("URLs/s"), "{}", r.stderr);
    assert_eq!(r.lines().len(), 3, "stats go to stderr only");
}

#[test]
fn no_progress_when_stderr_is_not_a_terminal() {
    // A regular file as standard input has a known size: the bar would be
    // shown on a terminal, but standard error here is a pipe.
    let Some(k) = kasztp() else { return };
    let r = wurl_file(&["canon"], &k);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, "");
    let r = wurl(&["canon", "-i", k.to_str().unwrap()], NONE);
    assert_eq!(r.stderr, "");
}

#[test]
fn parallel_equals_serial_on_kasztp() {
    let Some(k) = kasztp() else { return };
    let serial = wurl_file(&["canon"], &k);
    assert_eq!(serial.code, 0, "{}", serial.stderr);
    let n = serial.stdout.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(n, 48_010, "one output line per URL");
    for jobs in ["2", "4"] {
        let par = wurl_file(&["canon", "-j", jobs], &k);
        assert!(
            par.stdout == serial.stdout,
            "-j {jobs}: output differs from -j 1"
        );
        assert_eq!(par.code, serial.code);
    }
    let serial = wurl_file(&["canon", "-f", "json"], &k);
    let par = wurl_file(&["canon", "-f", "json", "-j", "3"], &k);
    assert!(par.stdout == serial.stdout, "json -j 3 differs");
}

#[test]
fn parallel_equals_serial_with_invalid_lines() {
    // Many chunks, invalid lines scattered: output and diagnostics in order.
    let mut input = Vec::new();
    for i in 0..30_000 {
        if i % 97 == 0 {
            input.extend_from_slice(format!("invalid {i}\n").as_bytes());
        } else {
            input.extend_from_slice(
                format!("HTTP://Host{}.example/a/../{i}\r\n", i % 13).as_bytes(),
            );
        }
    }
    for format in ["text", "tsv"] {
        let serial = wurl(&["canon", "-f", format], Some(&input));
        let par = wurl(&["canon", "-f", format, "-j", "4"], Some(&input));
        assert_eq!(serial.code, 1);
        assert_eq!(par.code, 1);
        assert!(par.stdout == serial.stdout, "{format}: output differs");
        assert_eq!(par.stderr, serial.stderr, "{format}: diagnostics differ");
        assert_eq!(serial.stderr.lines().count(), 30_000usize.div_ceil(97));
    }
    let par = wurl(&["canon", "-j", "0", "--invalid", "skip"], Some(&input));
    assert_eq!(par.lines().len(), 30_000 - 30_000usize.div_ceil(97));
}

#[test]
fn answers_each_line_before_the_end_of_input() {
    // A producer that waits for each answer (a coprocess, or a terminal)
    // gets it: the output is flushed when no more input is buffered.
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    for jobs in ["1", "2"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wurl"))
            .args(["canon", "-q", "-j", jobs])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let _ = tx.send(line.unwrap());
            }
        });
        for (input, want) in [
            ("HTTP://A/b/../c", "http://a/c"),
            ("bad", ""),
            ("http://x/", "http://x/"),
        ] {
            writeln!(stdin, "{input}").unwrap();
            stdin.flush().unwrap();
            let got = rx
                .recv_timeout(std::time::Duration::from_secs(20))
                .expect("an answer before EOF");
            assert_eq!(got, want, "-j {jobs}");
        }
        drop(stdin);
        assert_eq!(child.wait().unwrap().code(), Some(1));
    }
}

// ---- issue 13: -z, -i -, --allow-invalid, --charset, generated files -------

#[test]
fn null_separated_records() {
    // A raw href holding a line feed passes as one input with -z (the
    // algorithm's preprocessing drops the LF); output records end in NUL.
    let input = b"http://a/b\nc\0HTTP://B/\0bad\0http://c/";
    let r = wurl(&["canon", "-z"], Some(input));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.stdout, b"http://a/bc\0http://b/\0\0http://c/\0");
    assert!(r.stderr.starts_with("wurl: record 3: "), "{}", r.stderr);
    // CR is an ordinary byte with -z (it is not a line end there).
    let r = wurl(&["parse", "-z", "-f", "json"], Some(b"http://a/\r\0"));
    assert_eq!(r.stdout.last(), Some(&0u8));
    assert_eq!(r.stdout.iter().filter(|&&b| b == 0).count(), 1);
    let v: Value = serde_json::from_slice(&r.stdout[..r.stdout.len() - 1]).unwrap();
    assert_eq!(v["url"], "http://a/");
    let r = wurl(&["parse", "--null", "-f", "tsv"], Some(b"http://a/\0"));
    assert_eq!(
        r.stdout.iter().filter(|&&b| b == 0).count(),
        2,
        "header and row"
    );
    assert!(!r.stdout.contains(&b'\n'));
}

#[test]
fn input_dash_is_standard_input() {
    let r = wurl(&["canon", "-i", "-"], Some(b"HTTP://A/x/../y\n"));
    assert_eq!((r.code, r.out()), (0, "http://a/y\n".to_owned()));
    let r = wurl(&["canon", "--input", "-", "-z"], Some(b"HTTP://A/\0"));
    assert_eq!(r.stdout, b"http://a/\0");
}

#[test]
fn allow_invalid_exit_0() {
    let r = wurl(
        &["canon", "--invalid", "skip", "--allow-invalid"],
        Some(MIXED),
    );
    assert_eq!(r.code, 0);
    assert_eq!(r.lines(), ["http://a/1", "http://a/3"]);
    assert!(r.stderr.contains("not a url"), "still reported without -q");
    let r = wurl(&["canon", "--allow-invalid", "--stats"], Some(MIXED));
    assert_eq!(r.code, 0);
    assert_eq!(r.lines().len(), 3, "blank line kept");
    assert!(r.stderr.contains("1 invalid"), "{}", r.stderr);
    // It means nothing with --invalid fail: a usage error.
    let r = wurl(
        &["canon", "--allow-invalid", "--invalid", "fail"],
        Some(MIXED),
    );
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());
}

#[test]
fn unknown_charset_is_an_error() {
    for label in ["shiftjis", "utf8x", ""] {
        let r = wurl(&["canon", "--charset", label, "http://a/?é"], NONE);
        assert_eq!(r.code, 2, "{label:?}");
        assert!(r.stdout.is_empty());
        assert_eq!(
            r.stderr,
            format!(
                "wurl: --charset: {}\n",
                wurl::charset::resolve_label(label.as_bytes()).unwrap_err()
            ),
            "the library's one message"
        );
    }
    // WHATWG labels, case and surrounding spaces as the standard allows.
    for label in ["shift_jis", "Shift_JIS", " sjis ", "utf-8", "latin1"] {
        let r = wurl(&["canon", "--charset", label, "http://a/?x"], NONE);
        assert_eq!(r.code, 0, "{label:?}: {}", r.stderr);
    }
}

#[test]
fn help_documents_every_exit_status_and_the_new_options() {
    let out = wurl(&["--help"], NONE).out();
    for s in [
        "  0  ",
        "  1  ",
        "  2  ",
        "  3  ",
        "no line end",
        "-i -",
        "-z",
    ] {
        assert!(out.contains(s), "--help lacks {s:?}:\n{out}");
    }
    assert!(!out.contains("generate"), "generate is hidden");
    let out = wurl(&["canon", "--help"], NONE).out();
    for s in ["--null", "--allow-invalid", "--input"] {
        assert!(out.contains(s), "canon --help lacks {s:?}");
    }
}

#[test]
fn generated_man_page_and_completions() {
    let man = wurl(&["generate", "man"], NONE);
    assert_eq!(man.code, 0);
    let man = man.out();
    assert!(
        man.contains("\n.TH WURL 1 "),
        "{}",
        &man[..man.len().min(300)]
    );
    assert_eq!(man.matches(".ds Aq").count(), 2, "one preamble");
    for s in [
        ".SH \"WURL CANON\"",
        ".SH \"WURL PARSE\"",
        ".SH \"WURL RESOLVE\"",
        "allow\\-invalid",
        ".SH DETAILS",
        "Exit status:",
    ] {
        assert!(man.contains(s), "man page lacks {s:?}");
    }
    assert!(!man.contains("generate"), "hidden command in the man page");
    for (shell, marker) in [
        ("bash", "_wurl()"),
        ("zsh", "#compdef wurl"),
        ("fish", "complete -c wurl"),
    ] {
        let r = wurl(&["generate", shell], NONE);
        assert_eq!(r.code, 0);
        let out = r.out();
        assert!(out.contains(marker), "{shell}: lacks {marker:?}");
        assert!(out.contains("allow-invalid"), "{shell}: lacks the options");
    }
    assert_eq!(wurl(&["generate", "tcsh"], NONE).code, 2);
}

#[test]
fn readme_pipeline_is_clean_under_pipefail() {
    // The top-level README's "A crawler pipeline" block, run verbatim by
    // bash with `set -euo pipefail` on links with invalid ones among them.
    let readme = std::fs::read_to_string(common::data_path("../README.md")).unwrap();
    let start = readme
        .find("A crawler pipeline")
        .expect("the pipeline section");
    let block = &readme[start..];
    let block = &block[block.find("```sh\n").unwrap() + 6..];
    let block = &block[..block.find("```").unwrap()];
    let dir = std::env::temp_dir().join(format!("wurl-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("links.txt"),
        "../a.html\nhttp://%zz/\n\n/b?x=1\n../a.html\nhttp://a:99999/\n",
    )
    .unwrap();
    std::fs::write(dir.join("urls.txt"), "HTTP://A/\nnot a url\nhttp://b/./c\n").unwrap();
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_wurl"))
        .parent()
        .unwrap()
        .to_owned();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("bash")
        .args(["-euo", "pipefail", "-c", block])
        .current_dir(&dir)
        .env("PATH", path)
        .output()
        .unwrap();
    let unique = std::fs::read_to_string(dir.join("unique.txt")).unwrap_or_default();
    let canonical = std::fs::read_to_string(dir.join("canonical.txt")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        unique,
        "https://example.com/a.html\nhttps://example.com/b?x=1\nhttps://example.com/news/today.html\n"
    );
    assert_eq!(canonical, "http://a/\nhttp://b/c\n");
}

// ---- messages quote option values capped ------------------------------------

#[test]
fn option_values_are_capped_in_messages() {
    // Every option value a message quotes goes through one cut: a 100 KB
    // value gives a message under 1 KB that names the value's length.
    let big = "x".repeat(100_000);
    let cases: &[(&str, &[&str])] = &[
        (
            "canon",
            &[
                "--charset",
                "--decode",
                "--model",
                "--format",
                "--invalid",
                "-j",
                "--base",
                "--rules",
                "--get",
                "-i",
            ],
        ),
        ("compare", &["--charset", "--format", "--examples", "-i"]),
        ("parse", &["--decode", "--format", "-i"]),
        ("resolve", &["--base"]),
    ];
    for (sub, opts) in cases {
        for opt in *opts {
            // --get's value is a valid template as it stands: make it name
            // an unknown component.
            let value = if *opt == "--get" {
                format!("{{{big}}}")
            } else {
                big.clone()
            };
            // -i takes no URL arguments beside it.
            let url = if *opt == "-i" {
                "--no-progress"
            } else {
                "http://a/"
            };
            let args: [&str; 4] = [&sub[..], &opt[..], value.as_str(), url];
            let r = wurl(&args, NONE);
            assert_eq!(
                r.code,
                2,
                "{sub} {opt}: {}",
                &r.stderr[..r.stderr.len().min(300)]
            );
            assert!(
                r.stderr.len() < 1024,
                "{sub} {opt}: a message of {} bytes",
                r.stderr.len()
            );
            // -i: the OS refuses the name before reading; the message
            // quotes it cut too.
            assert!(
                r.stderr.contains("bytes)"),
                "{sub} {opt} names the length: {}",
                r.stderr
            );
        }
        // An unknown option, quoted by clap.
        let r = wurl(&[*sub, format!("--{big}").as_str()], NONE);
        assert_eq!(r.code, 2);
        assert!(
            r.stderr.len() < 1024,
            "{sub} --{{big}}: {} bytes",
            r.stderr.len()
        );
    }
    // --rules errors are the library's, which cuts the bad part itself.
    let r = wurl(&["canon", "--rules", &big, "http://a/"], NONE);
    assert!(r.stderr.len() < 1024);
}

// ---- a byte order mark inside the input -------------------------------------

#[test]
fn a_byte_order_mark_inside_the_input_is_named_and_counted() {
    // Two files joined: the second's mark starts line 2.
    let input = b"\xEF\xBB\xBFhttp://a/\n\xEF\xBB\xBFhttp://b/\nnope\n";
    for jobs in ["1", "2"] {
        let r = wurl(&["canon", "--stats", "-j", jobs], Some(input));
        assert_eq!(r.code, 1);
        assert_eq!(r.lines(), ["http://a/", "", ""]);
        let reasons: Vec<&str> = r.stderr.lines().filter(|l| l.contains(": line ")).collect();
        assert_eq!(reasons.len(), 2, "{}", r.stderr);
        assert!(
            reasons[0].starts_with("wurl: line 2: no scheme")
                && reasons[0].contains("byte order mark"),
            "{}",
            reasons[0]
        );
        assert!(
            !reasons[1].contains("byte order mark"),
            "a line without one: {}",
            reasons[1]
        );
        // The first line's mark is the input's own (dropped): not counted.
        assert!(
            r.stderr.contains("; 1 started with a byte order mark)"),
            "{}",
            r.stderr
        );
    }
    // The same reason in tsv and json, and for arguments and -z records.
    let r = wurl(&["canon", "-f", "json"], Some(input));
    let rows = json_lines(&r.out());
    assert!(
        rows[1]["reason"]
            .as_str()
            .unwrap()
            .contains("the line starts with a byte order mark"),
        "{}",
        rows[1]
    );
    assert_eq!(
        rows[2]["reason"],
        "no scheme (relative reference without a base)"
    );
    let r = wurl(&["canon", "-f", "tsv"], Some(input));
    assert!(r.lines()[2].ends_with("(U+FEFF, octets EF BB BF), as each file's first line does when files that have one are joined"), "{}", r.lines()[2]);
    let r = wurl(&["canon", "\u{feff}http://a/"], NONE);
    assert!(
        r.stderr
            .contains("the argument starts with a byte order mark"),
        "{}",
        r.stderr
    );
    let r = wurl(
        &["canon", "-z", "--pairs"],
        Some(b"http://a/\0\xEF\xBB\xBFhttp://a/\t/x\0"),
    );
    assert!(
        r.stderr.contains("record 2: base is invalid")
            && r.stderr
                .contains("the record starts with a byte order mark"),
        "{}",
        r.stderr
    );
    // A valid line that starts with one is not changed (the mark is not
    // stripped): resolved against --base, it is a relative reference.
    let r = wurl(
        &["canon", "--base", "http://x/", "--stats"],
        Some(b"http://a/\n\xEF\xBB\xBFp\n"),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.lines()[1],
        lib_canon(Some("http://x/"), "\u{feff}p", None, false)
    );
    assert!(r.stderr.contains("1 started with a byte order mark"));
}

#[test]
fn readme_recipe_keeps_the_copies_lines_apart() {
    // cli/README.md's Throughput recipe, on two copies of kasztp (which
    // starts with a byte order mark and has no final line end): every line
    // stays a line, none is invalid, none starts with a mark.
    let Some(k) = kasztp() else { return };
    let readme = std::fs::read_to_string(common::data_path("README.md")).unwrap();
    let recipe = "sed -e '1s/^\\xEF\\xBB\\xBF//' -e '$a\\' bench/data/kasztp.txt";
    assert!(readme.contains(recipe), "the recipe is in cli/README.md");
    let cmd = recipe.replace("bench/data/kasztp.txt", "\"$1\"");
    let out = std::process::Command::new("bash")
        .args(["-c", &format!("{cmd}; {cmd}"), "recipe"])
        .arg(&k)
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines = std::fs::read(&k)
        .unwrap()
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1;
    let r = wurl(&["canon", "--stats"], Some(&out.stdout));
    assert_eq!(r.code, 0, "{}", &r.stderr[..r.stderr.len().min(500)]);
    assert_eq!(r.lines().len(), 2 * lines);
    let half = r.lines()[..lines].to_vec();
    assert_eq!(r.lines()[lines..], half[..], "the second copy as the first");
    assert!(!r.stderr.contains("byte order mark"), "{}", r.stderr);
}
