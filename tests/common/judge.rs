//! How each conformance file is judged (tests/data/README.md).

use super::dat::DatTest;
use wurl::{Component, Url};

pub fn show(v: Option<&str>) -> String {
    match v {
        None => "(absent)".to_owned(),
        Some(s) => format!("{s:?}"),
    }
}

/// Compares `invalid` and every component; a component the test does not
/// list must be absent. A `file:` URL whose path begins with a drive letter
/// is compared with the drive inside the path, which is how wurl keeps it.
pub fn compare_components(t: &DatTest, u: &Url, check_invalid: bool, errs: &mut Vec<String>) {
    if check_invalid && t.get("invalid").is_some() != u.is_invalid() {
        errs.push(format!(
            "invalid: expected {}, got {} ({:?})",
            t.get("invalid").is_some(),
            u.is_invalid(),
            u.invalid_reason()
        ));
    }
    for c in Component::ALL {
        let want = t.get(c.name());
        let got = u.get(c);
        if want != got {
            errs.push(format!(
                "{}: expected {}, got {}",
                c.name(),
                show(want),
                show(got)
            ));
        }
    }
}

/// Runs one canonicalization test; returns the number of checks and the
/// failures (the canonicalization check and the idempotency check).
pub fn run_canon_test(t: &DatTest) -> (usize, Vec<String>) {
    let data = t.get("data").unwrap_or("");
    let base_s = match t.get("base") {
        Some(b) if !b.is_empty() => b,
        _ => data,
    };
    let charset = t.get("charset");
    let base = wurl::parse(base_s);
    let resolved = wurl::resolve(&base, data);
    let canon = wurl::canonicalize(&resolved, charset);
    let mut errs = Vec::new();
    if t.get("invalid").is_some() {
        if !canon.is_invalid() {
            errs.push(format!(
                "expected invalid, got {}",
                show(canon.serialize().as_deref())
            ));
        }
        return (1, errs);
    }
    if let Some(why) = canon.invalid_reason() {
        errs.push(format!("unexpectedly invalid: {why}"));
        return (2, errs);
    }
    let ser = canon.serialize().unwrap_or_default();
    let want = t.get("canon").unwrap_or(data);
    if ser != want {
        errs.push(format!("canon: expected {want:?}, got {ser:?}"));
    }
    compare_components(t, &canon, false, &mut errs);
    // Idempotency.
    let again = wurl::canonicalize(&wurl::resolve(&base, &ser), charset).serialize();
    if again.as_deref() != Some(ser.as_str()) {
        errs.push(format!(
            "idempotency: {ser:?} became {}",
            show(again.as_deref())
        ));
    }
    (2, errs)
}
