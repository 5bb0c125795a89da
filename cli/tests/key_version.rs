//! `wurl --version` names the key version, and `wurl canon --key-version N` runs only when the
//! library makes keys of version N.

mod common;

use common::wurl;

#[test]
fn version_names_the_key_version() {
    let r = wurl(&["--version"], None);
    assert_eq!(r.code, 0);
    let want = format!(
        "wurl {} (key version {})\n",
        env!("CARGO_PKG_VERSION"),
        wurl::KEY_VERSION
    );
    assert_eq!(r.out(), want);
}

#[test]
fn key_version_pins_the_keys() {
    let v = wurl::KEY_VERSION.to_string();
    let r = wurl(&["canon", "--key-version", &v, "HTTP://A/b"], None);
    assert_eq!(
        (r.code, r.out().as_str()),
        (0, "http://a/b\n"),
        "{}",
        r.stderr
    );
    let other = (wurl::KEY_VERSION + 998).to_string();
    let r = wurl(
        &["canon", "--key-version", &other, "HTTP://A/b"],
        Some(b"http://a/\n"),
    );
    assert_eq!(r.code, 2);
    assert_eq!(r.out(), "", "nothing is written");
    assert!(
        r.stderr.contains(&format!(
            "--key-version {other}: this wurl makes keys of version {v}"
        )),
        "{}",
        r.stderr
    );
    let r = wurl(&["canon", "--key-version", "x", "http://a/"], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
}
