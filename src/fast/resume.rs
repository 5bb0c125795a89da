//! The resume road of the bulk call without a base: the stages on input
//! the recognizer rejected, resumed where it stopped ([`Stop`]): the prefix
//! it found canonical is copied, and the components after it are written
//! by the rules the stages use for them (`canonicalize`'s component
//! writers). False (the stages from the start) when it cannot tell.

use crate::canonicalize::{
    CanonOptions, PathStop, canon_staged, fragment_into, hierarchical_path_into, path_pass_from,
    push_port,
};
use crate::charset::{encode_query_into, query_encoding};
use crate::hint::Stop;
use crate::percent::QUERY;
use crate::record::{InvalidReason, Parts};
use crate::scheme::{Scheme, canonical_port};
use crate::scratch::{Scratch, Work};

/// The stages on `input` without a base, resumed after the recognizer when
/// `stop` says where it stopped ([`resume_into`]), appended to `out`.
/// Sets `*staged` when the stages ran: otherwise only `out` and the path
/// steps' buffers were written (`scratch::Used::RESUME`).
pub(crate) fn canon_from(
    stop: Option<&Stop>,
    input: &str,
    opts: &CanonOptions,
    out: &mut String,
    sc: &mut Scratch,
    staged: &mut bool,
) -> Result<(), InvalidReason> {
    if let Some(stop) = stop {
        let start = out.len();
        if resume_into(input, stop, out, &mut sc.work) {
            return Ok(());
        }
        out.truncate(start);
    }
    *staged = true;
    canon_staged(None, input, opts, out, sc)
}

/// The stages on `s` without a base, resumed where the recognizer of
/// canonical input stopped (`hint::Stop`, at the first octet
/// outside ASCII at the latest; the default when it stopped in the scheme
/// or did not run, on input that decoding changed): the prefix it found
/// canonical is copied, and the components after it are written by the
/// rules the stages use for them, as [`write_canonical`] writes them, for
/// a URL of the shape `scheme://host[:port][path][?query][#fragment]`
/// with a hierarchical scheme other than `file:`. The components are
/// split as `parse` splits them: the authority ends at `/`, `\`, `?`, `#`
/// or the end (`parse::split_authority` finds the host and port in it),
/// the path at `?` or `#`, the query at `#`. The stages would give the
/// same: preprocessing leaves the URL as it is (checked on the part the
/// recognizer did not read), resolution against its own parse leaves the
/// path as it is (it has no `\`), and the host is not empty (no `/.`
/// prefix). False when the stages are needed: user information, another
/// shape, a step that fails (then `out` holds a partial result, for the
/// caller to drop).
///
/// `stop` is borrowed where the recognizer wrote it, and its fields are
/// read one by one: a copy of the whole would load it in wider pieces
/// than the recognizer stored it in, which stalls until those stores are
/// done.
fn resume_into(s: &str, stop: &Stop, out: &mut String, work: &mut Work) -> bool {
    let b = s.as_bytes();
    // Surrounding white space: preprocessing trims it (when it removes
    // nothing else), and the recognizer reads the rest again. (White
    // space at the start stops the recognizer there; at the end only, it
    // stops wherever the canonical prefix ends.)
    if let Some(t) = crate::preprocess::trim_ends(s) {
        let Some(t) = t.filter(|t| !t.is_empty()) else {
            return false;
        };
        // The recognizer accepts ASCII only, and stops at the first octet
        // outside it at the latest: on text (`t` is), where it stopped
        // holds whatever the octets after it are.
        let scanned = super::recognize::scan_ascii(t.as_bytes());
        let stop = match &scanned {
            Ok(()) => {
                out.push_str(t);
                return true;
            }
            Err(stop) => stop,
        };
        return resume_into(t, stop, out, work);
    }
    let start = out.len();
    // The scheme, when the recognizer stopped in it: lowercased.
    let (n, from) = if stop.scheme_end == 0 {
        let Some(n) = super::recognize::any_case_scheme_end(b) else {
            return false;
        };
        out.push_str(&s[..n + 3]);
        out[start..].make_ascii_lowercase();
        (n, n + 3)
    } else {
        (stop.scheme_end, 0)
    };
    // Stopped before the path: the recognizer reads the authority again,
    // noting the host to lowercase, the port to drop or the empty path,
    // and goes on after them.
    let rescanned;
    let stop = if stop.path_start == 0 {
        rescanned = super::recognize::scan_authority(b, n, stop.host_end);
        match &rescanned {
            Ok(()) => {
                out.push_str(&s[from..]);
                return true;
            }
            Err(st) => st,
        }
    } else {
        stop
    };
    let mut i = stop.path_start;
    if i != 0 {
        // The recognizer read `s[..ok]`: octets preprocessing leaves as
        // they are.
        // The rest is checked as it is read: the path by the pass, the
        // query and the fragment below.
        let ok = stop.path_ok.max(i);
        // The path up to where the recognizer stopped is copied as it is
        // (what it copied is in `out`, as the pass itself would have
        // written it); the one pass goes on from there, reading the octet
        // before it to know whether a segment starts there.
        let seg = ok;
        let root = if stop.host_upper || stop.port_dropped || b.get(i) != Some(&b'/') {
            let root = push_authority(s, from, stop, out);
            // An empty path: canonicalization writes `/`.
            if b.get(i) != Some(&b'/') {
                out.push('/');
            }
            if i < seg {
                out.push_str(&s[i..seg]);
            }
            root
        } else {
            out.push_str(&s[from..seg]);
            start + i
        };
        // All of the rest canonical: nothing more to write.
        if seg == b.len() {
            return true;
        }
        let Some(end) = path_rest_into(s, i, seg, root, out, work) else {
            return false;
        };
        if end < b.len() && !crate::preprocess::leaves_tail(&b[end..]) {
            return false;
        }
        query_fragment_into(s, end, out);
        return true;
    } else {
        let scheme_end = stop.scheme_end;
        let h = scheme_end + 3;
        if !crate::preprocess::leaves_tail(&b[h..]) {
            return false;
        }
        let mut p = Parts::default();
        // The host the recognizer found, when it ends the authority or a
        // port does (digits after `:`, then `/`, `?`, `#` or the end).
        let mut end = stop.host_end;
        if end != 0 && b.get(end) == Some(&b':') {
            end = crate::scan::run_while(b, end + 1, |c| c.is_ascii_digit());
        }
        let end = if end != 0 && matches!(b.get(end), None | Some(b'/' | b'?' | b'#')) {
            out.push_str(&s[from..stop.host_end]);
            if end > stop.host_end {
                p.port = Some(&s[stop.host_end + 1..end]);
            }
            end
        } else {
            let end =
                crate::scan::find4(&b[h..], [b'/', b'\\', b'?', b'#']).map_or(b.len(), |k| h + k);
            crate::parse::split_authority(&s[h..end], &mut p);
            let Some(host) = p.host.filter(|h| !h.is_empty()) else {
                return false;
            };
            if p.user.is_some() || p.password.is_some() {
                return false;
            }
            out.push_str(&s[from..h]);
            if crate::host::host_into(host, false, out).is_err() || out.len() == start + h {
                return false;
            }
            end
        };
        let default = Scheme::of(&b[..scheme_end]).default_port;
        match canonical_port(p.port, default) {
            Ok(Some(v)) => {
                out.push(':');
                push_port(out, v);
            }
            Ok(None) => {}
            Err(_) => return false,
        }
        i = end;
    }
    // Path: up to `?`, `#` or the end; `/` when it is empty.
    let root = out.len();
    if b.get(i) != Some(&b'/') {
        out.push('/');
    }
    let Some(end) = path_rest_into(s, i, i, root, out, work) else {
        return false;
    };
    query_fragment_into(s, end, out);
    true
}

/// For [`resume_into`]: the path of `s` that starts at `i` (its `/`, or
/// where an empty one would be), written from `seg` on (a segment's start,
/// `out` holding the canonical path before it from `root`, the place of
/// the path's `/`), read once with what follows it ([`path_pass_from`] in
/// `TAIL` mode; the full steps when the one pass cannot do). Returns
/// where the path ends in `s`; `None` when resolution against the URL's
/// own parse would change it (the stages are needed).
#[inline(always)]
fn path_rest_into(
    s: &str,
    i: usize,
    seg: usize,
    root: usize,
    out: &mut String,
    work: &mut Work,
) -> Option<usize> {
    match path_pass_from::<true>(&s[i..], seg - i, false, out, root) {
        Ok(k) => Some(i + k),
        Err(PathStop::Resolution) => None,
        Err(PathStop::Steps) => {
            let b = s.as_bytes();
            let end = crate::scan::find2(&b[seg..], b'?', b'#').map_or(b.len(), |k| seg + k);
            if !crate::resolve::own_path_unchanged(&s[i..end])
                || !crate::preprocess::leaves_tail(&b[seg..end])
            {
                return None;
            }
            out.truncate(root);
            hierarchical_path_into(&s[i..end], false, out, &mut work.a, &mut work.b);
            Some(end)
        }
    }
}

/// `s[from..stop.path_start]`, the authority the recognizer of canonical
/// input found (`from` is at most where the host starts), appended to
/// `out` in canonical form: the host as CanonicalizeHost's fast path
/// writes it (lowercased when `stop.host_upper`), the port unless the
/// port rules drop it (`stop.port_dropped`). Returns where the path
/// begins in `out`.
fn push_authority(s: &str, from: usize, stop: &Stop, out: &mut String) -> usize {
    let cut = if stop.port_dropped {
        stop.host_end
    } else {
        stop.path_start
    };
    if stop.host_upper {
        let h = stop.scheme_end + 3;
        out.push_str(&s[from..h]);
        crate::host::push_plain(&s[h..stop.host_end], true, out);
        out.push_str(&s[stop.host_end..cut]);
    } else {
        out.push_str(&s[from..cut]);
    }
    out.len()
}

/// The query (up to `#` or the end) and the fragment of `s` from `i`, for
/// [`resume_into`]: canonical, appended to `out`.
fn query_fragment_into(s: &str, mut i: usize, out: &mut String) {
    let b = s.as_bytes();
    if b.get(i) == Some(&b'?') {
        let end = crate::scan::find1(&b[i + 1..], b'#').map_or(b.len(), |k| i + 1 + k);
        out.push('?');
        encode_query_into(&s[i + 1..end], query_encoding(None), &QUERY, out);
        i = end;
    }
    if b.get(i) == Some(&b'#') {
        out.push('#');
        fragment_into(&s[i + 1..], out);
    }
}
