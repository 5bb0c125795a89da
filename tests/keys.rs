//! Keys (issue 28): the opt-in rules and SURT, through the Rust API and the
//! C ABI, on the benchmark datasets.
//!
//! * SURT: wurl's SURT of its canonical URL equals the Internet Archive's
//!   (the `surt` package with its canonicalizer off) on the committed
//!   sample `tests/data/surt-ia.tsv`, made by `scripts/surt-expected.py`
//!   (which compares every http(s) line of the datasets when it runs); the
//!   canonical URLs of the sample are recomputed here from the datasets, so
//!   a sample that no longer matches wurl's canonicalization fails too.
//! * Rules: each rule alone and all of them together are a fixed point on
//!   every line of every dataset; the bulk calls (`key_into`,
//!   `wurl_canon_key_into`) and the handle path (`wurl_url_key_into`) give
//!   what the rules and SURT give on `canon_into`'s result.
//! * Bad specifications and hostile arguments get statuses.

use std::ffi::c_char;
use std::ptr;

use wurl::ffi::{
    WURL_E_BAD_ARG, WURL_E_BAD_RULES, WURL_E_BUFFER_TOO_SMALL, WURL_E_NULL_ARG, WURL_INVALID_URL,
    WURL_KEY_SURT, WURL_KEY_SURT_SCHEME, WURL_OK, wurl_canon_key_into, wurl_canonicalize,
    wurl_free, wurl_parse, wurl_resolve, wurl_rules, wurl_rules_compile, wurl_rules_free,
    wurl_status_str, wurl_url, wurl_url_key_into,
};
use wurl::surt::{SurtOptions, surt};
use wurl::{CanonOptions, KeyOptions, Rules, Url};

#[path = "common/datasets.rs"]
mod datasets;

/// Every line of every dataset as (base, input): the page for a links
/// file, none for a URL list.
fn dataset_lines(name: &str) -> Vec<(Option<String>, String)> {
    if name == "links_synth" {
        let l = datasets::links(name);
        let mut out = vec![(None, String::new()); l.links.len()];
        for p in &l.pages {
            for i in p.links.clone() {
                out[i] = (Some(p.url.clone()), l.links[i].clone());
            }
        }
        out
    } else {
        datasets::urls(name)
            .into_iter()
            .map(|u| (None, u))
            .collect()
    }
}

const DATASETS: [&str; 5] = [
    "kasztp",
    "node_files",
    "idn_synth",
    "pagewritten",
    "links_synth",
];

/// The canonical URL of every valid line of every dataset.
fn canonical_lines() -> Vec<String> {
    let opts = CanonOptions::default();
    let mut out = Vec::new();
    for name in DATASETS {
        let mut base: Option<(String, Url)> = None;
        for (page, input) in dataset_lines(name) {
            let b = page.map(|p| {
                if base.as_ref().is_none_or(|(s, _)| *s != p) {
                    let u = wurl::parse(&p);
                    base = Some((p, u));
                }
                &base.as_ref().expect("just set").1
            });
            let mut s = String::new();
            if wurl::canon_into(b, &input, &opts, &mut s).is_ok() {
                out.push(s);
            }
        }
    }
    out
}

#[test]
fn surt_equals_the_internet_archive_on_the_committed_sample() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/surt-ia.tsv"
    ))
    .expect("tests/data/surt-ia.tsv");
    let lines: Vec<Vec<(Option<String>, String)>> =
        DATASETS.iter().map(|n| dataset_lines(n)).collect();
    let opts = CanonOptions::default();
    let (mut rows, mut differ) = (0, Vec::new());
    for row in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = row.split('\t').collect();
        assert_eq!(f.len(), 4, "{row}");
        let d = DATASETS.iter().position(|&n| n == f[0]).expect(f[0]);
        let i: usize = f[1].parse().expect(f[1]);
        let (page, input) = &lines[d][i];
        let base = page.as_deref().map(wurl::parse);
        let mut canonical = String::new();
        wurl::canon_into(base.as_ref(), input, &opts, &mut canonical).expect(row);
        assert_eq!(
            canonical, f[2],
            "{}:{i}: the sample's canonical URL is not wurl's (regenerate with scripts/surt-expected.py)",
            f[0]
        );
        let mine = surt(&canonical, &SurtOptions::default());
        if mine != f[3] {
            differ.push(format!(
                "{canonical}: wurl {mine:?}, Internet Archive {:?}",
                f[3]
            ));
        }
        rows += 1;
    }
    assert!(rows >= 4000, "only {rows} rows");
    assert!(
        differ.is_empty(),
        "{} of {rows} differ: {:#?}",
        differ.len(),
        &differ[..differ.len().min(20)]
    );
}

const SPECS: [&str; 7] = [
    "drop-fragment",
    "strip-www",
    "sort-query",
    "drop-params=utm_*|*id|s*",
    "strip-session-ids",
    "drop-userinfo",
    "drop-fragment,strip-www,sort-query,drop-params=utm_*|*id|s*,strip-session-ids,drop-userinfo",
];

/// Each rule and their combination is a fixed point on every canonical
/// dataset line, and so is SURT's input: the ruled URL is still split as a
/// canonical URL is (SURT of the ruled URL, made twice, agrees with SURT of
/// the ruled URL after the rules again).
#[test]
fn rules_are_fixed_points_on_the_datasets() {
    let canon = canonical_lines();
    assert!(canon.len() > 100_000, "{}", canon.len());
    let mut changed = [0usize; SPECS.len()];
    let (mut once, mut twice) = (String::new(), String::new());
    for (k, spec) in SPECS.iter().enumerate() {
        let rules = Rules::parse(spec).unwrap();
        for c in &canon {
            once.clear();
            rules.apply_into(c, &mut once);
            twice.clear();
            rules.apply_into(&once, &mut twice);
            assert_eq!(once, twice, "{spec} on {c}");
            changed[k] += usize::from(once != *c);
        }
    }
    // Only meaningful where the rules changed something: the datasets have
    // fragments, www hosts, queries, matching names and session-free URLs;
    // no user-info and no session ids (the unit tests have those).
    for (k, spec) in SPECS.iter().enumerate() {
        if !matches!(*spec, "drop-userinfo" | "strip-session-ids") {
            assert!(changed[k] > 100, "{spec} changed {} lines", changed[k]);
        }
    }
}

/// The order of the specification does not matter: the rules are applied
/// in one fixed order.
#[test]
fn specification_order_does_not_matter() {
    let a = Rules::parse("sort-query,drop-fragment,strip-www").unwrap();
    let b = Rules::parse("strip-www,drop-fragment,sort-query").unwrap();
    for c in canonical_lines().iter().step_by(7) {
        assert_eq!(a.apply(c), b.apply(c), "{c}");
    }
}

/// Calls `wurl_rules_compile(spec)`: the handle, or the status and message.
fn compile(spec: &str) -> Result<*mut wurl_rules, (i32, String)> {
    let mut r = ptr::null_mut();
    let mut msg = [0u8; 512];
    let st = wurl_rules_compile(
        spec.as_ptr().cast(),
        spec.len(),
        &mut r,
        msg.as_mut_ptr().cast(),
        msg.len(),
    );
    if st == WURL_OK {
        assert!(!r.is_null());
        Ok(r)
    } else {
        assert!(r.is_null(), "out written on failure");
        let n = msg.iter().position(|&b| b == 0).expect("NUL-terminated");
        Err((st, String::from_utf8(msg[..n].to_vec()).expect("UTF-8")))
    }
}

/// `wurl_canon_key_into` into a buffer of `cap` bytes.
fn c_key(
    base: *const wurl_url,
    input: &str,
    rules: *const wurl_rules,
    key_flags: u32,
    cap: usize,
) -> (i32, Option<String>, usize) {
    let mut buf = vec![0xAAu8; cap];
    let mut len = usize::MAX;
    let st = wurl_canon_key_into(
        base,
        input.as_ptr().cast(),
        input.len(),
        ptr::null(),
        0,
        0,
        rules,
        key_flags,
        if cap == 0 {
            ptr::null_mut()
        } else {
            buf.as_mut_ptr().cast::<c_char>()
        },
        cap,
        &mut len,
    );
    let s = (st == WURL_OK).then(|| {
        assert_eq!(buf[len], 0, "NUL");
        String::from_utf8(buf[..len].to_vec()).unwrap()
    });
    (st, s, len)
}

/// The bulk calls and the handle path agree with the rules and SURT applied
/// to `canon_into`'s result, on every line of every dataset, for each
/// specification and each key flag.
#[test]
fn bulk_and_handle_paths_equal_rules_then_surt_on_the_datasets() {
    let opts = CanonOptions::default();
    let mut checked = 0;
    for spec in [SPECS[6], SPECS[2], ""] {
        let rules = Rules::parse(spec).unwrap();
        let c_rules = compile(spec).unwrap();
        for (flags, so) in [
            (0, None),
            (WURL_KEY_SURT, Some(SurtOptions::default())),
            (
                WURL_KEY_SURT_SCHEME,
                Some(SurtOptions { with_scheme: true }),
            ),
        ] {
            let key = KeyOptions {
                rules: Some(&rules),
                surt: so,
            };
            for name in DATASETS {
                let mut page_h: Option<(String, *mut wurl_url, Url)> = None;
                for (page, input) in dataset_lines(name).iter().step_by(3) {
                    // A new page: its handle and record replace the last.
                    let new_page = page
                        .as_ref()
                        .filter(|p| page_h.as_ref().is_none_or(|(s, _, _)| s != *p));
                    if let Some(p) = new_page {
                        if let Some((_, h, _)) = page_h.take() {
                            wurl_free(h);
                        }
                        let mut h = ptr::null_mut();
                        assert_eq!(wurl_parse(p.as_ptr().cast(), p.len(), 0, &mut h), WURL_OK);
                        page_h = Some((p.clone(), h, wurl::parse(p)));
                    }
                    let (bh, bu) = match &page_h {
                        Some((_, h, u)) if page.is_some() => (*h as *const wurl_url, Some(u)),
                        _ => (ptr::null(), None),
                    };
                    // What the key must be.
                    let mut canon = String::new();
                    let want = wurl::canon_into(bu, input, &opts, &mut canon)
                        .ok()
                        .map(|()| {
                            let ruled = rules.apply(&canon);
                            match &so {
                                None => ruled,
                                Some(o) => surt(&ruled, o),
                            }
                        });
                    // The Rust bulk path.
                    let mut got = String::from("prefix:");
                    let r = wurl::key_into(bu, input, &opts, &key, &mut got);
                    assert_eq!(r.is_ok(), want.is_some(), "{input}");
                    if let Some(w) = &want {
                        assert_eq!(got, format!("prefix:{w}"), "{spec} {flags} {input}");
                    } else {
                        assert_eq!(got, "prefix:");
                    }
                    // The C bulk path.
                    let (st, s, _) = c_key(bh, input, c_rules, flags, 4096);
                    match &want {
                        Some(w) => {
                            assert_eq!(st, WURL_OK, "{input}");
                            assert_eq!(s.as_deref(), Some(w.as_str()), "{spec} {flags} {input}");
                        }
                        None => assert_eq!(st, WURL_INVALID_URL, "{input}"),
                    }
                    // The handle path, from a canonicalized handle.
                    let mut res = ptr::null_mut();
                    let base_for_resolve = if bh.is_null() {
                        let mut h = ptr::null_mut();
                        assert_eq!(
                            wurl_parse(input.as_ptr().cast(), input.len(), 0, &mut h),
                            WURL_OK
                        );
                        h
                    } else {
                        bh.cast_mut()
                    };
                    assert_eq!(
                        wurl_resolve(
                            base_for_resolve,
                            input.as_ptr().cast(),
                            input.len(),
                            0,
                            &mut res
                        ),
                        WURL_OK
                    );
                    let mut can = ptr::null_mut();
                    assert_eq!(wurl_canonicalize(res, ptr::null(), 0, 0, &mut can), WURL_OK);
                    let mut buf = [0u8; 4096];
                    let mut len = 0;
                    let st = wurl_url_key_into(
                        can,
                        c_rules,
                        flags,
                        buf.as_mut_ptr().cast(),
                        buf.len(),
                        &mut len,
                    );
                    match &want {
                        Some(w) => {
                            assert_eq!(st, WURL_OK, "{input}");
                            assert_eq!(&buf[..len], w.as_bytes(), "{spec} {flags} {input}");
                        }
                        None => assert_eq!(st, WURL_INVALID_URL, "{input}"),
                    }
                    wurl_free(can);
                    wurl_free(res);
                    if bh.is_null() {
                        wurl_free(base_for_resolve);
                    }
                    checked += 1;
                }
                if let Some((_, h, _)) = page_h.take() {
                    wurl_free(h);
                }
            }
        }
        wurl_rules_free(c_rules);
    }
    assert!(checked > 300_000, "{checked}");
}

#[test]
fn the_issue_examples_through_the_c_abi() {
    let r =
        compile("drop-fragment,strip-www,sort-query,strip-session-ids,drop-params=utm_*").unwrap();
    let url = "http://www.Example.com/x;jsessionid=ABC?b=2&utm_source=x&a=1#f";
    let (st, s, _) = c_key(ptr::null(), url, r, 0, 256);
    assert_eq!(
        (st, s.as_deref()),
        (WURL_OK, Some("http://example.com/x?a=1&b=2"))
    );
    let (st, s, _) = c_key(ptr::null(), url, r, WURL_KEY_SURT, 256);
    assert_eq!(
        (st, s.as_deref()),
        (WURL_OK, Some("com,example)/x?a=1&b=2"))
    );
    wurl_rules_free(r);
    let (st, s, _) = c_key(
        ptr::null(),
        "http://www.Example.com/a/b?z=1&a=2",
        ptr::null(),
        WURL_KEY_SURT,
        256,
    );
    assert_eq!(
        (st, s.as_deref()),
        (WURL_OK, Some("com,example,www)/a/b?z=1&a=2"))
    );
    let (st, s, _) = c_key(
        ptr::null(),
        "http://www.Example.com/a/b?z=1&a=2",
        ptr::null(),
        WURL_KEY_SURT_SCHEME,
        256,
    );
    assert_eq!(
        (st, s.as_deref()),
        (WURL_OK, Some("http://(com,example,www)/a/b?z=1&a=2"))
    );
}

#[test]
fn bad_specifications_are_statuses_with_messages_naming_the_part() {
    for (spec, part) in [
        ("sort-querry", "sort-querry"),
        ("drop-fragment,,strip-www", "empty rule"),
        ("strip-www=yes", "strip-www=yes"),
        ("drop-params=a||b", "drop-params=a||b"),
        ("drop-params=a b", "a b"),
        ("drop-params=\u{e9}t\u{e9}", "\u{e9}t\u{e9}"),
        ("sort-query,sort-query", "sort-query"),
        ("\u{0}", "\\0"),
    ] {
        let (st, msg) = compile(spec).unwrap_err();
        assert_eq!(st, WURL_E_BAD_RULES, "{spec}");
        assert!(msg.contains(part), "{spec}: {msg}");
    }
    // Invalid UTF-8 is decoded with U+FFFD, as every input is, and refused.
    let mut r = ptr::null_mut();
    let bad = b"drop-params=\xff";
    assert_eq!(
        wurl_rules_compile(bad.as_ptr().cast(), bad.len(), &mut r, ptr::null_mut(), 0),
        WURL_E_BAD_RULES
    );
    assert!(r.is_null());
    // A message cut to a small buffer stays NUL-terminated UTF-8.
    for cap in 1..40 {
        let mut msg = vec![0xFFu8; cap];
        let spec = "drop-params=\u{e9}\u{e9}\u{e9}";
        let st = wurl_rules_compile(
            spec.as_ptr().cast(),
            spec.len(),
            &mut r,
            msg.as_mut_ptr().cast(),
            cap,
        );
        assert_eq!(st, WURL_E_BAD_RULES);
        let n = msg.iter().position(|&b| b == 0).expect("NUL");
        assert!(n < cap);
        std::str::from_utf8(&msg[..n]).expect("cut at a character boundary");
    }
    let s = unsafe_free_cstr(wurl_status_str(WURL_E_BAD_RULES));
    assert_eq!(s, "the rules specification is not valid");
}

/// A static C string as a Rust string.
fn unsafe_free_cstr(p: *const c_char) -> String {
    assert!(!p.is_null());
    // SAFETY: `wurl_status_str` returns a static NUL-terminated string.
    unsafe { std::ffi::CStr::from_ptr(p) }
        .to_string_lossy()
        .into_owned()
}

#[test]
fn hostile_arguments_get_statuses() {
    let spec = "sort-query";
    let mut r = ptr::null_mut();
    // NULL out, NULL message with a capacity, (NULL, n > 0) spec.
    assert_eq!(
        wurl_rules_compile(
            spec.as_ptr().cast(),
            spec.len(),
            ptr::null_mut(),
            ptr::null_mut(),
            0
        ),
        WURL_E_NULL_ARG
    );
    assert_eq!(
        wurl_rules_compile(spec.as_ptr().cast(), spec.len(), &mut r, ptr::null_mut(), 8),
        WURL_E_NULL_ARG
    );
    assert_eq!(
        wurl_rules_compile(ptr::null(), 3, &mut r, ptr::null_mut(), 0),
        WURL_E_NULL_ARG
    );
    assert!(r.is_null());
    // (NULL, 0) is the empty specification: no rule.
    assert_eq!(
        wurl_rules_compile(ptr::null(), 0, &mut r, ptr::null_mut(), 0),
        WURL_OK
    );
    let (st, s, _) = c_key(ptr::null(), "http://a/?b&a#f", r, 0, 64);
    assert_eq!((st, s.as_deref()), (WURL_OK, Some("http://a/?b&a#f")));
    wurl_rules_free(r);
    wurl_rules_free(ptr::null_mut());

    let r = compile("sort-query").unwrap();
    // Unknown key flags.
    assert_eq!(c_key(ptr::null(), "http://a/", r, 4, 64).0, WURL_E_BAD_ARG);
    // Too small: only the length, nothing written; 0 and NULL.
    let (st, _, len) = c_key(ptr::null(), "http://www.a.com/?b&a", r, WURL_KEY_SURT, 10);
    assert_eq!(
        (st, len),
        (WURL_E_BUFFER_TOO_SMALL, "com,a,www)/?a&b".len())
    );
    let (st, _, len) = c_key(ptr::null(), "http://www.a.com/?b&a", r, WURL_KEY_SURT, 0);
    assert_eq!(
        (st, len),
        (WURL_E_BUFFER_TOO_SMALL, "com,a,www)/?a&b".len())
    );
    // Exactly the length without room for the NUL is too small.
    assert_eq!(
        c_key(ptr::null(), "http://a/?b&a", r, 0, 13).0,
        WURL_E_BUFFER_TOO_SMALL
    );
    assert_eq!(c_key(ptr::null(), "http://a/?b&a", r, 0, 14).0, WURL_OK);
    // NULL out_len, NULL buf with a capacity, (NULL, n > 0) input.
    let mut len = 0;
    assert_eq!(
        wurl_canon_key_into(
            ptr::null(),
            "x".as_ptr().cast(),
            1,
            ptr::null(),
            0,
            0,
            r,
            0,
            ptr::null_mut(),
            8,
            &mut len
        ),
        WURL_E_NULL_ARG
    );
    assert_eq!(
        wurl_canon_key_into(
            ptr::null(),
            ptr::null(),
            1,
            ptr::null(),
            0,
            0,
            r,
            0,
            ptr::null_mut(),
            0,
            &mut len
        ),
        WURL_E_NULL_ARG
    );
    assert_eq!(
        wurl_canon_key_into(
            ptr::null(),
            "x".as_ptr().cast(),
            1,
            ptr::null(),
            0,
            0,
            r,
            0,
            ptr::null_mut(),
            0,
            ptr::null_mut()
        ),
        WURL_E_NULL_ARG
    );
    // Invalid URLs.
    assert_eq!(
        c_key(ptr::null(), "http://a:99999/", r, 0, 64).0,
        WURL_INVALID_URL
    );
    assert_eq!(
        c_key(ptr::null(), "", r, WURL_KEY_SURT, 64).0,
        WURL_INVALID_URL
    );
    // The handle path: NULL handle, invalid handle.
    let mut buf = [0u8; 64];
    assert_eq!(
        wurl_url_key_into(ptr::null(), r, 0, buf.as_mut_ptr().cast(), 64, &mut len),
        WURL_E_NULL_ARG
    );
    let mut h = ptr::null_mut();
    let s = "http://a:99999/";
    assert_eq!(wurl_parse(s.as_ptr().cast(), s.len(), 0, &mut h), WURL_OK);
    let mut c = ptr::null_mut();
    assert_eq!(wurl_canonicalize(h, ptr::null(), 0, 0, &mut c), WURL_OK);
    assert_eq!(
        wurl_url_key_into(c, r, 0, buf.as_mut_ptr().cast(), 64, &mut len),
        WURL_INVALID_URL
    );
    assert_eq!(
        wurl_url_key_into(c, r, 8, buf.as_mut_ptr().cast(), 64, &mut len),
        WURL_E_BAD_ARG
    );
    wurl_free(c);
    wurl_free(h);
    // A long, many-parameter query sorts (and allocates a scratch buffer
    // once); a query of 20 000 parameters in reverse order comes back in
    // order.
    let q: Vec<String> = (0..20_000).rev().map(|i| format!("p{i:05}=1")).collect();
    let url = format!("http://a/?{}", q.join("&"));
    let mut sorted = q.clone();
    sorted.sort();
    let (st, s, _) = c_key(ptr::null(), &url, r, 0, url.len() + 1);
    assert_eq!(st, WURL_OK);
    assert_eq!(s.unwrap(), format!("http://a/?{}", sorted.join("&")));
    wurl_rules_free(r);
}

/// One rules handle, many threads: the same keys as one thread.
#[test]
fn one_rules_handle_is_shared_by_threads() {
    let r = compile(SPECS[6]).unwrap() as usize;
    let canon: Vec<String> = canonical_lines().into_iter().step_by(11).collect();
    let rules = Rules::parse(SPECS[6]).unwrap();
    let want: Vec<String> = canon
        .iter()
        .map(|c| surt(&rules.apply(c), &SurtOptions::default()))
        .collect();
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for (c, w) in canon.iter().zip(&want) {
                    let (st, got, _) =
                        c_key(ptr::null(), c, r as *const wurl_rules, WURL_KEY_SURT, 4096);
                    assert_eq!(st, WURL_OK);
                    assert_eq!(got.as_deref(), Some(w.as_str()), "{c}");
                }
            });
        }
    });
    wurl_rules_free(r as *mut wurl_rules);
}

/// Every row of the examples table of docs/keys.md, through `key_into`:
/// the documentation shows what the library does.
#[test]
fn the_examples_of_docs_keys_md_hold() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/keys.md"))
        .expect("docs/keys.md");
    let section = doc
        .split("## Examples")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("an Examples section");
    let code = |cell: &str| -> String {
        let c = cell.trim().replace("\\|", "|");
        c.strip_prefix('`')
            .and_then(|c| c.strip_suffix('`'))
            .unwrap_or(&c)
            .to_owned()
    };
    let mut rows = 0;
    for line in section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.contains("---"))
    {
        // Split on `|` not preceded by a backslash.
        let mut cells = Vec::new();
        let mut cur = String::new();
        let mut prev = ' ';
        for ch in line.trim().trim_matches('|').chars() {
            if ch == '|' && prev != '\\' {
                cells.push(std::mem::take(&mut cur));
            } else {
                cur.push(ch);
            }
            prev = ch;
        }
        cells.push(cur);
        assert_eq!(cells.len(), 4, "{line}");
        if cells[0].trim() == "rules" {
            continue;
        }
        let spec = code(&cells[0]);
        let rules = (spec != "—").then(|| Rules::parse(&spec).expect(&spec));
        let surt_opts = match cells[1].trim() {
            "text" => None,
            "surt" => Some(SurtOptions::default()),
            f => panic!("format {f}"),
        };
        let key = KeyOptions {
            rules: rules.as_ref(),
            surt: surt_opts,
        };
        let mut out = String::new();
        wurl::key_into(
            None,
            &code(&cells[2]),
            &CanonOptions::default(),
            &key,
            &mut out,
        )
        .expect(line);
        assert_eq!(out, code(&cells[3]), "{line}");
        rows += 1;
    }
    assert!(rows >= 20, "{rows} rows");
}

// ---------------------------------------------------------------------------
// Generated inputs: URL-like strings made of the pieces the rules and SURT
// look for, and arbitrary specifications.

use proptest::prelude::*;

const PIECES: &[&str] = &[
    "http://",
    "https://",
    "file://",
    "mailto:",
    "data:",
    "foo:",
    "//",
    "www.",
    "www1.",
    "www",
    "a",
    "B",
    ".",
    ":",
    "/",
    "?",
    "#",
    "&",
    "=",
    "@",
    ";",
    "[::1]",
    "1.2.3.4",
    "%41",
    "é",
    "jsessionid=x",
    "JSESSIONID",
    "PHPSESSID=1",
    "sid",
    "aspsessionidAB=",
    "cfid",
    "utm_a=",
    "fbclid",
    ":8080",
    "u:p@",
];

fn url_like() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            8 => prop::sample::select(PIECES).prop_map(str::to_owned),
            1 => any::<char>().prop_map(String::from),
        ],
        0..16,
    )
    .prop_map(|v| v.concat())
}

const SPEC_PIECES: &[&str] = &[
    "drop-fragment",
    "normalize-escapes",
    "\"",
    "strip-www",
    "sort-query",
    "strip-session-ids",
    "drop-userinfo",
    "drop-params=",
    "utm_*",
    "*id",
    "|",
    ",",
    "=",
    " ",
    "*",
    "a",
    "é",
    "\0",
];

fn spec_like() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(SPEC_PIECES), 0..8).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

    /// On the canonical URL of a generated input: every rule and all of them
    /// are fixed points; `key_into` is canonicalization, then the rules,
    /// then SURT; the C call says the same.
    #[test]
    fn prop_rules_and_surt_on_canonical_urls(x in url_like()) {
        let mut canon = String::new();
        if wurl::canon_into(None, &x, &CanonOptions::default(), &mut canon).is_ok() {
            for spec in SPECS {
                let rules = Rules::parse(spec).unwrap();
                let once = rules.apply(&canon);
                prop_assert_eq!(rules.apply(&once), once.clone(), "{} on {:?}", spec, canon);
                let s = surt(&once, &SurtOptions::default());
                let key = KeyOptions { rules: Some(&rules), surt: Some(SurtOptions::default()) };
                let mut got = String::new();
                wurl::key_into(None, &x, &CanonOptions::default(), &key, &mut got).unwrap();
                prop_assert_eq!(&got, &s);
            }
        }
    }

    /// Any string (canonical or not) through the rules and SURT: no panic.
    #[test]
    fn prop_any_string_is_safe(x in url_like()) {
        let all = Rules::parse(SPECS[6]).unwrap();
        let _ = all.apply(&x);
        let _ = surt(&x, &SurtOptions { with_scheme: true });
    }

    /// Any specification: compiled, or refused with a short message that
    /// quotes the bad part (or its start); a compiled one compiles again from its text, and the C
    /// ABI agrees.
    #[test]
    fn prop_any_specification(spec in spec_like()) {
        match Rules::parse(&spec) {
            Ok(r) => {
                prop_assert_eq!(Rules::parse(r.as_str()).unwrap(), r);
                let c = compile(&spec).expect("the C ABI compiles it too");
                wurl_rules_free(c);
            }
            Err(e) => {
                // The part, or for one whose escaped form is long its start
                // and length.
                let whole = format!("{:?}", e.part());
                let quoted = if whole.len() <= 42 {
                    whole
                } else {
                    format!("({} bytes)", e.part().len())
                };
                prop_assert!(e.part().is_empty() || e.message().contains(&quoted), "{}", e);
                prop_assert!(e.message().len() <= wurl::RulesError::max_len(), "{}", e);
                let (st, msg) = compile(&spec).unwrap_err();
                prop_assert_eq!(st, WURL_E_BAD_RULES);
                prop_assert_eq!(msg, e.message());
            }
        }
    }
}
