//! The "parsed URL" record of the spec (section "Parsed URL"). A component may be absent, which
//! differs from empty: the stages see `Option<&str>` (`Parts`), a record a span of its one buffer
//! ([`Url`]). It also keeps the flags /invalid/ (with the failed rule) and /hierarchical/, and the
//! raw |authority|, which resolution needs (a `file:` URL's host is its whole authority).

pub use crate::invalid::InvalidReason;
use crate::scheme::Scheme;
use std::cell::RefCell;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Where a component lies in a record's buffer; `start == ABSENT`: absent (not empty).
#[derive(Clone, Copy, Debug, Eq)]
pub(crate) struct Span {
    start: usize,
    /// The end, not the length: slicing needs no overflow check (speed mechanisms, row 10).
    end: usize,
}

const ABSENT: usize = usize::MAX;

impl PartialEq for Span {
    /// Both ends at once, without a branch between them.
    #[inline]
    fn eq(&self, other: &Span) -> bool {
        (self.start ^ other.start) | (self.end ^ other.end) == 0
    }
}

impl Span {
    pub(crate) const NONE: Span = Span {
        start: ABSENT,
        end: ABSENT,
    };

    pub(crate) fn new(start: usize, end: usize) -> Span {
        debug_assert!(start <= end && start != ABSENT);
        Span { start, end }
    }

    /// The length (0 when absent).
    fn len(self) -> usize {
        self.end.wrapping_sub(self.start)
    }

    /// The component's place, `None` when it is absent.
    #[inline]
    pub(crate) fn range(self) -> Option<std::ops::Range<usize>> {
        (self.start != ABSENT).then_some(self.start..self.end)
    }

    /// Whether the component is absent or empty.
    pub(crate) fn is_absent_or_empty(self) -> bool {
        self.start == self.end
    }

    #[inline]
    pub(crate) fn get(self, buf: &str) -> Option<&str> {
        if self.start == ABSENT {
            None
        } else {
            buf.get(self.start..self.end)
        }
    }
}

/// A note the fast exits (src/fast/) keep on a record: two places in its serialization and some
/// flags. The record stores it, checks that its places lie in the serialization and that an
/// invalid record has none, and hands it back ([`Url::note`]); what it says is the fast exits'
/// alone. Not part of the URL's value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Note {
    pub(crate) places: [usize; 2],
    pub(crate) flags: u8,
}

impl Note {
    pub(crate) const NONE: Note = Note {
        places: [0, 0],
        flags: 0,
    };
}

/// Indexes in [`Url`]'s spans after the eight components (`wurl_component` order): the raw
/// |authority|, the serialization, the canonical host known from a base ([`Parts::known`]).
const AUTHORITY: usize = 8;
const SERIAL: usize = 9;
const KNOWN_HOST: usize = 10;

/// A parsed, resolved or canonicalized URL. Immutable once built; the functions of this crate
/// return new records, or their input record when the value does not change.
///
/// A valid record's buffer holds its serialization and a NUL, each component a span of it, then
/// the raw authority and the known canonical host (NUL-terminated, or the host's own span). An
/// invalid record holds a NUL-terminated copy of each present component. The C ABI's other views
/// are made on the first `wurl_get` (`c_views`). No `Weak` of a record is ever made: `wurl_free`
/// tells the last handle from the reference counts alone, with plain loads.
#[derive(Clone)]
pub struct Url(Arc<Record>);

/// The record behind a [`Url`].
pub(crate) struct Record {
    /// A `String`, so a recycled record hands its capacity on ([`Url::recycle`]).
    buf: String,
    spans: [Span; 11],
    invalid: Option<InvalidReason>,
    hierarchical: bool,
    class: Scheme,
    /// CanonicalizeHost's failure known from a base's cache (success: the `KNOWN_HOST` span).
    known_host_err: Option<InvalidReason>,
    /// CanonicalizeHost of the record's host, computed when first resolved against, for the
    /// relative steps 3 to 6 that copy its authority (speed mechanisms, row 7). Not in the value.
    host_cache: OnceLock<Result<CachedHost, InvalidReason>>,
    /// NUL-terminated copies of a valid record's components, `wurl_component` order, made on the
    /// first C view asked of one that is not the serialization's tail (row 11). Not in the value.
    c_views: OnceLock<Box<str>>,
    /// Parsing the serialization gives exactly this record ([`Url::parse_source`]). Not in the
    /// value.
    parse_of_serialization: bool,
    /// The fast exits' note ([`Note`]).
    note: Note,
}

/// A record's flags and notes, as its constructors take them.
pub(crate) struct Flags {
    invalid: Option<InvalidReason>,
    hierarchical: bool,
    class: Scheme,
    known_host_err: Option<InvalidReason>,
    parse_of_serialization: bool,
    note: Note,
}

impl Flags {
    /// A valid record's: its scheme's class, /hierarchical/, whether parsing its serialization
    /// gives it ([`Url::parse_source`]), and the fast exits' note.
    pub(crate) const fn valid(
        class: Scheme,
        hierarchical: bool,
        parse_of_serialization: bool,
        note: Note,
    ) -> Flags {
        Flags {
            invalid: None,
            hierarchical,
            class,
            known_host_err: None,
            parse_of_serialization,
            note,
        }
    }
}

/// A valid record's serialization, as [`Url::from_serialization`] takes it.
pub(crate) enum Serialization<'a> {
    /// The concatenation of these pieces, copied.
    Pieces([&'a str; 3]),
    /// Written into this buffer (canonicalization's): copied, or taken when large (the caller
    /// would not keep it, see `scratch`).
    Written(&'a mut String),
}

/// The raw authority of a record built from its serialization ([`Url::from_serialization`]).
#[derive(Clone, Copy)]
pub(crate) enum Authority<'a> {
    /// The host itself (no user information, no port): the host's span.
    Host,
    /// Absent, or these octets, copied after the serialization.
    Raw(Option<&'a str>),
    /// These octets of the serialization (host, `:` and port), copied after it.
    At(Span),
}

impl<'a> Authority<'a> {
    fn copied_len(self) -> usize {
        match self {
            Authority::Raw(Some(a)) => a.len() + 1,
            Authority::At(a) => a.len() + 1,
            _ => 0,
        }
    }

    /// The raw authority of the parts `p`: their host's span when it is the host, the very slice
    /// (what parsing gives for an authority of a host alone), else a copy.
    pub(crate) fn of(p: &Parts<'a>) -> Authority<'a> {
        if authority_is_host(p) {
            Authority::Host
        } else {
            Authority::Raw(p.authority)
        }
    }
}

/// A canonical host in a record's cache: the record's host itself when canonical, else inline
/// when short (no allocation), else boxed.
#[derive(Debug)]
pub(crate) enum CachedHost {
    Same,
    Inline { len: u8, bytes: [u8; 62] },
    Heap(Box<str>),
}

impl CachedHost {
    fn new(h: &str, raw: &str) -> CachedHost {
        if h == raw {
            return CachedHost::Same;
        }
        let mut bytes = [0; 62];
        match bytes.get_mut(..h.len()) {
            Some(b) => {
                b.copy_from_slice(h.as_bytes());
                CachedHost::Inline {
                    len: h.len() as u8,
                    bytes,
                }
            }
            None => CachedHost::Heap(h.into()),
        }
    }

    fn as_str<'a>(&'a self, raw: &'a str) -> Option<&'a str> {
        match self {
            CachedHost::Same => Some(raw),
            // Whole characters were copied: never fails, no `unsafe` needed.
            CachedHost::Inline { len, bytes } => std::str::from_utf8(&bytes[..*len as usize]).ok(),
            CachedHost::Heap(h) => Some(h),
        }
    }
}

/// CanonicalizeHost of a record's host when known: the host, or why it fails (neither: unknown).
/// Not an `Option<Result<..>>`, whose unused case's undefined bytes valgrind reports.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Known<'a> {
    pub(crate) host: Option<&'a str>,
    pub(crate) err: Option<InvalidReason>,
}

/// A record's components as the stages read and write them: absent `None`, empty `Some("")`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Parts<'a> {
    pub(crate) scheme: Option<&'a str>,
    /// The scheme's class (kind, default port), classified once, when the
    /// scheme is set (`Scheme::of` of `scheme`, or `Scheme::NONE`).
    pub(crate) class: Scheme,
    pub(crate) authority: Option<&'a str>,
    pub(crate) user: Option<&'a str>,
    pub(crate) password: Option<&'a str>,
    pub(crate) host: Option<&'a str>,
    pub(crate) port: Option<&'a str>,
    pub(crate) path: Option<&'a str>,
    pub(crate) query: Option<&'a str>,
    pub(crate) fragment: Option<&'a str>,
    pub(crate) invalid: Option<InvalidReason>,
    pub(crate) hierarchical: bool,
    /// CanonicalizeHost of `host`, when known: resolution copies it with the base's host (never
    /// for `file:`, whose host goes through the HOSTPATH loop first).
    pub(crate) known: Known<'a>,
    /// The record's own host cache, for records that are bases.
    pub(crate) cache: Option<&'a OnceLock<Result<CachedHost, InvalidReason>>>,
}

impl<'a> Parts<'a> {
    pub(crate) fn set_invalid(&mut self, why: InvalidReason) {
        if self.invalid.is_none() {
            self.invalid = Some(why);
        }
    }

    pub(crate) fn invalid(why: InvalidReason) -> Parts<'a> {
        Parts {
            invalid: Some(why),
            ..Parts::default()
        }
    }

    /// CanonicalizeHost of this record's host, known or cached; `compute` (appending to the empty
    /// `work`) fills the cache on first use. Not for `file:` records (HOSTPATH loop first).
    pub(crate) fn canonical_host(
        &self,
        work: &mut String,
        compute: fn(&str, &mut String) -> Result<(), InvalidReason>,
    ) -> Known<'a> {
        if self.known.host.is_some() || self.known.err.is_some() {
            return self.known;
        }
        let (Some(h), Some(cache)) = (self.host, self.cache) else {
            return Known::default();
        };
        let r = cache.get_or_init(|| {
            work.clear();
            compute(h, work).map(|()| CachedHost::new(work, h))
        });
        match r {
            Ok(c) => Known {
                host: c.as_str(h),
                err: None,
            },
            Err(e) => Known {
                host: None,
                err: Some(*e),
            },
        }
    }
}

impl PartialEq for Url {
    /// The URL's value: its components and flags.
    fn eq(&self, other: &Url) -> bool {
        self.0.invalid == other.0.invalid
            && self.0.hierarchical == other.0.hierarchical
            && self.authority() == other.authority()
            && Component::ALL.iter().all(|&c| self.get(c) == other.get(c))
    }
}

impl Eq for Url {}

impl fmt::Debug for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Url");
        for c in Component::ALL {
            d.field(c.name(), &self.get(c));
        }
        d.field("authority", &self.authority())
            .field("invalid", &self.0.invalid)
            .field("hierarchical", &self.0.hierarchical)
            .finish()
    }
}

impl Default for Url {
    /// The record of no components: a valid URL serialized as `:`.
    fn default() -> Url {
        Url::from_parts(&Parts::default(), 1, |buf, _| buf.push(':'))
    }
}

/// The components a caller can read, in the order of the C ABI's `wurl_component` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    Scheme = 0,
    User = 1,
    Password = 2,
    Host = 3,
    Port = 4,
    Path = 5,
    Query = 6,
    Fragment = 7,
}

/// Component places by name (`at[Component::Host]`), never a literal index.
impl<const N: usize> std::ops::Index<Component> for [Span; N] {
    type Output = Span;
    #[inline]
    fn index(&self, c: Component) -> &Span {
        &self[c as usize]
    }
}

impl<const N: usize> std::ops::IndexMut<Component> for [Span; N] {
    #[inline]
    fn index_mut(&mut self, c: Component) -> &mut Span {
        &mut self[c as usize]
    }
}

impl Component {
    /// All components, in `wurl_component` order.
    pub const ALL: [Component; 8] = [
        Component::Scheme,
        Component::User,
        Component::Password,
        Component::Host,
        Component::Port,
        Component::Path,
        Component::Query,
        Component::Fragment,
    ];

    /// The component with the given `wurl_component` value.
    pub fn from_index(i: u32) -> Option<Component> {
        Self::ALL.get(i as usize).copied()
    }

    /// The lowercase name used by the conformance data (`scheme`, `user`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Component::Scheme => "scheme",
            Component::User => "user",
            Component::Password => "password",
            Component::Host => "host",
            Component::Port => "port",
            Component::Path => "path",
            Component::Query => "query",
            Component::Fragment => "fragment",
        }
    }
}

/// How many freed records a thread keeps for reuse, and the largest buffer one may keep (speed
/// mechanisms, row 9).
const SPARE_RECORDS: usize = 4;
const SPARE_BUFFER_MAX: usize = 1024;

thread_local! {
    /// Records freed on this thread ([`Url::recycle`]), each the only reference to its block,
    /// with its emptied buffer, for the next records built here.
    static SPARE: RefCell<Vec<Arc<Record>>> = const { RefCell::new(Vec::new()) };
}

/// Whether `a` and `b` are the same spans, every pair compared (no early exit).
fn same_spans(a: &[Span], b: &[Span]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .fold(0, |d, (x, y)| d | (x.start ^ y.start) | (x.end ^ y.end))
            == 0
}

/// Whether a spare buffer of capacity `cap` holds `len` octets and is not much larger.
fn fits(cap: usize, len: usize) -> bool {
    cap >= len && cap <= 2 * len + 64
}

impl Url {
    /// The record of `f`; `fill` writes all spans and appends to the buffer: `buf`, or for
    /// `Err(len)` an empty one (a spare's when it [`fits`]). In a spare record's block when this
    /// thread has one (its caches and buffer empty), else a new one (speed mechanisms, row 9).
    /// Always inlined, `fill` with it: each constructor's kind of serialization is then known
    /// where its octets are copied.
    #[inline(always)]
    fn build_with(
        buf: Result<String, usize>,
        f: Flags,
        fill: impl FnOnce(&mut String, &mut [Span; 11]),
    ) -> Url {
        let spare = SPARE
            .try_with(|s| s.try_borrow_mut().ok()?.pop())
            .ok()
            .flatten();
        if let Some(mut a) = spare
            && let Some(r) = Arc::get_mut(&mut a)
        {
            match buf {
                Ok(buf) => r.buf = buf,
                Err(len) => {
                    if !fits(r.buf.capacity(), len) {
                        r.buf = String::with_capacity(len);
                    }
                }
            }
            fill(&mut r.buf, &mut r.spans);
            r.invalid = f.invalid;
            r.hierarchical = f.hierarchical;
            r.class = f.class;
            r.known_host_err = f.known_host_err;
            r.parse_of_serialization = f.parse_of_serialization;
            r.note = f.note;
            let url = Url(a);
            debug_assert_eq!(url.validate(), Ok(()));
            return url;
        }
        let mut buf = buf.unwrap_or_else(String::with_capacity);
        let mut spans = [Span::NONE; 11];
        fill(&mut buf, &mut spans);
        let url = Url(Arc::new(Record {
            buf,
            spans,
            invalid: f.invalid,
            hierarchical: f.hierarchical,
            class: f.class,
            known_host_err: f.known_host_err,
            host_cache: OnceLock::new(),
            c_views: OnceLock::new(),
            parse_of_serialization: f.parse_of_serialization,
            note: f.note,
        }));
        debug_assert_eq!(url.validate(), Ok(()));
        url
    }

    /// The invariants every record keeps (checked by [`Url::build_with`] in debug builds): spans
    /// in the buffer on character boundaries; a valid record's buffer starts with its serialization
    /// and a NUL, holding its components in order, each with its delimiter; notes only on a valid
    /// record, within its serialization. `Err` names the one that fails.
    pub(crate) fn validate(&self) -> Result<(), String> {
        let r = &*self.0;
        let b = r.buf.as_bytes();
        for (i, s) in r.spans.iter().enumerate() {
            if let Some(range) = s.range()
                && r.buf.get(range.clone()).is_none()
            {
                return Err(format!(
                    "span {i} {range:?} outside the buffer or a character"
                ));
            }
        }
        let scheme = r.spans[Component::Scheme].get(&r.buf).unwrap_or("");
        if r.class != Scheme::of(scheme.as_bytes()) {
            return Err(format!(
                "class {:?} is not that of the scheme {scheme:?}",
                r.class
            ));
        }
        if r.invalid.is_some() {
            if r.parse_of_serialization || r.note != Note::NONE {
                return Err("notes on an invalid record".into());
            }
            return Ok(());
        }
        let Some(ser) = r.spans[SERIAL].range() else {
            return Err("a valid record without a serialization".into());
        };
        if ser.start != 0 || b.get(ser.end) != Some(&0) {
            return Err(format!(
                "serialization {ser:?} not at the start, or not followed by NUL"
            ));
        }
        let mut end = 0;
        for c in Component::ALL {
            let Some(range) = r.spans[c].range() else {
                continue;
            };
            if range.start < end || range.end > ser.end {
                return Err(format!("{c:?} {range:?} out of order or outside {ser:?}"));
            }
            end = range.end;
            let delimited = match c {
                Component::Scheme => b.get(range.end) == Some(&b':'),
                Component::Port => range.start > 0 && b[range.start - 1] == b':',
                Component::Query => range.start > 0 && b[range.start - 1] == b'?',
                Component::Fragment => range.start > 0 && b[range.start - 1] == b'#',
                _ => true,
            };
            if !delimited {
                return Err(format!("{c:?} at {range:?} without its delimiter"));
            }
        }
        let n = r.note;
        if n.places.iter().any(|&p| p > ser.end) {
            return Err(format!("{n:?} beyond the serialization {ser:?}"));
        }
        Ok(())
    }

    /// Drops this reference; the last one's block and emptied buffer are kept for the next records
    /// built on this thread. Emptied now, so that a C view read after `wurl_free` is a use after
    /// free that AddressSanitizer and valgrind report.
    pub(crate) fn recycle(self) {
        let mut a = self.0;
        // A shared record is dropped at once (a plain load); a count of 1 is a hint: `get_mut`
        // decides.
        if Arc::strong_count(&a) != 1 {
            return;
        }
        if let Some(r) = Arc::get_mut(&mut a)
            && Url::empty_spare(r)
        {
            Url::keep_spare(a);
        }
    }

    /// Empties `r` for reuse ([`Url::recycle`]); false when its buffer is too large to keep.
    #[inline]
    pub(crate) fn empty_spare(r: &mut Record) -> bool {
        if r.buf.capacity() > SPARE_BUFFER_MAX {
            return false;
        }
        r.buf.clear();
        r.host_cache.take();
        r.c_views.take();
        true
    }

    /// Keeps `a`, emptied by [`Url::empty_spare`], for this thread's next records if there is room.
    #[inline(always)]
    pub(crate) fn keep_spare(a: Arc<Record>) {
        let mut a = Some(a);
        let _ = SPARE.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut()
                && s.len() < SPARE_RECORDS
                && let Some(a) = a.take()
            {
                s.push(a);
            }
        });
    }
}

impl Url {
    /// Notes whether this record, just parsed, is the parse of its own serialization.
    pub(crate) fn set_parse_of_serialization(&mut self, same: bool) {
        if let Some(r) = Arc::get_mut(&mut self.0) {
            // Always reached: the record was made just now.
            r.parse_of_serialization = same;
        }
    }

    /// The fast exits' note ([`Note`]).
    #[inline]
    pub(crate) fn note(&self) -> Note {
        self.0.note
    }

    /// The raw authority as [`Url::from_serialization`] takes it: the host's span when it is the
    /// host, else a copy.
    #[inline]
    pub(crate) fn raw_authority(&self) -> Authority<'_> {
        let r = &*self.0;
        if r.spans[AUTHORITY] != Span::NONE && r.spans[AUTHORITY] == r.spans[Component::Host] {
            Authority::Host
        } else {
            Authority::Raw(self.authority())
        }
    }

    /// Whether CanonicalizeHost of the record's host is known from a base ([`Parts::known`]).
    #[inline]
    pub(crate) fn knows_host(&self) -> bool {
        self.0.spans[KNOWN_HOST] != Span::NONE || self.0.known_host_err.is_some()
    }

    /// The components' spans, `wurl_component` order.
    #[inline]
    pub(crate) fn spans(&self) -> &[Span; 8] {
        let at = self.0.spans.first_chunk::<8>();
        // Eleven spans: the first eight always exist.
        at.unwrap_or(&[Span::NONE; 8])
    }

    /// The scheme's class, classified when the record was built.
    pub(crate) fn scheme_class(&self) -> Scheme {
        self.0.class
    }

    /// The serialization, when this record is its parse ([`Url::parts`], no host known yet).
    pub(crate) fn parse_source(&self) -> Option<&str> {
        if self.0.parse_of_serialization {
            self.as_str()
        } else {
            None
        }
    }

    /// The record of a valid URL from its serialization `ser`, its components at `at` (spans of the
    /// serialization), with the raw `authority`, no canonical host known, and the flags `f`
    /// ([`Flags::valid`]). One of the record's two constructors, with [`Url::from_parts`]; inlined,
    /// so that each caller's kind of serialization and authority is known where it is built.
    #[inline(always)]
    pub(crate) fn from_serialization(
        ser: Serialization,
        at: &[Span; 8],
        authority: Authority,
        f: Flags,
    ) -> Url {
        debug_assert!(f.invalid.is_none() && f.known_host_err.is_none());
        debug_assert!(match authority {
            Authority::Host => at[Component::Port] == Span::NONE,
            _ => true,
        });
        let extra = authority.copied_len() + 1;
        match ser {
            Serialization::Written(s) if s.capacity() > crate::scratch::KEEP => {
                // Shrink first: growing may move the buffer, the old block counted at full capacity.
                let mut b = std::mem::take(s);
                b.shrink_to_fit();
                b.reserve_exact(extra);
                Url::build_with(Ok(b), f, |buf, spans| {
                    Url::fill_serialized(buf, spans, at, authority, &[]);
                })
            }
            Serialization::Written(s) => Url::build_with(
                Err(s.len() + extra),
                f,
                #[inline(always)]
                |buf, spans| {
                    buf.push_str(s);
                    Url::fill_serialized(buf, spans, at, authority, &[s]);
                },
            ),
            Serialization::Pieces(pieces) => {
                let len: usize = pieces.iter().map(|p| p.len()).sum();
                // The fill is inlined at both of `build_with`'s call sites, so that a caller's
                // empty pieces and kind of authority are known where the octets are copied.
                Url::build_with(
                    Err(len + extra),
                    f,
                    #[inline(always)]
                    |buf, spans| {
                        for p in pieces.iter().filter(|p| !p.is_empty()) {
                            buf.push_str(p);
                        }
                        Url::fill_serialized(buf, spans, at, authority, &pieces);
                    },
                )
            }
        }
    }

    /// Completes a valid record serialized in `buf` (the concatenation of `pieces`, when given),
    /// with no host known: its NUL, its spans, its raw authority.
    #[inline(always)]
    fn fill_serialized(
        buf: &mut String,
        spans: &mut [Span; 11],
        at: &[Span; 8],
        authority: Authority,
        pieces: &[&str],
    ) {
        spans[..8].copy_from_slice(at);
        spans[SERIAL] = Span::new(0, buf.len());
        buf.push('\0');
        spans[AUTHORITY] = match authority {
            Authority::Raw(Some(a)) => {
                let start = buf.len();
                buf.push_str(a);
                buf.push('\0');
                Span::new(start, start + a.len())
            }
            Authority::Raw(None) => Span::NONE,
            Authority::Host => at[Component::Host],
            Authority::At(a) => {
                let start = buf.len();
                if pieces.is_empty() {
                    let copy = buf[a.start..a.end].to_owned();
                    buf.push_str(&copy);
                } else {
                    // From whichever pieces hold it; pieces end between components, so each slice
                    // is on a character boundary.
                    let mut off = 0;
                    for p in pieces {
                        let (lo, hi) = (
                            a.start.clamp(off, off + p.len()),
                            a.end.clamp(off, off + p.len()),
                        );
                        buf.push_str(&p[lo - off..hi - off]);
                        off += p.len();
                    }
                }
                buf.push('\0');
                Span::new(start, start + a.len())
            }
        };
        spans[KNOWN_HOST] = Span::NONE;
    }

    /// The length of what [`Url::fill_rest`] appends after the serialization and its NUL.
    fn extra_len(p: &Parts, valid: bool) -> usize {
        let mut n = 0;
        if !valid {
            let comps = [
                p.scheme, p.user, p.password, p.host, p.port, p.path, p.query, p.fragment,
            ];
            n = comps.iter().map(|c| c.map_or(0, |c| c.len() + 1)).sum();
        }
        let known = if known_is_host(p) {
            0
        } else {
            p.known.host.map_or(0, |h| h.len() + 1)
        };
        let authority = if authority_is_host(p) {
            0
        } else {
            p.authority.map_or(0, |a| a.len() + 1)
        };
        n + authority + known
    }

    /// The record of the parts `p`, valid or not, with their flags and known host: for a valid
    /// one `write` appends its serialization of `ser_len` octets and notes where each component
    /// went; an invalid one holds a copy of each component. One of the record's two constructors,
    /// with [`Url::from_serialization`].
    pub(crate) fn from_parts(
        p: &Parts,
        ser_len: usize,
        write: impl FnOnce(&mut String, &mut [Span; 8]),
    ) -> Url {
        let valid = p.invalid.is_none();
        let len = if valid { ser_len } else { 0 } + 1 + Url::extra_len(p, valid);
        Url::build_with(
            Err(len),
            Url::flags_of(p),
            #[inline(always)]
            |buf, spans| {
                *spans = [Span::NONE; 11];
                if valid && let Some(at) = spans.first_chunk_mut::<8>() {
                    write(buf, at);
                }
                Url::fill_rest(buf, spans, valid, p);
            },
        )
    }

    fn flags_of(p: &Parts) -> Flags {
        Flags {
            invalid: p.invalid,
            hierarchical: p.hierarchical,
            class: p.class,
            known_host_err: p.known.err,
            parse_of_serialization: false,
            note: Note::NONE,
        }
    }

    /// Appends to `buf` a valid record's NUL, or an invalid one's NUL-terminated components, then
    /// the raw authority and the known canonical host, unless they share the host's span.
    fn fill_rest(buf: &mut String, spans: &mut [Span; 11], valid: bool, p: &Parts) {
        let push = |buf: &mut String, s: &str| {
            let start = buf.len();
            buf.push_str(s);
            buf.push('\0');
            Span {
                start,
                end: start + s.len(),
            }
        };
        if valid {
            spans[SERIAL] = Span::new(0, buf.len());
            buf.push('\0');
        } else {
            let comps = [
                p.scheme, p.user, p.password, p.host, p.port, p.path, p.query, p.fragment,
            ];
            for (span, c) in spans.iter_mut().zip(&comps) {
                if let Some(c) = c {
                    *span = push(buf, c);
                }
            }
        }
        if authority_is_host(p) {
            spans[AUTHORITY] = spans[Component::Host];
        } else if let Some(a) = p.authority {
            spans[AUTHORITY] = push(buf, a);
        }
        if known_is_host(p) {
            spans[KNOWN_HOST] = spans[Component::Host];
        } else if let Some(k) = p.known.host {
            spans[KNOWN_HOST] = push(buf, k);
        }
    }

    /// Whether `p` and `q` are the very same slices and flags: enough for [`Url::same_value`]
    /// (speed mechanisms, row 5).
    pub(crate) fn same_slices(p: &Parts, q: &Parts) -> bool {
        same_flags(p, q)
            && all_pairs(p, q, |a, b| match (a, b) {
                (None, None) => true,
                (Some(a), Some(b)) => std::ptr::eq(a, b),
                _ => false,
            })
    }

    /// Whether `p` has the value of `q` (components, raw authority, flags): then a stage returns
    /// its input record.
    pub(crate) fn same_value(p: &Parts, q: &Parts) -> bool {
        // Flags and lengths first: most records that differ differ there.
        same_flags(p, q)
            && all_pairs(p, q, |a, b| a.map(str::len) == b.map(str::len))
            && all_pairs(p, q, same_bytes)
    }

    /// [`Url::same_value`] of this record and its canonicalization `p_ser` (components at `at`,
    /// same raw authority and flag): equal serializations with equal spans hold equal components.
    pub(crate) fn same_serialized(&self, at: &[Span; 8], p_ser: &str) -> bool {
        let r = &*self.0;
        let ser = r.spans[SERIAL];
        r.invalid.is_none()
            && ser.len() == p_ser.len()
            && r.buf.as_bytes().get(ser.start..ser.end) == Some(p_ser.as_bytes())
            && same_spans(&r.spans[..8], at)
    }

    /// The shared record, for the C ABI's handles.
    pub(crate) fn into_arc(self) -> Arc<Record> {
        self.0
    }

    /// A URL from a shared record.
    pub(crate) fn from_arc(r: Arc<Record>) -> Url {
        Url(r)
    }

    /// The record's components as borrowed parts, with its host cache.
    pub(crate) fn parts(&self) -> Parts<'_> {
        let r = &*self.0;
        let g = |c: Component| r.spans[c].get(&r.buf);
        let host = g(Component::Host);
        // The authority and known host most often share the host's span (`Url::fill_rest`).
        let or_host = |i: usize| {
            if r.spans[i] == r.spans[Component::Host] {
                host
            } else {
                r.spans[i].get(&r.buf)
            }
        };
        Parts {
            scheme: g(Component::Scheme),
            class: r.class,
            user: g(Component::User),
            password: g(Component::Password),
            host,
            port: g(Component::Port),
            path: g(Component::Path),
            query: g(Component::Query),
            fragment: g(Component::Fragment),
            authority: or_host(AUTHORITY),
            invalid: r.invalid,
            hierarchical: r.hierarchical,
            known: Known {
                host: or_host(KNOWN_HOST),
                err: r.known_host_err,
            },
            cache: Some(&r.host_cache),
        }
    }

    /// The component `which`: `None` when absent, `Some("")` when present
    /// and empty.
    pub fn get(&self, which: Component) -> Option<&str> {
        self.0.spans[which as usize].get(&self.0.buf)
    }

    /// The component `which` (a `wurl_component` value) followed by a NUL
    /// byte (for the C ABI): in the record's buffer for an invalid record
    /// and for the serialization's tail, else in the copies made on first
    /// use (see [`Url`]).
    pub(crate) fn get_nul(&self, i: usize) -> Option<&[u8]> {
        let r = &*self.0;
        let s = *r.spans.get(i).filter(|_| i < 8)?;
        if s.start == ABSENT {
            return None;
        }
        let ser = r.spans[SERIAL];
        if ser.start == ABSENT || s.end == ser.end {
            return r.buf.as_bytes().get(s.start..=s.end);
        }
        let views = r.c_views.get_or_init(|| {
            let mut v = String::with_capacity(r.spans[..8].iter().map(|s| s.len() + 1).sum());
            for c in r.spans[..8].iter().filter_map(|c| c.get(&r.buf)) {
                v.push_str(c);
                v.push('\0');
            }
            v.into_boxed_str()
        });
        // The copies are in component order: skip those before `i`.
        let start: usize = r.spans[..i]
            .iter()
            .filter(|c| c.start != ABSENT)
            .map(|c| c.len() + 1)
            .sum();
        views.as_bytes().get(start..=start + s.len())
    }

    pub fn scheme(&self) -> Option<&str> {
        self.get(Component::Scheme)
    }
    pub fn user(&self) -> Option<&str> {
        self.get(Component::User)
    }
    pub fn password(&self) -> Option<&str> {
        self.get(Component::Password)
    }
    pub fn host(&self) -> Option<&str> {
        self.get(Component::Host)
    }
    pub fn port(&self) -> Option<&str> {
        self.get(Component::Port)
    }
    pub fn path(&self) -> Option<&str> {
        self.get(Component::Path)
    }
    pub fn query(&self) -> Option<&str> {
        self.get(Component::Query)
    }
    pub fn fragment(&self) -> Option<&str> {
        self.get(Component::Fragment)
    }
    /// The raw |authority| component found by parsing (`None` when the URL had
    /// no `//` authority).
    pub fn authority(&self) -> Option<&str> {
        self.0.spans[AUTHORITY].get(&self.0.buf)
    }

    /// Whether the raw |authority| is present (see [`Url::authority`]).
    pub(crate) fn has_authority(&self) -> bool {
        self.0.spans[AUTHORITY] != Span::NONE
    }

    /// The length of the serialization (0 for an invalid URL).
    pub(crate) fn serialization_len(&self) -> usize {
        self.0.spans[SERIAL].len()
    }

    /// Whether the URL is invalid. An invalid URL still exposes the
    /// components the algorithm found, but cannot be serialized.
    pub fn is_invalid(&self) -> bool {
        self.0.invalid.is_some()
    }

    /// Why the URL is invalid, or `None` for a valid URL.
    pub fn invalid_reason(&self) -> Option<InvalidReason> {
        self.0.invalid
    }

    /// The spec's /hierarchical/ flag (section "Hierarchicalness").
    pub fn is_hierarchical(&self) -> bool {
        self.0.hierarchical
    }

    /// "Steps to serialize a parsed URL": `None` for an invalid URL.
    pub fn serialize(&self) -> Option<String> {
        self.as_str().map(str::to_owned)
    }

    /// The serialization, borrowed (every record keeps it): `None` for an
    /// invalid URL.
    pub fn as_str(&self) -> Option<&str> {
        self.0.spans[SERIAL].get(&self.0.buf)
    }

    /// The serialization followed by its NUL byte (for the C ABI).
    pub(crate) fn serialization_nul(&self) -> Option<&[u8]> {
        let s = self.0.spans[SERIAL];
        if s.start == ABSENT {
            return None;
        }
        self.0.buf.as_bytes().get(s.start..=s.end)
    }
}

fn same_flags(p: &Parts, q: &Parts) -> bool {
    p.invalid == q.invalid && p.hierarchical == q.hierarchical
}

/// `f` on each pair of components and on the raw authorities, the
/// likeliest to differ first (a resolved link's path, query or fragment).
#[inline]
fn all_pairs(p: &Parts, q: &Parts, f: impl Fn(Option<&str>, Option<&str>) -> bool) -> bool {
    f(p.path, q.path)
        && f(p.query, q.query)
        && f(p.fragment, q.fragment)
        && f(p.host, q.host)
        && f(p.scheme, q.scheme)
        && f(p.port, q.port)
        && f(p.user, q.user)
        && f(p.password, q.password)
        && f(p.authority, q.authority)
}

/// Whether two components of the same length (or both absent) are
/// equal. Components are short (a scheme, a host, a port): from 4 to 16
/// bytes they are compared as two overlapping words, without a call.
#[inline]
fn same_bytes(a: Option<&str>, b: Option<&str>) -> bool {
    let (Some(a), Some(b)) = (a, b) else {
        return a.is_none() && b.is_none();
    };
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if (8..=16).contains(&n) {
        let w = |s: &[u8]| u64::from_ne_bytes(s.first_chunk::<8>().copied().unwrap_or_default());
        let v = |s: &[u8]| u64::from_ne_bytes(s.last_chunk::<8>().copied().unwrap_or_default());
        return w(a) == w(b) && v(a) == v(b);
    }
    if (4..8).contains(&n) {
        let w = |s: &[u8]| u32::from_ne_bytes(s.first_chunk::<4>().copied().unwrap_or_default());
        let v = |s: &[u8]| u32::from_ne_bytes(s.last_chunk::<4>().copied().unwrap_or_default());
        return w(a) == w(b) && v(a) == v(b);
    }
    a == b
}

/// Whether the raw authority of `p` is its host, the very slice (what
/// parsing gives for an authority of a host alone, and a record keeps).
fn authority_is_host(p: &Parts) -> bool {
    matches!((p.authority, p.host), (Some(a), Some(h)) if std::ptr::eq(a, h))
}

/// Whether the known canonical host of `p` is its host, the very slice (a
/// base's host cache says so with `CachedHost::Same`).
fn known_is_host(p: &Parts) -> bool {
    matches!((p.known.host, p.host), (Some(k), Some(h)) if std::ptr::eq(k, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `validate` finds a broken record: a query without its `?`, a span
    /// outside the buffer, a class that is not its scheme's, notes on an
    /// invalid record; and passes a good one.
    #[test]
    fn validate_finds_broken_records() {
        let good = crate::parse::parse_stages("http://h:8080/p?q#f");
        assert_eq!(good.validate(), Ok(()));
        let f = |invalid: Option<InvalidReason>, canonical: bool| Flags {
            invalid,
            hierarchical: true,
            class: Scheme::NONE,
            known_host_err: None,
            parse_of_serialization: false,
            note: Note {
                flags: u8::from(canonical),
                ..Note::NONE
            },
        };
        // (A scheme of class `Scheme::NONE`: `f` gives that class.)
        let bad_query = |buf: &mut String, spans: &mut [Span; 11]| {
            buf.push_str("ab:bq\0");
            *spans = [Span::NONE; 11];
            spans[SERIAL] = Span::new(0, 5);
            spans[Component::Scheme] = Span::new(0, 2);
            spans[Component::Query] = Span::new(4, 5);
        };
        let wrong_class = |buf: &mut String, spans: &mut [Span; 11]| {
            buf.push_str("file:b\0");
            *spans = [Span::NONE; 11];
            spans[SERIAL] = Span::new(0, 6);
            spans[Component::Scheme] = Span::new(0, 4);
            spans[Component::Path] = Span::new(5, 6);
        };
        let outside = |buf: &mut String, spans: &mut [Span; 11]| {
            buf.push_str("a:b\0");
            *spans = [Span::NONE; 11];
            spans[SERIAL] = Span::new(0, 3);
            spans[Component::Path] = Span::new(2, 9);
        };
        let noted = |_: &mut String, spans: &mut [Span; 11]| *spans = [Span::NONE; 11];
        // In a debug build, building them fails the check at once.
        type Fill<'a> = &'a dyn Fn(&mut String, &mut [Span; 11]);
        let cases: [(Option<InvalidReason>, bool, Fill); 4] = [
            (None, false, &bad_query),
            (None, false, &wrong_class),
            (None, false, &outside),
            (Some(InvalidReason::InvalidBase), true, &noted),
        ];
        for (invalid, canonical, fill) in cases {
            let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                Url::build_with(Ok(String::new()), f(invalid, canonical), |b, s| fill(b, s))
                    .validate()
            }));
            // Built (a release build): `validate` says it is broken;
            // not built (a debug build): the check after the build failed.
            let debug = cfg!(debug_assertions);
            match built {
                Ok(r) => assert!(!debug && r.is_err(), "{r:?}"),
                Err(_) => assert!(debug),
            }
        }
    }

    /// A record freed by its last reference is reused, block and buffer,
    /// by the next record built on its thread, which has exactly the value
    /// and the views a fresh record would have; a record still shared is
    /// never reused.
    #[test]
    fn recycled_records_are_fresh() {
        for input in [
            "http://Example.COM:80/a/./b?q#f",
            "no scheme",
            "http://user:pw@h:8080/p",
            "http://example.com/",
        ] {
            let u = crate::parse(input);
            // Fill the caches, which recycling must empty.
            let _ = u.get_nul(0);
            let _ = crate::resolve(&u, "x");
            let block = Arc::as_ptr(&u.0);
            u.recycle();
            let again = crate::parse(input);
            assert!(std::ptr::eq(Arc::as_ptr(&again.0), block), "{input:?}");
            let fresh = Url(Arc::new(Record {
                buf: again.0.buf.clone(),
                spans: again.0.spans,
                invalid: again.0.invalid,
                hierarchical: again.0.hierarchical,
                class: again.0.class,
                known_host_err: again.0.known_host_err,
                host_cache: OnceLock::new(),
                c_views: OnceLock::new(),
                parse_of_serialization: again.0.parse_of_serialization,
                note: again.0.note,
            }));
            assert_eq!(again, fresh, "{input:?}");
            assert!(again.0.host_cache.get().is_none() && again.0.c_views.get().is_none());
            for c in Component::ALL {
                assert_eq!(
                    again.get_nul(c as usize),
                    fresh.get_nul(c as usize),
                    "{input:?}"
                );
            }
            // Shared: freeing one reference keeps the record for the other.
            let other = again.clone();
            let block = Arc::as_ptr(&again.0);
            again.recycle();
            let third = crate::parse("http://another.example/");
            assert!(!std::ptr::eq(Arc::as_ptr(&third.0), block));
            assert_eq!(other, fresh, "{input:?}");
        }
    }

    /// The C ABI's views (`get_nul`): each is the component followed by one
    /// NUL, for valid and invalid records, tail or not; a view asked for
    /// twice is the same memory (the copies are made once and stay put).
    #[test]
    fn c_views_are_the_components_with_a_nul() {
        let inputs = [
            "http://user:pw@Host.example:8080/a/b?q=1#frag",
            "http://host/path",
            "http://host/path?",
            "https://h:443",
            "mailto:x@y?subject=1",
            "data:text/plain,a?b#c",
            "file:///c:/x/../y",
            "no scheme here",
            "http://[::1/",
            "http://a b/",
            "",
        ];
        for input in inputs {
            let u0 = crate::parse(input);
            let u1 = crate::resolve(&u0, input);
            let u2 = crate::canonicalize(&u1, None);
            for u in [u0, u1, u2] {
                for c in Component::ALL {
                    let v = u.get_nul(c as usize);
                    match u.get(c) {
                        None => assert!(v.is_none(), "{input:?} {c:?}"),
                        Some(want) => {
                            let v = v.unwrap_or_else(|| panic!("{input:?} {c:?}"));
                            assert_eq!(&v[..v.len() - 1], want.as_bytes(), "{input:?} {c:?}");
                            assert_eq!(v.last(), Some(&0), "{input:?} {c:?}");
                            let again = u.get_nul(c as usize).map(<[u8]>::as_ptr);
                            assert_eq!(again, Some(v.as_ptr()), "{input:?} {c:?}");
                        }
                    }
                }
                assert!(u.get_nul(8).is_none() && u.get_nul(99).is_none());
                match (u.serialization_nul(), u.as_str()) {
                    (Some(v), Some(s)) => {
                        assert_eq!(&v[..v.len() - 1], s.as_bytes());
                        assert_eq!(v.last(), Some(&0));
                    }
                    (None, None) => {}
                    other => panic!("{input:?} {other:?}"),
                }
            }
        }
    }

    /// Canonicalization keeps its input's raw authority and flag, and its
    /// record (written directly by `Url::from_serialization`) is the one
    /// `serialize::build` makes of those and the canonical components:
    /// the same value, serialization and C views.
    #[test]
    fn canonical_records_are_built_from_their_parts() {
        let mut checked = 0;
        for input in crate::testutil::conformance_inputs() {
            let u = crate::resolve(&crate::parse(&input), &input);
            let c = crate::canonicalize(&u, None);
            if c.is_invalid() {
                continue;
            }
            assert_eq!(c.authority(), u.authority(), "{input:?}");
            let p = Parts {
                scheme: c.scheme(),
                class: c.scheme_class(),
                user: c.user(),
                password: c.password(),
                host: c.host(),
                port: c.port(),
                path: c.path(),
                query: c.query(),
                fragment: c.fragment(),
                authority: u.authority(),
                hierarchical: u.is_hierarchical(),
                ..Parts::default()
            };
            let built = crate::serialize::build(&p);
            assert_eq!(c, built, "{input:?}");
            assert_eq!(
                c.serialization_nul(),
                built.serialization_nul(),
                "{input:?}"
            );
            for i in 0..8 {
                assert_eq!(c.get_nul(i), built.get_nul(i), "{input:?} {i}");
            }
            checked += usize::from(u.authority().is_some());
        }
        assert!(
            checked > 100,
            "{checked} canonical records with an authority"
        );
    }
}
