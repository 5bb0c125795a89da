//! "Steps to canonicalize a URL" (spec section "Canonicalization"): a record's parts are read and
//! the canonical serialization written in one pass, component by component, into one buffer,
//! noting where each component is. A component's fast path falls back to the full steps for what
//! it cannot decide (ARCHITECTURE.md, speed mechanisms, row 6). The bulk call, the handle path and
//! the Rust API all run this one implementation.

use std::borrow::Cow;

use encoding_rs::Encoding;

use crate::charset::{Charset, encode_query_into};
use crate::path::{
    Appended, DotWriter, PATH_COPY, decode_file_slashes_into, drive_spec_len, has_slash_escape,
    needs_dot_removal, remove_dot_segments_into, remove_dots, starts_with_slash,
};
use crate::percent::{
    self, FRAGMENT, OPAQUE_PATH, PATH, QUERY, USERINFO, decode_unreserved_into, encode_utf8_into,
    escape_at, is_unreserved,
};
use crate::record::{
    Authority, Component, Flags, InvalidReason, Known, Note, Parts, Serialization, Span, Url,
};
use crate::scheme::{Scheme, canonical_port};
use crate::scratch::{Scratch, Work};
use crate::serialize::Layout;
use crate::trace::{Observe, Stage};

/// Options of canonicalization, as a caller writes them: the charset is a label. Each call resolves
/// the label once, at its entry ([`CanonOptions::resolve`]); a caller that canonicalizes many URLs
/// with one label can resolve it once itself and pass the [`ResolvedOptions`].
#[derive(Clone, Copy, Debug, Default)]
pub struct CanonOptions<'a> {
    /// Encoding label for the query (the document's encoding); `None` = UTF-8.
    pub charset: Option<&'a str>,
    /// `WURL_FLAG_NETWORK_STRICT`.
    pub network_strict: bool,
}

impl CanonOptions<'_> {
    /// These options with the label resolved (an unknown label means UTF-8, the 2012 rule; to
    /// refuse one, resolve it with [`resolve_label`](crate::charset::resolve_label) and use
    /// [`ResolvedOptions::new`]).
    #[inline]
    pub fn resolve(&self) -> ResolvedOptions {
        let charset = self
            .charset
            .map(|l| crate::charset::lookup(l.as_bytes()).unwrap_or(Charset::UTF_8));
        ResolvedOptions::new(charset, self.network_strict)
    }
}

impl From<&CanonOptions<'_>> for ResolvedOptions {
    fn from(o: &CanonOptions<'_>) -> Self {
        o.resolve()
    }
}

/// [`CanonOptions`] with the charset resolved into the encoding the query is written in: what every
/// call reads, made once at the entry of each interface. Two labels of one query encoding make
/// equal options (`"utf-8"`, `" UTF8 "`, `"utf-16le"` and no label all write the query in UTF-8,
/// and take every fast exit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResolvedOptions {
    query: QueryEncoding,
    network_strict: bool,
}

/// The query's encoding, by what the fast exits may assume of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum QueryEncoding {
    /// UTF-8, the default options' encoding.
    Utf8,
    /// ASCII-compatible and not UTF-8 (windows-1252, Shift_JIS, ...): it encodes an ASCII query as
    /// UTF-8 does (an ASCII character as its own octet, `%` kept as it is), so the default
    /// options' result is its result when the query written is ASCII.
    Ascii(&'static Encoding),
    /// ISO-2022-JP (stateful, ASCII-compatible for the spec's query steps but not in the Encoding
    /// Standard): even an ASCII query may not be written as UTF-8 writes it (ESC, SO and SI are
    /// unmappable), so only the stages write it.
    Other(&'static Encoding),
}

impl Default for ResolvedOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl ResolvedOptions {
    /// The default options: the query in UTF-8, not network-strict.
    pub(crate) const DEFAULT: ResolvedOptions = ResolvedOptions {
        query: QueryEncoding::Utf8,
        network_strict: false,
    };

    /// The options of a resolved charset (`None`: UTF-8; the query is written in its
    /// [`Charset::query_encoding`](Charset::query_encoding)) and the
    /// network-strict flag.
    #[inline]
    pub fn new(charset: Option<Charset>, network_strict: bool) -> Self {
        let query = match charset.map(Charset::query_encoding) {
            None => QueryEncoding::Utf8,
            Some(e) if e == encoding_rs::UTF_8 => QueryEncoding::Utf8,
            Some(e) if e.is_ascii_compatible() => QueryEncoding::Ascii(e),
            Some(e) => QueryEncoding::Other(e),
        };
        ResolvedOptions {
            query,
            network_strict,
        }
    }

    /// The encoding a hierarchical URL's query is written in.
    #[inline]
    pub fn query_encoding(&self) -> &'static Encoding {
        match self.query {
            QueryEncoding::Utf8 => encoding_rs::UTF_8,
            QueryEncoding::Ascii(e) | QueryEncoding::Other(e) => e,
        }
    }

    /// `WURL_FLAG_NETWORK_STRICT`.
    #[inline]
    pub fn network_strict(&self) -> bool {
        self.network_strict
    }

    /// Whether these options give the default options' result for every input, so that the fast
    /// exits (`fast`), which decide for the default options, decide for them: the query in UTF-8
    /// (whichever label said so), not network-strict.
    #[inline(always)]
    pub(crate) fn is_default(&self) -> bool {
        matches!(self.query, QueryEncoding::Utf8) && !self.network_strict
    }

    /// [`is_default`](Self::is_default), or, for an ASCII-compatible query encoding, whether
    /// `query_ascii` says the query canonicalization writes is ASCII (which that encoding writes
    /// as UTF-8 does). `query_ascii` runs only in that case.
    #[inline(always)]
    pub(crate) fn default_for(&self, query_ascii: impl FnOnce() -> bool) -> bool {
        self.is_default()
            || matches!(self.query, QueryEncoding::Ascii(_))
                && !self.network_strict
                && query_ascii()
    }
}

/// Canonicalizes `url` with the query encoding `charset` (`None` = UTF-8).
pub fn canonicalize(url: &Url, charset: Option<&str>) -> Url {
    canonicalize_with(
        url,
        &CanonOptions {
            charset,
            network_strict: false,
        },
    )
}

pub use crate::scheme::default_port;

/// Canonicalizes `url` with `opts`; the input is untouched. An invalid
/// result keeps the components of its input.
pub fn canonicalize_with(url: &Url, opts: &CanonOptions) -> Url {
    canonicalize_resolved(url, &opts.resolve())
}

/// [`canonicalize_with`] with the options resolved.
pub fn canonicalize_resolved(url: &Url, opts: &ResolvedOptions) -> Url {
    if url.is_invalid() {
        return url.clone();
    }
    crate::scratch::with(crate::scratch::Used::CANONICALIZE, |sc| {
        let Scratch { canon, work, .. } = sc;
        // Room for the present size, which the canonical one most often has: doubling from the
        // capacity kept would make a huge URL's peak memory depend on the URLs before it.
        canon.clear();
        canon.reserve(url.serialization_len());
        let mut at = [Span::NONE; 8];
        let p = url.parts();
        if let Err(why) = canonicalize_into(&p, opts, canon, &mut at, work) {
            let mut q = p;
            q.set_invalid(why);
            q.known = Known::default();
            return crate::serialize::build(&q);
        }
        // Already canonical: share the input's record (same raw authority and flag, valid).
        if url.same_serialized(&at, canon) {
            return url.clone();
        }
        canonical_record(
            canon,
            &at,
            Authority::Raw(p.authority),
            p.class,
            p.hierarchical,
        )
    })
}

/// Canonicalizes `url` as [`canonicalize_with`] does (with `opts`' flags, not its charset), with
/// two of the record's inputs given by the caller, as the 2012 module's drop-in needs them:
///
/// - `hierarchical`: the /hierarchical/ flag to use (`None`: the record's own), as the module
///   reads it from its hash, which a caller may have made or edited;
/// - `query`: the query's characters as octets in the document's encoding (spec "Percent-encoding"
///   steps 3 to 5 done by the caller), which step 6 percent-encodes with the query's set; `None`:
///   the query in UTF-8. Used only for a hierarchical URL with a query (others are UTF-8).
pub fn canonicalize_as(
    url: &Url,
    hierarchical: Option<bool>,
    query: Option<&[u8]>,
    opts: &CanonOptions,
) -> Url {
    let utf8 = ResolvedOptions::new(None, opts.network_strict);
    let p = url.parts();
    let mut q = p;
    if let Some(h) = hierarchical {
        q.hierarchical = h;
    }
    let octets = query.filter(|_| q.hierarchical && q.query.is_some());
    if url.is_invalid() || (q.hierarchical == p.hierarchical && octets.is_none()) {
        return canonicalize_resolved(url, &utf8);
    }
    // Percent-encoded, the octets are ASCII that the query's UTF-8 step leaves as it is.
    let mut encoded = String::new();
    if let Some(o) = octets {
        percent::encode_bytes_into(o, &QUERY, &mut encoded);
        q.query = Some(&encoded);
    }
    crate::scratch::with(crate::scratch::Used::CANONICALIZE, |sc| {
        let Scratch { canon, work, .. } = sc;
        canon.clear();
        let mut at = [Span::NONE; 8];
        if let Err(why) = canonicalize_into(&q, &utf8, canon, &mut at, work) {
            let mut r = p;
            r.hierarchical = q.hierarchical;
            r.set_invalid(why);
            r.known = Known::default();
            return crate::serialize::build(&r);
        }
        if q.hierarchical == p.hierarchical && url.same_serialized(&at, canon) {
            return url.clone();
        }
        canonical_record(
            canon,
            &at,
            Authority::Raw(p.authority),
            p.class,
            q.hierarchical,
        )
    })
}

/// The record of a valid URL canonicalization wrote into `canon` (components at `at`), with the
/// raw authority and flag given (`serialize::build` of those parts, written directly).
#[inline]
pub(crate) fn canonical_record(
    canon: &mut String,
    at: &[Span; 8],
    authority: Authority,
    class: Scheme,
    hierarchical: bool,
) -> Url {
    Url::from_serialization(
        Serialization::Written(canon),
        at,
        authority,
        Flags::valid(class, hierarchical, false, Note::NONE),
    )
}

/// The decimal digits of the port `v`, appended to `out`.
pub(crate) fn push_port(out: &mut String, mut v: u32) {
    let mut digits = [0u8; 10];
    let mut k = digits.len();
    loop {
        k -= 1;
        digits[k] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &d in &digits[k..] {
        out.push(char::from(d));
    }
}

/// "Steps to canonicalize a URL" on `u` (valid): the canonical serialization into `out` (cleared
/// first), where its components are into `at` ([`canonical_parts`] makes `Parts` of them).
pub(crate) fn canonicalize_into(
    u: &Parts,
    opts: &ResolvedOptions,
    out: &mut String,
    at: &mut [Span; 8],
    work: &mut Work,
) -> Result<(), InvalidReason> {
    canonicalize_into_with(u, opts, out, at, work, &mut ())
}

/// [`canonicalize_into`], each step reported to `obs`.
#[inline(always)]
fn canonicalize_into_with<O: Observe>(
    u: &Parts,
    opts: &ResolvedOptions,
    out: &mut String,
    at: &mut [Span; 8],
    work: &mut Work,
    obs: &mut O,
) -> Result<(), InvalidReason> {
    out.clear();
    *at = [Span::NONE; 8];
    write_canonical(u, opts, out, at, work, obs)?;
    if opts.network_strict
        && let Some(why) =
            crate::strict::check(&crate::serialize::build(&canonical_parts(u, out, at)))
    {
        return Err(why);
    }
    Ok(())
}

/// The canonical parts [`canonicalize_into`] wrote for `u` into `out` at `at`; the raw authority
/// and the flag are `u`'s.
fn canonical_parts<'o>(u: &Parts<'o>, out: &'o str, at: &[Span; 8]) -> Parts<'o> {
    let g = |c: Component| at[c].get(out);
    Parts {
        scheme: g(Component::Scheme),
        class: u.class,
        user: g(Component::User),
        password: g(Component::Password),
        host: g(Component::Host),
        port: g(Component::Port),
        path: g(Component::Path),
        query: g(Component::Query),
        fragment: g(Component::Fragment),
        authority: u.authority,
        invalid: None,
        hierarchical: u.hierarchical,
        known: Known::default(),
        cache: None,
    }
}

/// The steps with the default options after the host of `u`, a URL that is not `file:`: the parts
/// of `kept` after its host (`kept.port` present when the port rules keep `port`), each written by
/// its rule ([`CanonWrite`], the first `path_ok` octets of the path copied as they are) where
/// [`walk_after_host`](crate::serialize::walk_after_host) puts it, appended to `out`, with where
/// each went in `at`.
#[inline(always)]
pub(crate) fn write_after_host(
    u: &Parts,
    kept: &Parts,
    port: Option<u32>,
    path_ok: usize,
    out: &mut String,
    at: &mut [Span; 8],
    work: &mut Work,
) {
    let mut w = CanonWrite {
        u,
        info: u.class,
        file: false,
        port: Ok(port),
        opts: &ResolvedOptions::DEFAULT,
        out,
        at,
        path_ok,
        a: &mut work.a,
        b: &mut work.b,
        err: None,
        obs: &mut (),
    };
    crate::serialize::walk_after_host(kept, &mut w);
}

/// How many records the full canonicalization steps ([`write_canonical`]) wrote on this thread:
/// a call that a fast exit answered adds none (tests, the `differential` feature).
#[cfg(any(test, feature = "differential"))]
#[doc(hidden)]
pub fn full_steps_run() -> u64 {
    FULL_STEPS.with(std::cell::Cell::get)
}

#[cfg(any(test, feature = "differential"))]
thread_local! {
    static FULL_STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// "Steps to canonicalize a URL" on `u`, appended to `out` with where each component went in
/// `at`: the parts it keeps ([`kept_parts`]), each written by its rule ([`CanonWrite`]). The first
/// step that fails gives the reason: `file:`'s HOSTPATH, then CanonicalizeHost, then the port.
/// `obs` sees each step that changes a component.
fn write_canonical<O: Observe>(
    u: &Parts,
    opts: &ResolvedOptions,
    out: &mut String,
    at: &mut [Span; 8],
    work: &mut Work,
    obs: &mut O,
) -> Result<(), InvalidReason> {
    #[cfg(any(test, feature = "differential"))]
    FULL_STEPS.with(|n| n.set(n.get() + 1));
    let info = u.class;
    let port = canonical_port(u.port, info.default_port);
    // `file:`'s HOSTPATH runs first (into `work`): it may move a host into the path and back.
    let file = info.is_file();
    if file {
        let rounds = file_hostpath(u.host, u.path, work)?;
        if O::ON {
            let what =
                format!("file: HOSTPATH ({rounds} round(s), CanonicalizeHost and the path rules)");
            if u.host != Some(work.host.as_str()) {
                obs.step(Stage::Host, &what, u.host, Some(&work.host));
            }
            if u.path != Some(work.path.as_str()) {
                obs.step(Stage::Path, &what, u.path, Some(&work.path));
            }
        }
    }
    let Work { host, path, a, b } = work;
    let kept = kept_parts(u, &port, file.then_some((host.as_str(), path.as_str())));
    if O::ON {
        observe_kept(u, &kept, &port, obs);
    }
    let mut w = CanonWrite {
        u,
        info,
        file,
        port,
        opts,
        out,
        at,
        path_ok: 0,
        a,
        b,
        err: None,
        obs,
    };
    crate::serialize::walk(&kept, &mut w);
    w.err.map_or(Ok(()), Err)
}

/// The components canonicalization writes of `u`: an empty password is removed, then an empty
/// user without a password; the port stays when the port rules (`port`) keep one or fail (the walk
/// stops there); `file_hostpath` replaces a `file:` URL's host and path; a hierarchical URL
/// without a path has an empty one (its path rule writes `/`).
#[inline]
pub(crate) fn kept_parts<'a>(
    u: &Parts<'a>,
    port: &Result<Option<u32>, InvalidReason>,
    file_hostpath: Option<(&'a str, &'a str)>,
) -> Parts<'a> {
    let password = u.password.filter(|p| !p.is_empty());
    let (host, path) = match file_hostpath {
        Some((h, p)) => (Some(h), Some(p)),
        None => (u.host, u.path.or(u.hierarchical.then_some(""))),
    };
    Parts {
        scheme: u.scheme,
        class: u.class,
        user: u.user.filter(|s| !s.is_empty() || password.is_some()),
        password,
        host,
        port: u.port.filter(|_| !matches!(port, Ok(None))),
        path,
        query: u.query,
        fragment: u.fragment,
        ..Parts::default()
    }
}

/// Reports what [`kept_parts`] removed of `u`: the port the port rules drop, an empty password,
/// an empty user.
fn observe_kept<O: Observe>(
    u: &Parts,
    kept: &Parts,
    port: &Result<Option<u32>, InvalidReason>,
    obs: &mut O,
) {
    if u.password.is_some() && kept.password.is_none() {
        obs.step(Stage::Password, "empty password removed", u.password, None);
    }
    if u.user.is_some() && kept.user.is_none() {
        obs.step(
            Stage::User,
            "empty user removed (no password)",
            u.user,
            None,
        );
    }
    if let Some(p) = u.port
        && kept.port.is_none()
    {
        let what = if p.is_empty() {
            "empty port removed".to_owned()
        } else {
            match (port, u.class.default_port) {
                (Ok(None), Some(d)) => format!("default port {d} dropped"),
                _ => "port removed".to_owned(),
            }
        };
        obs.step(Stage::Port, &what, Some(p), None);
    }
    if u.path.is_none() && kept.path == Some("") {
        obs.step(
            Stage::Path,
            "a hierarchical URL without a path gets one",
            None,
            Some(""),
        );
    }
}

/// Each component given by [`kept_parts`] written into `out` by its rule, its place noted in `at`.
/// A step that fails stops the walk, its reason kept in `err`. `obs` sees each component's change.
struct CanonWrite<'w, 'u, O: Observe = ()> {
    /// The record canonicalized: its flag and known host.
    u: &'w Parts<'u>,
    /// The canonical scheme's kind and default port.
    info: Scheme,
    /// A `file:` URL: the host and path given are HOSTPATH's canonical ones, copied as they are.
    file: bool,
    /// The port rules' result.
    port: Result<Option<u32>, InvalidReason>,
    opts: &'w ResolvedOptions,
    out: &'w mut String,
    at: &'w mut [Span; 8],
    /// How many octets at the start of the path the path rules copy as they are (known before).
    path_ok: usize,
    /// Working space of the path rules.
    a: &'w mut String,
    b: &'w mut String,
    err: Option<InvalidReason>,
    obs: &'w mut O,
}

impl<O: Observe> Layout for CanonWrite<'_, '_, O> {
    #[inline]
    fn lit(&mut self, l: &'static str) -> Option<()> {
        self.out.push_str(l);
        Some(())
    }

    #[inline(always)]
    fn comp(&mut self, which: Component, c: &str) -> Option<()> {
        let start = self.out.len();
        let done = match which {
            Component::Scheme => {
                // Scheme: lowercase.
                self.out.push_str(c);
                if c.bytes().any(|c| c.is_ascii_uppercase()) {
                    self.out[start..].make_ascii_lowercase();
                }
                Ok(())
            }
            Component::User | Component::Password => {
                encode_utf8_into(c, &USERINFO, self.out);
                Ok(())
            }
            Component::Host => self.host(c),
            Component::Port => self.port.map(|p| {
                if let Some(p) = p {
                    push_port(self.out, p);
                }
            }),
            Component::Path => {
                self.path(c, start);
                Ok(())
            }
            Component::Query => {
                let enc = if self.u.hierarchical {
                    self.opts.query_encoding()
                } else {
                    encoding_rs::UTF_8
                };
                encode_query_into(c, enc, &QUERY, self.out);
                Ok(())
            }
            Component::Fragment => {
                fragment_into(c, self.out);
                Ok(())
            }
        };
        if let Err(e) = done {
            if O::ON {
                self.obs
                    .step(STAGES[which as usize], e.as_str(), Some(c), None);
            }
            self.err = Some(e);
            return None;
        }
        self.at[which] = Span::new(start, self.out.len());
        if O::ON {
            self.observe(which as usize, c, start);
        }
        Some(())
    }
}

/// The stage of each component, in `wurl_component` order.
const STAGES: [Stage; 8] = [
    Stage::Scheme,
    Stage::User,
    Stage::Password,
    Stage::Host,
    Stage::Port,
    Stage::Path,
    Stage::Query,
    Stage::Fragment,
];

impl<O: Observe> CanonWrite<'_, '_, O> {
    /// Reports component `i`, `c` before its rule, when its rule changed it (written from `start`).
    /// The host and the hierarchical path report their own steps as they take them.
    #[inline(never)]
    fn observe(&mut self, i: usize, c: &str, start: usize) {
        let after = &self.out[start..];
        if after == c {
            return;
        }
        let what = match i {
            0 => "lower case".to_owned(),
            1 | 2 => "percent-encoded (the user-info set)".to_owned(),
            3 if self.file => return,
            3 if self.u.known.host.is_some() => {
                "the base's canonical host (CanonicalizeHost, known)".to_owned()
            }
            3 => return,
            4 => "leading zeros removed".to_owned(),
            5 if self.file || self.u.hierarchical => return,
            5 if self.info.is_mailto() => {
                "mailto: escapes of unreserved characters decoded, then percent-encoded (the path set)"
                    .to_owned()
            }
            5 => "percent-encoded (the opaque path set)".to_owned(),
            6 => {
                let enc = if self.u.hierarchical {
                    self.opts.query_encoding()
                } else {
                    encoding_rs::UTF_8
                };
                format!("encoded as {}, then percent-encoded (the query set)", enc.name())
            }
            _ => "C0 and C1 controls, SPACE, DEL and non-ASCII percent-encoded (the fragment set)"
                .to_owned(),
        };
        self.obs.step(STAGES[i], &what, Some(c), Some(after));
    }

    /// The host `h`: CanonicalizeHost (or `file:`'s canonical host).
    #[inline]
    fn host(&mut self, h: &str) -> Result<(), InvalidReason> {
        if self.file {
            self.out.push_str(h);
            return Ok(());
        }
        // A host copied from a base whose canonical host is known.
        match (self.u.known.host, self.u.known.err) {
            (Some(k), _) => self.out.push_str(k),
            (None, Some(e)) => return Err(e),
            (None, None) => crate::host::host_into_with(h, false, self.out, self.obs)?,
        }
        Ok(())
    }

    /// The path `p`, written from `start` by the hierarchical, `mailto:`
    /// or opaque path rules (or `file:`'s canonical path).
    #[inline(always)]
    fn path(&mut self, p: &str, start: usize) {
        let out = &mut *self.out;
        if self.file {
            out.push_str(p);
        } else if self.u.hierarchical {
            if O::ON {
                hierarchical_path_observed(p, out, self.a, self.b, self.obs);
            } else {
                hierarchical_path_from(p, self.path_ok, false, out, self.a, self.b);
            }
        } else if self.info.is_mailto() {
            // Not hierarchical: only the escape decoding (to a fixed point) and encoding.
            self.a.clear();
            decode_unreserved_into(p, self.a);
            encode_utf8_into(self.a, &PATH, out);
        } else {
            encode_utf8_into(p, &OPAQUE_PATH, out);
            // Ending the serialization, it loses its trailing spaces, which the steps run again
            // would trim (docs/DIFFERENCES.md, "Where wurl differs from the 2012 module").
            if self.u.query.is_none() && self.u.fragment.is_none() {
                let kept = out[start..].trim_end_matches(' ').len();
                out.truncate(start + kept);
            }
        }
        // The "/." prefix (NOTES.md: for schemes not in the non-hierarchical list, without user,
        // password, port or non-empty host): without it, the path would read as an authority.
        let at = &*self.at;
        if !self.info.is_non_hierarchical()
            && at[Component::User] == Span::NONE
            && at[Component::Password] == Span::NONE
            && at[Component::Port] == Span::NONE
            && at[Component::Host].is_absent_or_empty()
            && out.as_bytes()[start..].starts_with(b"//")
        {
            out.insert_str(start, "/.");
            if O::ON {
                self.obs.step(
                    Stage::Path,
                    "\"/.\" prefixed (without an authority, \"//\" would read as one)",
                    Some(&out[start + 2..]),
                    Some(&out[start..]),
                );
            }
        }
    }
}

/// The canonical fragment `f`, appended to `out`: C1 controls as UTF-8
/// escapes, then C0 and DEL.
#[inline(always)]
pub(crate) fn fragment_into(f: &str, out: &mut String) {
    // C1 controls are U+0080..U+009F, `C2 80`..`C2 9F` in UTF-8.
    let has_c1 = !f.is_ascii()
        && memchr::memchr_iter(0xC2, f.as_bytes())
            .any(|i| f.as_bytes().get(i + 1).is_some_and(|&b| b < 0xA0));
    if has_c1 {
        for c in f.chars() {
            if ('\u{80}'..='\u{9F}').contains(&c) {
                percent::push_char_escaped(out, c);
            } else if (c as u32) < 0x20 || c == '\u{7F}' {
                percent::push_escape(out, c as u8);
            } else {
                out.push(c);
            }
        }
    } else {
        encode_utf8_into(f, &FRAGMENT, out);
    }
}

/// Whether a `file:` host is a "drive specification", its suffix required (the conformance data
/// reads a lone letter, `file://c/foo`, or `%41` as a host name).
fn is_drive_spec(s: &str) -> bool {
    drive_spec_len(s) == Some(s.len())
}

/// The `file:` host and path steps from HOSTPATH up to CanonicalizeHost: the host and path they
/// give, borrowed when nothing changes.
#[inline]
fn file_host_path<'a>(
    host: Option<&'a str>,
    path: Option<&'a str>,
) -> (Cow<'a, str>, Option<Cow<'a, str>>) {
    if let Some(h) = host.filter(|h| is_drive_spec(h)) {
        let mut p = String::with_capacity(h.len() + 2 + path.map_or(0, str::len));
        p.push('/');
        p.push_str(h);
        if path.is_none_or(|o| !starts_with_slash(o)) {
            p.push('/');
        }
        p.push_str(path.unwrap_or(""));
        return (Cow::Borrowed(""), Some(Cow::Owned(p)));
    }
    let mut host = match host {
        None | Some("localhost") => "",
        Some(h) => h,
    };
    let Some(mut path) = path else {
        return (Cow::Borrowed(host), None);
    };
    let slashes = path
        .bytes()
        .take_while(|&c| c == b'/' || c == b'\\')
        .count();
    if host.is_empty() && slashes >= 3 {
        let rest = &path[slashes..];
        let h = rest.find(['/', '\\']).unwrap_or(rest.len());
        host = &rest[..h];
        path = &rest[h..];
    }
    // An optional slash, a drive specification, then a slash or the end.
    let off = usize::from(starts_with_slash(path));
    if let Some(n) = drive_spec_len(&path[off..]) {
        let after = off + n;
        if after == path.len() || starts_with_slash(&path[after..]) {
            let b = path.as_bytes();
            let letter = if b[off] == b'%' {
                escape_at(b, off).unwrap_or(b'?')
            } else {
                b[off]
            } as char;
            if host == "%3F" {
                host = "";
            }
            // `/c:/...` is already in the form the rule writes.
            let same = off == 1 && n == 2 && b[2] == b':' && after < path.len() && b[after] == b'/';
            if !same {
                let end = (after + 1).min(path.len());
                let mut p = String::with_capacity(path.len() + 2);
                p.push('/');
                p.push(letter);
                p.push_str(":/");
                p.push_str(&path[end..]);
                return (Cow::Borrowed(host), Some(Cow::Owned(p)));
            }
        }
    }
    (Cow::Borrowed(host), Some(Cow::Borrowed(path)))
}

/// The bound on HOSTPATH rounds for `file:` URLs.
pub(crate) const MAX_HOSTPATH_ROUNDS: u32 = 8;

/// The steps from HOSTPATH to the path rules for a `file:` URL, repeated until host and path stop
/// changing (into `work.host` and `work.path`); the rounds run. CanonicalizeHost and the path rules
/// are idempotent, so a later round changes something only when the `file:` steps change the last
/// result; the bound makes termination certain.
fn file_hostpath(
    host: Option<&str>,
    path: Option<&str>,
    work: &mut Work,
) -> Result<u32, InvalidReason> {
    let Work {
        host: host_out,
        path: path_out,
        a,
        b,
    } = work;
    let (mut h, mut p) = file_host_path(host, path);
    let mut rounds = 0;
    loop {
        rounds += 1;
        host_out.clear();
        crate::host::host_into(&h, true, host_out)?;
        path_out.clear();
        match p.as_deref() {
            Some(p) => hierarchical_path_into(p, true, path_out, a, b),
            None => path_out.push('/'),
        }
        let (h2, p2) = file_host_path(Some(host_out.as_str()), Some(path_out.as_str()));
        // Unchanged: most often the very slices given, else equal strings.
        let same = |new: &str, old: &str| std::ptr::eq(new, old) || new == old;
        if (same(&h2, host_out) && p2.as_deref().is_some_and(|p| same(p, path_out)))
            || rounds >= MAX_HOSTPATH_ROUNDS
        {
            return Ok(rounds);
        }
        // Rare: the canonical forms enabled another `file:` step.
        h = Cow::Owned(h2.into_owned());
        p = p2.map(|p| Cow::Owned(p.into_owned()));
    }
}

/// The canonical path of a hierarchical URL ([`hierarchical_path`]) appended to `out`, with a
/// leading `/` (an empty path is `/`). One pass when no escape's decoding can form a new escape
/// with what precedes it and (in `file:`) no `\`, `%2F` or `%5C`: one decoding is then the fixed
/// point, and dot segments are removed as the segments are written. Else the full steps.
pub(crate) fn hierarchical_path_into(
    p: &str,
    file: bool,
    out: &mut String,
    a: &mut String,
    b: &mut String,
) {
    hierarchical_path_from(p, 0, file, out, a, b);
}

/// [`hierarchical_path_into`] of a path whose first `ok` octets (none, or a `/` and more) the path
/// rules copy as they are: copied, the one pass going on after them.
#[inline(always)]
fn hierarchical_path_from(
    p: &str,
    ok: usize,
    file: bool,
    out: &mut String,
    a: &mut String,
    b: &mut String,
) {
    let start = out.len();
    if !p.starts_with('/') {
        out.push('/');
    }
    out.push_str(&p[..ok]);
    if path_pass_from(p, ok, file, out, start).is_ok() {
        return;
    }
    out.truncate(start);
    a.clear();
    if !p.starts_with('/') {
        a.push('/');
    }
    a.push_str(p);
    hierarchical_path(a, b, file);
    encode_utf8_into(a, &PATH, out);
}

/// [`path_pass_from`] stopped short of the end of the path: it needs the full steps
/// ([`hierarchical_path`]).
#[derive(Debug)]
pub(crate) struct NeedsSteps;

/// [`hierarchical_path_from`] (not `file:`, nothing copied) for an observer: the full steps
/// ([`hierarchical_path`]), whose each step `obs` sees, rather than the one pass, which gives the
/// same path (`one_pass_path_matches_full_steps_exhaustively`) but takes all steps at once.
#[inline(never)]
fn hierarchical_path_observed<O: Observe>(
    p: &str,
    out: &mut String,
    a: &mut String,
    b: &mut String,
    obs: &mut O,
) {
    a.clear();
    if !p.starts_with('/') {
        a.push('/');
    }
    a.push_str(p);
    if a.len() != p.len() {
        obs.step(Stage::Path, "leading \"/\" added", Some(p), Some(a));
    }
    hierarchical_path_with(a, b, false, obs);
    let start = out.len();
    encode_utf8_into(a, &PATH, out);
    if out[start..] != **a {
        obs.step(
            Stage::Path,
            "percent-encoded (the path set)",
            Some(a),
            Some(&out[start..]),
        );
    }
}

/// The one pass's writer for "remove dot-segments" ([`remove_dots`]): between dot segments it
/// decodes escapes of unreserved characters and escapes the path set ([`path_octet`]), and stops
/// where it cannot decide alone. Only `/` separates segments (`%2F` stays escaped, `\` is escaped or
/// stops it).
struct OnePass<'a> {
    out: Appended<'a, false, false>,
    file: bool,
}

impl<'a> DotWriter for OnePass<'a> {
    type Out = Appended<'a, false, false>;
    type Stop = NeedsSteps;
    const COPY: &'static [bool; 256] = &PATH_COPY;

    #[inline(always)]
    fn output(&mut self) -> &mut Self::Out {
        &mut self.out
    }

    #[inline(always)]
    fn other(&mut self, i: usize, last: &mut usize) -> Result<usize, NeedsSteps> {
        let Appended { input, out, root } = &mut self.out;
        path_octet(input, i, last, self.file, out, *root)
    }
}

/// The path rules on the octet `p[i]` of a hierarchical path, one the path set's copy table does
/// not copy, not starting a dot segment, with `p[last..i]` not yet written to `out` (the path's `/`
/// at `root`): an escape of an unreserved character decoded, another octet escaped unless it is a
/// `.` or `%` copied as it is. Returns where to go on; `Err` when the one pass cannot decide (a
/// decoded hex digit that may form a new escape, a `file:` `\`, `%2F` or `%5C`).
#[inline(always)]
pub(crate) fn path_octet(
    p: &str,
    i: usize,
    last: &mut usize,
    file: bool,
    out: &mut String,
    root: usize,
) -> Result<usize, NeedsSteps> {
    let b = p.as_bytes();
    let c = b[i];
    match c {
        b'.' => Ok(i + 1),
        // In `file:` a `\` is a separator (resolving again decodes its `%5C`): the full steps.
        // Elsewhere the path set escapes it, below.
        b'\\' if file => Err(NeedsSteps),
        b'%' => match escape_at(b, i) {
            Some(v) if is_unreserved(v) => {
                if *last < i {
                    out.push_str(&p[*last..i]);
                }
                // A decoded hex digit could complete an escape with the `%` or `%X` before it
                // (`%3%35`): the full steps decode to a fixed point. Raw octets are copied
                // and escapes written whole, so the end of `out` shows exactly that case.
                if v.is_ascii_hexdigit() {
                    let w = &out.as_bytes()[root..];
                    let n = w.len();
                    if w.last() == Some(&b'%')
                        || (n >= 2 && w[n - 2] == b'%' && w[n - 1].is_ascii_hexdigit())
                    {
                        return Err(NeedsSteps);
                    }
                }
                // `v` is ASCII (unreserved); the mask tells the compiler.
                out.push(char::from(v & 0x7F));
                *last = i + 3;
                Ok(i + 3)
            }
            Some(b'/' | b'\\') if file => Err(NeedsSteps),
            _ => Ok(i + 1),
        },
        _ => {
            if *last < i {
                out.push_str(&p[*last..i]);
            }
            percent::push_escape(out, c);
            *last = i + 1;
            Ok(i + 1)
        }
    }
}

/// The single pass of [`hierarchical_path_from`] over `p` from octet `from` on (0, or after the
/// path's first octet), `p[..from]` already written in `out`; `root`: where the path's `/` is in
/// `out`. Where the path ends in `p` (its end); `Err` (`out` partial) when it needs the full steps.
/// "Remove dot-segments" ([`remove_dots`]) with the [`OnePass`] writer.
#[inline(always)]
pub(crate) fn path_pass_from(
    p: &str,
    from: usize,
    file: bool,
    out: &mut String,
    root: usize,
) -> Result<usize, NeedsSteps> {
    let mut w = OnePass {
        out: Appended {
            input: p,
            out,
            root,
        },
        file,
    };
    remove_dots(p.as_bytes(), from, &mut w)
}

/// The bound on the rounds of [`hierarchical_path`]. A later round runs only when the last one's
/// decoding made a new `%2F`/`%5C` (in `file:`) or dot segment, and neither step makes a new escape
/// of an unreserved character (removing segments never joins two segments' bytes, and a decoded
/// separator is not a hex digit), so the third round changes nothing; the bound makes that certain.
const MAX_PATH_ROUNDS: usize = 4;

/// The path of a hierarchical URL in its canonical form: the fixed point of what resolving the
/// serialization again would do (spec "steps to resolve a relative URL" steps 2 to 6: in `file:`
/// `%2F` and `%5C` decoded into separators, then "remove dot-segments"), then the canonicalization
/// steps (escapes of unreserved characters decoded, the path percent-encode set). A path can reach
/// canonicalization without those resolution steps, or with them on part of it only (an empty,
/// `?…` or `#…` reference copies the base's path, relative steps 4 and 5; "merge paths" decodes
/// `%2F`/`%5C` in the reference's half only, 6.5.1: the 2012 module gives `file:///a%2fb/a/b/c`
/// for `file:a%2fb/c` against itself), and decoding can make new ones (`%2%65`): without them here
/// the output would not be a fixed point (docs/DIFFERENCES.md, its table). On
/// `a` in place, `b` working space: the slow path of [`hierarchical_path_into`].
fn hierarchical_path(a: &mut String, b: &mut String, file: bool) {
    hierarchical_path_with(a, b, file, &mut ());
}

/// [`hierarchical_path`], each step that changes the path reported to `obs`.
#[inline(always)]
fn hierarchical_path_with<O: Observe>(a: &mut String, b: &mut String, file: bool, obs: &mut O) {
    // Outside `file:`, a `\` here was copied from a base's path without resolution's steps: its
    // `%5C` is no separator to resolution (only `file:` decodes it), so it is escaped first.
    if !file && a.contains('\\') {
        b.clear();
        for (k, piece) in a.split('\\').enumerate() {
            if k > 0 {
                b.push_str("%5C");
            }
            b.push_str(piece);
        }
        std::mem::swap(a, b);
        if O::ON {
            obs.step(Stage::Path, "backslashes escaped as %5C", Some(b), Some(a));
        }
    }
    for _ in 0..MAX_PATH_ROUNDS {
        if file && has_slash_escape(a.as_bytes()) {
            b.clear();
            decode_file_slashes_into(a, b);
            std::mem::swap(a, b);
            if O::ON {
                obs.step(Stage::Path, "file: %2F and %5C decoded", Some(b), Some(a));
            }
        }
        if needs_dot_removal(a.as_bytes()) {
            b.clear();
            remove_dot_segments_into(a, b);
            std::mem::swap(a, b);
            if O::ON && a != b {
                obs.step(Stage::Path, "remove dot-segments", Some(b), Some(a));
            }
        }
        b.clear();
        if !decode_unreserved_into(a, b) {
            break;
        }
        std::mem::swap(a, b);
        if O::ON {
            obs.step(
                Stage::Path,
                "escapes of unreserved characters decoded",
                Some(b),
                Some(a),
            );
        }
    }
}

/// The stages on one input for the bulk path: resolve `input` against `base` (or its own parse,
/// like `url_to_canon_url`), then canonicalize, appending the serialization to `out` (nothing for
/// an invalid result).
pub(crate) fn canon_staged(
    base: Option<&Url>,
    input: &str,
    opts: &ResolvedOptions,
    out: &mut String,
    sc: &mut Scratch,
) -> Result<(), InvalidReason> {
    canon_staged_with(base, input, opts, out, sc, &mut ())
}

/// [`canon_staged`], each step that changes the URL reported to `obs` by the stage that makes it.
#[inline(always)]
pub(crate) fn canon_staged_with<O: Observe>(
    base: Option<&Url>,
    input: &str,
    opts: &ResolvedOptions,
    out: &mut String,
    sc: &mut Scratch,
    obs: &mut O,
) -> Result<(), InvalidReason> {
    let Scratch {
        pre,
        side,
        path,
        path2,
        canon,
        work,
        ..
    } = sc;
    let b;
    // Written in place by the stages (see `parse::parse_parts_into`).
    let mut r = Parts::default();
    match base {
        Some(base) => {
            b = base.parts();
            // No `parse_source`: a page's links are rarely the page itself.
            let bufs = (path, path2);
            crate::resolve::resolve_str_into_with(
                &b, None, input, pre, side, bufs, true, &mut r, obs,
            );
        }
        None => {
            let s = crate::preprocess::preprocess_into_with(input, pre, obs);
            crate::parse::parse_parts_into(s, side, &mut r);
            if O::ON {
                crate::resolve::observe_parse(&r, obs);
            }
            // An invalid parse gives its own reason (the rule of `api::own_base`).
            if let Some(why) = r.invalid {
                return Err(why);
            }
            let parsed = r;
            // Resolving against its own parse parses it again into the same parts: reuse them.
            if s.is_empty() {
                r.fragment = None;
            } else {
                crate::resolve::resolve_own(&mut r, (path, path2));
            }
            if O::ON {
                crate::resolve::observe_resolution(&parsed, &r, obs);
            }
        }
    }
    if let Some(why) = r.invalid {
        return Err(why);
    }
    if opts.network_strict {
        let mut at = [Span::NONE; 8];
        canonicalize_into_with(&r, opts, canon, &mut at, work, obs)?;
        out.push_str(canon);
        return Ok(());
    }
    let start = out.len();
    let mut at = [Span::NONE; 8];
    let res = write_canonical(&r, opts, out, &mut at, work, obs);
    if res.is_err() {
        out.truncate(start);
    }
    res
}

/// [`canon_into`](crate::canon_into) without the fast exits (`crate::api`): the stages, which the
/// tests and fuzz targets compare the fast exits with.
#[doc(hidden)]
pub fn canon_into_stages(
    base: Option<&Url>,
    input: &str,
    opts: &CanonOptions,
    out: &mut String,
) -> Result<(), InvalidReason> {
    let opts = opts.resolve();
    crate::scratch::with(crate::scratch::Used::ALL, |sc| {
        canon_staged(base, input, &opts, out, sc)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The edits the resume road makes after the recognizer stopped in the
    /// authority (a host to lowercase, a port to drop, an empty path), on
    /// every combination of scheme case, host case, port spelling
    /// (default, leading zeros, empty, out of range) and what follows,
    /// give what the stages give.
    #[test]
    fn resume_edits_are_the_stages() {
        for scheme in ["http", "HTTP", "https", "Https", "ftp", "foo", "file"] {
            for host in [
                "h.com",
                "H.com",
                "WWW.X.ORG",
                "a_B~c",
                "ABC",
                "1.2.3.4",
                "Ab.1",
            ] {
                for port in [
                    "", ":", ":80", ":080", ":0080", ":443", ":0443", ":21", ":8080", ":08080",
                    ":0", ":00", ":99999", ":8a",
                ] {
                    for rest in [
                        "",
                        "/",
                        "/a/./b",
                        "/a/../b",
                        "?q",
                        "#f",
                        "?",
                        "#",
                        "/x?a b#c d",
                        "/%41",
                        "/%7e?%7e#%7e",
                        "\\x",
                        "/a\\b",
                        "/.",
                        "/..",
                        "/a/..?q",
                        "/a/.#f",
                        " ",
                    ] {
                        assert_resume_is_stages(&format!("{scheme}://{host}{port}{rest}"));
                    }
                }
            }
        }
    }

    /// The bulk call without a base (the fast exits and the resume road)
    /// gives what the stages give on `s`.
    fn assert_resume_is_stages(s: &str) {
        let opts = CanonOptions::default();
        let mut fast = String::new();
        let rf = crate::api::canon_into(None, s, &opts, &mut fast);
        let mut slow = String::new();
        let rs = canon_into_stages(None, s, &opts, &mut slow);
        assert_eq!((rf, fast), (rs, slow), "{s:?}");
    }

    /// Input with octets outside ASCII after an ASCII prefix resumes where
    /// the recognizer stopped (at the first such octet at the latest),
    /// also inside surrounding white space: on every combination of
    /// prefix edits, non-ASCII text in each component and a dot segment or
    /// escape around it, the result is the stages'.
    #[test]
    fn resume_on_non_ascii_is_the_stages() {
        for wrap in ["", " ", "\u{1}", "\t"] {
            for scheme in ["http", "HTTP", "foo"] {
                for host in ["h.com", "H.com"] {
                    for port in ["", ":80", ":8080"] {
                        for rest in [
                            "",
                            "/\u{e9}",
                            "/a/\u{e9}/b",
                            "/a \u{e9}",
                            "/\u{e9}/../x",
                            "/a/./\u{e9}",
                            "/%41\u{e9}",
                            "/x\u{e9}%2e/..",
                            "/\u{e9}\\x",
                            "/x?\u{e9}",
                            "/x?a#\u{e9}",
                            "/x#\u{85}",
                            "?\u{e9}",
                            "#\u{e9}",
                            "/a\u{FDD0}b",
                            "/\u{5d0}\u{5d1}?\u{e9}#\u{e9}",
                            "/\u{e9}\tx",
                            "/a/./b\tc",
                            "/a%41\nb",
                            "/a%41b\r",
                            "/a%41?q\tr",
                            "/a%41#f\nr",
                            "/a/../b?\u{FFFE}",
                            "/a/../b#\u{FDEF}",
                            "/a%41\u{EFFFF}",
                            "/a%41\u{FF01}",
                            "/a%3%35\tx",
                            "/a%3%35?\tx",
                        ] {
                            assert_resume_is_stages(&format!(
                                "{wrap}{scheme}://{host}{port}{rest}{wrap}"
                            ));
                        }
                    }
                }
            }
        }
    }

    /// `canonicalize_with` recognises an already canonical record by its
    /// serialization (`Url::same_serialized`): on every conformance input,
    /// resolved and then canonicalized once and twice, that test says
    /// what comparing every component says.
    #[test]
    fn same_serialized_is_same_value() {
        let opts = ResolvedOptions::DEFAULT;
        let (mut same, mut differ) = (0, 0);
        for input in crate::testutil::conformance_inputs() {
            let input = input.as_str();
            let once = canonicalize(&crate::resolve(&crate::parse(input), input), None);
            for url in [crate::parse(input), once] {
                if url.is_invalid() {
                    continue;
                }
                let p = url.parts();
                let (mut out, mut work) = (String::new(), Work::default());
                let mut at = [Span::NONE; 8];
                if canonicalize_into(&p, &opts, &mut out, &mut at, &mut work).is_err() {
                    continue;
                }
                let c = canonical_parts(&p, &out, &at);
                let want = Url::same_value(&c, &p);
                assert_eq!(url.same_serialized(&at, &out), want, "{input:?}");
                if want { same += 1 } else { differ += 1 }
            }
        }
        assert!(same > 3000 && differ > 300, "{same} same, {differ} differ");
    }

    /// The HOSTPATH loop ends by reaching its fixed point, not its bound,
    /// on file: URLs built to need several rounds, and its result is
    /// canonical: one more round changes nothing.
    #[test]
    fn hostpath_reaches_a_fixed_point() {
        let inputs = [
            "file://c:/foo",
            "file:///c|/foo",
            "file://localhost///c:/x",
            "file://LOCALHOST/c:",
            "file:////////host/c:/a",
            "file://%3F/%43%3A/a",
            "file://c%3A/d:/e|/f",
            "\\\\server\\share\\x",
            "file:///C%7C/a/../b",
        ];
        for input in inputs {
            let base = crate::parse(input);
            let u = crate::resolve(&base, input);
            if u.is_invalid() {
                continue;
            }
            let mut w = Work::default();
            let rounds = file_hostpath(u.host(), u.path(), &mut w).unwrap_or(0);
            assert!(rounds < MAX_HOSTPATH_ROUNDS, "{input}: {rounds} rounds");
            let (h, p) = (w.host.clone(), w.path.clone());
            let mut w2 = Work::default();
            assert_eq!(
                file_hostpath(Some(&h), Some(&p), &mut w2).ok(),
                Some(1),
                "{input}"
            );
            assert_eq!((w2.host, w2.path), (h, p), "{input}");
        }
    }

    /// The one-pass path and the full steps agree wherever the one pass
    /// applies.
    #[test]
    fn one_pass_path_is_the_full_steps() {
        for p in [
            "/a/b%7e%41/c d/%2F/%zz/%/é",
            "/a.b/..c/c../.%2",
            "",
            "x/y",
            "/a%2Fb",
            "/%C3%A9/%7E",
            "/a%41b%34/%%34%31/%4%31/x%2%65",
            "/%20%34%3",
            "/a/./b/../c/..",
            "../a/%2e%2E/b/.",
            "/a//../b",
        ] {
            for file in [false, true] {
                let mut one = String::new();
                if !p.starts_with('/') {
                    one.push('/');
                }
                if path_pass_from(p, 0, file, &mut one, 0).is_err() {
                    continue;
                }
                assert_eq!(one, full_steps(p, file), "{p:?} file={file}");
            }
        }
    }

    fn full_steps(p: &str, file: bool) -> String {
        let mut a = format!("/{}", p.strip_prefix('/').unwrap_or(p));
        hierarchical_path(&mut a, &mut String::new(), file);
        let mut want = String::new();
        encode_utf8_into(&a, &PATH, &mut want);
        want
    }

    /// Every path of up to five tokens from an alphabet of separators,
    /// dot segments in their spellings, escapes and plain octets: the one
    /// pass (with its dot-segment removal) gives what the full steps give,
    /// behind any prefix already in the buffer, and takes the full steps
    /// only for `\`, `%2F` in `file:` or an escape that forms a new one.
    #[test]
    fn one_pass_path_matches_full_steps_exhaustively() {
        use crate::testutil::PATH_TOKENS as TOKENS;
        crate::testutil::each_sequence(&TOKENS, 5, |tokens| {
            let p = tokens.concat();
            let plain = tokens.iter().all(|t| TOKENS[..7].contains(t));
            for file in [false, true] {
                let mut one = String::from("http://h");
                let root = one.len();
                if !p.starts_with('/') {
                    one.push('/');
                }
                if path_pass_from(&p, 0, file, &mut one, root).is_err() {
                    assert!(!plain, "{p:?} took the full steps");
                    continue;
                }
                assert_eq!(&one[root..], full_steps(&p, file), "{p:?} file={file}");
            }
        });
    }
}
