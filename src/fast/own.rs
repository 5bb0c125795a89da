//! Fast exits of resolution (ARCHITECTURE.md, speed mechanisms, rows 2 and 4).

use super::hint::Verified;
use crate::path::{file_path_changes, may_change, remove_dot_segments_into};
use crate::record::{Authority, Component, Flags, Serialization, Span, Url};

/// [`resolve`](crate::resolve::resolve) of `input` against `base` when a fast exit answers (`base`
/// parsed from `input`, or the merge). `None`: the stage decides.
pub(crate) fn resolve(base: &Url, input: &str) -> Option<Url> {
    // Preprocessing is idempotent, so an input equal to the base's preprocessed source preprocesses
    // to it; the C ABI passes the source itself (equal pointers).
    let is_source = base
        .parse_source()
        .is_some_and(|src| std::ptr::eq(src, input) || src == input || trims_to(input, src));
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
    let p = u.parts();
    let old = u.spans()[Component::Path].range()?;
    if p.invalid.is_some() || old.is_empty() || p.known.host.is_some() || p.known.err.is_some() {
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
        Authority::of(&p),
        Flags::valid(p.class, p.hierarchical, false, note),
    ))
}
