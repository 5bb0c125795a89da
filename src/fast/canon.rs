//! The prefix road of `canonicalize` for the handle path (ARCHITECTURE.md, speed mechanisms, rows
//! 3 and 4): a record the fast exits noted as canonical is its own canonical form; one whose
//! serialization starts its canonical form (a resumed parse, `Verified::prefix`) has that prefix
//! copied and the rest written by canonicalization's own writer after the host
//! (`canonicalize::write_after_host`).

use super::hint::{canonical_prefix, is_known_canonical};
use crate::canonicalize::{canonical_record, kept_parts, write_after_host};
use crate::record::{Authority, Component, Parts, Span, Url};
use crate::scheme::canonical_port;
use crate::scratch::{Scratch, Used, Work};

/// `canonicalize_with` of `url` with the default options when a fast exit answers; `None`: the
/// stages decide.
pub(crate) fn canonicalize(url: &Url) -> Option<Url> {
    if is_known_canonical(url) {
        return Some(url.clone());
    }
    let (prefix, spans, lower, path_ok) = canonical_prefix(url)?;
    crate::scratch::with(Used::CANONICALIZE, |sc| {
        let Scratch { canon, work, .. } = sc;
        canon.clear();
        canon.reserve(url.serialization_len());
        let mut at = [Span::NONE; 8];
        let p = parts_after_prefix(url);
        if !canonical_after_prefix(&p, prefix, lower, path_ok, spans, canon, &mut at, work) {
            return None;
        }
        if url.same_serialized(&at, canon) {
            return Some(url.clone());
        }
        // Without a port the raw authority is the prefix's host (it holds no user-info), which is
        // the canonical one when the prefix was copied as it is.
        let authority = if !lower && p.port.is_none() {
            Authority::Host
        } else {
            Authority::Raw(p.authority)
        };
        Some(canonical_record(
            canon,
            &at,
            authority,
            p.class,
            p.hierarchical,
        ))
    })
}

/// The parts canonicalization reads after [`canonical_prefix`]: the prefix's are absent.
#[inline]
fn parts_after_prefix(url: &Url) -> Parts<'_> {
    Parts {
        port: url.port(),
        path: url.path(),
        query: url.query(),
        fragment: url.fragment(),
        authority: url.authority(),
        class: url.scheme_class(),
        hierarchical: url.is_hierarchical(),
        ..Parts::default()
    }
}

/// `canonicalize_into` with the default options for a record whose serialization starts with
/// `prefix`, the start of its canonical form (scheme, `://` and host, as they are or
/// ASCII-lowercased when `lower`, at `spans`). The prefix is copied, then `u`'s port, path, query
/// and fragment written by the steps, the first `path_ok` octets of the path copied as they are.
/// False when the port rules fail (`out` then partial).
#[allow(clippy::too_many_arguments)]
fn canonical_after_prefix(
    u: &Parts,
    prefix: &str,
    lower: bool,
    path_ok: usize,
    spans: &[Span; 8],
    out: &mut String,
    at: &mut [Span; 8],
    work: &mut Work,
) -> bool {
    out.clear();
    *at = [Span::NONE; 8];
    out.push_str(prefix);
    if lower {
        out.make_ascii_lowercase();
    }
    at[Component::Scheme] = spans[Component::Scheme];
    at[Component::Host] = spans[Component::Host];
    let Ok(port) = canonical_port(u.port, u.class.default_port) else {
        return false;
    };
    let kept = kept_parts(u, &Ok(port), None);
    write_after_host(u, &kept, port, path_ok, out, at, work);
    true
}

#[cfg(test)]
mod tests {
    use super::canonical_prefix;

    /// A record whose serialization starts its canonical form
    /// (`Url::canonical_prefix`: a parse resumed where the recognizer
    /// stopped, and its own resolution) canonicalizes to the record of a
    /// canonicalization from the start: on every conformance input and
    /// short strings around the prefix the recognizer reads.
    #[test]
    fn canonical_after_prefix_is_the_steps() {
        let mut inputs = crate::testutil::conformance_inputs();
        for scheme in ["http", "https", "foo", "file"] {
            for port in [
                "", ":", ":80", ":443", ":8080", ":0", ":08", ":99999", ":x", ":80@u", "@u", ":1:2",
            ] {
                for rest in [
                    "",
                    " ",
                    "?q",
                    "#f",
                    "/",
                    "/a/./b",
                    "/a/../../b",
                    "/%41?%41#%41",
                    "/a b?c d#e f",
                    "/a%\t2E/%\t41",
                ] {
                    for host in ["h.example", "H.example", "h.Example", "1.2"] {
                        inputs.push(format!("{scheme}://{host}{port}{rest}"));
                        inputs.push(format!("{scheme}://{host}{port}{rest}\\x"));
                    }
                }
            }
        }
        let mut after_prefix = 0;
        for input in &inputs {
            let u = crate::resolve(&crate::parse(input), input);
            after_prefix += usize::from(canonical_prefix(&u).is_some());
            // The API's canonicalization takes the prefix road (this module).
            let c = crate::canonicalize(&u, None);
            // The same value, built without the note.
            let steps =
                crate::canonicalize::canonicalize(&crate::serialize::build(&u.parts()), None);
            crate::testutil::assert_same_record(&c, &steps, &format!("{input:?}"));
        }
        assert!(after_prefix > 1000, "{after_prefix} after a prefix");
    }
}
