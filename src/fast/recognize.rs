//! The recognizer of canonical input and the merge of a page's links (ARCHITECTURE.md, speed
//! mechanisms, rows 1 and 2). [`layout`] finds a canonical URL in one pass with the tests each
//! stage's fast path uses to leave a component as it is (`host::is_canonical_plain`,
//! `host::all_inet`, [`PATH_COPY`], the query and fragment sets), for
//! `scheme://host[:port]/path?query#frag` of printable ASCII whose scheme is hierarchical, not a
//! drive letter or `mailto:`; [`merge`] does the same for a reference against a canonical base.
//! Rejecting is always safe; accepting is checked against the stages (the tests below, the
//! fast-exit differential, I18, I19).

use super::block::{self, Lanes};
use super::hint::Stop;
use crate::path::{PATH_COPY, has_authority, leading_dot_segments, ref_kind};
use crate::percent::{FRAGMENT, QUERY, escape_at, is_unreserved};
use crate::record::{Component, Span};
use crate::resolve::{Kept, kept};
use crate::scheme::{Scheme, SchemeKind, canonical_port_octets, is_scheme_char, scheme_len};

/// Octet classes of [`CLASS`]: a path octet [`PATH_COPY`] copies (not `?`, `#`); a query octet
/// outside its percent-encode set (not `#`); a fragment octet outside its set; a lowercase scheme
/// octet; a host octet CanonicalizeHost's fast path copies; one it lowercases (`A-Z`).
const PATH_OK: u8 = 1;
const QUERY_OK: u8 = 2;
const FRAGMENT_OK: u8 = 4;
const SCHEME_OK: u8 = 8;
const HOST_OK: u8 = 16;
const HOST_UPPER: u8 = 32;
/// A host octet the fast path copies or lowercases.
const HOST_BOTH: u8 = HOST_OK | HOST_UPPER;

/// The classes of each octet: only printable ASCII has any, and space only in a fragment
/// (preprocessing removes the controls and strips the ends' spaces, the sets encode the rest).
static CLASS: [u8; 256] = CLASS_TABLE;

/// [`CLASS`] for constants.
const CLASS_TABLE: [u8; 256] = {
    let mut t = [0u8; 256];
    // From the space: the sets give it the fragment class alone (a fragment keeps its spaces;
    // preprocessing strips them only at the ends, see `query_fragment`).
    let mut i = 0x20;
    while i < 0x7F {
        let c = i as u8;
        let mut k = 0;
        if PATH_COPY[i] && c != b'?' && c != b'#' {
            k |= PATH_OK;
        }
        if !QUERY.contains(c) && c != b'#' {
            k |= QUERY_OK;
        }
        if !FRAGMENT.contains(c) {
            k |= FRAGMENT_OK;
        }
        if is_scheme_char(c) && !c.is_ascii_uppercase() {
            k |= SCHEME_OK;
        }
        if crate::host::is_canonical_plain(c) {
            k |= HOST_OK;
        } else if crate::host::is_plain(c) {
            k |= HOST_UPPER;
        }
        t[i] = k;
        i += 1;
    }
    t
};

/// The end of the run of octets of `class` in `s` from `from`, an octet at a time
/// (`scan::run_while`).
#[inline]
fn run(s: &[u8], from: usize, class: u8) -> usize {
    crate::scan::run_while(s, from, |c| CLASS[usize::from(c)] & class != 0)
}

/// How the pass finds where a run of a class ends: an octet at a time ([`Scalar`]) or sixteen at a
/// step ([`Blocks`]). Both give the same end for every input (the tests below, the `recognize`
/// fuzz target); everything else of the pass is the same code.
trait Runs {
    /// The end of the run of octets of `class` in `s` from `from`: one of the classes the pass
    /// runs on (`HOST_OK`, with `HOST_UPPER` too, `QUERY_OK`, `FRAGMENT_OK`).
    fn run(s: &[u8], from: usize, class: u8) -> usize;
    /// The end of the run of [`PATH_OK`] octets in `s` from `i`, dots included but one that starts
    /// a segment (after `/`, or at the path's first segment start `first`).
    fn path_run(s: &[u8], i: usize, first: usize) -> usize;
}

/// The octet loops of [`run`]: the definition [`Blocks`] is checked against, and the pass where the
/// machine has no lanes of [`block`].
struct Scalar;

impl Runs for Scalar {
    #[inline(always)]
    fn run(s: &[u8], from: usize, class: u8) -> usize {
        run(s, from, class)
    }

    #[inline(always)]
    fn path_run(s: &[u8], mut i: usize, first: usize) -> usize {
        loop {
            i = run(s, i, PATH_OK);
            match s.get(i) {
                Some(b'.') if i != first && s[i - 1] != b'/' => i += 1,
                _ => return i,
            }
        }
    }
}

/// A block of the lanes `L` at a step (sixteen octets, or 32): each class is a few comparisons of a
/// whole block ([`Blocks::stops`]), the first octet outside it the lowest bit of the block's mask.
/// A block starts at the run's start, or is the last block of the input when fewer octets remain
/// (the bits of the octets before the start shifted out); on input shorter than a block, an octet
/// at a time.
struct Blocks<L>(core::marker::PhantomData<L>);

impl<L: Lanes> Blocks<L> {
    /// The octets of `v` outside `class` (a class [`Runs::run`] takes; path octets with `.`):
    /// the [`CLASS`] table as ranges and single octets, checked octet by octet in the tests.
    #[inline(always)]
    fn stops(v: L, class: u8) -> u64 {
        if L::LOOKUP {
            return v.outside(&NIBBLES[usize::from(class)]).mask();
        }
        let ok = match class {
            // `+ - . 0-9 _ a-z ~`, and `A-Z` with `HOST_UPPER`: `-` to `9` holds `/` too.
            HOST_OK | HOST_BOTH => {
                let mut ok = v
                    .range(b'a', b'z')
                    .or(v.range(b'-', b'9').xor(v.eq(b'/')))
                    .or(v.eq(b'+'))
                    .or(v.eq(b'_'))
                    .or(v.eq(b'~'));
                if class == HOST_BOTH {
                    ok = ok.or(v.range(b'A', b'Z'));
                }
                ok
            }
            // Printable ASCII but `" # < >` (all inside the range, so `xor` takes them out).
            QUERY_OK => v
                .range(0x21, 0x7E)
                .xor(v.eq(b'"').or(v.eq(b'#')).or(v.eq(b'<')).or(v.eq(b'>'))),
            FRAGMENT_OK => v.range(0x20, 0x7E),
            // `PATH_OK` and `.`: `& ' ( ) * + , - . / 0-9 : ;`, `@ A-Z [`, `a-z`, `! $ = ] _ ~`.
            PATH_OK => v
                .range(b'&', b';')
                .or(v.range(b'@', b'['))
                .or(v.range(b'a', b'z'))
                .or(v.eq(b'!'))
                .or(v.eq(b'$'))
                .or(v.eq(b'='))
                .or(v.eq(b']'))
                .or(v.eq(b'_'))
                .or(v.eq(b'~')),
            _ => unreachable!("a class the pass does not run on"),
        };
        // Lanes past the block are no stops.
        !ok.mask() & u64::MAX >> (64 - L::WIDTH as u32 * L::STRIDE)
    }

    /// The first `at >= i` in `s` (at least a block long) where `stops(block)` sets its lane; or
    /// `s.len()`. `stops` sees the blocks in order, each once.
    #[inline(always)]
    fn first(s: &[u8], mut i: usize, mut stops: impl FnMut(L) -> u64) -> usize {
        let n = s.len();
        while i < n {
            let start = i.min(n - L::WIDTH);
            let lane = i - start;
            let m = stops(L::load(&s[start..])) >> (lane as u32 * L::STRIDE);
            if m != 0 {
                return i + (m.trailing_zeros() / L::STRIDE) as usize;
            }
            i = start + L::WIDTH;
        }
        n
    }
}

impl<L: Lanes> Runs for Blocks<L> {
    #[inline(always)]
    fn run(s: &[u8], from: usize, class: u8) -> usize {
        if s.len() < L::WIDTH {
            return Scalar::run(s, from, class);
        }
        Self::first(
            s,
            from,
            #[inline(always)]
            |v| Self::stops(v, class),
        )
    }

    #[inline(always)]
    fn path_run(s: &[u8], i: usize, first: usize) -> usize {
        if s.len() < L::WIDTH {
            return Scalar::path_run(s, i, first);
        }
        // A `.` stops the run where the octet before it is `/` (`first` counts as after `/`): at
        // `i` itself that is read here; in a block, each lane's `/` is the lane before it, lane 0's
        // the last lane of the block before (the first block's lane 0 is `i` or shifted out).
        if s.get(i) == Some(&b'.') && (i == first || s[i - 1] == b'/') {
            return i;
        }
        let mut slashes = L::zero();
        Self::first(
            s,
            i,
            #[inline(always)]
            |v| {
                let here = v.eq(b'/');
                let dot_starts = v.eq(b'.').and(here.after(slashes)).mask();
                slashes = here;
                Self::stops(v, PATH_OK) | dot_starts
            },
        )
    }
}

/// Blocks of the lanes `W` (wider than sixteen octets) on input at least that long, else the runs
/// `N`: wide blocks pay only where a run is long enough to fill them.
#[cfg(target_arch = "x86_64")]
struct Wide<W, N>(core::marker::PhantomData<(W, N)>);

#[cfg(target_arch = "x86_64")]
impl<W: Lanes, N: Runs> Runs for Wide<W, N> {
    #[inline(always)]
    fn run(s: &[u8], from: usize, class: u8) -> usize {
        if s.len() < W::WIDTH {
            return N::run(s, from, class);
        }
        Blocks::<W>::run(s, from, class)
    }

    #[inline(always)]
    fn path_run(s: &[u8], i: usize, first: usize) -> usize {
        if s.len() < W::WIDTH {
            return N::path_run(s, i, first);
        }
        Blocks::<W>::path_run(s, i, first)
    }
}

/// The runs of the copy of the pass compiled with AVX2: 32 octets at a step, sixteen (SSSE3) on
/// shorter input.
#[cfg(target_arch = "x86_64")]
type Avx2Runs = Wide<block::Avx2, Blocks<block::Ssse3>>;

/// The classes [`Runs::run`] takes (and the path's, with `.`) as byte-shuffle tables, by class.
static NIBBLES: [block::Nibbles; 64] = {
    let mut t = [block::Nibbles::of(&CLASS_TABLE, 0, 0); 64];
    t[HOST_OK as usize] = block::Nibbles::of(&CLASS_TABLE, HOST_OK, 0);
    t[HOST_BOTH as usize] = block::Nibbles::of(&CLASS_TABLE, HOST_BOTH, 0);
    t[QUERY_OK as usize] = block::Nibbles::of(&CLASS_TABLE, QUERY_OK, 0);
    t[FRAGMENT_OK as usize] = block::Nibbles::of(&CLASS_TABLE, FRAGMENT_OK, 0);
    t[PATH_OK as usize] = block::Nibbles::of(&CLASS_TABLE, PATH_OK, b'.');
    t
};

/// The recognizer's runs on this machine without SSSE3 (`block::entry!` picks it): [`Blocks`] where [`block`] has lanes, else [`Scalar`].
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
type Fast = Blocks<block::Native>;
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
type Fast = Scalar;

/// Whether the stages (default options) give `s` back unchanged: preprocessing, parsing, resolution
/// against its own parse and canonicalization. `false`: this pass could not tell.
#[inline]
pub fn is_canonical(s: &[u8]) -> bool {
    crate::scan::is_ascii(s) && is_canonical_ascii(s)
}

block::entry! {
    /// [`is_canonical`] of ASCII `s`: [`layout_or_stop`] without the places (bulk calls need none).
    #[inline(never)]
    pub(crate) fn is_canonical_ascii(s: &[u8]) -> bool {
        R => layout_in::<CHECK, R>(s).is_ok()
    }
}

block::entry! {
    /// [`is_canonical_ascii`], with how far the pass got on a rejected URL ([`Stop`]) for
    /// `fast::resume`. A non-ASCII octet is in no [`CLASS`], so `Ok` says `s` is ASCII too.
    #[inline(never)]
    pub(crate) fn scan_ascii(s: &[u8]) -> Result<(), Stop> {
        R => layout_in::<CHECK, R>(s).map(|_| ())
    }
}

block::entry! {
    /// [`scan_ascii`] from the host on in `EDIT` mode, for `s` whose scheme `s[..n]` (hierarchical, not
    /// `file:`, any case) is followed by `://`; `host_end` (0: none) as in [`authority_on`].
    #[inline(never)]
    pub(crate) fn scan_authority(s: &[u8], n: usize, host_end: usize) -> Result<(), Stop> {
        R => authority_on::<EDIT, R>(s, n + 3, host_end, &s[..n], false, &mut [Span::NONE; 8])
    }
}

/// The end of `s`'s scheme if `://` follows and, in any case, it is hierarchical, not `file:`.
#[inline(always)]
pub(crate) fn any_case_scheme_end(s: &[u8]) -> Option<usize> {
    let n = scheme_len(s)?;
    (s[n..].starts_with(b"://") && Scheme::of(&s[..n]).kind == SchemeKind::Other).then_some(n)
}

block::entry! {
    /// For parsing: the [`Stop`] of `s`, whose [`layout`] pass stopped before the path, with the
    /// authority read in `AUTHORITY` mode (any case); `s[..host_end]`, lowercased, starts the canonical
    /// form. `None` when the pass cannot tell.
    #[inline(never)]
    pub(crate) fn authority_stop(s: &[u8], stop: &Stop) -> Option<Stop> {
        R => authority_stop_in::<R>(s, stop)
    }
}

/// [`authority_stop`] with the runs `R`.
#[inline(always)]
fn authority_stop_in<R: Runs>(s: &[u8], stop: &Stop) -> Option<Stop> {
    // Read again when it stopped in the scheme, or at an uppercase host octet, a port or an empty
    // path (`host_end` 0: at the host's first octet).
    let at_octet = if stop.host_end != 0 {
        stop.host_end
    } else {
        stop.scheme_end + 3
    };
    let again = stop.scheme_end == 0
        || matches!(
            s.get(at_octet),
            None | Some(b'A'..=b'Z' | b':' | b'?' | b'#')
        );
    if !again {
        return None;
    }
    let n = match stop.scheme_end {
        0 => any_case_scheme_end(s)?,
        n => n,
    };
    let mut at = [Span::NONE; 8];
    match authority_on::<AUTHORITY, R>(s, n + 3, stop.host_end, &s[..n], false, &mut at) {
        Err(st) if st.path_start != 0 => Some(st),
        _ => None,
    }
}

#[cfg(test)]
block::entry! {
    /// [`is_canonical`], with the component places in `wurl_component` order (no user or password).
    pub(crate) fn layout(s: &[u8]) -> Option<([Span; 8], Scheme)> {
        R => layout_by::<R>(s)
    }
}

/// [`layout`] with the runs `R`.
#[inline(never)]
fn layout_by<R: Runs>(s: &[u8]) -> Option<([Span; 8], Scheme)> {
    // Non-ASCII (IDN hosts among it) is rejected a word at a time before the octet pass.
    if !crate::scan::is_ascii(s) {
        return None;
    }
    layout_in::<CHECK, R>(s).ok()
}

block::entry! {
    /// [`layout`] of ASCII `s`, or how far the pass got ([`Stop`], no edits) for `api::parse_text`.
    #[inline(never)]
    pub(crate) fn layout_or_stop(s: &[u8]) -> Result<([Span; 8], Scheme), Stop> {
        R => layout_in::<CHECK, R>(s)
    }
}

/// The pass of [`layout`] and [`is_canonical`] over ASCII `s`, in `MODE` ([`authority_on`]).
#[inline(always)]
fn layout_in<const MODE: u8, R: Runs>(s: &[u8]) -> Result<([Span; 8], Scheme), Stop> {
    let no = Stop::default();
    let mut at = [Span::NONE; 8];
    // Scheme: lowercase, then `://` (parse's `find_scheme`); `https://`, `http://` and `file://`
    // as the first eight octets read as one word, the last two with the eighth masked off
    // (ARCHITECTURE.md, speed mechanisms, row 1): a compare each in place of an octet at a time.
    const SEVEN: u64 = u64::MAX >> 8;
    const HTTPS: u64 = u64::from_le_bytes(*b"https://");
    const HTTP: u64 = u64::from_le_bytes(*b"http://\0");
    const FILE: u64 = u64::from_le_bytes(*b"file://\0");
    let head = s.first_chunk::<8>().map(|w| u64::from_le_bytes(*w));
    let (n, class) = match head {
        Some(HTTPS) => (5, Scheme::http(true)),
        Some(w) if w & SEVEN == HTTP => (4, Scheme::http(false)),
        Some(w) if w & SEVEN == FILE => (4, Scheme::FILE),
        _ => {
            let n = s
                .iter()
                .position(|&c| CLASS[usize::from(c)] & SCHEME_OK == 0)
                .ok_or(no)?;
            if n == 0 || s.get(n..n + 3) != Some(b"://") {
                return Err(no);
            }
            // Drive letters, `mailto:` and non-hierarchical schemes take other steps.
            let class = Scheme::of(&s[..n]);
            match class.kind {
                SchemeKind::Other | SchemeKind::File => (n, class),
                _ => return Err(no),
            }
        }
    };
    at[Component::Scheme] = Span::new(0, n);
    // Two copies of the rest, each with `file` known: the common one tests none of the `file:`
    // steps.
    if class.is_file() {
        authority_on::<MODE, R>(s, n + 3, 0, &s[..n], true, &mut at)?;
    } else {
        authority_on::<MODE, R>(s, n + 3, 0, &s[..n], false, &mut at)?;
    }
    Ok((at, class))
}

/// Whether step 27 rewrites `host`: all of its octets can be an `inet_addr()` number's
/// (`host::all_inet`) and it is not a canonical dotted-decimal address already. The address's
/// check is out of line: only a host of such octets asks.
#[inline(always)]
fn inet_rewritten(host: &[u8]) -> bool {
    #[inline(never)]
    fn not_dotted(host: &[u8]) -> bool {
        !crate::ipv4::is_canonical_dotted(host)
    }
    crate::host::all_inet(host) && not_dotted(host)
}

/// Modes of [`authority_on`]. `CHECK`: whether `s` is canonical, else how far ([`Stop`]).
const CHECK: u8 = 0;
/// Also notes a host to lowercase, a port to drop or an empty path in the [`Stop`] and goes on; run
/// only after `CHECK` stopped before the path.
const EDIT: u8 = 1;
/// `EDIT` up to the start of the path, where it stops, for [`authority_stop`].
const AUTHORITY: u8 = 2;

/// The rest of [`layout`] after `scheme://`: host from `h`, port, path, query and fragment into
/// `at[3..]`. `scheme` (lowercase) gives the default port; `known_host_end` (not `CHECK`; 0: none):
/// where a host found canonical ends. `Err` unless all of `s` is canonical.
#[inline(always)]
fn authority_on<const MODE: u8, R: Runs>(
    s: &[u8],
    h: usize,
    known_host_end: usize,
    scheme: &[u8],
    file: bool,
    at: &mut [Span; 8],
) -> Result<(), Stop> {
    // How far it got; `file:` (HOSTPATH steps) has no place to resume from.
    let stop = |host_end, path_start, path_ok, host_upper, port_dropped| {
        if file {
            Stop::default()
        } else {
            Stop {
                scheme_end: scheme.len(),
                host_end,
                path_start,
                path_ok,
                host_upper,
                port_dropped,
            }
        }
    };
    // Host: after exactly two slashes, one CanonicalizeHost leaves as it is (never empty), or in
    // `EDIT` mode one its fast path only lowercases (`host::is_plain`).
    let mut upper = false;
    // A known host is the whole host when the authority's next part follows it.
    let h_end = if MODE != CHECK
        && known_host_end != 0
        && matches!(
            s.get(known_host_end),
            None | Some(b':' | b'/' | b'?' | b'#')
        ) {
        known_host_end
    } else {
        let mut h_end = R::run(s, h, HOST_OK);
        if MODE != CHECK && !file && s.get(h_end).is_some_and(u8::is_ascii_uppercase) {
            h_end = R::run(s, h_end, HOST_BOTH);
            upper = true;
        }
        // Step 27 rewrites a host of `inet_addr()` octets unless it is a
        // canonical dotted-decimal address already.
        if h_end == h || inet_rewritten(&s[h..h_end]) {
            return Err(stop(0, 0, 0, false, false));
        }
        // `file:`: HOSTPATH makes `localhost` the empty host.
        if file && &s[h..h_end] == b"localhost" {
            return Err(stop(0, 0, 0, false, false));
        }
        h_end
    };
    // A stop before the path: the host, when it is canonical as it is.
    let host_stop = if upper { 0 } else { h_end };
    at[Component::Host] = Span::new(h, h_end);
    let mut i = h_end;
    let mut dropped = false;
    // Port: one the port rules write back as it is (not the default, in range, no leading zero), or
    // in `EDIT` mode one they drop. A `file:` host runs up to the path.
    // The octet after the host, then after the port: read once each.
    let mut next = s.get(i).copied();
    if next == Some(b':') && !file {
        let p = i + 1;
        let len = s[p..].iter().take_while(|c| c.is_ascii_digit()).count();
        let port = &s[p..p + len];
        let default = default_port(scheme);
        match canonical_port_octets(Some(port), default) {
            Ok(Some(_)) if len == 1 || port[0] != b'0' => {}
            Ok(None) if MODE != CHECK => dropped = true,
            _ => return Err(stop(host_stop, 0, 0, false, false)),
        }
        at[Component::Port] = Span::new(p, p + len);
        i = p + len;
        next = s.get(i).copied();
    }
    // Path: starts with `/`, or is empty (written `/`; not in `file:`, HOSTPATH). In `CHECK` mode
    // an empty path stops the pass at the path, where the stages resume.
    let p = i;
    let slash = next == Some(b'/');
    if !slash {
        if file || !matches!(next, None | Some(b'?' | b'#')) {
            return Err(stop(host_stop, 0, 0, false, false));
        }
        if MODE == CHECK {
            return Err(stop(h_end, p, 0, false, false));
        }
    }
    if MODE == AUTHORITY {
        return Err(stop(h_end, p, 0, upper, dropped));
    }
    // `file:`: HOSTPATH rewrites a drive letter followed by `:`, `|` or an escape of either: a
    // letter then `:` or any escape goes to the stages (`|` is no path octet copied).
    if file
        && s.get(i + 1).is_some_and(u8::is_ascii_alphabetic)
        && matches!(s.get(i + 2), Some(b':' | b'%'))
    {
        return Err(stop(0, 0, 0, false, false));
    }
    if slash {
        i = path_upto::<R>(s, i + 1, file).map_err(|f| stop(h_end, p, f, upper, dropped))?;
    }
    at[Component::Path] = Span::new(p, i);
    let path_end = i;
    i = query_fragment::<R>(s, i, 0, 0, at);
    if i != s.len() {
        Err(stop(h_end, p, path_end, upper, dropped))
    } else if upper || dropped || !slash {
        // Canonical but for the edits.
        Err(stop(h_end, p, i, upper, dropped))
    } else {
        Ok(())
    }
}

/// The default port of `scheme` (`Scheme::of`), out of line: only a URL with a port asks, and
/// inline its comparisons keep the scheme's octets in registers over the whole pass.
#[inline(never)]
fn default_port(scheme: &[u8]) -> Option<u32> {
    Scheme::of(scheme).default_port
}

/// The end of the path in `s` from segment start `i` (at `?`, `#` or the end): the path rules copy
/// each octet but a `.` starting a segment, an escape of an unreserved octet (in `file:` of `/` or
/// `\` too), `\` and the path percent-encode set. `None` on one of those.
#[inline]
fn path_rest<R: Runs>(s: &[u8], i: usize, file: bool) -> Option<usize> {
    path_upto::<R>(s, i, file).ok()
}

/// [`path_rest`], or (`Err`) where it found the first octet it rejects.
#[inline(always)]
fn path_upto<R: Runs>(s: &[u8], mut i: usize, file: bool) -> Result<usize, usize> {
    let first = i;
    loop {
        // Past the octets copied and the dots inside a segment.
        i = R::path_run(s, i, first);
        let Some(&c) = s.get(i) else { break };
        match c {
            b'%' => match escape_at(s, i) {
                Some(v) if is_unreserved(v) || (file && matches!(v, b'/' | b'\\')) => {
                    return Err(i);
                }
                _ => {}
            },
            b'?' | b'#' => break,
            _ => return Err(i),
        }
        i += 1;
    }
    Ok(i)
}

/// The query and fragment of `s` from `i` into `at`, `s[skip..]` placed at `to`. Returns where the
/// octets both sets leave as they are end (`s.len()`: canonical).
#[inline(always)]
fn query_fragment<R: Runs>(
    s: &[u8],
    mut i: usize,
    skip: usize,
    to: usize,
    at: &mut [Span; 8],
) -> usize {
    let place = |i: usize| to + (i - skip);
    if s.get(i) == Some(&b'?') {
        let q = i + 1;
        i = R::run(s, q, QUERY_OK);
        at[Component::Query] = Span::new(place(q), place(i));
    }
    if s.get(i) == Some(&b'#') {
        let f = i + 1;
        i = R::run(s, f, FRAGMENT_OK);
        // A space is a fragment octet, but preprocessing strips the input's
        // trailing ones: the fragment's canonical part ends before them.
        if i == s.len() {
            while i > f && s[i - 1] == b' ' {
                i -= 1;
            }
        }
        at[Component::Fragment] = Span::new(place(f), place(i));
    }
    i
}

/// The resolution of a reference against a canonical base: `base[..keep]` then `reference[skip..]`,
/// components at `at`.
pub(crate) struct Merge {
    pub(crate) keep: usize,
    pub(crate) skip: usize,
    pub(crate) at: [Span; 8],
    /// The result's scheme class (the base's, or an absolute reference's).
    pub(crate) class: Scheme,
}

/// [`merge`] against `base` when it is known canonical: its serialization and the merge.
#[inline]
pub(crate) fn merge_with<'b>(base: &'b crate::record::Url, r: &[u8]) -> Option<(&'b str, Merge)> {
    let (ser, at) = merge_base(base)?;
    Some((ser, merge(ser, at, base.scheme_class(), r)?))
}

/// The serialization and spans of `base` if known canonical and not `file:` (HOSTPATH steps).
#[inline]
fn merge_base(base: &crate::record::Url) -> Option<(&str, &[Span; 8])> {
    let (ser, at) = super::hint::canonical_base(base)?;
    (!base.scheme_class().is_file()).then_some((ser, at))
}

impl Merge {
    /// The kept part of the base's serialization `b` and the rest of the reference `r`.
    pub(crate) fn pieces_str<'a>(&self, b: &'a str, r: &'a str) -> (&'a str, &'a str) {
        if self.keep == 0 {
            (r, "")
        } else {
            (&b[..self.keep], &r[self.skip..])
        }
    }
}

/// "Steps to resolve a URL" for a page's common references against a canonical base (not `file:`),
/// when the result is canonical: an absolute URL canonical itself (`keep` 0), a network-path
/// reference canonical after the base's scheme, or a relative one the path, query and fragment
/// rules leave as they are. `bat`: the base's spans. Relative steps as chosen by [`ref_kind`] (RFC
/// 3986 5.2); a merged path's leading dot segments are removed as "remove dot-segments" does, a
/// later segment starting with `.` goes to the stages. `None`: the stages decide.
///
/// With the octet loops: a page's links are short, mostly under two blocks, where the blocks' setup
/// costs what they save (measured on links_synth).
#[inline]
pub(crate) fn merge(base: &str, bat: &[Span; 8], class: Scheme, r: &[u8]) -> Option<Merge> {
    merge_in::<Scalar>(base, bat, class, r)
}

/// [`merge`] with the runs `R`.
#[inline(always)]
fn merge_in<R: Runs>(base: &str, bat: &[Span; 8], class: Scheme, r: &[u8]) -> Option<Merge> {
    let b = base.as_bytes();
    let path = bat[Component::Path].range()?;
    let no_fragment = bat[Component::Fragment]
        .range()
        .map_or(b.len(), |f| f.start - 1);
    let mut at = *bat;
    // The empty reference: the base without its fragment (resolution step 6).
    let Some(&first) = r.first() else {
        at[Component::Fragment] = Span::NONE;
        return Some(Merge {
            keep: no_fragment,
            skip: 0,
            at,
            class,
        });
    };
    // A scheme (parse's; never after a relative delimiter): its own result if canonical.
    if !matches!(first, b'/' | b'\\' | b'?' | b'#') && scheme_len(r).is_some() {
        let (at, class) = layout_by::<R>(r)?;
        return Some(Merge {
            keep: 0,
            skip: 0,
            at,
            class,
        });
    }
    let kind = match first {
        b'?' => ref_kind(false, None, true, false),
        b'#' => ref_kind(false, None, false, true),
        _ => ref_kind(has_authority(r), Some(first), false, false),
    };
    // The base's serialization up to the end of what the step keeps (`keep`), the reference's from
    // `skip`; `end`: where the reference's path ends, when it has one.
    // A base the recognizer verified has an authority.
    let (keep, skip, end) = match kept::<true>(kind, &b[path.clone()], true) {
        Kept::Query => {
            at[Component::Fragment] = Span::NONE;
            (no_fragment, 0, None)
        }
        Kept::Path => {
            at[Component::Query] = Span::NONE;
            at[Component::Fragment] = Span::NONE;
            (path.end, 0, None)
        }
        // The base's scheme, then the reference checked as an absolute URL's after `scheme:`; a `\`
        // among the slashes goes to the stages.
        Kept::Scheme => {
            if !r.starts_with(b"//") {
                return None;
            }
            let keep = bat[Component::Scheme].range()?.end + 1;
            let mut at = [Span::NONE; 8];
            at[Component::Scheme] = bat[Component::Scheme];
            authority_on::<CHECK, R>(r, 2, 0, &b[..keep - 1], false, &mut at).ok()?;
            for span in &mut at[3..] {
                if let Some(x) = span.range() {
                    *span = Span::new(keep + x.start, keep + x.end);
                }
            }
            return Some(Merge {
                keep,
                skip: 0,
                at,
                class,
            });
        }
        // A leading `\` is left to the stages, which write `/` for it.
        Kept::Authority if first != b'/' => return None,
        Kept::Authority => (path.start, 0, Some(path_rest::<R>(r, 1, false)?)),
        // A canonical path is never empty.
        Kept::Merged { slash: true, .. } => return None,
        Kept::Merged { prefix, .. } => {
            // "Remove dot-segments" on the reference's leading `.` and `..` segments (`..` drops
            // the kept segment, never the root).
            let root = path.start;
            let (keep, skip) = leading_dot_segments(b, root, root + prefix, r);
            (keep, skip, Some(path_rest::<R>(r, skip, false)?))
        }
    };
    // `r[skip..]` goes at `keep` (`skip` may exceed `keep`: many `../` on a short path).
    let mut i = skip;
    if let Some(end) = end {
        at[Component::Path] = Span::new(path.start, keep + (end - skip));
        at[Component::Query] = Span::NONE;
        at[Component::Fragment] = Span::NONE;
        i = end;
    }
    let i = query_fragment::<R>(r, i, skip, keep, &mut at);
    (i == r.len()).then_some(Merge {
        keep,
        skip,
        at,
        class,
    })
}

/// The bases of each shape [`runs_agree`] merges against.
#[cfg(any(test, feature = "differential"))]
pub const AGREE_BASES: [&str; 4] = [
    "http://h/",
    "http://example.com/a/b/c?q#f",
    "https://h:8080/a/b/",
    "foo://h/a",
];

/// Compares, on any octets `s`, the pass with the runs of this machine ([`Fast`], and SSSE3's and
/// AVX2's where the CPU has them) and with the portable lanes at both strides against the octet
/// loops ([`Scalar`]): the whole result of each
/// mode (places and [`Stop`]), the authority read again from each stop, and the merge of `s` as a
/// reference against bases of each shape. `Err` says where they first differ. For the tests and the
/// `recognize` fuzz target.
/// `bases` are [`AGREE_BASES`] as the entry layer parses them (with what the recognizer notes).
#[cfg(any(test, feature = "differential"))]
pub fn runs_agree(s: &[u8], bases: &[crate::record::Url]) -> Result<(), String> {
    runs_agree_with::<Fast>("machine", s, bases)?;
    #[cfg(target_arch = "x86_64")]
    if block::has_ssse3() {
        runs_agree_with::<Blocks<block::Ssse3>>("ssse3", s, bases)?;
    }
    #[cfg(target_arch = "x86_64")]
    if block::has_avx2() {
        runs_agree_with::<Avx2Runs>("avx2", s, bases)?;
    }
    runs_agree_with::<Blocks<block::Portable<1>>>("portable/1", s, bases)?;
    runs_agree_with::<Blocks<block::Portable<4>>>("portable/4", s, bases)
}

/// [`runs_agree`] for the runs `R`, named `name`.
#[cfg(any(test, feature = "differential"))]
fn runs_agree_with<R: Runs>(
    name: &str,
    s: &[u8],
    bases: &[crate::record::Url],
) -> Result<(), String> {
    let differ = |what: &str, want: String, got: String| {
        if want == got {
            Ok(())
        } else {
            Err(format!(
                "{name} runs differ from the octet loops in {what} on {:?}: {got} against {want}",
                String::from_utf8_lossy(s)
            ))
        }
    };
    let check = layout_in::<CHECK, Scalar>(s);
    differ(
        "CHECK",
        format!("{check:?}"),
        format!("{:?}", layout_in::<CHECK, R>(s)),
    )?;
    differ(
        "layout",
        format!("{:?}", layout_by::<Scalar>(s)),
        format!("{:?}", layout_by::<R>(s)),
    )?;
    // The authority in `EDIT` and `AUTHORITY` modes, as the resume road and the parse read it
    // again: from the host, and from the host the `CHECK` pass found canonical.
    if let Some(n) = any_case_scheme_end(s) {
        let mut host_ends = vec![0];
        if let Err(stop) = &check {
            host_ends.push(stop.host_end);
        }
        for host_end in host_ends {
            let modes = |r: &dyn Fn(&mut [Span; 8]) -> Result<(), Stop>| {
                let mut at = [Span::NONE; 8];
                let res = r(&mut at);
                format!("{res:?} {at:?}")
            };
            differ(
                "EDIT",
                modes(&|at| authority_on::<EDIT, Scalar>(s, n + 3, host_end, &s[..n], false, at)),
                modes(&|at| authority_on::<EDIT, R>(s, n + 3, host_end, &s[..n], false, at)),
            )?;
            differ(
                "AUTHORITY",
                modes(&|at| {
                    authority_on::<AUTHORITY, Scalar>(s, n + 3, host_end, &s[..n], false, at)
                }),
                modes(&|at| authority_on::<AUTHORITY, R>(s, n + 3, host_end, &s[..n], false, at)),
            )?;
        }
    }
    for base in bases {
        let Some((ser, at)) = merge_base(base) else {
            return Err(format!("{:?} is not a canonical base", base.as_str()));
        };
        let Ok(r) = std::str::from_utf8(s) else {
            break;
        };
        let merged = |m: Option<Merge>| format!("{:?}", m.map(|m| (m.keep, m.skip, m.at, m.class)));
        differ(
            &format!("the merge against {ser:?}"),
            merged(merge_in::<Scalar>(
                ser,
                at,
                base.scheme_class(),
                r.as_bytes(),
            )),
            merged(merge_in::<R>(ser, at, base.scheme_class(), r.as_bytes())),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::parse;
    use crate::canonicalize::{CanonOptions, canon_into_stages, canonicalize};
    use crate::parse::parse_stages;
    use crate::testutil::{conformance_inputs, each_sequence};

    /// Checks the fast path on `s`: when it accepts, the stages give `s`
    /// back and the record of the fast path has the value of the stages'
    /// parse. Returns whether it accepted.
    fn check(s: &str) -> bool {
        let Some((at, class)) = layout(s.as_bytes()) else {
            return false;
        };
        let mut out = String::new();
        let r = canon_into_stages(None, s, &CanonOptions::default(), &mut out);
        assert!(
            r.is_ok() && out == s,
            "{s:?}: the stages give {r:?} {out:?}"
        );
        let slow = parse_stages(s);
        let fast = crate::fast::canonical_url(s, "", &at, class);
        assert_eq!(fast, slow, "{s:?}");
        assert_eq!(parse(s), slow, "{s:?}");
        // `resolve` takes a record known to be canonical for its own
        // resolution without looking: the stages agree.
        assert_eq!(crate::resolve::resolve(&slow, s), slow, "{s:?}");
        assert_eq!(
            canonicalize(&slow, None).serialize().as_deref(),
            Some(s),
            "{s:?}"
        );
        true
    }

    /// Every conformance input, and the canonical form of each (as its
    /// own base). (The benchmark datasets: the fast-exit differential,
    /// `tests/fast_exit_differential.rs`; how many of them the fast path
    /// takes: `wurl-bench --check`.)
    #[test]
    fn fast_path_is_exact() {
        for s in &conformance_inputs() {
            check(s);
            let mut y = String::new();
            if canon_into_stages(None, s, &CanonOptions::default(), &mut y).is_ok() {
                check(&y);
            }
        }
    }

    /// Every string of up to four octets of a pool that exercises each
    /// rule (case, dots, escapes, delimiters, ports, spaces) after a scheme
    /// and `//`, after a host and after a path.
    #[test]
    fn fast_path_is_exact_on_short_strings() {
        let pool: &[u8] = b"aA.%2e5/?#:08@\\ xfc|";
        let mut accepted = 0;
        for prefix in [
            "http://",
            "http://h",
            "http://h/",
            "foo://h/a",
            "https://h:44",
            "https://",
            "file://",
            "file://h/",
            "file://h/a",
        ] {
            each_sequence(pool, 4, |seq| {
                let mut s = prefix.to_owned();
                s.extend(seq.iter().map(|&b| char::from(b)));
                accepted += usize::from(check(&s));
            });
        }
        assert!(accepted > 10_000, "{accepted}");
    }

    /// Checks [`merge`] on `link` against `page`: when it gives a result,
    /// that is what the stages give (without any fast path: the base is
    /// the stages' parse, so not known canonical), through the bulk path
    /// and through resolution, whose record must have the value of the
    /// stages' resolution. Returns whether it gave a result.
    fn check_merge(page: &str, link: &str) -> bool {
        let fast_base = parse(page);
        let Some((ser, at)) = merge_base(&fast_base) else {
            return false;
        };
        let Some(m) = merge(ser, at, fast_base.scheme_class(), link.as_bytes()) else {
            return false;
        };
        let (a, b) = m.pieces_str(ser, link);
        let want = format!("{a}{b}");
        let slow_base = parse_stages(page);
        let mut out = String::new();
        let r = canon_into_stages(Some(&slow_base), link, &CanonOptions::default(), &mut out);
        assert!(
            r.is_ok() && out == want,
            "{link:?} against {page:?}: {want:?}, the stages {r:?} {out:?}"
        );
        let slow = crate::resolve::resolve(&slow_base, link);
        let fast = crate::api::resolve(&fast_base, link);
        assert_eq!(fast, slow, "{link:?} against {page:?}");
        assert_eq!(
            fast.as_str(),
            Some(want.as_str()),
            "{link:?} against {page:?}"
        );
        assert_eq!(
            canonicalize(&slow, None).as_str(),
            Some(want.as_str()),
            "{link:?} against {page:?}"
        );
        let mut out = String::new();
        crate::api::canon_into(Some(&fast_base), link, &CanonOptions::default(), &mut out).unwrap();
        assert_eq!(out, want);
        true
    }

    /// Every conformance input that has a base, against it. (The links of
    /// the benchmark datasets: the fast-exit differential; how many of them
    /// it takes: `wurl-bench --check`.)
    #[test]
    fn merge_is_exact() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
        let mut pairs = 0;
        for e in std::fs::read_dir(dir).unwrap() {
            let text = std::fs::read_to_string(e.unwrap().path()).unwrap_or_default();
            let mut lines = text.lines().peekable();
            while let Some(l) = lines.next() {
                if l != "#data" {
                    continue;
                }
                let Some(input) = lines.next() else { break };
                if let Some(base) = lines.peek().and_then(|l| l.strip_prefix("#base ")) {
                    pairs += usize::from(check_merge(base, input));
                }
            }
        }
        assert!(pairs > 20, "{pairs}");
    }

    /// Every reference of up to four octets of a pool that exercises each
    /// rule (dot segments, delimiters, escapes, schemes) against bases of
    /// each shape.
    #[test]
    fn merge_is_exact_on_short_references() {
        let pool: &[u8] = b"a./?#%2e:";
        let mut merged = 0;
        for page in [
            "http://h/",
            "http://h/a",
            "http://h/a/b/c",
            "http://h/a/b/c/",
            "http://h/a/b?q#f",
            "https://h:8080/a/b",
            "foo://h/a/b",
            "http://h/a/?#",
        ] {
            each_sequence(pool, 4, |seq| {
                let link: String = seq.iter().map(|&b| char::from(b)).collect();
                merged += usize::from(check_merge(page, &link));
            });
        }
        assert!(merged > 10_000, "{merged}");
        // Network-path references, with the authorities the pool above
        // is too short to spell: ports (default, leading zero, out of
        // range), IP addresses, user information, case, `\`, dots.
        let mut network = 0;
        for page in [
            "http://h/a",
            "https://h:8080/a/b",
            "foo://h/a/b",
            "ftp://h/",
        ] {
            for link in [
                "//h2/",
                "//h2",
                "//h2?q",
                "//h2#f",
                "//h2/a/b?q#f",
                "//h2:8080/",
                "//h2:80/",
                "//h2:443/x",
                "//h2:21/",
                "//h2:080/",
                "//h2:0/",
                "//h2:65535/",
                "//h2:65536/",
                "//h2:/",
                "//1.2.3.4/",
                "//0x7f.1/",
                "//[::1]/",
                "//u@h2/",
                "//u:p@h2/",
                "//H2/",
                "//h2./",
                "//h2/./a",
                "//h2/a/../b",
                "//h2/%41",
                "//h2/%2F",
                "//h2/a%2Eb",
                "//h2\\a",
                "//h2/a\\b",
                "///h2/",
                "//localhost/",
                "//xn--nxa/",
                "//h_2/~a+b",
            ] {
                network += usize::from(check_merge(page, link));
            }
        }
        assert!(network > 40, "{network}");
    }

    /// `run` (four octets to a bound check) ends where the octet-by-octet
    /// definition does: every length up to 13, every start, the first
    /// octet outside the class at every place, for every class.
    #[test]
    fn run_ends_at_the_first_other_octet() {
        for class in [PATH_OK, QUERY_OK, FRAGMENT_OK, SCHEME_OK, HOST_OK] {
            let (inside, outside) = (
                (0..=255u8)
                    .find(|&c| CLASS[usize::from(c)] & class != 0)
                    .unwrap(),
                (0..=255u8)
                    .find(|&c| CLASS[usize::from(c)] & class == 0)
                    .unwrap(),
            );
            for len in 0..14 {
                for stop in 0..=len {
                    let mut s = vec![inside; len];
                    if stop < len {
                        s[stop] = outside;
                    }
                    for from in 0..=len {
                        let want = (from..len)
                            .find(|&i| CLASS[usize::from(s[i])] & class == 0)
                            .unwrap_or(len);
                        assert_eq!(run(&s, from, class), want, "{class} {s:?} {from}");
                    }
                }
            }
        }
    }

    /// Each class the block runs read, as the lanes compute it, holds exactly the octets of
    /// [`CLASS`] (the path's with `.`): every octet value in every lane, beside each other value.
    fn block_classes_are_exact<L: Lanes>() {
        for class in [HOST_OK, HOST_BOTH, PATH_OK, QUERY_OK, FRAGMENT_OK] {
            for c in 0..=255u8 {
                let inside = CLASS[usize::from(c)] & class != 0 || (class == PATH_OK && c == b'.');
                for other in [0u8, b'a', b'.', b'%', b'A', 0x80, 0xFF] {
                    for k in 0..L::WIDTH {
                        let mut b = [other; 32];
                        b[k] = c;
                        let stops = Blocks::<L>::stops(L::load(&b), class);
                        let lane = (stops >> (k as u32 * L::STRIDE)) & 1 == 1;
                        assert_eq!(lane, !inside, "class {class} octet {c:#x} lane {k}");
                        // The other lanes: as `other` is.
                        let other_in = CLASS[usize::from(other)] & class != 0
                            || (class == PATH_OK && other == b'.');
                        let mut want = 0u64;
                        for j in (0..L::WIDTH).filter(|&j| j != k) {
                            if !other_in {
                                want |= ((1u64 << L::STRIDE) - 1) << (j as u32 * L::STRIDE);
                            }
                        }
                        let lane_bits = ((1u64 << L::STRIDE) - 1) << (k as u32 * L::STRIDE);
                        assert_eq!(stops & !lane_bits, want, "class {class} {c:#x} {other:#x}");
                    }
                }
            }
        }
    }

    #[test]
    fn block_classes_are_exact_on_every_lane_kind() {
        block_classes_are_exact::<block::Portable<1>>();
        block_classes_are_exact::<block::Portable<4>>();
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        block_classes_are_exact::<block::Native>();
        #[cfg(target_arch = "x86_64")]
        if block::has_ssse3() {
            block_classes_are_exact::<block::Ssse3>();
        }
        #[cfg(target_arch = "x86_64")]
        if block::has_avx2() {
            block_classes_are_exact::<block::Avx2>();
        }
    }

    /// The block runs end where the octet loops do: every length to `max` (under, at and past a
    /// block and two: 36 for sixteen octets, 68 for 32), every start, the first octet outside the
    /// class at every place, for every class; for the path, a `.` and a `/` before it at every
    /// place too.
    #[test]
    fn block_runs_end_where_octet_loops_do() {
        fn each<R: Runs>() {
            up_to::<R>(36);
        }
        fn up_to<R: Runs>(max: usize) {
            for class in [HOST_OK, HOST_BOTH, QUERY_OK, FRAGMENT_OK] {
                let inside = (0..=255u8)
                    .find(|&c| CLASS[usize::from(c)] & class != 0)
                    .unwrap();
                for len in 0..=max {
                    for stop in 0..=len {
                        for outside in [b'#', 0x80] {
                            let mut s = vec![inside; len];
                            if stop < len {
                                s[stop] = outside;
                            }
                            for from in 0..=len {
                                assert_eq!(
                                    R::run(&s, from, class),
                                    Scalar::run(&s, from, class),
                                    "{class} {s:?} {from}"
                                );
                            }
                        }
                    }
                }
            }
            for len in 0..=max {
                for dot in 0..len {
                    let dot: usize = dot;
                    for slash in [None, Some(dot.wrapping_sub(1)), Some(15), Some(31)] {
                        let mut s = vec![b'a'; len];
                        if let Some(k) = slash.filter(|&k| k < len) {
                            s[k] = b'/';
                        }
                        s[dot] = b'.';
                        for from in 0..=len {
                            for first in [0, from] {
                                assert_eq!(
                                    R::path_run(&s, from, first),
                                    Scalar::path_run(&s, from, first),
                                    "{:?} from {from} first {first}",
                                    String::from_utf8_lossy(&s)
                                );
                            }
                        }
                    }
                }
            }
        }
        each::<Blocks<block::Portable<1>>>();
        each::<Blocks<block::Portable<4>>>();
        each::<Fast>();
        #[cfg(target_arch = "x86_64")]
        if block::has_ssse3() {
            each::<Blocks<block::Ssse3>>();
        }
        #[cfg(target_arch = "x86_64")]
        if block::has_avx2() {
            up_to::<Avx2Runs>(68);
        }
    }

    /// A small generator (xorshift): the same mutations on every run.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// `s` with a few octets replaced, inserted or removed, drawn from the octets the classes and
    /// the path's dot rule turn on.
    fn mutate(s: &[u8], rng: &mut Rng) -> Vec<u8> {
        const POOL: &[u8] = b"./%?#:@AZaz09-_~+ \\x00\x7f\x80\xc3\xff\"<>^`{|}![]=$";
        let mut v = s.to_vec();
        for _ in 0..1 + rng.next(3) {
            let c = POOL[rng.next(POOL.len())];
            let at = rng.next(v.len() + 1);
            match rng.next(3) {
                0 if at < v.len() => v[at] = c,
                1 if at < v.len() => {
                    v.remove(at);
                }
                _ => v.insert(at, c),
            }
        }
        v
    }

    /// The block runs and the octet loops agree on every entry ([`runs_agree`]): on every
    /// conformance input and its canonical form, every line of the benchmark datasets (the links'
    /// pages and links), and mutations of each.
    #[test]
    fn block_runs_agree_on_conformance_data_and_mutations() {
        let mut inputs: Vec<Vec<u8>> = Vec::new();
        for s in &conformance_inputs() {
            inputs.push(s.as_bytes().to_vec());
            let mut y = String::new();
            if canon_into_stages(None, s, &CanonOptions::default(), &mut y).is_ok() {
                inputs.push(y.into_bytes());
            }
        }
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/data");
        let mut lines = 0;
        for name in [
            "kasztp.txt",
            "node_files.txt",
            "idn_synth.txt",
            "pagewritten.txt",
            "pagehard.txt",
            "links_synth.tsv",
        ] {
            let text = std::fs::read(format!("{dir}/{name}")).unwrap();
            // About 600 lines of each, spread over the file (the fast-exit differential reads
            // every line with the machine's runs; the fuzz target any octets).
            let step = text.split(|&c| c == b'\n').count() / 600 + 1;
            for line in text.split(|&c| c == b'\n').step_by(step) {
                for field in line.split(|&c| c == b'\t') {
                    inputs.push(field.to_vec());
                    lines += 1;
                }
            }
        }
        assert!(lines > 3_000, "{lines}");
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut checked = 0;
        let bases = AGREE_BASES.map(parse);
        for s in &inputs {
            runs_agree(s, &bases).unwrap();
            for _ in 0..2 {
                runs_agree(&mutate(s, &mut rng), &bases).unwrap();
            }
            checked += 3;
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// A URL with an octet outside ASCII is never canonical to the pass,
    /// whatever the octet and wherever it is: the bulk call takes its
    /// acceptance as the proof that the input is ASCII.
    #[test]
    fn scan_rejects_every_octet_outside_ascii() {
        for s in [
            "http://h/",
            "https://a.b-c_d/x.y/%20z?q=%41&r#f#g",
            "foo+1://h:81/p",
            "file://h/a/b.c?q#f",
        ] {
            assert!(scan_ascii(s.as_bytes()).is_ok(), "{s:?}");
            for at in 0..=s.len() {
                for c in [0x80u8, 0xA0, 0xC3, 0xE2, 0xFF] {
                    let mut v = s.as_bytes().to_vec();
                    v.insert(at, c);
                    assert!(scan_ascii(&v).is_err(), "{s:?} {at} {c:#x}");
                }
            }
        }
    }

    /// The shapes it leaves to the stages, each for its reason.
    #[test]
    fn rejects() {
        for s in [
            "HTTP://h/",         // uppercase scheme
            "http://H/",         // uppercase host
            "http://h",          // no path: canonicalization writes `/`
            "http://h:80/",      // default port
            "http://h:080/",     // leading zero
            "http://h:/",        // empty port
            "http://h:99999/",   // out of range
            "http://u@h/",       // user information
            "http://1.2.3.04/",  // an `inet_addr()` number step 27 rewrites
            "http://1.2.3/",     // an `inet_addr()` number step 27 rewrites
            "http://0x1.2.3.4/", // an `inet_addr()` number step 27 rewrites
            "http://1.2.3.256/", // not an address: left to the stages
            "http:///x",         // empty host
            "http:////h/",       // more than two slashes
            "http://h/./a",      // dot segment
            "http://h/a/..",     // dot segment
            "http://h/%41",      // escape of an unreserved octet
            "http://h/a b",      // path percent-encode set
            "http://h/a\\b",     // backslash
            "http://h/?a b",     // query percent-encode set
            "http://h/#a ",      // a trailing space: stripped
            "http://h/#a b\t",   // a tab: removed
            "http://h/é",        // non-ASCII
            " http://h/",        // stripped by preprocessing
            "file://localhost/", // file: the empty host
            "file://h",          // file: no path
            "file://h:1/",       // file: a colon in the host
            "file://h/c:/",      // file: drive specification
            "file://h/c:",       // file: drive specification
            "file://h/a%2fb",    // file: an escaped slash
            "file://h/a%5Cb",    // file: an escaped backslash
            "file:///x",         // file: empty host
            "javascript://h/",   // non-hierarchical
            "c://h/",            // drive letter
        ] {
            assert!(!is_canonical(s.as_bytes()), "{s:?}");
        }
        for s in [
            "http://h/",
            "https://a.b-c_d/x.y/%20z?q=%41&r#f#g",
            "foo+1://h:81/",
            "file://h/a/b.c?q#f",
            "file://h//x",
            "http://1.2.3.4/",
            "http://h/#a b c",
        ] {
            assert!(check(s), "{s:?}");
        }
    }
}
