//! The resume road of the bulk call without a base (ARCHITECTURE.md, speed mechanisms, row 3):
//! on input the recognizer rejected, its canonical prefix ([`Stop`]) is copied and the components
//! after it are written by the stages' own component writers (`canonicalize`), each after its
//! delimiter where `serialize::walk_after_host` lays it out.

use super::hint::Stop;
use crate::canonicalize::{
    ResolvedOptions, canon_staged, hierarchical_path_into, path_octet, write_after_host,
};
use crate::path::{Appended, DotWriter, remove_dots};
use crate::record::{InvalidReason, Parts, Span};
use crate::scheme::{Scheme, canonical_port};
use crate::scratch::{Scratch, Work};

/// The stages on `input` without a base, appended to `out`, resumed at `stop` ([`resume_into`])
/// when given. Sets `*staged` when the stages ran (otherwise see `scratch::Used::RESUME`).
pub(crate) fn canon_from(
    stop: Option<&Stop>,
    input: &str,
    opts: &ResolvedOptions,
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
    canon_preprocessed(input, opts, out, sc, staged)
}

/// [`canon_from`] once the road could not go on at the recognizer's stop: the road on `input`
/// preprocessed ([`resume_preprocessed`], which reads it again and needs no stop), else the
/// stages. Out of line, so that [`canon_from`] stays small enough to be inlined into its caller.
#[inline(never)]
fn canon_preprocessed(
    input: &str,
    opts: &ResolvedOptions,
    out: &mut String,
    sc: &mut Scratch,
    staged: &mut bool,
) -> Result<(), InvalidReason> {
    let start = out.len();
    if resume_preprocessed(input, out, sc) {
        return Ok(());
    }
    out.truncate(start);
    *staged = true;
    canon_staged(None, input, opts, out, sc)
}

/// [`resume_into`] on `input` preprocessed, when preprocessing changes more than its ends (a TAB,
/// LF or CR inside, a noncharacter): preprocessing is the first step and idempotent, so the road
/// goes on from its result, which the recognizer reads again. False when it does not change it
/// so, or the road cannot go on (`out` then holds a partial result to drop). Leaves `sc.pre` empty
/// as it found it: the resume road's trim (`scratch::Used::RESUME`) does not look at it.
#[inline(always)]
fn resume_preprocessed(input: &str, out: &mut String, sc: &mut Scratch) -> bool {
    let Some(t) = crate::preprocess::changed_into(input, &mut sc.pre) else {
        return false;
    };
    let done = match super::recognize::scan_ascii(t.as_bytes()) {
        Ok(()) => {
            out.push_str(t);
            true
        }
        Err(stop) => !t.is_empty() && resume_into(t, &stop, out, &mut sc.work),
    };
    sc.pre.clear();
    crate::scratch::free_if_large(&mut sc.pre);
    done
}

/// The stages on `s` without a base, resumed where the recognizer stopped (`stop`; the default when
/// it stopped in the scheme or did not run), for `scheme://host[:port][path][?query][#fragment]`
/// with a hierarchical scheme other than `file:`, split as `parse` splits it. Exact because
/// preprocessing leaves the URL as it is (checked on the unread part), resolution against its own
/// parse leaves the path (no `\`), and the host is not empty. False when the stages are needed
/// (user information, another shape, a failing step); `out` then holds a partial result to drop.
/// `stop` is borrowed and read field by field: a whole copy would stall on the recognizer's
/// narrower stores to it.
fn resume_into(s: &str, stop: &Stop, out: &mut String, work: &mut Work) -> bool {
    let b = s.as_bytes();
    // Surrounding white space: preprocessing trims it (when it removes nothing else), and the
    // recognizer reads the rest again.
    if let Some(t) = crate::preprocess::trim_ends(s) {
        let Some(t) = t.filter(|t| !t.is_empty()) else {
            return false;
        };
        // The recognizer stops at the first non-ASCII octet at the latest: on text its stop holds.
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
    // Stopped before the path: the recognizer reads the authority again and goes on after it.
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
        // Preprocessing leaves `s[..ok]`, read by the recognizer; the rest is checked below.
        let ok = stop.path_ok.max(i);
        // The path up to `ok` is copied; the one pass goes on from there.
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
        query_fragment_into(s, end, out, work);
        return true;
    } else {
        let scheme_end = stop.scheme_end;
        let h = scheme_end + 3;
        if !crate::preprocess::leaves_tail(&b[h..]) {
            return false;
        }
        let mut p = Parts::default();
        // The recognizer's host, when it or a port (digits after `:`) ends the authority.
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
        let Ok(port) = canonical_port(p.port, default) else {
            return false;
        };
        let kept = Parts {
            port: p.port.filter(|_| port.is_some()),
            ..Parts::default()
        };
        write_rest(&kept, port, out, work);
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
    query_fragment_into(s, end, out, work);
    true
}

/// The path of `s` starting at `i`, written from segment start `seg` on (`out[root..]` holds the
/// canonical path before it) by [`resume_path_pass`], or the full steps when the pass cannot. Returns
/// where the path ends; `None` when resolution against the URL's own parse would change it.
#[inline(always)]
fn path_rest_into(
    s: &str,
    i: usize,
    seg: usize,
    root: usize,
    out: &mut String,
    work: &mut Work,
) -> Option<usize> {
    match resume_path_pass(&s[i..], seg - i, out, root) {
        Ok(k) => Some(i + k),
        Err(PassStop::Resolution) => None,
        Err(PassStop::Steps) => {
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

/// Appends `s[from..stop.path_start]` (`from` at most the host's start) canonical: the host as
/// CanonicalizeHost's fast path writes it, the port unless dropped. Returns the path's start.
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

/// Appends the query and the fragment of `s` from `i` (where the path ends), canonical.
fn query_fragment_into(s: &str, mut i: usize, out: &mut String, work: &mut Work) {
    let b = s.as_bytes();
    let mut rest = Parts {
        hierarchical: true,
        ..Parts::default()
    };
    if b.get(i) == Some(&b'?') {
        let end = crate::scan::find1(&b[i + 1..], b'#').map_or(b.len(), |k| i + 1 + k);
        rest.query = Some(&s[i + 1..end]);
        i = end;
    }
    if b.get(i) == Some(&b'#') {
        rest.fragment = Some(&s[i + 1..]);
    }
    write_rest(&rest, None, out, work);
}

/// The parts of `p` after the host, none of them a path (a port the port rules keep as `port`, a
/// query, a fragment), each after its delimiter ([`crate::serialize::walk_after_host`]) and written
/// by canonicalization's rule with the default options.
#[inline(always)]
fn write_rest(p: &Parts, port: Option<u32>, out: &mut String, work: &mut Work) {
    write_after_host(p, p, port, 0, out, &mut [Span::NONE; 8], work);
}

/// Why [`resume_path_pass`] stopped short of the end of the path.
#[derive(Debug)]
pub(crate) enum PassStop {
    /// The path needs the full steps (`canonicalize::hierarchical_path_into`).
    Steps,
    /// Preprocessing, or resolution against its own parse, would change the path
    /// (`resolve::own_path_unchanged`): the stages from the start.
    Resolution,
}

/// Canonicalization's one pass over a path (`canonicalize::path_pass_from`, not `file:`) on `p`,
/// the rest of a URL without a base from its path on: the path ends at its first `?` or `#`, and
/// the pass stops at an octet that preprocessing or resolution against its own parse would change
/// (a `\`, TAB, LF, CR, a noncharacter); every other octet takes the path rules
/// (`canonicalize::path_octet`). `p[..from]` is already written in `out`, the path's `/` at `root`.
/// Where the path ends in `p`.
#[inline(always)]
pub(crate) fn resume_path_pass(
    p: &str,
    from: usize,
    out: &mut String,
    root: usize,
) -> Result<usize, PassStop> {
    let mut w = ResumePass(Appended {
        input: p,
        out,
        root,
    });
    remove_dots(p.as_bytes(), from, &mut w)
}

/// The writer of [`resume_path_pass`]: canonicalization's octet rule, stopping where
/// preprocessing or the URL's own resolution would change the path.
struct ResumePass<'a>(Appended<'a, false, true>);

impl<'a> DotWriter for ResumePass<'a> {
    type Out = Appended<'a, false, true>;
    type Stop = PassStop;
    const COPY: &'static [bool; 256] = &crate::path::PATH_COPY_IN_URL;

    #[inline(always)]
    fn output(&mut self) -> &mut Self::Out {
        &mut self.0
    }

    #[inline(always)]
    fn other(&mut self, i: usize, last: &mut usize) -> Result<usize, PassStop> {
        let Appended {
            input: p,
            out,
            root,
        } = &mut self.0;
        let p: &str = p;
        let c = p.as_bytes()[i];
        // A `\` (resolution against the URL's own parse would change it), a TAB, LF or CR that
        // preprocessing removes, or a noncharacter it replaces (none is in the copy set).
        if (c == b'\\' && !crate::resolve::own_path_unchanged(&p[i..=i]))
            || matches!(c, b'\t' | b'\n' | b'\r')
            || (c >= 0xEF
                && p[i..]
                    .chars()
                    .next()
                    .is_some_and(crate::preprocess::is_noncharacter))
        {
            return Err(PassStop::Resolution);
        }
        path_octet(p, i, last, false, out, *root).map_err(|_| PassStop::Steps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonicalize::{CanonOptions, canon_into_stages, path_pass_from};

    /// A TAB, LF, CR or noncharacter at every offset of URLs of the shapes the road handles and
    /// some it leaves to the stages: the bulk call gives what the stages give, the road on the
    /// preprocessed text ([`resume_preprocessed`]) gives it too whenever it goes on, which it does
    /// for every removed TAB, LF and CR in the shapes it handles, and it leaves the scratch buffer
    /// it uses empty.
    #[test]
    fn preprocessed_road_is_the_stages() {
        // Whether the road handles the URL's shape.
        let urls = [
            ("http://h.com/a/./b?q#f", true),
            ("HTTP://H.com:80/%7e/../x y?a b#c d", true),
            ("https://h.com:443", true),
            ("http://h.com/\u{e9}/%41?\u{e9}#\u{e9}", true),
            ("foo://h/a\\b", false),
            ("http://u@h.com/x", false),
            ("file:///a/b", false),
            ("h.com/x", false),
        ];
        let inserts = ["\t", "\n", "\r", "\t\r\n", " \t", "\u{FDD0}", "\u{10FFFF}"];
        let opts = CanonOptions::default();
        let mut taken = 0;
        for (u, road) in urls {
            for at in (0..=u.len()).filter(|&k| u.is_char_boundary(k)) {
                for ins in inserts {
                    let s = format!("{}{ins}{}", &u[..at], &u[at..]);
                    let mut fast = String::new();
                    let rf = crate::api::canon_into(None, &s, &opts, &mut fast);
                    let mut slow = String::new();
                    let rs = canon_into_stages(None, &s, &opts, &mut slow);
                    assert_eq!((rf, &fast), (rs, &slow), "{s:?}");
                    let mut sc = Scratch::default();
                    let mut out = String::new();
                    let went_on = resume_preprocessed(&s, &mut out, &mut sc);
                    if went_on {
                        taken += 1;
                        assert_eq!((Ok(()), &out), (rs, &slow), "{s:?}");
                    }
                    // A removal inside (not at an end, where the trim may leave it alone).
                    if road && ins.starts_with(['\t', '\n', '\r']) && at > 0 && at < u.len() {
                        assert!(went_on, "{s:?} left to the stages");
                    }
                    assert!(sc.pre.is_empty(), "{s:?}");
                }
            }
        }
        assert!(taken > 0);
    }

    /// Every path of up to five tokens from an alphabet of separators, dot segments in their
    /// spellings, escapes and plain octets, behind a prefix already in the buffer: where
    /// canonicalization's one pass applies (not `file:`) and the path ends at `?` or `#`, also
    /// right after a dot segment, the resumed pass writes what the one pass writes and says the
    /// path ends there.
    #[test]
    fn resume_path_pass_is_the_one_pass() {
        use crate::testutil::PATH_TOKENS as TOKENS;
        crate::testutil::each_sequence(&TOKENS, 5, |tokens| {
            let p = tokens.concat();
            let mut one = String::from("http://h");
            let root = one.len();
            if !p.starts_with('/') {
                one.push('/');
            }
            if path_pass_from(&p, 0, false, &mut one, root).is_err() {
                return;
            }
            for tail in ["?q", "#f"] {
                let mut t = String::from(&one[..root]);
                t.push_str(if p.starts_with('/') { "" } else { "/" });
                if let Ok(k) = resume_path_pass(&(p.clone() + tail), 0, &mut t, root) {
                    assert_eq!((k, t.as_str()), (p.len(), one.as_str()), "{p:?}{tail}");
                }
            }
        });
    }
}
