//! The resumed parse (ARCHITECTURE.md, speed mechanisms, row 3): `parse` of an input the
//! recognizer rejected, its scheme and authority taken where the recognizer found them, the rest
//! split by the parse steps' own functions (`parse::path_ends`, `parse::parse_after_scheme`), and
//! the record noted with the canonical prefix it found ([`Verified`]).

use super::hint::{Stop, Verified};
use crate::parse::{parse_after_scheme, parse_parts_into, path_ends};
use crate::preprocess::{as_is, only_trimmed, preprocess_into};
use crate::record::{Authority, Component, Flags, Parts, Serialization, Span, Url};
use crate::scheme::Scheme;
use crate::serialize::{layout_in, parsed_record};

/// The stages on `input`, whose scheme and authority the recognizer read in any case up to the path
/// (`st`): built from its places ([`resumed_layout`]), scheme and host lowercased if `lower`.
pub(crate) fn parse_resumed_at(input: &str, st: &Stop, lower: bool) -> Url {
    preprocessed(input, |s| parse_resumed(s, input, st, lower))
}

/// The stages on `input`, which the recognizer read as far as `stop` says; up to the path, the
/// scheme and authority are where it found them ([`resumed_layout`]).
#[inline]
pub(crate) fn parse_from(input: &str, stop: &Stop) -> Url {
    if stop.path_start != 0 {
        return preprocessed(input, |s| parse_resumed(s, input, stop, false));
    }
    crate::scratch::with(crate::scratch::Used::PARSE, |sc| {
        let s = preprocess_into(input, &mut sc.pre);
        // Preprocessing changed the input: the parse is that of `s` (preprocessing is
        // idempotent), which the recognizer reads afresh, so that its roads and notes hold.
        if !std::ptr::eq(s, input) {
            return parse_preprocessed(s, &mut sc.side);
        }
        parse_staged(s, stop, &mut sc.side)
    })
}

/// `parse` of `s`, a preprocessed string: the recognizer's record when it accepts `s`, else the
/// resumed parse where it stopped, else the steps ([`parse_staged`]), as `api::parse_text` chooses
/// for its input.
fn parse_preprocessed(s: &str, side: &mut String) -> Url {
    let stop = match super::recognize::layout_or_stop(s.as_bytes()) {
        Ok((at, class)) => return super::hint::canonical_url(s, "", &at, class),
        Err(stop) => stop,
    };
    if stop.path_start != 0 {
        return parse_resumed(s, s, &stop, false);
    }
    if let Some(st) = super::recognize::authority_stop(s.as_bytes(), &stop) {
        // Lowercased when the scheme (the first pass stopped in it) or the host is not.
        let lower = stop.scheme_end == 0 || st.host_upper;
        return parse_resumed(s, s, &st, lower);
    }
    parse_staged(s, &stop, side)
}

/// The parse steps on `s`, the preprocessed input the recognizer read as far as `stop` (its scheme
/// taken when it found one), the record noted with the canonical prefix it found.
fn parse_staged(s: &str, stop: &Stop, side: &mut String) -> Url {
    let mut p = Parts::default();
    let n = stop.scheme_end;
    if n != 0
        && !s
            .as_bytes()
            .get(n + 3)
            .is_some_and(|&b| b == b'/' || b == b'\\')
    {
        parse_after_scheme(s, n, &mut p);
    } else {
        parse_parts_into(s, side, &mut p);
    }
    build_parsed(&p, s, stop.host_end)
}

/// `serialize::build_parsed` for the parse of `source` (the preprocessed input), noting what the
/// recognizer verified. `host_end` (0: none): the recognizer found `source[..host_end]` canonical up
/// to the host; if that is the parse's host (no user information) and the serialization is
/// `source`, the record notes that its serialization starts its canonical form
/// ([`super::hint::canonical_prefix`]).
fn build_parsed(p: &Parts, source: &str, host_end: usize) -> Url {
    let mut at = [Span::NONE; 8];
    if host_end != 0
        && layout_in(p, source, &mut at)
        && at[Component::User] == Span::NONE
        && at[Component::Password] == Span::NONE
        && at[Component::Host]
            == Span::new(
                at[Component::Scheme].range().map_or(0, |r| r.end) + 3,
                host_end,
            )
    {
        let verified = Verified {
            prefix: host_end,
            ..Verified::NONE
        };
        return parsed_record(p, source, &at, verified.note());
    }
    crate::serialize::build_parsed(p, source)
}

/// `f` of the preprocessed `input`: `input` itself when [`as_is`], or trimmed when that is all
/// preprocessing does (neither needs a buffer), else this thread's buffer.
#[inline(always)]
fn preprocessed<R>(input: &str, f: impl FnOnce(&str) -> R) -> R {
    if let Some(s) = as_is(input).or_else(|| only_trimmed(input)) {
        return f(s);
    }
    crate::scratch::with(crate::scratch::Used::PARSE, |sc| {
        f(preprocess_into(input, &mut sc.pre))
    })
}

/// The record of `s` (the preprocessed `input`), which the recognizer read up to its path, built
/// from the places it found ([`resumed_layout`]); `lower`: it read scheme and host in any case.
fn parse_resumed(s: &str, input: &str, stop: &Stop, lower: bool) -> Url {
    let at = resumed_layout(s, stop);
    // The raw authority: the host, or the host, `:` and the port.
    let authority = if stop.host_end == stop.path_start {
        Authority::Host
    } else {
        Authority::Raw(s.get(stop.scheme_end + 3..stop.path_start))
    };
    // The scheme and host read start the canonical form (once lowercased); so does the path up to
    // where it stopped, if `s` is the input (an octet preprocessing removes can make an escape of a
    // `%` it read: `%\t2E`).
    let path_ok = match at[Component::Path].range() {
        Some(r) if stop.path_ok > r.start && !r.is_empty() && std::ptr::eq(s, input) => {
            stop.path_ok.min(r.end)
        }
        _ => 0,
    };
    let verified = Verified {
        canonical: false,
        prefix: stop.host_end,
        lower,
        path_ok,
    };
    let class = Scheme::of(&s.as_bytes()[..stop.scheme_end]);
    let url = Url::from_serialization(
        Serialization::Pieces([s, "", ""]),
        &at,
        authority,
        Flags::valid(class, true, true, verified.note()),
    );
    #[cfg(debug_assertions)]
    crate::parse::debug_assert_is_the_steps(s, &url.parts());
    url
}

/// The places in the preprocessed `s` of the components the steps find when the recognizer found a
/// hierarchical non-`file:` scheme (to `stop.scheme_end`), `://`, a host of octets
/// CanonicalizeHost's fast path copies or lowercases (to `stop.host_end`), maybe `:` and digits,
/// and at `stop.path_start` a `/`, `?`, `#` or the end. Preprocessing leaves that prefix as it is,
/// and the steps read it so: the scheme ends at its `:`, exactly two slashes start the authority,
/// which ends at `path_start` with no `@` or `[` and at most one `:` (the port's). The rest splits
/// as the hierarchical steps split it (`parse::path_ends`).
fn resumed_layout(s: &str, stop: &Stop) -> [Span; 8] {
    let (n, host_end, ps) = (stop.scheme_end, stop.host_end, stop.path_start);
    debug_assert_eq!(Some(n), crate::scheme::scheme_len(s.as_bytes()));
    let mut at = [Span::NONE; 8];
    at[Component::Scheme] = Span::new(0, n);
    at[Component::Host] = Span::new(n + 3, host_end);
    if host_end != ps {
        at[Component::Port] = Span::new(host_end + 1, ps);
    }
    let (p, hash) = path_ends(s.as_bytes().get(ps..).unwrap_or_default());
    let end = hash.map_or(s.len(), |h| ps + h);
    at[Component::Path] = Span::new(ps, ps + p);
    if ps + p < end {
        at[Component::Query] = Span::new(ps + p + 1, end);
    }
    if let Some(h) = hash {
        at[Component::Fragment] = Span::new(ps + h + 1, s.len());
    }
    at
}

#[cfg(test)]
mod tests {
    use super::super::layout_or_stop;
    use crate::parse::parse_stages;

    /// The parse of `s` resumed where the recognizer of canonical input
    /// stopped is the parse by the stages from the start: the same
    /// components and flags, and the same note of whether it is the
    /// parse of its serialization. Returns whether it resumed.
    fn assert_resume_is_stages(s: &str) -> bool {
        let resumed = layout_or_stop(s.as_bytes()).is_err_and(|stop| stop.path_start != 0);
        let (got, want) = (crate::api::parse_text(s), parse_stages(s));
        assert_eq!(got, want, "{s:?}");
        assert_eq!(got.parse_source(), want.parse_source(), "{s:?}");
        resumed
    }

    /// On every conformance input; and on strings built from pieces
    /// around the prefix the recognizer reads (a port that is user
    /// information after all, `@`, `[`, backslashes, white space the
    /// preprocessing strips or removes).
    #[test]
    fn resumed_parse_is_the_stages() {
        let inputs = crate::testutil::conformance_inputs();
        let resumed = inputs.iter().filter(|s| assert_resume_is_stages(s)).count();
        assert!(resumed > 100, "{resumed} resumed");
        let pool = [
            "a", "B", ":", "80", ":0", "@", "/", "\\", "?", "#", ".", "%41", "[", "]", " ", "\t",
        ];
        let mut resumed = 0;
        for scheme in ["http://", "foo://", "file://", "HTTP://", "http:///"] {
            crate::testutil::each_sequence(&pool, 4, |seq| {
                let s = format!("{scheme}h{}", seq.concat());
                resumed += usize::from(assert_resume_is_stages(&s));
            });
        }
        assert!(resumed > 1000, "{resumed} resumed");
    }
}
