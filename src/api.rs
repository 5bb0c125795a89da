//! The entry layer: the one place that chooses between the fast exits
//! (`fast`, which no other module calls) and the stages for a call. Every
//! caller comes through here: the Rust API ([`parse`], [`resolve`],
//! [`canonicalize`], [`canon_into`], and the keys on top of it), the C ABI
//! (which only converts its arguments into an `Input` and its results out
//! of a `Sink`), and through them the CLI, Python and the bindings.
//!
//! The bulk call (`canon`), with the default options:
//!
//! 1. Without a base, input the recognizer accepts (ASCII only) is its
//!    own canonical form (`fast::scan_ascii`): the result is the
//!    input itself. Otherwise the stages run, resumed where the recognizer
//!    stopped (`fast::canon_from`; from the start for input
//!    that is not valid UTF-8, which decoding changes).
//! 2. Against a base known to be canonical, a reference whose resolution
//!    `fast::merge_with` finds canonical is a part of the base's
//!    serialization followed by a part of the reference.
//! 3. Anything else, and every call with other options, takes the stages
//!    (`canonicalize::canon_staged`).
//!
//! The handle path's [`parse`] and [`resolve`] try the fast exits first
//! too (the recognizer's record for canonical input, else the parse resumed
//! after what it verified; a URL's own resolution; the merge), and the
//! switch that turns them all off for the differential (`fast::on`) is
//! read here alone.
//!
//! The input is text only where the stages need text: the C ABI's bytes
//! are tested for ASCII once, by this flow, and decoded (UTF-8, with U+FFFD
//! for invalid sequences) only when the fast exits did not answer. A fast
//! exit's result is handed over in its two pieces, not copied, so that the
//! C ABI can copy a piece of the caller's own input exactly even when its
//! output buffer overlaps that input.

use std::borrow::Cow;

use crate::canonicalize::{CanonOptions, canon_staged};
use crate::fast;
use crate::hint::Stop;
use crate::record::{InvalidReason, Url};
use crate::scratch::{self, Scratch, Used};

/// The input of a call: a Rust string, or the C ABI's bytes, which are
/// UTF-8 text once decoded.
pub(crate) trait Input<'a>: Copy {
    /// The octets of the input as the caller gave them.
    fn bytes(self) -> &'a [u8];
    /// The input as text when all of its octets are ASCII (tested a word
    /// at a time, `scan::is_ascii`), else `None`.
    fn ascii(self) -> Option<&'a str>;
    /// The input as text, when [`Input::ascii`] found it not all ASCII.
    fn non_ascii(self) -> Cow<'a, str>;
    /// The input as text.
    fn text(self) -> Cow<'a, str>;
    /// The input from octet `from` on, a place between ASCII octets (where
    /// a fast exit cuts it).
    fn tail(self, from: usize) -> Self;
}

impl<'a> Input<'a> for &'a str {
    #[inline(always)]
    fn bytes(self) -> &'a [u8] {
        self.as_bytes()
    }
    #[inline(always)]
    fn ascii(self) -> Option<&'a str> {
        crate::scan::is_ascii(self.as_bytes()).then_some(self)
    }
    #[inline(always)]
    fn non_ascii(self) -> Cow<'a, str> {
        Cow::Borrowed(self)
    }
    #[inline(always)]
    fn text(self) -> Cow<'a, str> {
        Cow::Borrowed(self)
    }
    #[inline(always)]
    fn tail(self, from: usize) -> Self {
        &self[from..]
    }
}

/// Where the result of a bulk call goes.
pub(crate) trait Sink<I> {
    /// What the call returns.
    type Out;
    /// A fast exit's result: `prefix` (wurl's own memory, a part of the
    /// base's serialization) followed by `rest` (a part of the input).
    fn pieces(self, prefix: &str, rest: I) -> Self::Out;
    /// The stages' result: `run` appends the serialization to the buffer
    /// it is given, or says why the URL is invalid (then it appends
    /// nothing). `sc`: this thread's buffers, for `run`.
    fn stages(
        self,
        sc: &mut Scratch,
        run: impl FnOnce(&mut String, &mut Scratch) -> Result<(), InvalidReason>,
    ) -> Self::Out;
}

/// The Rust API's sink: the result appended to the caller's string.
impl<'a, I: Input<'a>> Sink<I> for &mut String {
    type Out = Result<(), InvalidReason>;
    #[inline(always)]
    fn pieces(self, prefix: &str, rest: I) -> Self::Out {
        self.push_str(prefix);
        self.push_str(&rest.text());
        Ok(())
    }
    #[inline(always)]
    fn stages(
        self,
        sc: &mut Scratch,
        run: impl FnOnce(&mut String, &mut Scratch) -> Result<(), InvalidReason>,
    ) -> Self::Out {
        run(self, sc)
    }
}

/// For a sink that delivers the result elsewhere (the C ABI, into the
/// caller's buffer): runs `run` into this thread's result buffer and hands
/// what it wrote (or why the URL is invalid) to `f`.
#[inline(always)]
pub(crate) fn through_buffer<R>(
    sc: &mut Scratch,
    run: impl FnOnce(&mut String, &mut Scratch) -> Result<(), InvalidReason>,
    f: impl FnOnce(Result<&[u8], InvalidReason>) -> R,
) -> R {
    let mut out = std::mem::take(&mut sc.out);
    out.clear();
    let res = run(&mut out, sc);
    let r = f(res.map(|()| out.as_bytes()));
    sc.out = out;
    r
}

/// The bulk call: resolves `input` against `base` (or, when `base` is
/// `None`, against `input` itself, like `url_to_canon_url`), canonicalizes
/// it with `opts` and gives the serialization, or why the URL is invalid,
/// to `sink`. The fast exits first, with the default options (see the
/// module's documentation); the stages otherwise.
#[inline(always)]
pub(crate) fn canon<'a, I: Input<'a>, S: Sink<I>>(
    base: Option<&Url>,
    input: I,
    opts: &CanonOptions,
    sink: S,
) -> S::Out {
    if base.is_none() && opts.is_default() {
        return canon_own(input, sink);
    }
    canon_other(base, input, opts, sink)
}

/// [`canon`] of a call with a base or with other options than the
/// default ones (any other call gives the same result here, through the
/// stages alone).
#[inline(always)]
pub(crate) fn canon_other<'a, I: Input<'a>, S: Sink<I>>(
    base: Option<&Url>,
    input: I,
    opts: &CanonOptions,
    sink: S,
) -> S::Out {
    if let (Some(base), true) = (base, opts.is_default() && fast::on())
        && let Some((ser, m)) = fast::merge_with(base, input.bytes())
    {
        return sink.pieces(&ser[..m.keep], input.tail(m.skip));
    }
    let text = input.text();
    scratch::with(Used::ALL, |sc| {
        sink.stages(sc, |out, sc| canon_staged(base, &text, opts, out, sc))
    })
}

/// [`canon`] without a base and with the default options: the input
/// resolved against itself. The C ABI's entry calls it directly for such
/// calls, the common ones, so that their path holds no test of the others.
#[inline(always)]
pub(crate) fn canon_own<'a, I: Input<'a>, S: Sink<I>>(input: I, sink: S) -> S::Out {
    // The recognizer first: it accepts ASCII input only (an octet outside
    // ASCII is in none of its classes), so canonical input needs no ASCII
    // test. Input it rejects takes the test, which decoding needs and
    // spares on ASCII input.
    // `stop` stays where the recognizer wrote it (see
    // `canonicalize::resume_into`).
    if !fast::on() {
        let text = input.text();
        let opts = CanonOptions::default();
        return scratch::with(Used::ALL, |sc| {
            sink.stages(sc, |out, sc| canon_staged(None, &text, &opts, out, sc))
        });
    }
    let scanned = fast::scan_ascii(input.bytes());
    let (text, stop) = match &scanned {
        Ok(()) => return sink.pieces("", input),
        Err(stop) => match input.ascii() {
            Some(s) => (Cow::Borrowed(s), stop),
            // Non-ASCII input: the recognizer stopped at its first octet
            // outside ASCII at the latest, and the prefix it read is where
            // it is in the text when decoding took the octets as they are
            // (valid UTF-8). Decoding that replaced invalid sequences moves
            // them: the stages from the start then.
            None => match input.non_ascii() {
                Cow::Borrowed(t) => (Cow::Borrowed(t), stop),
                text => (text, &Stop::NONE),
            },
        },
    };
    let opts = CanonOptions::default();
    // The resume road writes few of the buffers: the trim looks at those
    // unless the stages ran. The closure is inlined where it runs: it is
    // called from two places in `with_either` (with this thread's buffers,
    // and with fresh ones), which keeps the compiler from inlining it on
    // its own once the C ABI's sink (a copy into the caller's buffer) has
    // made it larger, and a call costs the common calls its arguments
    // through memory and its registers saved and restored.
    scratch::with_either(
        Used::RESUME,
        Used::ALL,
        #[inline(always)]
        |sc| {
            let mut staged = false;
            let r = sink.stages(sc, |out, sc| {
                fast::canon_from(Some(stop), &text, &opts, out, sc, &mut staged)
            });
            (r, !staged)
        },
    )
}

/// Whether a fast exit answers the bulk call for `input` against `base`
/// with the default options: without a base, the recognizer accepts the
/// input as its own canonical form; with one, the merge gives the result.
/// For the fast-exit differential's report and the benchmark's check of
/// how much input the fast exits take; not part of the API.
#[doc(hidden)]
pub fn fast_exit_taken(base: Option<&Url>, input: &str) -> bool {
    match base {
        None => fast::is_canonical(input.as_bytes()),
        Some(b) => fast::merge_with(b, input.as_bytes()).is_some(),
    }
}

/// Whether the recognizer of canonical input accepts `s` (see
/// `canonical_form::is_canonical`).
#[doc(hidden)]
pub fn is_canonical(s: &[u8]) -> bool {
    fast::is_canonical(s)
}

/// Turns the fast exits on or off on this thread; returns the previous
/// setting (the `differential` feature's test hook).
#[cfg(feature = "differential")]
pub use crate::fast::set_fast_exits;

/// The bulk path of the Rust API: resolves `input` against `base` (or, when
/// `base` is `None`, against `input` itself, like `url_to_canon_url`),
/// canonicalizes it and appends the serialization to `out`. Returns the
/// reason when the result is invalid (then nothing is appended). The same
/// stages as [`crate::resolve()`] and [`crate::canonicalize()`], writing
/// into `out` and per-thread buffers: no allocation per call in steady
/// state beyond `out`'s growth.
pub fn canon_into(
    base: Option<&Url>,
    input: &str,
    opts: &CanonOptions,
    out: &mut String,
) -> Result<(), InvalidReason> {
    canon(base, input, opts, out)
}

/// Which model of URLs a call follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Model {
    /// The 2012 Web::URL::Canonicalize algorithm (the default everywhere).
    #[default]
    Canon2012,
    /// The WHATWG URL Standard's parser and serializer
    /// ([`crate::standard`]).
    UrlStandard,
}

impl Model {
    /// The model of a name as the CLI and the bindings spell it: `2012`
    /// or `url-standard` (ASCII case-insensitive); `None` for any other.
    pub fn from_name(name: &str) -> Option<Model> {
        if name.eq_ignore_ascii_case("2012") {
            Some(Model::Canon2012)
        } else if name.eq_ignore_ascii_case("url-standard") {
            Some(Model::UrlStandard)
        } else {
            None
        }
    }

    /// The name [`Model::from_name`] reads.
    pub fn name(self) -> &'static str {
        match self {
            Model::Canon2012 => "2012",
            Model::UrlStandard => "url-standard",
        }
    }
}

/// The bulk call of the URL Standard model: `input` parsed against `base`
/// (a URL string; `None`: the input on its own) and serialized, appended
/// to `out`. The 2012 stages take no part: the fast exits and the stages
/// above are of the 2012 model only. `charset`: the query's encoding label
/// (`None`: UTF-8); `network_strict` has no meaning here.
pub(crate) fn canon_standard<'a, I: Input<'a>>(
    base: Option<&str>,
    input: I,
    charset: Option<&str>,
    out: &mut String,
) -> Result<(), crate::standard::Invalid> {
    crate::standard::canon_into(base, &input.text(), charset, out)
}

/// [`canon_into`] in the URL Standard model: `input` resolved against
/// `base` (a URL string, parsed by the same model; `None`: the input on
/// its own) by the URL Standard's parser, serialized, and appended to
/// `out`. See [`crate::standard`].
///
/// ```
/// let mut out = String::new();
/// wurl::canon_standard_into(Some("http://a/b/c"), "../d?x y", None, &mut out).unwrap();
/// assert_eq!(out, "http://a/d?x%20y");
/// ```
pub fn canon_standard_into(
    base: Option<&str>,
    input: &str,
    charset: Option<&str>,
    out: &mut String,
) -> Result<(), crate::standard::Invalid> {
    canon_standard(base, input, charset, out)
}

/// Parses `input` into a [`Url`] with raw, uncanonicalized components
/// ("steps to parse a URL"; see `parse`). The recognizer's record for
/// canonical input, else the stages, resumed after what it verified.
pub fn parse(input: &str) -> Url {
    parse_text(input)
}

/// Resolves `input` against `base` ("steps to resolve a URL"; see
/// `resolve`). The result is not canonicalized.
pub fn resolve(base: &Url, input: &str) -> Url {
    resolve_text(base, input)
}

/// Canonicalizes `url` with the query encoding `charset` (`None` = UTF-8)
/// ("steps to canonicalize a URL"; see `canonicalize`).
pub fn canonicalize(url: &Url, charset: Option<&str>) -> Url {
    crate::canonicalize::canonicalize(url, charset)
}

/// Canonicalizes `url` with `opts`; the input is untouched. An invalid
/// result keeps the components of its input.
pub fn canonicalize_with(url: &Url, opts: &CanonOptions) -> Url {
    crate::canonicalize::canonicalize_with(url, opts)
}

/// [`parse`] of an input: the recognizer's record for canonical input,
/// else the stages from where the recognizer stopped.
#[inline(always)]
pub(crate) fn parse_input<'a, I: Input<'a>>(input: I) -> Url {
    match input.ascii() {
        Some(s) => parse_text(s),
        None => parse_text(&input.non_ascii()),
    }
}

/// [`parse`]: the recognizer of canonical input, then the stages from
/// where it stopped. Any text: the recognizer stops at the first octet
/// it does not know, every non-ASCII one among them, so a URL with a
/// non-ASCII letter in its path resumes there, after its scheme and host
/// (preprocessing leaves the ASCII prefix the recognizer read as it is:
/// it only removes ASCII controls and replaces noncharacters).
pub(crate) fn parse_text(input: &str) -> Url {
    if !fast::on() {
        return crate::parse::parse_stages(input);
    }
    // Already canonical (most absolute URLs): its components are where
    // the recognizer found them, and the record says it is canonical.
    // (Never for non-ASCII input.)
    match fast::layout_or_stop(input.as_bytes()) {
        Ok((at, class)) => Url::build_canonical(input, "", &at, class),
        Err(stop) => {
            if let Some(Some(s)) = crate::preprocess::trim_ends(input) {
                return parse_trimmed(s);
            }
            parse_after_stop(input, &stop)
        }
    }
}

/// The stages on `input`, which the recognizer of canonical input read as
/// far as `stop` says. When it stopped before the path, in the scheme or
/// the authority, its pass in `AUTHORITY` mode reads them again whatever
/// the case of their letters (`fast::authority_stop`): most such URLs
/// have an uppercase scheme or host, a default port or an empty path, and
/// parse resumes at their path (`parse::parse_resumed_at`), the record
/// noting that its scheme and host start its canonical form, lowercased
/// when either has an uppercase letter.
#[inline(always)]
fn parse_after_stop(input: &str, stop: &Stop) -> Url {
    if stop.path_start == 0
        && let Some(st) = fast::authority_stop(input.as_bytes(), stop)
    {
        // Lowercased when it read an uppercase scheme (the first pass
        // stopped in it) or host: most such URLs have neither (a default
        // port, an empty path), and canonicalization then copies the
        // prefix as it is.
        let lower = stop.scheme_end == 0 || st.host_upper;
        return crate::parse::parse_resumed_at(input, &st, lower);
    }
    crate::parse::parse_stages_from(input, stop)
}

/// [`parse_text`] of a URL written with white space around it, which
/// preprocessing only trims (`preprocess::only_trimmed`): the parse of the
/// trimmed `s`, which is its own preprocessing, so that the recognizer
/// reads it rather than stopping at a space.
#[inline(never)]
fn parse_trimmed(s: &str) -> Url {
    match fast::layout_or_stop(s.as_bytes()) {
        Ok((at, class)) => Url::build_canonical(s, "", &at, class),
        Err(stop) => parse_after_stop(s, &stop),
    }
}

/// [`resolve`] of an input against `base`. An input that is the string
/// `base` was parsed from (`resolve(parse(s), s)`) is passed as that
/// string, which resolution recognises by its address and which is not
/// decoded again.
#[inline(always)]
pub(crate) fn resolve_input<'a, I: Input<'a>>(base: &Url, input: I) -> Url {
    let s = match base.parse_source() {
        Some(src) if src.as_bytes() == input.bytes() => Cow::Borrowed(src),
        _ => input.text(),
    };
    resolve_text(base, &s)
}

/// [`resolve`]: the fast exits (a URL against its own source, the merge),
/// then the stages.
#[inline(always)]
fn resolve_text(base: &Url, input: &str) -> Url {
    if fast::on()
        && let Some(u) = fast::resolve(base, input)
    {
        return u;
    }
    crate::resolve::resolve(base, input)
}

/// An input that is its own base (`url_to_canon_url` without a base, the
/// bulk call without one): `Ok` with its parse, to resolve it against, or
/// `Err` with that parse when parsing fails. The input's URL is invalid
/// then, and the reason to give is the parse's, the rule that failed:
/// resolving against an invalid base says only "base URL is invalid"
/// (`InvalidReason::InvalidBase`). The bulk call gives the parse's reason
/// itself (`canonicalize::canon_staged`); [`own_base_reason`] gives it for
/// a record made by resolving against the parse.
pub fn own_base(input: &str) -> Result<Url, Url> {
    let parsed = crate::parse(input);
    if parsed.is_invalid() {
        Err(parsed)
    } else {
        Ok(parsed)
    }
}

/// The reason to give for `input` as its own base when the record made by
/// resolving it against its parse (and canonicalizing it) is invalid with
/// `why`: the parse's own reason when the parse failed (see [`own_base`]),
/// else `why`.
///
/// ```
/// use wurl::InvalidReason;
/// let parsed = wurl::parse("a b");
/// let why = wurl::resolve(&parsed, "a b").invalid_reason().unwrap();
/// assert_eq!(why, InvalidReason::InvalidBase);
/// assert_eq!(wurl::own_base_reason("a b", why), parsed.invalid_reason().unwrap());
/// ```
pub fn own_base_reason(input: &str, why: InvalidReason) -> InvalidReason {
    if why != InvalidReason::InvalidBase {
        return why;
    }
    match own_base(input) {
        Err(parsed) => parsed.invalid_reason().unwrap_or(why),
        Ok(_) => why,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An input that is its own base gets one reason whichever road it
    /// takes: the bulk call's, and [`own_base_reason`] of the handle path's
    /// record; and an input whose parse fails gets the parse's reason.
    #[test]
    fn own_base_reason_is_the_bulk_calls() {
        let opts = CanonOptions::default();
        let mut failed = 0;
        for input in crate::testutil::conformance_inputs() {
            let input = input.as_str();
            let mut out = String::new();
            let bulk = canon_into(None, input, &opts, &mut out).err();
            let record = crate::canonicalize(&crate::resolve(&crate::parse(input), input), None);
            let handle = record.invalid_reason().map(|w| own_base_reason(input, w));
            assert_eq!(bulk, handle, "{input:?}");
            if let Err(parsed) = own_base(input) {
                assert_eq!(bulk, parsed.invalid_reason(), "{input:?}");
                failed += 1;
            }
        }
        assert!(failed > 10, "{failed} inputs that do not parse");
    }
}
