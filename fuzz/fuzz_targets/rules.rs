//! `rules`: a rules specification and a URL. The input is the
//! specification, a `\n`, then the URL (invalid UTF-8 replaced); a
//! specification that does not compile (its error message must stay
//! short) is replaced by the rules chosen by the bits of the first octet.
//! Every key must be canonical, stable, and keep the canonical URL's
//! scheme, host and port, in both models (`tests/common/key_props.rs`).
#![no_main]

#[path = "../../tests/common/key_props.rs"]
mod key_props;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (spec, url) = match data.iter().position(|&c| c == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&[][..], data),
    };
    let spec = String::from_utf8_lossy(spec);
    let url = String::from_utf8_lossy(url);
    if let Err(e) = wurl::Rules::parse(&spec) {
        assert!(
            e.message().len() <= wurl::RulesError::max_len(),
            "rules error message of {} bytes for a {}-byte specification",
            e.message().len(),
            spec.len()
        );
    }
    let rules = key_props::rules_of(&spec, data.first().copied().unwrap_or(0x7f));
    for model in [wurl::Model::Canon2012, wurl::Model::UrlStandard] {
        if let Err(e) = key_props::check_key_in(model, &rules, &url) {
            panic!("key property violated: {e}");
        }
    }
});
