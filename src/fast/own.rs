//! The fast exits of resolution: a URL against the string it was parsed
//! from (`resolve(parse(s), s)`, the handle path's own resolution), and a
//! reference against a base known to be canonical whose resolution the
//! merge finds canonical (most of a page's links).

use crate::path::{file_path_changes, may_change, remove_dot_segments_into};
use crate::record::Url;

/// [`resolve`](crate::resolve::resolve) of `input` against `base`, when a
/// fast exit answers: `base` is the parse of `input` (or of `input` less
/// white space preprocessing trims) and its own resolution is found
/// without the steps; or the merge answers. `None`: the stage decides.
pub(crate) fn resolve(base: &Url, input: &str) -> Option<Url> {
    // One comparison of the strings, before any parts are looked at.
    // (Preprocessing is idempotent, so an input equal to the base's
    // preprocessed source preprocesses to it.) The C ABI passes the source
    // itself when its input's bytes are the source's: then the pointers
    // tell, without comparing the bytes again.
    let is_source = base
        .parse_source()
        .is_some_and(|src| std::ptr::eq(src, input) || src == input || trims_to(input, src));
    if is_source {
        if base.is_known_canonical() {
            return Some(base.clone());
        }
        if let Some(u) = own_resolution(base) {
            return Some(u);
        }
    }
    // A canonical base and a reference whose resolution is canonical: the
    // result in one pass.
    let (ser, m) = super::recognize::merge_with(base, input.as_bytes())?;
    let (a, b) = m.pieces_str(ser, input);
    Some(Url::build_canonical(a, b, &m.at))
}

/// Whether preprocessing `input` (resolution step 1) gives `src` by
/// trimming its ends alone: the string a base was parsed from, written
/// with surrounding white space, resolves as that string does (the steps
/// preprocess and parse it again).
#[inline]
fn trims_to(input: &str, src: &str) -> bool {
    input.len() > src.len() && crate::preprocess::trim_ends(input) == Some(Some(src))
}

/// The resolution of the string `u` is the parse of against `u`, for a
/// hierarchical URL with an authority: step 9 sends it to the relative
/// steps, whose step 2 keeps every component and normalizes the path
/// ([`normalize_path`], as [`Norm::path`] does when not merge-only), and
/// the result knows nothing of its host. So it is `u` when the path does
/// not change, else `u` with the normalized path ([`Url::with_path`]).
/// `None` for other records, which take the steps: invalid or without an
/// authority, a `file:` URL whose path changes (its host becomes its
/// whole authority), a record that knows its canonical host.
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
    // A path the prefilter of dot-segment removal rules out is one
    // `normalize_path` gives back as it is, without its buffers.
    if !may_change::<false>(p.as_bytes()) {
        return Some(u.clone());
    }
    // Else what `normalize_path` does with a path outside `file:` that is
    // not merged (no prefix, no slash to add): "remove dot-segments",
    // without its prefilter again.
    crate::scratch::with(crate::scratch::Used::RESOLVE, |sc| {
        let q = &mut sc.path2;
        q.clear();
        remove_dot_segments_into(p, q);
        if *q == p {
            Some(u.clone())
        } else {
            u.with_path(q)
        }
    })
}
