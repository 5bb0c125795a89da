//! "Steps to resolve a URL" and "steps to resolve a relative URL" (spec
//! section "Resolution"), with RFC 3986 "merge paths" (5.2.3) on slash
//! characters and "remove dot-segments" (5.2.4) amended as the spec says:
//! `\` counts as `/`, and `%2E` / `%2e` count as `.`.

use std::borrow::Cow;

use crate::parse::parse_parts_into;
use crate::path::{
    RefKind, decode_file_slashes, file_path_changes, may_change, ref_kind,
    remove_dot_segments_into, starts_with_drive_spec,
};
use crate::record::{Component, InvalidReason, Known, Parts, Url};
use crate::scan::find1;
use crate::trace::{Observe, Stage};

pub use crate::path::remove_dot_segments;

/// Resolves `input` against `base`. The result is not canonicalized.
pub fn resolve(base: &Url, input: &str) -> Url {
    crate::scratch::with(crate::scratch::Used::RESOLVE, |sc| {
        let b = base.parts();
        let bufs = (&mut sc.path, &mut sc.path2);
        let src = base.parse_source();
        let mut r = Parts::default();
        resolve_str_into(
            &b,
            src,
            input,
            &mut sc.pre,
            &mut sc.side,
            bufs,
            false,
            &mut r,
        );
        // An absolute URL against its own parse, or `""` against a base without fragment: the base.
        if Url::same_slices(&r, &b) || Url::same_value(&r, &b) {
            return base.clone();
        }
        crate::serialize::build(&r)
    })
}

/// "Steps to resolve a URL" on a base's parts, into `r` (overwritten), borrowing from `base`,
/// `input` and the buffers. `base_source`: the string `base` was parsed from
/// ([`Url::parse_source`]), not parsed again as input. `for_canon`: see [`resolve_parts`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn resolve_str_into<'a>(
    base: &Parts<'a>,
    base_source: Option<&str>,
    input: &'a str,
    pre: &'a mut String,
    side: &'a mut String,
    bufs: (&'a mut String, &'a mut String),
    for_canon: bool,
    r: &mut Parts<'a>,
) {
    resolve_str_into_with(
        base,
        base_source,
        input,
        pre,
        side,
        bufs,
        for_canon,
        r,
        &mut (),
    );
}

/// [`resolve_str_into`], reporting preprocessing, the parse and what resolution changed to `obs`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn resolve_str_into_with<'a, O: Observe>(
    base: &Parts<'a>,
    base_source: Option<&str>,
    input: &'a str,
    pre: &'a mut String,
    side: &'a mut String,
    bufs: (&'a mut String, &'a mut String),
    for_canon: bool,
    r: &mut Parts<'a>,
    obs: &mut O,
) {
    // Step 4: nothing resolves against an invalid base.
    if base.invalid.is_some() {
        *r = Parts::invalid(InvalidReason::InvalidBase);
        return;
    }
    let s = crate::preprocess::preprocess_into_with(input, pre, obs);
    // Step 6: the empty string is the base without its fragment.
    if s.is_empty() {
        *r = base_without_fragment(base, bufs.0);
        if O::ON {
            obs.step(
                Stage::Resolve,
                "the empty reference is the base without its fragment",
                Some(""),
                None,
            );
        }
        return;
    }
    // The base's own source: its parse is the base's components, with nothing known of its host, as
    // a fresh parse would have.
    if base_source == Some(s) {
        *r = *base;
        r.known = Known::default();
        r.cache = None;
    } else {
        parse_parts_into(s, side, r);
    }
    if O::ON {
        observe_parse(r, obs);
    }
    let parsed = *r;
    resolve_parts(base, r, bufs, for_canon);
    if O::ON {
        observe_resolution(&parsed, r, obs);
    }
}

/// Reports the components of `p` as parsed: each present one (an absent one is not reported).
pub(crate) fn observe_parse<O: Observe>(p: &Parts, obs: &mut O) {
    if let Some(why) = p.invalid {
        obs.step(Stage::Parse, why.as_str(), None, None);
        return;
    }
    for (c, v) in components(p) {
        if v.is_some() {
            obs.step(Stage::Parse, c.name(), None, v);
        }
    }
}

/// Reports each component that resolution changed from `parsed` to `resolved`.
pub(crate) fn observe_resolution<O: Observe>(parsed: &Parts, resolved: &Parts, obs: &mut O) {
    if let Some(why) = resolved.invalid {
        obs.step(Stage::Resolve, why.as_str(), None, None);
        return;
    }
    for ((c, a), (_, b)) in components(parsed).zip(components(resolved)) {
        if a != b {
            let what = match (a, b) {
                (None, Some(_)) => format!("{} taken from the base", c.name()),
                (Some(_), None) => format!("{} not kept", c.name()),
                _ if c == Component::Path => {
                    "path resolved (merge paths, `\\` read as `/`, remove dot-segments)".to_owned()
                }
                _ => format!("{} resolved", c.name()),
            };
            obs.step(Stage::Resolve, &what, a, b);
        }
    }
}

/// The eight components of `p`, in order.
fn components<'p>(p: &Parts<'p>) -> impl Iterator<Item = (Component, Option<&'p str>)> {
    let v = [
        p.scheme, p.user, p.password, p.host, p.port, p.path, p.query, p.fragment,
    ];
    Component::ALL.into_iter().zip(v)
}

fn base_without_fragment<'a>(base: &Parts<'a>, work: &mut String) -> Parts<'a> {
    let mut r = *base;
    r.fragment = None;
    r.known = known_host(base, work);
    r.cache = None;
    r
}

/// Resolution of the parsed reference `r` against `base`, in place. `for_canon`: canonicalization
/// brings every hierarchical path to the fixed point of this stage's path steps anyway
/// (`canonicalize::hierarchical_path`), so paths are only merged here (but see [`Norm::path`]).
pub(crate) fn resolve_parts<'a>(
    base: &Parts<'a>,
    r: &mut Parts<'a>,
    (path, path2): (&'a mut String, &'a mut String),
    for_canon: bool,
) {
    let norm = Norm {
        merge_only: for_canon,
    };
    if base.invalid.is_some() {
        *r = Parts::invalid(InvalidReason::InvalidBase);
        return;
    }
    let same_scheme = match (r.scheme, base.scheme) {
        // Most often the very same slice or the same bytes, tested before case folding.
        (Some(a), Some(b)) => std::ptr::eq(a, b) || a == b || a.eq_ignore_ascii_case(b),
        _ => false,
    };
    if r.scheme.is_none() {
        // Step 8: no scheme, so a relative reference.
        resolve_relative(r, base, path, path2, norm);
    } else if base.hierarchical && same_scheme {
        // Step 9.
        let only_scheme = r.authority.is_none()
            && r.host.is_none()
            && r.query.is_none()
            && r.fragment.is_none()
            && r.path.is_none_or(str::is_empty);
        if only_scheme {
            *r = base_without_fragment(base, path);
            return;
        }
        resolve_relative(r, base, path, path2, norm);
    } else if r.hierarchical {
        // Step 10.
        if let Some(p) = r.path {
            r.path = Some(norm.path("", p, false, is_file(r), path, path2));
        }
    }
}

/// Whether resolving a hierarchical non-`file:` URL with an authority against its own parse leaves
/// its path `p` as it is ([`resolve_own`]): when `p` has no `\`.
#[inline]
pub(crate) fn own_path_unchanged(p: &str) -> bool {
    find1(p.as_bytes(), b'\\').is_none()
}

/// [`resolve_parts`] of a URL against its own parse, merge-only, for the bulk call without a base;
/// in place. Step 9 sends a URL with an authority to the relative steps, whose step 2 keeps every
/// component and the path ([`Norm::path`]) unless it has a `\` or is a `file:` path with a dot
/// segment, `\`, `%2F` or `%5C`.
pub(crate) fn resolve_own<'a>(own: &mut Parts<'a>, bufs: (&'a mut String, &'a mut String)) {
    if own.invalid.is_none() && own.hierarchical && own.authority.is_some() {
        let unchanged = match own.path {
            None => true,
            Some(p) if is_file(own) => !file_path_changes(p.as_bytes()),
            Some(p) => own_path_unchanged(p),
        };
        if unchanged {
            return;
        }
    }
    let base = *own;
    resolve_parts(&base, own, bufs, true);
}

fn is_file(u: &Parts) -> bool {
    u.class.is_file()
}

/// How resolution treats paths (see [`resolve_parts`]).
#[derive(Clone, Copy)]
struct Norm {
    merge_only: bool,
}

impl Norm {
    fn path<'a>(
        self,
        prefix: &str,
        p: &'a str,
        merge_slash: bool,
        file: bool,
        a: &'a mut String,
        b: &'a mut String,
    ) -> &'a str {
        // Normalized whatever the caller: `file:` paths, which canonicalization's HOSTPATH steps
        // read before its path steps (`///h/../x` moves `h` into the host), and paths with a `\`,
        // which "remove dot-segments" reads as `/` but canonicalization escapes.
        if !self.merge_only
            || file
            || find1(prefix.as_bytes(), b'\\').is_some()
            || find1(p.as_bytes(), b'\\').is_some()
        {
            return normalize_path(prefix, p, merge_slash, file, a, b);
        }
        if prefix.is_empty() && !merge_slash {
            return p;
        }
        merge_into(prefix, p, merge_slash, a)
    }
}

/// RFC 3986 5.2.3 "merge paths" written into `a`: `/` when the base has an
/// authority and an empty path (`merge_slash`), the base's part, then `p`.
fn merge_into<'a>(prefix: &str, p: &str, merge_slash: bool, a: &'a mut String) -> &'a str {
    a.clear();
    a.reserve(prefix.len() + 1 + p.len());
    if merge_slash {
        a.push('/');
    }
    a.push_str(prefix);
    a.push_str(p);
    a
}

/// A resolved path: `prefix` (the base's part, empty when nothing merges) and `p` merged, after the
/// `file:` separator decoding of `p`, dot segments removed. Borrows `p` when nothing changes, else
/// is in `a` or `b`.
pub(crate) fn normalize_path<'a>(
    prefix: &str,
    p: &'a str,
    merge_slash: bool,
    file: bool,
    a: &'a mut String,
    b: &'a mut String,
) -> &'a str {
    let decoded = if file {
        decode_file_slashes(p)
    } else {
        Cow::Borrowed(p)
    };
    let merged: &'a str = match decoded {
        Cow::Borrowed(d) if prefix.is_empty() && !merge_slash => d,
        d => merge_into(prefix, &d, merge_slash, a),
    };
    // The prefilter alone: the removal copies a path without dot segments unchanged.
    if !may_change::<false>(merged.as_bytes()) {
        return merged;
    }
    b.clear();
    remove_dot_segments_into(merged, b);
    let b: &'a String = b;
    b
}

/// CanonicalizeHost of `base`'s host, as far as known or cached ([`Parts::canonical_host`]); never
/// for `file:`, whose host the HOSTPATH loop may change first.
fn known_host<'a>(base: &Parts<'a>, work: &mut String) -> Known<'a> {
    if base.scheme.is_none() || base.class.is_file() {
        return Known::default();
    }
    base.canonical_host(work, |h, out| crate::host::host_into(h, false, out))
}

fn copy_authority<'a>(r: &mut Parts<'a>, base: &Parts<'a>, work: &mut String) {
    r.authority = base.authority;
    r.user = base.user;
    r.password = base.password;
    r.host = base.host;
    r.port = base.port;
    // The base's canonical host, cached on the first resolution against it, goes with its host
    // (ARCHITECTURE.md, speed mechanisms, row 7).
    r.known = known_host(base, work);
}

/// What of the base steps 2 to 6 of "steps to resolve a relative URL" keep before the reference's
/// own components, by the step [`ref_kind`] chose. The one statement of those steps: the stage
/// and the merge against a canonical base (src/fast/recognize.rs) both take it from [`kept`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kept {
    /// Step 2: the scheme.
    Scheme,
    /// Step 3: the scheme and the authority.
    Authority,
    /// Step 4: the scheme, authority and path.
    Path,
    /// Step 5: the scheme, authority, path and query.
    Query,
    /// Step 6, RFC 3986 5.2.3 "merge paths": the scheme, the authority, then `/` when `slash` (the
    /// base has an authority and an empty path), the base path's first `prefix` octets (through
    /// its last slash character, `/` or `\`), then the reference's path.
    Merged { prefix: usize, slash: bool },
}

/// The [`Kept`] of a reference of kind `kind` against a base with path `base_path` (empty when
/// absent) and, when `base_authority`, an authority. `CANONICAL`: the base path is canonical, so
/// its only slash character is `/` (the path percent-encode set escapes `\\`).
#[inline(always)]
pub(crate) fn kept<const CANONICAL: bool>(
    kind: RefKind,
    base_path: &[u8],
    base_authority: bool,
) -> Kept {
    match kind {
        RefKind::NetworkPath => Kept::Scheme,
        RefKind::AbsolutePath => Kept::Authority,
        RefKind::Query => Kept::Path,
        RefKind::Fragment => Kept::Query,
        RefKind::Relative if base_authority && base_path.is_empty() => Kept::Merged {
            prefix: 0,
            slash: true,
        },
        RefKind::Relative => {
            let last = if CANONICAL {
                crate::scan::rfind1(base_path, b'/')
            } else {
                crate::scan::rfind2(base_path, b'/', b'\\')
            };
            Kept::Merged {
                prefix: last.map_or(0, |i| i + 1),
                slash: false,
            }
        }
    }
}

/// "Steps to resolve a relative URL" (/resolved-url/ is `r`).
fn resolve_relative<'a>(
    r: &mut Parts<'a>,
    base: &Parts<'a>,
    path: &'a mut String,
    path2: &'a mut String,
    norm: Norm,
) {
    // Step 1.
    if !base.hierarchical {
        // The conformance data keeps no components in this case.
        *r = Parts::invalid(InvalidReason::RelativeToNonHierarchicalBase);
        return;
    }
    r.invalid = None;
    r.hierarchical = true;
    r.scheme = base.scheme;
    r.class = base.class;
    let file = is_file(r);
    let kind = ref_kind(
        r.authority.is_some(),
        r.path.and_then(|p| p.as_bytes().first().copied()),
        r.query.is_some(),
        r.fragment.is_some(),
    );
    let r_path = r.path.unwrap_or_default();
    // Step 6.5.2: in `file:`, a path starting with a drive specification keeps no authority of the
    // base, and merges with an empty base path.
    let drive =
        kind == RefKind::Relative && file && starts_with_drive_spec(&decode_file_slashes(r_path));
    let (b_path, b_authority) = if drive {
        ("", false)
    } else {
        (
            base.path.unwrap_or(""),
            base.authority.is_some() || base.host.is_some(),
        )
    };
    match kept::<false>(kind, b_path.as_bytes(), b_authority) {
        Kept::Scheme => {
            if let Some(p) = r.path {
                r.path = Some(norm.path("", p, false, file, path, path2));
            }
            if file {
                r.host = r.authority;
                r.user = None;
                r.password = None;
                r.port = None;
            }
        }
        Kept::Authority => {
            copy_authority(r, base, path);
            r.path = Some(norm.path("", r_path, false, file, path, path2));
        }
        Kept::Path => {
            copy_authority(r, base, path);
            r.path = base.path;
        }
        Kept::Query => {
            copy_authority(r, base, path);
            r.path = base.path;
            r.query = base.query;
        }
        Kept::Merged { prefix, slash } => {
            if drive {
                r.authority = None;
                r.user = None;
                r.password = None;
                r.host = None;
                r.port = None;
                r.known = Known::default();
            } else {
                copy_authority(r, base, path);
            }
            r.path = Some(norm.path(&b_path[..prefix], r_path, slash, file, path, path2));
        }
    }
}

#[cfg(test)]
mod kept_tests {
    use super::{Kept, kept};
    use crate::path::RefKind;

    /// Steps 2 to 5 keep whole components; step 6 merges after the base path's last slash
    /// character (`\\` too), or writes `/` when an authority has an empty path (RFC 3986 5.2.3).
    #[test]
    fn kept_is_each_step() {
        assert_eq!(
            kept::<false>(RefKind::NetworkPath, b"/a/b", true),
            Kept::Scheme
        );
        assert_eq!(
            kept::<false>(RefKind::AbsolutePath, b"/a/b", true),
            Kept::Authority
        );
        assert_eq!(kept::<false>(RefKind::Query, b"/a/b", true), Kept::Path);
        assert_eq!(kept::<false>(RefKind::Fragment, b"/a/b", true), Kept::Query);
        let merged = |p: &[u8], auth| match kept::<false>(RefKind::Relative, p, auth) {
            Kept::Merged { prefix, slash } => (prefix, slash),
            k => panic!("{k:?}"),
        };
        assert_eq!(merged(b"/a/b", true), (3, false));
        assert_eq!(merged(b"/a\\b", true), (3, false));
        assert_eq!(merged(b"/a/b\\", false), (5, false));
        assert_eq!(merged(b"ab", false), (0, false));
        assert_eq!(merged(b"", true), (0, true));
        assert_eq!(merged(b"", false), (0, false));
    }
}

#[cfg(test)]
mod host_cache_tests {
    use crate::{CanonOptions, canon_into, canonicalize, parse, resolve};

    /// The base's canonical host, cached by the first resolution, gives the
    /// same results as computing it every time, for valid and invalid hosts
    /// alike, and is not part of a record's value.
    #[test]
    fn cached_host_gives_the_same_results() {
        for (base, link, want) in [
            (
                "http://EXAMPLE.com:80/a/b",
                "c?d#e",
                Some("http://example.com/a/c?d#e"),
            ),
            (
                "http://EXAMPLE.com:80/a/b",
                "/x",
                Some("http://example.com/x"),
            ),
            ("HTTP://%C3%A9.com/a", "", Some("http://xn--9ca.com/a")),
            ("http://a%/b", "c", None),
            ("http://[::1%]/b", "?q", None),
            ("foo://H/b", "#f", Some("foo://h/b#f")),
            // A canonical host: the cache keeps the host itself.
            (
                "http://example.com/a/b",
                "c?d",
                Some("http://example.com/a/c?d"),
            ),
            (
                "http://example.com:8080/a",
                "//x.org/y",
                Some("http://x.org/y"),
            ),
        ] {
            let b = parse(base);
            let fresh = parse(base);
            for _ in 0..3 {
                let r = resolve(&b, link);
                assert_eq!(r, resolve(&fresh, link), "{base} {link}");
                let c = canonicalize(&r, None);
                assert_eq!(c.serialize().as_deref(), want, "{base} {link}");
                let mut out = String::new();
                let got = canon_into(Some(&b), link, &CanonOptions::default(), &mut out);
                assert_eq!(got.ok().map(|()| out.as_str()), want, "{base} {link}");
            }
            assert_eq!(b, parse(base));
            // A canonical record made from a base that filled its cache
            // resolves like a fresh parse of its serialization.
            let c = canonicalize(&b, None);
            if let Some(y) = c.serialize() {
                let again = canonicalize(&resolve(&c, link), None).serialize();
                let fresh = canonicalize(&resolve(&parse(&y), link), None).serialize();
                assert_eq!(again, fresh, "{base} {link}");
            }
        }
    }
}

#[cfg(test)]
mod own_tests {
    use super::*;

    /// Every input of the conformance suite: resolving it against its own
    /// parse with the shortcut gives exactly what the steps give.
    #[test]
    fn resolve_own_is_resolve_parts() {
        let (mut n, mut sourced) = (0, 0);
        for input in crate::testutil::conformance_inputs() {
            let input = input.as_str();
            let (mut side, mut a, mut b) = (String::new(), String::new(), String::new());
            let (mut side2, mut c, mut d) = (String::new(), String::new(), String::new());
            let mut fast = crate::parse::parse_parts(input, &mut side);
            let own2 = crate::parse::parse_parts(input, &mut side2);
            resolve_own(&mut fast, (&mut a, &mut b));
            let mut steps = own2;
            resolve_parts(&own2, &mut steps, (&mut c, &mut d), true);
            assert!(Url::same_value(&fast, &steps), "{input:?}");
            // A record that says it is the parse of its serialization
            // is: parsing that string again gives its value.
            let base = crate::parse(input);
            if let Some(src) = base.parse_source() {
                let mut side3 = String::new();
                let again = crate::parse::parse_parts(src, &mut side3);
                assert!(Url::same_value(&again, &base.parts()), "{input:?}");
                sourced += 1;
            }
            n += 1;
        }
        assert!(n > 3000, "{n} inputs");
        assert!(
            sourced > 500,
            "{sourced} records are the parse of their serialization"
        );
    }
}
