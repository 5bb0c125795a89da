//! Fast exits of resolution (ARCHITECTURE.md, speed mechanisms, rows 2 and 4).

use super::hint::Verified;
use crate::path::{file_path_changes, may_change, remove_dot_segments_into};
use crate::record::{Component, Flags, Serialization, Span, Url};

/// [`resolve`](crate::resolve::resolve) of `input` against `base` when a fast exit answers (`base`
/// parsed from `input`, or the merge). `None`: the stage decides.
pub(crate) fn resolve(base: &Url, input: &str) -> Option<Url> {
    // Preprocessing is idempotent, so an input equal to the base's preprocessed source preprocesses
    // to it; the C ABI passes the source itself (equal pointers).
    let is_source = base.parse_source().is_some_and(|src| {
        std::ptr::eq(src, input)
            || src == input
            || trims_to(input, src)
            || preprocesses_to(input, src)
    });
    if is_source {
        if super::hint::is_known_canonical(base) {
            return Some(base.clone());
        }
        if let Some(u) = own_resolution(base) {
            return Some(u);
        }
    }
    let (ser, m) = super::recognize::merge_with(base, input.as_bytes())?;
    let (a, b) = m.pieces_str(ser, input);
    Some(super::hint::canonical_url(a, b, &m.at, m.class))
}

/// Whether preprocessing `input` (resolution step 1) gives `src` by trimming its ends alone.
#[inline]
fn trims_to(input: &str, src: &str) -> bool {
    input.len() > src.len() && crate::preprocess::trim_ends(input) == Some(Some(src))
}

/// Whether preprocessing `input` (resolution step 1) gives `src`, a preprocessed string (no TAB, LF
/// or CR, nothing step 3 trims at its ends): its TAB, LF and CR removed and its ends trimmed,
/// compared in one pass without a buffer, so that preprocessing runs once for `resolve(parse(s),
/// s)`. False also for an octet 0xEF or more (a noncharacter's lead octet: step 1 may replace it),
/// which the stages decide.
#[inline]
fn preprocesses_to(input: &str, src: &str) -> bool {
    let (b, s) = (input.as_bytes(), src.as_bytes());
    if b.len() <= s.len() {
        return false;
    }
    let removed = |c: u8| matches!(c, b'\t' | b'\n' | b'\r');
    // Removal comes before trimming: an end's run of removed and trimmed octets goes whole.
    let gone = |c: u8| removed(c) || crate::preprocess::is_trimmed(c);
    let Some(start) = b.iter().position(|&c| !gone(c)) else {
        return false;
    };
    let end = b.iter().rposition(|&c| !gone(c)).map_or(start, |k| k + 1);
    let mut j = 0;
    for &c in &b[start..end] {
        if removed(c) {
            continue;
        }
        if c >= 0xEF || s.get(j) != Some(&c) {
            return false;
        }
        j += 1;
    }
    j == s.len()
}

/// `u` resolved against its own string: step 9 takes the relative steps, whose step 2 keeps every
/// component and runs "remove dot-segments" on the path. `None` (the steps decide): invalid, no
/// authority, or a `file:` URL whose path changes (its host becomes its whole authority).
fn own_resolution(u: &Url) -> Option<Url> {
    if u.is_invalid() || !u.is_hierarchical() || !u.has_authority() {
        return None;
    }
    let Some(p) = u.path() else {
        return Some(u.clone());
    };
    if u.scheme_class().is_file() {
        return (!file_path_changes(p.as_bytes())).then(|| u.clone());
    }
    // The prefilter rules out any change; else "remove dot-segments" alone (unmerged, not `file:`).
    if !may_change::<false>(p.as_bytes()) {
        return Some(u.clone());
    }
    crate::scratch::with(crate::scratch::Used::RESOLVE, |sc| {
        let q = &mut sc.path2;
        q.clear();
        remove_dot_segments_into(p, q);
        if *q == p {
            Some(u.clone())
        } else {
            // The canonical prefix stays (the path after it is another).
            let v = Verified::of(u);
            let note = Verified {
                prefix: v.prefix,
                lower: v.lower,
                ..Verified::NONE
            };
            with_path(u, q, note.note())
        }
    })
}

/// The valid record `u` with its non-empty path replaced by `path`, the rest copied and the
/// components after it moved: the value its own resolution gives, with the fast exits' `note`.
/// `None` when it knows its canonical host.
fn with_path(u: &Url, path: &str, note: crate::record::Note) -> Option<Url> {
    let old = u.spans()[Component::Path].range()?;
    if u.is_invalid() || old.is_empty() || u.knows_host() {
        return None;
    }
    let ser = u.as_str()?;
    let (before, after) = (ser.get(..old.start)?, ser.get(old.end..)?);
    // Components before the path stay; the query and fragment move by the path's change in length.
    let mut at = *u.spans();
    at[Component::Path] = Span::new(old.start, old.start + path.len());
    for c in [Component::Query, Component::Fragment] {
        if let Some(r) = at[c].range() {
            at[c] = Span::new(
                r.start - old.end + old.start + path.len(),
                r.end - old.end + old.start + path.len(),
            );
        }
    }
    Some(Url::from_serialization(
        Serialization::Pieces([before, path, after]),
        &at,
        u.raw_authority(),
        Flags::valid(u.scheme_class(), u.is_hierarchical(), false, note),
    ))
}

#[cfg(test)]
mod tests {
    use super::preprocesses_to;
    use crate::fast::set_fast_exits;

    /// `preprocesses_to` says yes exactly when preprocessing gives the string, on strings built
    /// from white space, removed octets and plain ones, against their preprocessed form and
    /// others; it declines octets of 0xEF or more.
    #[test]
    fn preprocesses_to_is_preprocess() {
        let pool = [
            "a", "/", " ", "\t", "\n", "\r", "\x0b", "\x0c", "\u{FDD0}", "é",
        ];
        let mut yes = 0;
        crate::testutil::each_sequence(&pool, 5, |seq| {
            for input in [format!("h{}", seq.concat()), format!("{}h", seq.concat())] {
                let want = crate::preprocess::preprocess(&input).into_owned();
                for src in [want.as_str(), "h", "ha", "h a", "a h"] {
                    let got = preprocesses_to(&input, src);
                    let right = src == want && input.len() > src.len();
                    let declined = input.bytes().any(|b| b >= 0xEF);
                    assert!(got == right || (declined && !got), "{input:?} {src:?}");
                    yes += usize::from(got);
                }
            }
        });
        assert!(yes > 1000, "{yes}");
    }

    /// `own_resolution`, the fast exit of `resolve` for the string a
    /// record was parsed from, gives the record the steps give: the same
    /// value (components, raw authority, flags) and the same C views, on
    /// every conformance input and paths with dot segments around ports, user
    /// information and IPv6 literals; each also written with white space
    /// around it.
    #[test]
    fn own_resolution_is_the_steps() {
        let mut inputs = crate::testutil::conformance_inputs();
        for extra in [
            "http://a:8080/x/../y?q#f",
            "http://u:p@H.example:80/./a/b/../c",
            "http://[::1]:81/a/%2e%2E/b",
            "http://a/\\x/../y",
            "http://a/.",
            "http://a/..?x",
            "ftp://h/a/b/c/./../../g#s/../x",
            "file://h/a/../b",
            "foo://h/./x",
        ] {
            inputs.push(extra.to_owned());
        }
        let mut moved = 0;
        for input in &inputs {
            let base = crate::parse(input);
            let Some(src) = base.parse_source().map(str::to_owned) else {
                continue;
            };
            // The string itself, and written with white space that
            // preprocessing trims.
            // (And a string that trims to another one.)
            // And with TAB, LF and CR inside it, which preprocessing removes.
            let mut inner = src.clone();
            let boundary = |s: &str, k: usize| (0..=k).rev().find(|&k| s.is_char_boundary(k));
            inner.insert(boundary(&inner, inner.len() / 2).unwrap_or(0), '\t');
            inner.insert(boundary(&inner, 1).unwrap_or(0), '\n');
            for link in [
                src.clone(),
                format!(" \x0c{src}\x0b  "),
                format!(" {src}#x "),
                format!("\r {inner}\t\x0b"),
                format!("{inner}\u{FDD0}"),
            ] {
                let prev = set_fast_exits(false);
                let steps = crate::resolve(&base, &link);
                set_fast_exits(true);
                let fast = crate::resolve(&base, &link);
                set_fast_exits(prev);
                crate::testutil::assert_same_record(&fast, &steps, &format!("{link:?}"));
                assert_eq!(
                    crate::canonicalize(&fast, None),
                    crate::canonicalize(&steps, None),
                    "{link:?}"
                );
                if fast.path() != base.path() {
                    moved += 1;
                }
            }
        }
        assert!(moved > 300, "{moved} paths changed");
    }
}
