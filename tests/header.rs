//! The committed header `include/wurl.h` must equal a freshly generated one.
//! Run `WURL_BLESS=1 cargo test --test header` to rewrite it after changing
//! the C ABI in `src/ffi.rs`.

use std::path::Path;

fn generate() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut config =
        cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    config.after_includes = Some(format!(
        "\n/* The version of this header; wurl_version() returns the same string. */\n#define WURL_VERSION \"{}\"\n",
        env!("CARGO_PKG_VERSION")
    ));
    let bindings = cbindgen::Builder::new()
        .with_crate(root)
        .with_config(config)
        .generate()
        .expect("cbindgen failed");
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).expect("header is UTF-8")
}

#[test]
fn header_matches_committed() {
    let fresh = generate();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/wurl.h");
    if std::env::var_os("WURL_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write include/wurl.h");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "include/wurl.h differs from the header cbindgen generates from src/ffi.rs; \
         run `WURL_BLESS=1 cargo test --test header` and commit the result"
    );
}

/// Every name the header declares is wurl's own (`wurl_`, `WURL_`): a C program that includes it
/// gets no other name, however the Rust crate names its items.
#[test]
fn header_names_are_prefixed() {
    let header = generate();
    let mut names = Vec::new();
    for line in header.lines() {
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix("#define ") {
            names.push(rest.split_whitespace().next().unwrap_or("").to_owned());
        } else if let Some(rest) = line.strip_prefix("typedef ") {
            let name = rest
                .trim_end_matches(';')
                .split_whitespace()
                .last()
                .unwrap_or("");
            names.push(name.trim_start_matches('*').to_owned());
        } else if line.contains('(') && !line.starts_with('*') && !line.starts_with("/*") {
            // A declaration: the name before the first `(`.
            let head = &line[..line.find('(').unwrap()];
            if let Some(name) = head.split_whitespace().last() {
                names.push(name.trim_start_matches('*').to_owned());
            }
        }
    }
    assert!(names.len() > 60, "{} names found", names.len());
    let foreign: Vec<&String> = names
        .iter()
        .filter(|n| !(n.starts_with("wurl_") || n.starts_with("WURL_") || n.is_empty()))
        .filter(|n| !matches!(n.as_str(), "WURL_H"))
        .collect();
    assert!(
        foreign.is_empty(),
        "names without the wurl prefix: {foreign:?}"
    );
}
