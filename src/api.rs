//! The entry layer of the Rust API and the C ABI (which only converts into an `Input` and out of
//! a `Sink`): the one place that calls the fast exits (`fast`, default options only, switched by
//! `fast::on`) or the stages. Fast exits: `canon_own` (recognizer, then the resume road),
//! `canon_other` (merge), [`parse`], [`resolve`] (ARCHITECTURE.md, speed mechanisms, rows 1-4).

use std::borrow::Cow;

use crate::canonicalize::{CanonOptions, ResolvedOptions, canon_staged};
use crate::fast::{self, Stop};
use crate::record::{InvalidReason, Url};
use crate::scratch::{self, Scratch, Used};

/// The input of a call: a Rust string, or the C ABI's bytes (UTF-8 text once decoded).
pub(crate) trait Input<'a>: Copy {
    fn bytes(self) -> &'a [u8];
    /// The input as text when all of its octets are ASCII, else `None`.
    fn ascii(self) -> Option<&'a str>;
    /// The input as text, once [`Input::ascii`] found it not all ASCII.
    fn non_ascii(self) -> Cow<'a, str>;
    fn text(self) -> Cow<'a, str>;
    /// The input from octet `from` on, between ASCII octets (where a fast exit cuts it).
    fn tail(self, from: usize) -> Self;
}

impl<'a> Input<'a> for &'a str {
    #[inline]
    fn bytes(self) -> &'a [u8] {
        self.as_bytes()
    }
    #[inline(always)]
    fn ascii(self) -> Option<&'a str> {
        crate::scan::is_ascii(self.as_bytes()).then_some(self)
    }
    #[inline]
    fn non_ascii(self) -> Cow<'a, str> {
        Cow::Borrowed(self)
    }
    #[inline(always)]
    fn text(self) -> Cow<'a, str> {
        Cow::Borrowed(self)
    }
    #[inline]
    fn tail(self, from: usize) -> Self {
        &self[from..]
    }
}

/// Where the result of a bulk call goes.
pub(crate) trait Sink<I> {
    type Out;
    /// A fast exit's result: `prefix` (of the base's serialization), then `rest` (of the input).
    fn pieces(self, prefix: &str, rest: I) -> Self::Out;
    /// The stages' result: `run` appends the serialization, or says why the URL is invalid (then
    /// appends nothing).
    fn stages(
        self,
        sc: &mut Scratch,
        run: impl FnOnce(&mut String, &mut Scratch) -> Result<(), InvalidReason>,
    ) -> Self::Out;
}

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

/// For a sink that delivers elsewhere (the C ABI): `run` into this thread's buffer, then `f`.
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

/// The bulk call: `input` against `base` (or itself), canonicalized with `opts`, into `sink`.
/// Without a base the query written is the input's: ASCII input is the default call in any
/// ASCII-compatible encoding.
#[inline]
pub(crate) fn canon<'a, I: Input<'a>, S: Sink<I>>(
    base: Option<&Url>,
    input: I,
    opts: &ResolvedOptions,
    sink: S,
) -> S::Out {
    if base.is_none() && opts.default_for(|| input.ascii().is_some()) {
        return canon_own(input, sink);
    }
    canon_other(base, input, opts, sink)
}

/// [`canon`] with a base or other options (any call gives the same result here, by the stages).
#[inline(always)]
pub(crate) fn canon_other<'a, I: Input<'a>, S: Sink<I>>(
    base: Option<&Url>,
    input: I,
    opts: &ResolvedOptions,
    sink: S,
) -> S::Out {
    // The merge's query is the canonical base's (ASCII) or the input's.
    if let Some(base) = base
        && fast::on()
        && opts.default_for(|| crate::scan::is_ascii(input.bytes()))
        && let Some((ser, m)) = fast::merge_with(base, input.bytes())
    {
        return sink.pieces(&ser[..m.keep], input.tail(m.skip));
    }
    let text = input.text();
    scratch::with(Used::ALL, |sc| {
        sink.stages(sc, |out, sc| canon_staged(base, &text, opts, out, sc))
    })
}

/// [`canon`] without a base, default options; called directly by the C ABI for these common calls.
/// Always inlined: with more than one caller the compiler would make it a call of its own, which
/// costs the common C call about 30 instructions (speed mechanisms, row 15).
#[inline(always)]
pub(crate) fn canon_own<'a, I: Input<'a>, S: Sink<I>>(input: I, sink: S) -> S::Out {
    // The recognizer accepts ASCII only: no ASCII test first. `stop` is read in place (`resume`).
    if !fast::on() {
        let text = input.text();
        return scratch::with(Used::ALL, |sc| {
            sink.stages(sc, |out, sc| {
                canon_staged(None, &text, &ResolvedOptions::DEFAULT, out, sc)
            })
        });
    }
    match fast::scan_ascii(input.bytes()) {
        Ok(()) => sink.pieces("", input),
        Err(stop) => canon_resumed(input, &stop, sink),
    }
}

/// [`canon_own`] on input the recognizer rejected at `stop`: the stages resumed there (the resume
/// road), or from the start. A call of its own, so that the accepting call stays small and this
/// one keeps its buffers' access inlined.
#[inline(never)]
fn canon_resumed<'a, I: Input<'a>, S: Sink<I>>(input: I, stop: &Stop, sink: S) -> S::Out {
    let (text, stop) = match input.ascii() {
        Some(s) => (Cow::Borrowed(s), stop),
        // Its stop holds in the text when decoding kept the octets (valid UTF-8), not when it
        // replaced invalid sequences: then the stages from the start.
        None => match input.non_ascii() {
            Cow::Borrowed(t) => (Cow::Borrowed(t), stop),
            text => (text, &Stop::NONE),
        },
    };
    let opts = ResolvedOptions::DEFAULT;
    // The resume road writes few buffers (`Used::RESUME`) unless the stages ran. The closure is
    // inlined by hand: called from two places, the compiler would not (speed mechanisms, row 8).
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

/// Whether a fast exit answers the default bulk call (for the differential and the benchmark).
#[doc(hidden)]
pub fn fast_exit_taken(base: Option<&Url>, input: &str) -> bool {
    match base {
        None => fast::is_canonical(input.as_bytes()),
        Some(b) => fast::merge_with(b, input.as_bytes()).is_some(),
    }
}

/// Which of the handle path's fast exits answer `resolve(parse(base), input)` and its
/// canonicalization (`base`: `input` when `None`), default options (for the differential's report
/// that its cases put each of them to work).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandleExits {
    /// The parse was the recognizer's: a record noted canonical, or one resumed where the
    /// recognizer stopped, its canonical prefix noted.
    pub parse: bool,
    /// Resolution was a fast exit's: the URL's own resolution, or the merge.
    pub resolve: bool,
    /// Canonicalization was a fast exit's: a record noted canonical, or the prefix road.
    pub canonicalize: bool,
}

/// [`HandleExits`] of `input` against `base`.
#[doc(hidden)]
pub fn handle_exits_taken(base: Option<&str>, input: &str) -> HandleExits {
    let b = parse_text(base.unwrap_or(input));
    let fast_resolved = fast::resolve(&b, input);
    let resolved = match &fast_resolved {
        Some(u) => u.clone(),
        None => crate::resolve::resolve(&b, input),
    };
    HandleExits {
        parse: fast::noted(&b),
        resolve: fast_resolved.is_some(),
        canonicalize: fast::canonicalize(&resolved).is_some(),
    }
}

/// Whether the recognizer accepts `s` (`canonical_form::is_canonical`).
#[doc(hidden)]
pub fn is_canonical(s: &[u8]) -> bool {
    fast::is_canonical(s)
}

#[cfg(feature = "differential")]
pub use crate::fast::set_fast_exits;

/// The bulk path: `input` resolved against `base` (or itself, like `url_to_canon_url`),
/// canonicalized and appended to `out`; the reason when invalid (nothing appended). The stages of
/// [`crate::resolve()`] and [`crate::canonicalize()`], with no allocation beyond `out`'s growth.
pub fn canon_into(
    base: Option<&Url>,
    input: &str,
    opts: &CanonOptions,
    out: &mut String,
) -> Result<(), InvalidReason> {
    canon(base, input, &opts.resolve(), out)
}

/// [`canon_into`] with the options resolved: for many calls with one charset label, resolved once.
/// ```
/// let opts = wurl::CanonOptions { charset: Some("shift_jis"), ..Default::default() }.resolve();
/// let page = wurl::parse("http://example.jp/dir/");
/// let mut out = String::new();
/// wurl::canon_into_resolved(Some(&page), "a?q=\u{65E5}", &opts, &mut out).unwrap();
/// assert_eq!(out, "http://example.jp/dir/a?q=%93%FA");
/// ```
pub fn canon_into_resolved(
    base: Option<&Url>,
    input: &str,
    opts: &ResolvedOptions,
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
    /// The WHATWG URL Standard's parser and serializer ([`crate::standard`]).
    UrlStandard,
}

impl Model {
    /// The model named `2012` or `url-standard` (ASCII case-insensitive), as the CLI spells it.
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

/// [`canon_standard_into`] for any `Input`; no fast exits, no 2012 stages.
pub(crate) fn canon_standard<'a, I: Input<'a>>(
    base: Option<&str>,
    input: I,
    charset: Option<&str>,
    out: &mut String,
) -> Result<(), crate::standard::Invalid> {
    crate::standard::canon_into(base, &input.text(), charset, out)
}

/// [`canon_into`] in the URL Standard model ([`crate::standard`]): `input` parsed against `base`
/// (a URL string, or none), serialized into `out`; `charset`: query encoding (`None`: UTF-8).
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

/// Parses `input` into a [`Url`] with raw, uncanonicalized components ("steps to parse a URL").
pub fn parse(input: &str) -> Url {
    parse_text(input)
}

/// Resolves `input` against `base` ("steps to resolve a URL"); not canonicalized.
pub fn resolve(base: &Url, input: &str) -> Url {
    resolve_text(base, input)
}

/// Canonicalizes `url`, query encoded in `charset` (`None`: UTF-8) ("steps to canonicalize a URL").
pub fn canonicalize(url: &Url, charset: Option<&str>) -> Url {
    let opts = CanonOptions {
        charset,
        network_strict: false,
    };
    canonicalize_with(url, &opts)
}

/// Canonicalizes `url` with `opts`; an invalid result keeps the components of its input. With the
/// default options a record the fast exits noted takes their road (`fast::canonicalize`).
pub fn canonicalize_with(url: &Url, opts: &CanonOptions) -> Url {
    canonicalize_resolved(url, &opts.resolve())
}

/// [`canonicalize_with`] with the options resolved. The fast exits answer for the default
/// options, and for these too when the query to write is ASCII (a known canonical URL's is) in an
/// ASCII-compatible encoding (`ResolvedOptions::default_for`).
pub fn canonicalize_resolved(url: &Url, opts: &ResolvedOptions) -> Url {
    if fast::on()
        && opts.default_for(|| url.query().is_none_or(str::is_ascii))
        && let Some(u) = fast::canonicalize(url)
    {
        return u;
    }
    crate::canonicalize::canonicalize_resolved(url, opts)
}

#[inline]
pub(crate) fn parse_input<'a, I: Input<'a>>(input: I) -> Url {
    match input.ascii() {
        Some(s) => parse_text(s),
        None => parse_text(&input.non_ascii()),
    }
}

/// [`parse`]: the recognizer, then the stages from where it stopped (at the first non-ASCII octet
/// at the latest; preprocessing leaves the ASCII it read as it is).
pub(crate) fn parse_text(input: &str) -> Url {
    if !fast::on() {
        return crate::parse::parse_stages(input);
    }
    match fast::layout_or_stop(input.as_bytes()) {
        Ok((at, class)) => fast::canonical_url(input, "", &at, class),
        Err(stop) => {
            if let Some(Some(s)) = crate::preprocess::trim_ends(input) {
                return parse_trimmed(s);
            }
            parse_after_stop(input, &stop)
        }
    }
}

/// The stages on `input` after `stop`. Stopped before the path, the recognizer reads scheme and
/// authority again in any case (`fast::authority_stop`), and parse resumes at the path.
#[inline(always)]
fn parse_after_stop(input: &str, stop: &Stop) -> Url {
    if stop.path_start == 0
        && let Some(st) = fast::authority_stop(input.as_bytes(), stop)
    {
        // The prefix is lowercased when the scheme (the first pass stopped in it) or host is not.
        let lower = stop.scheme_end == 0 || st.host_upper;
        return fast::parse_resumed_at(input, &st, lower);
    }
    fast::parse_from(input, stop)
}

/// [`parse_text`] of a URL that preprocessing only trims: `s` trimmed, for the recognizer to read.
#[inline(never)]
fn parse_trimmed(s: &str) -> Url {
    match fast::layout_or_stop(s.as_bytes()) {
        Ok((at, class)) => fast::canonical_url(s, "", &at, class),
        Err(stop) => parse_after_stop(s, &stop),
    }
}

/// [`resolve`]; the string `base` was parsed from is passed as is, known by its address.
#[inline]
pub(crate) fn resolve_input<'a, I: Input<'a>>(base: &Url, input: I) -> Url {
    let s = match base.parse_source() {
        Some(src) if src.as_bytes() == input.bytes() => Cow::Borrowed(src),
        _ => input.text(),
    };
    resolve_text(base, &s)
}

#[inline]
fn resolve_text(base: &Url, input: &str) -> Url {
    if fast::on()
        && let Some(u) = fast::resolve(base, input)
    {
        return u;
    }
    crate::resolve::resolve(base, input)
}

/// An input as its own base: `Ok` with its parse, or `Err` with it when parsing fails (the URL is
/// invalid for the parse's reason, not `InvalidBase`: see [`own_base_reason`]).
pub fn own_base(input: &str) -> Result<Url, Url> {
    let parsed = crate::parse(input);
    if parsed.is_invalid() {
        Err(parsed)
    } else {
        Ok(parsed)
    }
}

/// The reason to give for `input` as its own base when its resolution against its parse is invalid
/// with `why`: the parse's own reason when the parse failed (see [`own_base`]), else `why`.
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

/// The recognizer's block runs against its octet loops on `s` (`fast::runs_agree`), merging
/// against its bases as this layer parses them. For the tests and the `recognize` fuzz target.
#[cfg(feature = "differential")]
#[doc(hidden)]
pub fn runs_agree(s: &[u8]) -> Result<(), String> {
    fast::runs_agree(s, &fast::AGREE_BASES.map(parse))
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
