//! Path rules several stages share: the octets a path copies, "remove dot-segments" (RFC 3986
//! 5.2.4) as the spec amends it (`\` reads as `/`, `%2E` as `.`), drive specifications, and the
//! `file:` decoding of `%2F` and `%5C` into separators (spec "steps to resolve a relative URL" 3
//! and 6.5). The recognizer of canonical input tests octets with the same table.

use std::borrow::Cow;

use crate::percent::{PATH, escape_at};

/// Octets canonicalization's pass over a path copies without a second look: not in the path
/// percent-encode set, not `\`, `%` or `.`. `/` too: a segment is looked at only when it starts
/// with `.` or `%`, the only way it can be a dot segment.
pub(crate) static PATH_COPY: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = !PATH.contains(c) && c != b'\\' && c != b'%' && c != b'.';
        i += 1;
    }
    t
};

/// [`PATH_COPY`] without `?` and `#`, which end the path of a URL read with what follows it.
pub(crate) static PATH_COPY_IN_URL: [bool; 256] = {
    let mut t = PATH_COPY;
    t[b'?' as usize] = false;
    t[b'#' as usize] = false;
    t
};

/// What a segment is to "remove dot-segments": `Some(false)` for `.`,
/// `Some(true)` for `..` (`%2E` counting as `.`), `None` for any other.
pub(crate) fn dot_segment(seg: &[u8]) -> Option<bool> {
    if seg.len() > 6 || !matches!(seg.first(), Some(b'.' | b'%')) {
        return None;
    }
    if is_dot(seg) {
        Some(false)
    } else if is_dot_dot(seg) {
        Some(true)
    } else {
        None
    }
}

/// The dot segment at the start of `s` (ended by `/`, an octet `end` accepts or the end): its
/// length and whether it is `..` ([`dot_segment`]). Looks at seven octets at most.
#[inline]
pub(crate) fn dot_segment_at(s: &[u8], end: impl Fn(u8) -> bool) -> Option<(usize, bool)> {
    if !matches!(s.first(), Some(b'.' | b'%')) {
        return None;
    }
    let lim = s.len().min(7);
    let n = s[..lim]
        .iter()
        .position(|&c| c == b'/' || end(c))
        .unwrap_or(lim);
    dot_segment(&s[..n]).map(|dot_dot| (n, dot_dot))
}

/// Rule C of "remove dot-segments" (RFC 3986 5.2.4) on a written path: where the segment before the
/// `/` ending `out[..end]` starts, to cut there for `..`; `end` itself when only the root is
/// before.
#[inline]
pub(crate) fn parent_start(out: &[u8], root: usize, end: usize) -> usize {
    if end <= root + 1 {
        return end;
    }
    crate::scan::rfind1(&out[root..end - 1], b'/').map_or(root + 1, |k| root + k + 1)
}

/// Which of "steps to resolve a relative URL" steps 2 to 6 (RFC 3986 5.2.2) a reference takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RefKind {
    /// Step 2: it has an authority (`//host`): the base's scheme only.
    NetworkPath,
    /// Step 3: its path starts with a slash character: the base's scheme and authority.
    AbsolutePath,
    /// Step 4: an empty path and a query: the base's path too.
    Query,
    /// Step 5: an empty path, no query and a fragment: the base's query too.
    Fragment,
    /// Step 6: any other path, merged with the base's ("merge paths").
    Relative,
}

/// The [`RefKind`] of a parsed reference: whether it has an authority, its path's first octet
/// (`None`: empty or absent), whether it has a query and a fragment.
#[inline]
pub(crate) fn ref_kind(
    authority: bool,
    path_first: Option<u8>,
    query: bool,
    fragment: bool,
) -> RefKind {
    match path_first {
        _ if authority => RefKind::NetworkPath,
        Some(b'/' | b'\\') => RefKind::AbsolutePath,
        Some(_) => RefKind::Relative,
        None if query => RefKind::Query,
        None if fragment => RefKind::Fragment,
        None => RefKind::Relative,
    }
}

/// Whether a reference without a scheme has an authority: two leading slash characters.
#[inline]
pub(crate) fn has_authority(r: &[u8]) -> bool {
    let slash = |c: Option<&u8>| matches!(c, Some(b'/' | b'\\'));
    slash(r.first()) && slash(r.get(1))
}

/// For `file:` URLs, decodes `%2F` and `%5C` (any case) in the path into separators.
pub(crate) fn decode_file_slashes(path: &str) -> Cow<'_, str> {
    if !has_slash_escape(path.as_bytes()) {
        return Cow::Borrowed(path);
    }
    let mut out = String::with_capacity(path.len());
    decode_file_slashes_into(path, &mut out);
    Cow::Owned(out)
}

/// [`decode_file_slashes`], appending to `out`.
pub(crate) fn decode_file_slashes_into(path: &str, out: &mut String) {
    let b = path.as_bytes();
    let mut last = 0;
    for i in memchr::memchr_iter(b'%', b) {
        if i < last {
            continue;
        }
        if let Some(v @ (b'/' | b'\\')) = escape_at(b, i) {
            out.push_str(&path[last..i]);
            out.push(char::from(v));
            last = i + 3;
        }
    }
    out.push_str(&path[last..]);
}

/// Whether `file:` resolution changes a path ([`needs_dot_removal`] or [`has_slash_escape`]),
/// behind one prefilter for both.
pub(crate) fn file_path_changes(p: &[u8]) -> bool {
    may_change::<true>(p) && (needs_dot_removal(p) || has_slash_escape(p))
}

/// Whether a path has `%2F` or `%5C` (any case), which `file:` resolution decodes.
pub(crate) fn has_slash_escape(p: &[u8]) -> bool {
    memchr::memchr_iter(b'%', p).any(|i| matches!(escape_at(p, i), Some(b'/' | b'\\')))
}

/// Whether `s` starts with a slash character (`/` or `\`), tested on its first octet.
pub(crate) fn starts_with_slash(s: &str) -> bool {
    matches!(s.as_bytes().first(), Some(b'/' | b'\\'))
}

/// Whether `s` begins with a "drive specification" (a drive letter and a drive suffix, each
/// possibly percent-encoded) followed by a slash character or the end of the string.
pub(crate) fn starts_with_drive_spec(s: &str) -> bool {
    drive_spec_len(s).is_some_and(|n| s[n..].is_empty() || starts_with_slash(&s[n..]))
}

/// The length of a drive letter plus drive suffix at the start of `s`.
#[inline]
pub(crate) fn drive_spec_len(s: &str) -> Option<usize> {
    drive_spec_len_bytes(s.as_bytes())
}

/// [`drive_spec_len`] on bytes.
#[inline]
pub(crate) fn drive_spec_len_bytes(b: &[u8]) -> Option<usize> {
    // Almost no `file:` host or path is one: a drive spec starts with `%` or has `:`, `|` or `%`
    // second. This test is inlined into the callers, the rest not.
    if !matches!(b, [b'%', ..] | [_, b':' | b'|' | b'%', ..]) {
        return None;
    }
    drive_spec_len_rest(b)
}

/// [`drive_spec_len_bytes`] past its first test.
#[inline(never)]
fn drive_spec_len_rest(b: &[u8]) -> Option<usize> {
    let (letter, rest) = match b {
        [c, rest @ ..] if c.is_ascii_alphabetic() => (1, rest),
        [b'%', ..] if escape_at(b, 0).is_some_and(|v| v.is_ascii_alphabetic()) => (3, &b[3..]),
        _ => return None,
    };
    let suffix = match rest {
        [b':' | b'|', ..] => 1,
        [b'%', ..] if matches!(escape_at(rest, 0), Some(b':' | b'|')) => 3,
        _ => return None,
    };
    Some(letter + suffix)
}

/// A `.` segment (`%2E` counting as `.`); see [`dot_segment`].
fn is_dot(seg: &[u8]) -> bool {
    seg == b"." || seg.eq_ignore_ascii_case(b"%2e")
}

/// A `..` segment (`%2E` counting as `.`); see [`dot_segment`].
fn is_dot_dot(seg: &[u8]) -> bool {
    match seg.len() {
        2 => seg == b"..",
        4 => seg.eq_ignore_ascii_case(b".%2e") || seg.eq_ignore_ascii_case(b"%2e."),
        6 => seg.eq_ignore_ascii_case(b"%2e%2e"),
        _ => false,
    }
}

/// Whether "remove dot-segments" (as amended) would change a path: it has a `\` (read as `/`) or a
/// `.` / `..` segment, `%2E` counting as `.`.
pub(crate) fn needs_dot_removal(p: &[u8]) -> bool {
    // The prefilter rules out most paths and finds a `\` anywhere.
    if !may_change::<false>(p) {
        return false;
    }
    if p.contains(&b'\\') {
        return true;
    }
    let mut seg = 0;
    for (i, &c) in p.iter().enumerate() {
        if c == b'/' {
            if is_dot_candidate(&p[seg..i]) {
                return true;
            }
            seg = i + 1;
        }
    }
    is_dot_candidate(&p[seg..])
}

/// The prefilter of [`needs_dot_removal`] (with `PCT`, of [`file_path_changes`]): whether the path
/// starts with `.`, `%` or `\`, or some byte pair is [`pair_scan`]'s. False rules the path out.
#[inline]
pub(crate) fn may_change<const PCT: bool>(p: &[u8]) -> bool {
    let Some((&first, rest)) = p.split_first() else {
        return false;
    };
    dot_start(first) | (first == b'\\') | pair_scan::<PCT>(p, rest)
}

fn dot_start(c: u8) -> bool {
    (c == b'.') | (c == b'%')
}

/// Whether some pair `(p[i], rest[i])` (`rest`: `p` less its first byte) is `/` then a possible dot
/// segment's start, or has a `\` (with `PCT`, a `%`) second. In blocks of 16, the last overlapping
/// the one before (vector compares).
#[inline(always)]
fn pair_scan<const PCT: bool>(p: &[u8], rest: &[u8]) -> bool {
    let hit = |x: u8, y: u8| (y == b'\\') | ((x == b'/') & dot_start(y)) | (PCT & (y == b'%'));
    let n = rest.len();
    if n < 16 {
        return p.iter().zip(rest).fold(false, |a, (&x, &y)| a | hit(x, y));
    }
    let mut acc = false;
    let mut i = 0;
    while i < n {
        let s = i.min(n - 16);
        if let (Some(x), Some(y)) = (p.get(s..s + 16), rest.get(s..s + 16))
            && let (Ok(x), Ok(y)) = (<&[u8; 16]>::try_from(x), <&[u8; 16]>::try_from(y))
        {
            let mut m = false;
            for j in 0..16 {
                m |= hit(x[j], y[j]);
            }
            acc |= m;
        }
        i += 16;
    }
    acc
}

fn is_dot_candidate(seg: &[u8]) -> bool {
    dot_segment(seg).is_some()
}

/// Where one use of "remove dot-segments" writes, and what separates and ends its segments: what
/// [`dot_segment_step`] needs. Resolution's removal ([`remove_dot_segments_into`]), the
/// canonicalization pass over a path and the resume road's path pass write into a buffer
/// ([`Appended`]); the merge of a link with a canonical base ([`leading_dot_segments`]) keeps a
/// prefix of the base's serialization.
pub(crate) trait DotOutput {
    /// Whether `\` separates segments, as `/` does (the spec's amendment, in resolution).
    const BACKSLASH: bool;
    /// Whether `?` and `#` end the path (a path read with the rest of a URL).
    const QUERY_ENDS: bool;
    /// The output so far and where the path starts in it (its `/`, or a relative path's first
    /// segment).
    fn written(&self) -> (&[u8], usize);
    /// Cuts the output to `len` octets.
    fn truncate(&mut self, len: usize);
    /// Makes the path written `/`: rule C removed a relative path's first segment.
    fn root_slash(&mut self);
    /// Writes the input's octets `from..to`, none of them a dot segment.
    fn run(&mut self, from: usize, to: usize);
}

/// The output of a use of "remove dot-segments" that appends to a buffer: the input's octets
/// between dot segments copied as they are (runs), the path starting at `root` in `out`. `BACKSLASH`
/// and `QUERY_ENDS` are [`DotOutput`]'s. Resolution's removal, canonicalization's one pass and the
/// resume road's path pass write through it.
pub(crate) struct Appended<'a, const BACKSLASH: bool, const QUERY_ENDS: bool> {
    /// The path read (with what follows it when `QUERY_ENDS`).
    pub(crate) input: &'a str,
    pub(crate) out: &'a mut String,
    /// Where the path starts in `out`: its `/`, or a relative path's first segment.
    pub(crate) root: usize,
}

impl<const BACKSLASH: bool, const QUERY_ENDS: bool> DotOutput
    for Appended<'_, BACKSLASH, QUERY_ENDS>
{
    const BACKSLASH: bool = BACKSLASH;
    const QUERY_ENDS: bool = QUERY_ENDS;

    #[inline]
    fn written(&self) -> (&[u8], usize) {
        (self.out.as_bytes(), self.root)
    }

    #[inline]
    fn truncate(&mut self, len: usize) {
        self.out.truncate(len);
    }

    #[inline]
    fn root_slash(&mut self) {
        self.out.truncate(self.root);
        self.out.push('/');
    }

    #[inline]
    fn run(&mut self, from: usize, to: usize) {
        self.out.push_str(&self.input[from..to]);
    }
}

/// What a use of the whole loop ([`remove_dots`]) does with the octets between dot segments: copy
/// them in runs, or look at each; and where it writes.
pub(crate) trait DotWriter {
    /// Where the loop writes.
    type Out: DotOutput;
    /// Why the loop stopped before the end of the path.
    type Stop;
    /// Octets the loop writes in runs without a look: never `.` or `%` (a dot segment's start), nor
    /// an octet [`DotWriter::other`] writes otherwise.
    const COPY: &'static [bool; 256];
    /// The output the loop writes through.
    fn output(&mut self) -> &mut Self::Out;
    /// The input's octet at `i`, outside [`DotWriter::COPY`], not starting a dot segment and not
    /// ending the path, with `input[last..i]` not yet written: where to go on, or `Err`.
    fn other(&mut self, i: usize, last: &mut usize) -> Result<usize, Self::Stop>;
}

/// RFC 3986 5.2.4 "remove dot-segments" (`%2E` read as `.`) on `b` from octet `from` (0, or after
/// octets already written that end a segment), writing through `w`: dot segments by
/// [`dot_segment_step`], other segments written as they come (rule E), by runs. Where the path
/// ends.
#[inline(always)]
pub(crate) fn remove_dots<W: DotWriter>(
    b: &[u8],
    from: usize,
    w: &mut W,
) -> Result<usize, W::Stop> {
    // `last`: the first octet not yet written.
    let (mut i, mut last) = (from, from);
    loop {
        i = crate::scan::run_while(b, i, |c| W::COPY[usize::from(c)]);
        let Some(&c) = b.get(i) else { break };
        if (c == b'.' || c == b'%')
            && (i == 0 || is_sep::<W::Out>(b[i - 1]))
            && let Some(next) = dot_segment_step(b, i, last, w.output())
        {
            (i, last) = (next, next);
            continue;
        }
        if W::Out::QUERY_ENDS && matches!(c, b'?' | b'#') {
            break;
        }
        i = w.other(i, &mut last)?;
    }
    if last < i {
        w.output().run(last, i);
    }
    Ok(i)
}

/// Whether `c` separates segments for `W`.
#[inline]
fn is_sep<W: DotOutput>(c: u8) -> bool {
    c == b'/' || (W::BACKSLASH && c == b'\\')
}

/// One step of "remove dot-segments" at the start `i` of a segment, `b[last..i]` not yet written:
/// when the segment is a dot segment, writes `b[last..i]`, drops the segment (a `.`: rules A, B,
/// D), for `..` with the segment written before it (C), and returns where the input goes on, past
/// the separator after it. The `/` before the dot segment stays written, so `/a/./b` and
/// `/a/x/../b` give `/a/b`, `/a/.` gives `/a/`.
#[inline]
fn dot_segment_step<W: DotOutput>(b: &[u8], i: usize, last: usize, w: &mut W) -> Option<usize> {
    let ends = |c: u8| (W::BACKSLASH && c == b'\\') || (W::QUERY_ENDS && matches!(c, b'?' | b'#'));
    let (n, dot_dot) = dot_segment_at(&b[i..], ends)?;
    w.run(last, i);
    if dot_dot {
        let (out, root) = w.written();
        let cut = parent_start(out, root, out.len());
        // Only a relative path's first segment has no `/` before it: the rule leaves `/`.
        if cut == root + 1 && out[root] != b'/' {
            w.root_slash();
        } else {
            w.truncate(cut);
        }
    }
    let end = i + n;
    Some(end + usize::from(b.get(end).is_some_and(|&c| is_sep::<W>(c))))
}

/// Octets resolution's removal writes in runs: all but `.`, `%` and `\` (written `/`).
static REMOVAL_COPY: [bool; 256] = {
    let mut t = [true; 256];
    t[b'.' as usize] = false;
    t[b'%' as usize] = false;
    t[b'\\' as usize] = false;
    t
};

/// Resolution's removal: appends to `out`, `\` written `/`.
struct Removal<'a>(Appended<'a, true, false>);

impl<'a> DotWriter for Removal<'a> {
    type Out = Appended<'a, true, false>;
    type Stop = std::convert::Infallible;
    const COPY: &'static [bool; 256] = &REMOVAL_COPY;

    fn output(&mut self) -> &mut Self::Out {
        &mut self.0
    }

    fn other(&mut self, i: usize, last: &mut usize) -> Result<usize, Self::Stop> {
        if self.0.input.as_bytes()[i] == b'\\' {
            self.0.run(*last, i);
            self.0.out.push('/');
            *last = i + 1;
        }
        Ok(i + 1)
    }
}

/// The merge's output: a canonical base's serialization up to `keep`, whose path starts with `/`
/// at `root`. It writes nothing of the reference: the merge stops at its first segment that is not
/// a dot segment.
struct KeptPrefix<'a> {
    base: &'a [u8],
    root: usize,
    keep: usize,
}

impl DotOutput for KeptPrefix<'_> {
    const BACKSLASH: bool = false;
    const QUERY_ENDS: bool = true;

    fn written(&self) -> (&[u8], usize) {
        (&self.base[..self.keep], self.root)
    }

    fn truncate(&mut self, len: usize) {
        self.keep = len;
    }

    fn root_slash(&mut self) {
        self.keep = self.root + 1;
    }

    fn run(&mut self, _: usize, _: usize) {}
}

/// "Remove dot-segments" on the leading dot segments of a relative reference `r` merged after
/// `base[..keep]` (a canonical base's path at `root`, up to and with its last `/`): how much of the
/// base stays and where the first other segment starts in `r`. The leading phase of
/// [`remove_dots`]: its steps until the first segment that is not a dot segment.
#[inline]
pub(crate) fn leading_dot_segments(
    base: &[u8],
    root: usize,
    keep: usize,
    r: &[u8],
) -> (usize, usize) {
    let mut w = KeptPrefix { base, root, keep };
    let mut skip = 0;
    while let Some(next) = dot_segment_step(r, skip, skip, &mut w) {
        skip = next;
    }
    (w.keep, skip)
}

/// RFC 3986 5.2.4 "remove dot-segments", with `\` read as `/` and `%2E` as
/// `.`.
pub fn remove_dot_segments(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    remove_dot_segments_into(path, &mut out);
    out
}

/// [`remove_dot_segments`], appending to `out`: [`remove_dots`] with `\` written `/`. Linear: each
/// output octet is appended once and scanned at most once more when a `..` removes it.
pub(crate) fn remove_dot_segments_into(input: &str, out: &mut String) {
    let root = out.len();
    let mut w = Removal(Appended { input, out, root });
    let Ok(_) = remove_dots(input.as_bytes(), 0, &mut w);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments() {
        assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
        assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
        assert_eq!(remove_dot_segments("/a/%2E%2e/b"), "/b");
        assert_eq!(remove_dot_segments("\\a\\.\\b\\.."), "/a/");
        assert_eq!(remove_dot_segments("../a"), "a");
        assert_eq!(remove_dot_segments("/.."), "/");
        assert_eq!(remove_dot_segments(".."), "");
        // Rule C on a relative path's first segment leaves the `/` of the input.
        assert_eq!(remove_dot_segments("a/../b"), "/b");
        assert_eq!(remove_dot_segments("a/.."), "/");
        assert_eq!(remove_dot_segments("a/b/../../../c"), "/c");
    }

    /// What `needs_dot_removal` answers, by a plain look at every segment.
    fn has_dot_segment(p: &[u8]) -> bool {
        p.contains(&b'\\') || p.split(|&c| c == b'/').any(|s| is_dot(s) || is_dot_dot(s))
    }

    /// The byte-pair scan of `needs_dot_removal` finds exactly what a
    /// plain look at every segment finds, on every short path over the
    /// bytes that matter.
    #[test]
    fn needs_dot_removal_matches_segments() {
        crate::testutil::each_sequence(b"/.%2eE\\a", 6, |p| {
            assert_eq!(needs_dot_removal(p), has_dot_segment(p), "{p:?}");
        });
    }

    /// The pair scan finds a pair exactly when one of the pairs is a hit,
    /// on every short path over the octets that matter and on longer
    /// pseudo-random ones of every length up to 90 (the pairs one by one,
    /// and the blocks).
    #[test]
    fn pair_scan_is_every_pair() {
        fn naive<const PCT: bool>(p: &[u8]) -> bool {
            p.windows(2).any(|w| {
                let (x, y) = (w[0], w[1]);
                y == b'\\' || (x == b'/' && (y == b'.' || y == b'%')) || (PCT && y == b'%')
            })
        }
        let check = |p: &[u8]| {
            let rest = p.get(1..).unwrap_or_default();
            assert_eq!(pair_scan::<false>(p, rest), naive::<false>(p), "{p:?}");
            assert_eq!(pair_scan::<true>(p, rest), naive::<true>(p), "{p:?}");
        };
        crate::testutil::each_sequence(b"/.%\\a", 6, &check);
        let mut rng = crate::testutil::Xorshift(0x51_7cc1_b727_220a);
        let mut p = Vec::new();
        for n in 0..300_000 {
            // Mostly octets that hit nothing, then one pair that may hit
            // somewhere: every place of every length is tried.
            let len = n % 91;
            p.clear();
            p.resize(len, b'a');
            if len >= 2 {
                let at = (rng.next() as usize) % (len - 1);
                p[at] = rng.pick(b"/a");
                p[at + 1] = rng.pick(b".%\\b");
            }
            check(&p);
        }
    }

    /// `normalize_path` runs the removal on whatever the prefilter does
    /// not rule out. On a path without dot segments or `\` the removal
    /// gives the path back unchanged (so a path that only looks like it
    /// might have one comes out as it went in), and the prefilter rules
    /// out no path that has one.
    #[test]
    fn removal_after_prefilter_is_exact() {
        crate::testutil::each_sequence(b"/.%2eE\\a", 6, |p| {
            let s = std::str::from_utf8(p).expect("ASCII");
            if has_dot_segment(p) {
                assert!(may_change::<false>(p), "{s:?}");
            } else {
                assert_eq!(remove_dot_segments(s), s, "{s:?}");
            }
        });
    }

    /// `file_path_changes` is the two scans it replaces, on every short
    /// path over the bytes that matter and on longer random ones (the
    /// block scan, with `%` escapes of `/` and `\` about).
    #[test]
    fn file_path_changes_is_both_scans() {
        let both = |p: &[u8]| needs_dot_removal(p) || has_slash_escape(p);
        crate::testutil::each_sequence(b"/.%2fF5c\\a", 5, |p| {
            assert_eq!(file_path_changes(p), both(p), "{p:?}");
        });
        let alphabet = b"/.%2fF5cCeEaaaaaaaaaaaa";
        let mut rng = crate::testutil::Xorshift(0x9e37_79b9_7f4a_7c15);
        let mut p = Vec::new();
        for n in 0..200_000 {
            p.clear();
            for _ in 0..n % 80 {
                p.push(rng.pick(alphabet));
            }
            assert_eq!(file_path_changes(&p), both(&p), "{p:?}");
        }
    }

    /// The same on longer paths (the block scan), pseudo-random.
    #[test]
    fn needs_dot_removal_matches_segments_long() {
        let alphabet = b"/.%2eEaaaaaaaaaaa";
        let mut rng = crate::testutil::Xorshift(0x2545_f491_4f6c_dd1d);
        let mut p = Vec::new();
        for n in 0..200_000 {
            let len = n % 80;
            p.clear();
            for _ in 0..len {
                p.push(rng.pick(alphabet));
            }
            if n % 7 == 0 && len > 0 {
                p[(rng.0 as usize / 7) % len] = b'\\';
            }
            assert_eq!(needs_dot_removal(&p), has_dot_segment(&p), "{p:?}");
        }
    }

    /// RFC 3986 5.2.4 one segment at a time, as the rules read (`\\` as
    /// `/`): the reference for [`remove_dot_segments_into`].
    fn reference_each(input: &str, out: &mut String) {
        let base = out.len();
        let b = input.as_bytes();
        let n = b.len();
        let is_sep = |c: u8| c == b'/' || c == b'\\';
        let mut i = 0;
        let seg_end =
            |from: usize| memchr::memchr2(b'/', b'\\', &b[from..]).map_or(n, |p| from + p);
        // Appends `input[from..to]`, a segment that may start with a `\`
        // read as `/`.
        let push = |out: &mut String, from: usize, to: usize| {
            if from < to && b[from] == b'\\' {
                out.push('/');
                out.push_str(&input[from + 1..to]);
            } else {
                out.push_str(&input[from..to]);
            }
        };
        while i < n {
            if !is_sep(b[i]) {
                // Rules A and D: a leading "." or ".." segment is dropped.
                let end = seg_end(i);
                let seg = &b[i..end];
                if is_dot(seg) || is_dot_dot(seg) {
                    i = if end < n { end + 1 } else { n };
                    continue;
                }
                // Rule E.
                push(out, i, end);
                i = end;
                continue;
            }
            let end = seg_end(i + 1);
            let seg = &b[i + 1..end];
            if is_dot(seg) {
                // Rule B: "/./" or a final "/." becomes "/".
                if end < n {
                    i = end;
                } else {
                    out.push('/');
                    i = n;
                }
            } else if is_dot_dot(seg) {
                // Rule C: drop the last output segment.
                let cut =
                    crate::scan::rfind1(&out.as_bytes()[base..], b'/').map_or(base, |c| base + c);
                out.truncate(cut);
                if end < n {
                    i = end;
                } else {
                    out.push('/');
                    i = n;
                }
            } else {
                push(out, i, end);
                i = end;
            }
        }
    }

    /// The piecewise removal gives what the one-segment-at-a-time rules
    /// give, on every short path over the bytes that matter and on longer
    /// pseudo-random ones.
    #[test]
    fn dot_segment_runs_match_each() {
        let check = |p: &[u8]| {
            let p = std::str::from_utf8(p).unwrap();
            let (mut a, mut b) = (String::from("x"), String::from("x"));
            remove_dot_segments_into(p, &mut a);
            reference_each(p, &mut b);
            assert_eq!(a, b, "{p:?}");
        };
        crate::testutil::each_sequence(b"/.%2e\\a", 7, &check);
        let alphabet = b"/.%2eEab.//\\";
        let mut p = Vec::new();
        let mut rng = crate::testutil::Xorshift(0x9e37_79b9_7f4a_7c15);
        for n in 0..100_000 {
            p.clear();
            for _ in 0..n % 60 {
                p.push(rng.pick(alphabet));
            }
            check(&p);
        }
    }

    /// The kind of a reference without a scheme, from its octets as
    /// the fast merge (src/fast/recognize.rs) reads them (its first octet, and
    /// [`has_authority`]), is the kind of its parse, which resolution
    /// reads: on every short reference over the octets that matter.
    #[test]
    fn ref_kind_of_octets_is_ref_kind_of_parse() {
        crate::testutil::each_sequence(b"/\\?#a.%", 5, |r| {
            let Some(&first) = r.first() else { return };
            let raw = match first {
                b'?' => ref_kind(false, None, true, false),
                b'#' => ref_kind(false, None, false, true),
                _ => ref_kind(has_authority(r), Some(first), false, false),
            };
            let s = std::str::from_utf8(r).unwrap();
            let mut side = String::new();
            let p = crate::parse::parse_parts(s, &mut side);
            let parsed = ref_kind(
                p.authority.is_some(),
                p.path.and_then(|p| p.as_bytes().first().copied()),
                p.query.is_some(),
                p.fragment.is_some(),
            );
            assert_eq!(raw, parsed, "{s:?}");
        });
    }

    /// Rule C as [`parent_start`] applies it is the one "remove
    /// dot-segments" applies: a path and `..` give the path up to the
    /// start of its last segment.
    #[test]
    fn parent_start_is_rule_c() {
        for p in ["/", "/a/", "/a/b/", "/a//", "//", "/a/b/c/"] {
            let cut = parent_start(p.as_bytes(), 0, p.len());
            assert_eq!(&p[..cut], remove_dot_segments(&format!("{p}..")), "{p:?}");
        }
    }

    /// The merge's leading dot segments ([`leading_dot_segments`]) are the first steps of the one
    /// loop: "remove dot-segments" on the merged path gives the same path from what they leave (the
    /// base's kept prefix and the reference's rest), whose rest starts with no dot segment; on
    /// every short reference over the octets that matter, after several base paths.
    #[test]
    fn leading_dot_segments_are_the_loop_s_first_steps() {
        for base in ["/", "/a/", "/a/b/", "/a/b/c/", "/a//"] {
            let b = base.as_bytes();
            crate::testutil::each_sequence(b"./%2eEa?", 6, |r| {
                let (keep, skip) = leading_dot_segments(b, 0, b.len(), r);
                let s = std::str::from_utf8(r).unwrap();
                let path = &s[..s.find('?').unwrap_or(s.len())];
                assert!(skip <= path.len(), "{base:?} {s:?}");
                let rest = &path[skip..];
                assert_eq!(
                    dot_segment_at(rest.as_bytes(), |_| false),
                    None,
                    "{base:?} {s:?}"
                );
                assert_eq!(
                    remove_dot_segments(&format!("{}{rest}", &base[..keep])),
                    remove_dot_segments(&format!("{base}{path}")),
                    "{base:?} {s:?}"
                );
            });
        }
    }

    #[test]
    fn file_slashes() {
        assert_eq!(decode_file_slashes("/a%2fb%5Cc%2"), "/a/b\\c%2");
    }
}
