//! Every key is a canonical URL of the page's own site, and stable, in the
//! model that made it: for any rules `R`, model `M` (2012, URL Standard)
//! and input `u`, `key_R(u)` canonicalizes to itself in `M`,
//! `key_R(key_R(u)) == key_R(u)`, and the key keeps the scheme, host
//! (under `strip-www`, the host without its `www` labels) and port of the
//! canonical URL (`tests/common/key_props.rs`, which the `rules` fuzz
//! target checks too). Then the cases where a rule used to invent a host
//! or leave a URL that canonicalizes to another, and the rules that must
//! not merge different pages.

#[path = "common/datasets.rs"]
mod datasets;
#[path = "common/key_props.rs"]
mod key_props;

use key_props::{check_key, check_key_in, rules_of};
use proptest::prelude::*;
use wurl::{Model, Rules};

fn key(spec: &str, input: &str) -> String {
    let r = Rules::parse(spec).unwrap();
    let mut out = String::new();
    let opts = wurl::KeyOptions {
        rules: Some(&r),
        surt: None,
    };
    wurl::key_into(None, input, &Default::default(), &opts, &mut out).unwrap();
    out
}

fn canon(input: &str) -> String {
    let mut out = String::new();
    wurl::canon_into(None, input, &Default::default(), &mut out).unwrap();
    out
}

/// The cases found at the edges: what each rule now gives, and that it is
/// canonical, stable and of the same site.
#[test]
fn rules_never_invent_a_host_or_leave_a_non_canonical_url() {
    let cases = [
        // Removing the path parameter would make `//evil.com` an
        // authority: the path stays as it is.
        (
            "strip-session-ids",
            "http:/;jsessionid=1/evil.com/x",
            "http:/;jsessionid=1/evil.com/x",
        ),
        (
            "strip-session-ids",
            "foo:;jsessionid=//evil.com/x",
            "foo:;jsessionid=//evil.com/x",
        ),
        (
            "strip-session-ids",
            "hmtp:/;jsessionid=/cd",
            "hmtp:/;jsessionid=/cd",
        ),
        // Removing it would expose a dot segment.
        (
            "strip-session-ids",
            "http://a/.;jsessionid=x/b",
            "http://a/.;jsessionid=x/b",
        ),
        (
            "strip-session-ids",
            "http://a/x/..;jsessionid=x/b",
            "http://a/x/..;jsessionid=x/b",
        ),
        // Dropping the user-info before an empty host would make the path's
        // `//evil.com` the authority.
        (
            "drop-userinfo",
            "https://u@//evil.com:443/",
            "https://u@//evil.com:443/",
        ),
        ("drop-userinfo", "http://a@b@//", "http://a%40b@//"),
        ("drop-userinfo", "http://u@/x", "http:///x"),
        // The stripped host would be an IPv4 address: another host.
        ("strip-www", "http://www.0x7f.1/", "http://www.0x7f.1/"),
        ("strip-www", "http://www.1.2.3/", "http://www.1.2.3/"),
        (
            "strip-www",
            "http://www.www.1.2.3/",
            "http://www.www.1.2.3/",
        ),
        ("strip-www", "http://www.a.1/", "http://a.1/"),
        (
            "strip-www",
            "http://www.example.com/",
            "http://example.com/",
        ),
        // `foo:a ` is not canonical (the trailing space goes).
        ("drop-fragment", "foo:a #f", "foo:a #f"),
        ("sort-query", "foo:a ?", "foo:a ?"),
        (
            "strip-session-ids",
            "foo:a ?PHPSESSID=1",
            "foo:a ?PHPSESSID=1",
        ),
        ("strip-session-ids", "foo:a ?PHPSESSID=1&b", "foo:a ?b"),
        // And the path parameter still goes where nothing is at stake.
        (
            "strip-session-ids",
            "http://a/x;jsessionid=1/y;JSESSIONID=2?q",
            "http://a/x/y?q",
        ),
        // One rule refused leaves the others at work.
        (
            "strip-session-ids,strip-www,drop-fragment",
            "http://www.a.com/.;jsessionid=x/b?PHPSESSID=1#f",
            "http://a.com/.;jsessionid=x/b",
        ),
    ];
    for (spec, input, want) in cases {
        let got = key(spec, input);
        assert_eq!(got, want, "{spec} on {input}");
        assert_eq!(canon(&got), got, "{spec} on {input}: not canonical");
        check_key(&Rules::parse(spec).unwrap(), input).unwrap();
    }
}

/// A rule's change is checked in the model of the call: in the URL
/// Standard, `file://h//x` reads as `file://h/x`, so removing the session
/// parameter of `file://h/;jsessionid=1/x` would give a key that is not a
/// fixed point there (while the 2012 model keeps `file://h//x`).
#[test]
fn rules_are_checked_in_the_model_of_the_call() {
    let r = Rules::parse("strip-session-ids").unwrap();
    let opts = wurl::KeyOptions {
        rules: Some(&r),
        surt: None,
    };
    let standard = |u: &str| {
        let mut k = String::new();
        wurl::key_standard_into(None, u, None, &opts, &mut k).unwrap();
        k
    };
    let u = "file://h/;jsessionid=1/x";
    let k = standard(u);
    assert_eq!(k, u);
    assert_eq!(standard(&k), k);
    assert_eq!(key("strip-session-ids", u), "file://h//x");
    assert_eq!(canon("file://h//x"), "file://h//x");
    // Where the URL Standard keeps the result, the rule still acts.
    assert_eq!(standard("http://h/;jsessionid=1/x"), "http://h//x");
    assert_eq!(standard("file://h/a;jsessionid=1/x"), "file://h/a/x");
    for u in [
        "file://h/;jsessionid=1/x",
        "file:///;jsessionid=1//x",
        "http://h/;jsessionid=1/x?PHPSESSID=2",
    ] {
        for model in [Model::Canon2012, Model::UrlStandard] {
            check_key_in(model, &r, u).unwrap();
        }
    }
}

/// `sort-query` is a total order: one key per multiset of parameters.
#[test]
fn sort_query_gives_one_key_per_multiset() {
    let perms = [
        "http://a/?a=&a&b=1&a=&b",
        "http://a/?a&a=&a=&b&b=1",
        "http://a/?b=1&b&a=&a=&a",
        "http://a/?a=&b&a&b=1&a=",
    ];
    let keys: Vec<String> = perms.iter().map(|u| key("sort-query", u)).collect();
    for k in &keys {
        assert_eq!(k, "http://a/?a&a=&a=&b&b=1");
    }
    assert_eq!(
        key("sort-query", "http://a/?a=&a"),
        key("sort-query", "http://a/?a&a=")
    );
}

/// `strip-session-ids` drops session tokens and keeps content ids.
#[test]
fn strip_session_ids_keeps_content_parameters() {
    let kept = [
        "http://slashdot.org/article.pl?sid=00/11/23/1616201",
        "http://a.com/modules.php?name=News&file=article&sid=10917",
        "http://a.com/news.html?sid=6190803",
        "http://a.com/?sid=0123456789abcdef0123456789abcde",
        "http://a.com/?sid=0123456789abcdef0123456789abcde-",
        "http://a.com/?cfid=1&x=2",
        "http://a.com/?cftoken=1",
    ];
    for u in kept {
        assert_eq!(key("strip-session-ids", u), canon(u), "{u}");
    }
    let dropped = [
        (
            "http://a.com/x?sid=0123456789abcdef0123456789abcdef",
            "http://a.com/x",
        ),
        (
            "http://a.com/x?SID=0123456789ABCDEF0123456789abcdef01234567&q",
            "http://a.com/x?q",
        ),
        ("http://a.com/x;jsessionid=ABC", "http://a.com/x"),
        (
            "http://a.com/x?PHPSESSID=hl5dk4od9258lu1p4kkklbdm65",
            "http://a.com/x",
        ),
        ("http://a.com/x?jsessionid=1&q", "http://a.com/x?q"),
        (
            "http://a.com/x?ASPSESSIONIDQQGQGRDA=PBAGKJHDDNNNDLGLBKBOEOOH",
            "http://a.com/x",
        ),
        (
            "http://a.com/x?CFID=12412453&CFTOKEN=15501799&q",
            "http://a.com/x?q",
        ),
    ];
    for (u, want) in dropped {
        assert_eq!(key("strip-session-ids", u), want, "{u}");
    }
}

/// On the real URLs of kasztp.txt: no two different `sid` URLs (different
/// canonical URLs) share a key under `strip-session-ids`.
#[test]
fn no_two_sid_articles_of_kasztp_share_a_key() {
    let r = Rules::parse("strip-session-ids").unwrap();
    let mut by_key = std::collections::HashMap::new();
    let mut sid_urls = 0;
    for u in datasets::urls("kasztp") {
        let mut c = String::new();
        if wurl::canon_into(None, &u, &Default::default(), &mut c).is_err() {
            continue;
        }
        let has_sid = c.split_once('?').is_some_and(|(_, q)| {
            q.split('&')
                .any(|p| p.to_ascii_lowercase().starts_with("sid="))
        });
        if !has_sid {
            continue;
        }
        sid_urls += 1;
        let k = r.apply(&c);
        if let Some(other) = by_key.insert(k.clone(), c.clone()) {
            assert_eq!(other, c, "two sid URLs share the key {k}");
        }
    }
    assert!(sid_urls > 60, "{sid_urls}");
}

/// `normalize-escapes`: RFC 3986 6.2.2.1-2 where the 2012 form keeps
/// escapes.
#[test]
fn normalize_escapes_examples() {
    for (input, want) in [
        ("http://a/%7euser/%2f?q=%4a", "http://a/~user/%2F?q=J"),
        ("http://a/x?%3c%3E=%7E#%7e%2f", "http://a/x?%3C%3E=~#~%2F"),
        ("foo:%41%2e%2e/x", "foo:A../x"),
        ("foo:%2e%2e/x", "foo:../x"),
        ("mailto:%7e@x?%7e", "mailto:~@x?~"),
        ("http://%7e:%7e@a/", "http://~:~@a/"),
        ("data:,%41%2f", "data:,%41%2f"),
        ("http://a/?%zz%4", "http://a/?%zz%4"),
        // No new escape out of a bare `%` and a decoded hex digit.
        ("http://a/?%6%61%62", "http://a/?%6%61b"),
        ("http://a/?%%361", "http://a/?%%361"),
        ("http://a/?%%2d%41", "http://a/?%-A"),
    ] {
        let k = key("normalize-escapes", input);
        assert_eq!(k, want, "{input}");
        check_key(&Rules::parse("normalize-escapes").unwrap(), input).unwrap();
    }
    // With the query rules: a name that is a session name once decoded.
    assert_eq!(
        key(
            "normalize-escapes,strip-session-ids",
            "http://a/?%50HPSESSID=1&q"
        ),
        "http://a/?q"
    );
}

/// Every key of a sample of the datasets under every single rule and all
/// together.
#[test]
fn the_key_properties_on_the_datasets() {
    let specs = [
        "drop-userinfo",
        "strip-www",
        "normalize-escapes",
        "strip-session-ids",
        "drop-params=utm_*|*id|s*",
        "sort-query",
        "drop-fragment",
        "drop-userinfo,strip-www,normalize-escapes,strip-session-ids,drop-params=utm_*|*id|s*,sort-query,drop-fragment",
    ];
    let rules: Vec<Rules> = specs.iter().map(|s| Rules::parse(s).unwrap()).collect();
    let mut n = 0;
    for name in ["kasztp", "node_files", "idn_synth", "pagewritten"] {
        for u in datasets::urls(name).iter().step_by(11) {
            for r in &rules {
                check_key(r, u).unwrap();
                check_key_in(Model::UrlStandard, r, u).unwrap();
            }
            n += 1;
        }
    }
    assert!(n > 5000, "{n}");
}

const PIECES: &[&str] = &[
    "http:",
    "https:",
    "foo:",
    "file:",
    "mailto:",
    "data:",
    "//",
    "/",
    "///",
    "www.",
    "www1.",
    "0x7f.",
    "1.",
    "2.3",
    "a",
    "B",
    ".",
    "..",
    ":",
    "?",
    "#",
    "&",
    "=",
    "@",
    ";",
    " ",
    "%",
    "%2e",
    "%2E",
    "%41",
    "%7e",
    "%2f",
    "%zz",
    "%6",
    "%61",
    "[::1]",
    "jsessionid=",
    ";jsessionid=x",
    "PHPSESSID=1",
    "sid=",
    "0123456789abcdef0123456789abcdef",
    "cfid=1",
    "cftoken=2",
    "aspsessionidAB=",
    "utm_a=",
    ":8080",
    "u:p@",
    "\\",
    "|",
    "é",
    "\t",
];

fn url_like() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            10 => prop::sample::select(PIECES).prop_map(str::to_owned),
            1 => any::<char>().prop_map(String::from),
        ],
        0..14,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any rule set (the bits of `bits`) on any URL-like input.
    #[test]
    fn prop_every_key_is_canonical_stable_and_of_the_same_site(bits in any::<u8>(), x in url_like()) {
        let r = rules_of("", bits);
        let r = if bits == 0 { rules_of("!", 0x7f) } else { r };
        for model in [Model::Canon2012, Model::UrlStandard] {
            if let Err(e) = check_key_in(model, &r, &x) {
                prop_assert!(false, "{}", e);
            }
        }
    }
}

/// Found by the `rules` fuzz target: a URL Standard serialization whose empty host is followed by
/// a path starting `//` (`jhttp:////E%2e/`). The URL Standard reads the host as empty, so
/// `normalize-escapes` may decode the path's `%2e`; the check reads host and port as the model
/// does (the 2012 parser would read the host `E%2e`).
#[test]
fn url_standard_empty_host_before_a_double_slash_path() {
    let r = Rules::parse("strip-www,normalize-escapes,sort-query,drop-fragment").unwrap();
    for input in ["jhttp:////E%2e/%2E%21r", "x:////a%2e/b", "http:////E%2e/x"] {
        for model in [Model::UrlStandard, Model::Canon2012] {
            check_key_in(model, &r, input).unwrap();
        }
    }
}
