//! The key version is named in CHANGELOG.md: the newest "**Key version N.**" line (the first in
//! the file, under the newest release) is `wurl::KEY_VERSION`, so that a key change listed there
//! and a bump of the number go together.

#[test]
fn changelog_names_the_key_version() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/CHANGELOG.md");
    let text = std::fs::read_to_string(path).expect("CHANGELOG.md");
    let named: Vec<u32> = text
        .lines()
        .filter_map(|l| {
            l.strip_prefix("**Key version ")?
                .split('.')
                .next()?
                .parse()
                .ok()
        })
        .collect();
    assert_eq!(
        named.first(),
        Some(&wurl::KEY_VERSION),
        "CHANGELOG.md's newest \"**Key version N.**\" line must name wurl::KEY_VERSION"
    );
    // Older releases name older versions, never a newer one.
    assert!(named.windows(2).all(|w| w[0] >= w[1]), "{named:?}");
}

#[test]
fn the_c_abi_gives_the_key_version() {
    assert_eq!(wurl::ffi::wurl_key_version(), wurl::KEY_VERSION);
}
