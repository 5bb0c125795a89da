//! "Steps to serialize a parsed URL" (spec section "Serialization"). A record keeps its
//! serialization in its buffer ([`Url`]), written once when it is built (`serialize_parts`).

use crate::record::{Authority, Component, Flags, Note, Parts, Serialization, Span, Url};

/// One piece at a time of the serialization [`walk`] lays out: a delimiter the steps write, or
/// the component `which`. `None` stops the walk.
pub(crate) trait Layout {
    fn lit(&mut self, l: &'static str) -> Option<()>;
    fn comp(&mut self, which: Component, c: &str) -> Option<()>;
}

/// "Steps to serialize a parsed URL" (steps 3 to 9) as a layout, the one place that says where each
/// component goes in `scheme:[//[user[:password]@]host[:port]]path[?query][#fragment]`: the pieces
/// of `u` in order, given to `v` until it says `None`.
#[inline]
pub(crate) fn walk(u: &Parts, v: &mut impl Layout) -> Option<()> {
    walk_to_host(u, v)?;
    walk_after_host(u, v)
}

/// [`walk`] up to the host: the scheme, `:`, and of the authority `//`, user information, host.
#[inline]
fn walk_to_host(u: &Parts, v: &mut impl Layout) -> Option<()> {
    if let Some(scheme) = u.scheme {
        v.comp(Component::Scheme, scheme)?;
    }
    v.lit(":")?;
    // Step 6: an authority is written when any of its parts is present,
    // even if empty.
    if u.user.is_some() || u.password.is_some() || u.host.is_some() || u.port.is_some() {
        v.lit("//")?;
        if u.user.is_some() || u.password.is_some() {
            if let Some(user) = u.user {
                v.comp(Component::User, user)?;
            }
            if let Some(pw) = u.password {
                v.lit(":")?;
                v.comp(Component::Password, pw)?;
            }
            v.lit("@")?;
        }
        if let Some(h) = u.host {
            v.comp(Component::Host, h)?;
        }
    }
    Some(())
}

/// [`walk`] after the host: the port (a port present has opened the authority, step 6), path, query
/// and fragment; alone after a prefix already written (canonicalization's prefix road).
#[inline(always)]
pub(crate) fn walk_after_host(u: &Parts, v: &mut impl Layout) -> Option<()> {
    if let Some(p) = u.port {
        v.lit(":")?;
        v.comp(Component::Port, p)?;
    }
    if let Some(p) = u.path {
        v.comp(Component::Path, p)?;
    }
    if let Some(q) = u.query {
        v.lit("?")?;
        v.comp(Component::Query, q)?;
    }
    if let Some(f) = u.fragment {
        v.lit("#")?;
        v.comp(Component::Fragment, f)?;
    }
    Some(())
}

/// The length [`serialize_parts`] will append, for a valid record: exact,
/// so that a record's buffer is allocated once at its final size.
pub(crate) fn serialized_len(u: &Parts) -> usize {
    struct Len(usize);
    impl Layout for Len {
        #[inline]
        fn lit(&mut self, l: &'static str) -> Option<()> {
            self.0 += l.len();
            Some(())
        }
        #[inline(always)]
        fn comp(&mut self, _: Component, c: &str) -> Option<()> {
            self.0 += c.len();
            Some(())
        }
    }
    let mut n = Len(0);
    walk(u, &mut n);
    n.0
}

/// Builds a record from its parts ([`Url`]), its buffer allocated once at its exact size.
pub(crate) fn build(p: &Parts) -> Url {
    let ser = if p.invalid.is_none() {
        serialized_len(p)
    } else {
        0
    };
    Url::from_parts(p, ser, |buf, at| serialize_parts(p, buf, at))
}

/// [`build`] for the parse of `source` (the preprocessed input), noting whether its serialization
/// is `source`.
pub(crate) fn build_parsed(p: &Parts, source: &str) -> Url {
    let mut at = [Span::NONE; 8];
    if layout_in(p, source, &mut at) {
        // The serialization is `source`, copied whole.
        return parsed_record(p, source, &at, Note::NONE);
    }
    let mut url = build(p);
    if url.as_str() == Some(source) {
        url.set_parse_of_serialization(true);
    }
    url
}

/// The record of the valid parse `p` whose serialization is `source` (components at `at`), with
/// the fast exits' `note`.
pub(crate) fn parsed_record(p: &Parts, source: &str, at: &[Span; 8], note: Note) -> Url {
    // A parse knows nothing of its host.
    debug_assert!(p.invalid.is_none() && p.known.host.is_none() && p.known.err.is_none());
    Url::from_serialization(
        Serialization::Pieces([source, "", ""]),
        at,
        Authority::of(p),
        Flags::valid(p.class, p.hierarchical, true, note),
    )
}

/// Appends the serialization of the valid record `u` to `s`, and where each
/// component went (in `wurl_component` order) to `at`.
pub(crate) fn serialize_parts(u: &Parts, s: &mut String, at: &mut [Span; 8]) {
    struct Write<'w> {
        s: &'w mut String,
        at: &'w mut [Span; 8],
    }
    impl Layout for Write<'_> {
        #[inline]
        fn lit(&mut self, l: &'static str) -> Option<()> {
            self.s.push_str(l);
            Some(())
        }
        #[inline(always)]
        fn comp(&mut self, which: Component, c: &str) -> Option<()> {
            let start = self.s.len();
            self.s.push_str(c);
            self.at[which] = Span::new(start, self.s.len());
            Some(())
        }
    }
    walk(u, &mut Write { s, at });
}

/// Where [`serialize_parts`] would put each component of the valid record `u` (into `at`), when
/// what it would write is `s` itself: each separator the octet of `s` there, each component the
/// slice of `s` there (the same memory; an empty one matches anywhere). Parsed components are
/// slices of the input, so most absolute URLs' serialization is found without writing it.
pub(crate) fn layout_in(u: &Parts, s: &str, at: &mut [Span; 8]) -> bool {
    *at = [Span::NONE; 8];
    u.invalid.is_none() && walk_layout(u, s, at).is_some()
}

/// [`layout_in`]'s walk; `None` at the first mismatch.
fn walk_layout(u: &Parts, s: &str, at: &mut [Span; 8]) -> Option<()> {
    struct Find<'s, 'a> {
        b: &'s [u8],
        pos: usize,
        at: &'a mut [Span; 8],
    }
    impl Layout for Find<'_, '_> {
        #[inline]
        fn lit(&mut self, l: &'static str) -> Option<()> {
            let l = l.as_bytes();
            (self.b.get(self.pos..self.pos + l.len())? == l).then(|| self.pos += l.len())
        }
        #[inline(always)]
        fn comp(&mut self, which: Component, c: &str) -> Option<()> {
            let end = self.pos + c.len();
            let here = (self.b.as_ptr() as usize).wrapping_add(self.pos);
            if end > self.b.len() || (!c.is_empty() && c.as_ptr() as usize != here) {
                return None;
            }
            self.at[which] = Span::new(self.pos, end);
            self.pos = end;
            Some(())
        }
    }
    let mut f = Find {
        b: s.as_bytes(),
        pos: 0,
        at,
    };
    walk(u, &mut f)?;
    (f.pos == f.b.len()).then_some(())
}

/// Serializes `u`; `None` when it is invalid (step 2: an invalid URL cannot
/// be serialized).
pub fn serialize(u: &Url) -> Option<String> {
    u.serialize()
}

/// Appends the serialization of `u` to `s`; false (nothing appended) when
/// `u` is invalid.
pub fn serialize_into(u: &Url, s: &mut String) -> bool {
    match u.as_str() {
        Some(v) => {
            s.push_str(v);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On every conformance input's parse: when `layout_in` finds the
    /// serialization in the (preprocessed) input, writing it gives that
    /// input and those spans; and it finds it for most inputs that are
    /// their own serialization.
    #[test]
    fn layout_in_is_serialize_parts() {
        let (mut found, mut own) = (0, 0);
        for input in crate::testutil::conformance_inputs() {
            let (mut pre, mut side) = (String::new(), String::new());
            let s = crate::preprocess::preprocess_into(&input, &mut pre);
            let p = crate::parse::parse_parts(s, &mut side);
            let mut at = [Span::NONE; 8];
            if p.invalid.is_some() {
                assert!(!layout_in(&p, s, &mut at));
                continue;
            }
            let mut out = String::new();
            let mut want = [Span::NONE; 8];
            serialize_parts(&p, &mut out, &mut want);
            if out == s {
                own += 1;
            }
            if layout_in(&p, s, &mut at) {
                assert_eq!(out, s, "{input:?}");
                assert_eq!(at, want, "{input:?}");
                found += 1;
            }
        }
        assert!(found > 1000 && found * 10 >= own * 9, "{found} of {own}");
    }
}
