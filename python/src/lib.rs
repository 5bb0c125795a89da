//! The `wurl._wurl` extension module: Python bindings of the wurl Rust API
//! (not of its C ABI), built by maturin as an abi3 wheel for CPython >= 3.9.
//!
//! Every function works on `str`: a `str` is read as its UTF-8 bytes without
//! a copy where the interpreter allows it. A lone surrogate, which has no
//! UTF-8 form, is read as U+FFFD (what the conformance suite's `NAME8`
//! fields expect, and what the C ABI does with invalid UTF-8). Inputs longer
//! than 16 MiB (the C ABI's `WURL_MAX_INPUT_LEN`) raise `ValueError` in the
//! scalar functions and give `None` (null) in the batch functions.
//!
//! The batch functions read all their input while holding the GIL, then
//! release it for the work itself, and write every result into one buffer.
//! `canonicalize_arrow` reads and writes Arrow arrays through the Arrow C
//! data interface (PyCapsule protocol); the only `unsafe` code of this crate
//! is that interface.

#![deny(unsafe_op_in_unsafe_fn)]

use std::borrow::Cow;
use std::cell::RefCell;
use std::ffi::CString;
use std::hash::{Hash, Hasher};

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema, from_ffi, to_ffi};
use arrow_array::{Array, LargeStringArray, StringArray};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_data::ArrayData;
use arrow_schema::DataType;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{
    PyByteArray, PyBytes, PyCapsule, PyDict, PyList, PyMemoryView, PyString, PyTuple,
};
use wurl::host::HostKind;
use wurl::{CanonOptions, KeyOptions, Rules, Url};

/// Inputs longer than this many UTF-8 bytes are refused: the C ABI's limit,
/// so that an input gives the same refusal in every binding.
const MAX_INPUT_LEN: usize = wurl::ffi::WURL_MAX_INPUT_LEN;

// ---------------------------------------------------------------------------
// Reading Python strings.

/// The UTF-8 form of a string whose strict encoding failed: lone surrogates
/// become U+FFFD. With `surrogatepass`, a surrogate is encoded as the three
/// bytes `ED A0..BF 80..BF`; U+FFFD is the three bytes `EF BF BD`, so the
/// replacement happens in place.
fn lossy(s: &Bound<'_, PyString>) -> PyResult<String> {
    let enc = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
    let mut b = enc.cast::<PyBytes>()?.as_bytes().to_vec();
    let mut i = 0;
    while i + 2 < b.len() {
        if b[i] == 0xED && (0xA0..=0xBF).contains(&b[i + 1]) && (0x80..=0xBF).contains(&b[i + 2]) {
            b[i..i + 3].copy_from_slice("\u{FFFD}".as_bytes());
            i += 3;
        } else {
            i += 1;
        }
    }
    String::from_utf8(b).map_err(|e| PyValueError::new_err(format!("cannot read string: {e}")))
}

fn too_long(what: &str, len: usize) -> PyErr {
    PyValueError::new_err(format!(
        "{what} is {len} bytes long in UTF-8; wurl refuses inputs longer than {MAX_INPUT_LEN} bytes ({} MiB)",
        MAX_INPUT_LEN >> 20
    ))
}

fn type_error(what: &str, obj: &Bound<'_, PyAny>, want: &str) -> PyErr {
    let t = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_owned());
    PyTypeError::new_err(format!("{what} must be {want}, not {t}"))
}

/// A `str` argument as text: borrowed when it is valid UTF-8, U+FFFD for
/// lone surrogates; `ValueError` when longer than 16 MiB, `TypeError` when
/// not a `str`.
fn text<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<Cow<'a, str>> {
    let s = obj
        .cast::<PyString>()
        .map_err(|_| type_error(what, obj, "str"))?;
    let t = match s.to_cow() {
        Ok(t) => t,
        Err(_) => Cow::Owned(lossy(s)?),
    };
    if t.len() > MAX_INPUT_LEN {
        return Err(too_long(what, t.len()));
    }
    Ok(t)
}

fn opt_text<'a>(obj: Option<&'a Bound<'_, PyAny>>, what: &str) -> PyResult<Option<Cow<'a, str>>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => text(o, what).map(Some),
    }
}

/// A `charset` argument: `None`, or a label that names an encoding. The
/// library reads a label that names none as UTF-8 (the 2012 algorithm's
/// rule), so a misspelt one (`shiftjis`) would silently mean UTF-8: it
/// raises `ValueError` instead, with the library's one message for it
/// (`wurl::charset::resolve_label`), as every wurl front end shows it.
fn opt_charset<'a>(obj: Option<&'a Bound<'_, PyAny>>) -> PyResult<Option<Cow<'a, str>>> {
    let cs = opt_text(obj, "charset")?;
    if let Some(label) = &cs {
        wurl::charset::resolve_label(label.as_bytes())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    Ok(cs)
}

/// One string of a batch, held without the GIL.
enum Item {
    Null,
    Text(PyBackedStr),
    Owned(String),
    /// Longer than 16 MiB: the result is `None`.
    TooLong,
}

impl Item {
    fn from_py(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Item> {
        if obj.is_none() {
            return Ok(Item::Null);
        }
        let s = obj
            .cast::<PyString>()
            .map_err(|_| type_error(what, obj, "str or None"))?;
        let item = match PyBackedStr::try_from(s.clone()) {
            Ok(b) => Item::Text(b),
            Err(_) => Item::Owned(lossy(s)?),
        };
        Ok(match item.get() {
            Some(t) if t.len() > MAX_INPUT_LEN => Item::TooLong,
            _ => item,
        })
    }

    fn get(&self) -> Option<&str> {
        match self {
            Item::Text(s) => Some(s),
            Item::Owned(s) => Some(s),
            Item::Null | Item::TooLong => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Pickles of earlier development versions.

/// The deepest chain of calls an earlier pickle holds (those versions
/// wrote no deeper one); reading one recurses.
const MAX_LEGACY_DEPTH: u32 = 64;

/// The URL of a pickle state written by earlier development versions: the
/// calls that made the URL, as nested tuples (`("parse", input)`,
/// `("resolve", base, ref)`, `("canon", url, charset, strict)`), replayed.
/// Checked as a pickle from anywhere must be: `ValueError` for anything else.
fn legacy_state(obj: &Bound<'_, PyAny>, depth: u32) -> PyResult<Url> {
    let bad = || PyValueError::new_err("not a wurl.URL pickle state");
    if depth > MAX_LEGACY_DEPTH {
        return Err(bad());
    }
    let t = obj.cast::<PyTuple>().map_err(|_| bad())?;
    let tag = t.get_item(0).map_err(|_| bad())?;
    let tag = tag.cast::<PyString>().map_err(|_| bad())?;
    Ok(match (tag.to_cow()?.as_ref(), t.len()) {
        ("parse", 2) => wurl::parse(&text(&t.get_item(1)?, "state")?),
        ("resolve", 3) => wurl::resolve(
            &legacy_state(&t.get_item(1)?, depth + 1)?,
            &text(&t.get_item(2)?, "state")?,
        ),
        ("canon", 4) => {
            let url = legacy_state(&t.get_item(1)?, depth + 1)?;
            let cs = t.get_item(2)?;
            let cs = opt_text(Some(&cs), "state")?;
            let strict = t.get_item(3)?.extract::<bool>().map_err(|_| bad())?;
            wurl::canonicalize_with(&url, &options(cs.as_deref(), strict))
        }
        _ => return Err(bad()),
    })
}

/// The URL of a state (`Url::import_state`); `ValueError` with the reason
/// for bytes that are not one.
fn import_state(state: &[u8]) -> PyResult<Url> {
    Url::import_state(state).map_err(|e| PyValueError::new_err(e.to_string()))
}

// ---------------------------------------------------------------------------
// The URL object.

/// A parsed, resolved or canonicalized URL (immutable).
///
/// Made by `wurl.parse`, `wurl.resolve`, `wurl.canonical_url`,
/// `URL.resolve` and `URL.canonicalize` (it has no public constructor).
///
/// Components (`scheme`, `user`, `password`, `host`, `port`, `path`,
/// `query`, `fragment`) are `None` when absent and `""` when present and
/// empty: `parse("http://h/p?")` has `query == ""`, `parse("http://h/p")`
/// has `query is None`. An invalid URL keeps the components the algorithm
/// had found; `invalid_reason` says which rule failed.
///
/// Two URLs are equal (`==`) when every component, absent or empty, the
/// authority, the hierarchical flag and the invalid reason are equal; equal
/// URLs have equal hashes, so URLs can be set members and dict keys. URLs
/// pickle (Spark ships them between processes): the pickle holds the URL's
/// state (``state()``, its whole value as bytes), and unpickling makes it
/// again with the installed library (``URL.from_state``).
#[pyclass(name = "URL", module = "wurl", frozen, eq, hash)]
struct PyUrl {
    inner: Url,
}

impl PartialEq for PyUrl {
    fn eq(&self, other: &PyUrl) -> bool {
        self.inner == other.inner
    }
}

impl Hash for PyUrl {
    /// The fields `Url`'s equality compares, so that equal URLs hash alike.
    fn hash<H: Hasher>(&self, h: &mut H) {
        let u = &self.inner;
        u.invalid_reason().map(|r| r.as_str()).hash(h);
        u.is_hierarchical().hash(h);
        u.authority().hash(h);
        for c in wurl::Component::ALL {
            u.get(c).hash(h);
        }
    }
}

fn host_kind_name(u: &Url) -> &'static str {
    match wurl::host::host_kind(u) {
        HostKind::None => "none",
        HostKind::Empty => "empty",
        HostKind::Domain => "domain",
        HostKind::Ipv4 => "ipv4",
        HostKind::Ipv6 => "ipv6",
    }
}

/// The model of a `model=` argument: `"2012"` (the default) or
/// `"url-standard"`; with the URL Standard, `strict` is refused (it tests
/// the 2012 result).
fn model_arg(model: &str, strict: bool) -> PyResult<wurl::Model> {
    let m = wurl::Model::from_name(model).ok_or_else(|| {
        PyValueError::new_err(format!(
            "model must be \"2012\" or \"url-standard\", not {model:?}"
        ))
    })?;
    if m == wurl::Model::UrlStandard && strict {
        return Err(PyValueError::new_err(
            "strict=True tests the 2012 result; it cannot be used with model=\"url-standard\"",
        ));
    }
    Ok(m)
}

/// The base of the URL Standard model: a str as it is, a `URL` by its
/// serialization (`None` inside for an invalid one).
fn standard_base<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Option<Cow<'a, str>>> {
    if let Ok(u) = obj.cast::<PyUrl>() {
        return Ok(u.get().inner.as_str().map(|s| Cow::Owned(s.to_owned())));
    }
    let s = obj
        .cast::<PyString>()
        .map_err(|_| type_error("base", obj, "str, URL or None"))?;
    text(s.as_any(), "base").map(Some)
}

fn options<'a>(charset: Option<&'a str>, strict: bool) -> CanonOptions<'a> {
    CanonOptions {
        charset,
        network_strict: strict,
    }
}

#[pymethods]
impl PyUrl {
    /// The scheme (as written by parsing; lowercase after canonicalization).
    #[getter]
    fn scheme(&self) -> Option<&str> {
        self.inner.scheme()
    }
    #[getter]
    fn user(&self) -> Option<&str> {
        self.inner.user()
    }
    #[getter]
    fn password(&self) -> Option<&str> {
        self.inner.password()
    }
    #[getter]
    fn host(&self) -> Option<&str> {
        self.inner.host()
    }
    /// The port as text (`None` when absent or, after canonicalization, the
    /// scheme's default).
    #[getter]
    fn port(&self) -> Option<&str> {
        self.inner.port()
    }
    #[getter]
    fn path(&self) -> Option<&str> {
        self.inner.path()
    }
    #[getter]
    fn query(&self) -> Option<&str> {
        self.inner.query()
    }
    #[getter]
    fn fragment(&self) -> Option<&str> {
        self.inner.fragment()
    }
    /// Whether the URL is invalid.
    #[getter]
    fn invalid(&self) -> bool {
        self.inner.is_invalid()
    }
    /// Why the URL is invalid (an English description of the rule), or
    /// `None` when it is valid.
    #[getter]
    fn invalid_reason(&self) -> Option<&'static str> {
        self.inner.invalid_reason().map(|r| r.as_str())
    }
    /// `"none"`, `"empty"`, `"domain"`, `"ipv4"` or `"ipv6"`.
    #[getter]
    fn host_kind(&self) -> &'static str {
        host_kind_name(&self.inner)
    }
    /// The spec's hierarchical flag.
    #[getter]
    fn hierarchical(&self) -> bool {
        self.inner.is_hierarchical()
    }
    /// The serialization of this URL.
    ///
    /// Returns
    /// -------
    /// str or None
    ///     The URL as text, or None when it is invalid (``str(url)``
    ///     raises ``ValueError`` instead).
    fn serialize(&self) -> Option<String> {
        self.inner.serialize()
    }
    /// Canonicalize this URL (no resolution) and return the new URL.
    ///
    /// Parameters
    /// ----------
    /// charset : str or None
    ///     The encoding label of the query (a WHATWG Encoding Standard
    ///     label, the document's encoding); None means UTF-8, as does a
    ///     label whose encoding is not ASCII-compatible (UTF-16).
    /// strict : bool
    ///     Network-strict mode: also reject hosts that other parsers
    ///     (WHATWG, curl) would read differently.
    ///
    /// Returns
    /// -------
    /// URL
    ///     The canonical URL; invalid (with ``invalid_reason``) when a rule
    ///     fails or when this URL is invalid.
    ///
    /// Raises
    /// ------
    /// TypeError
    ///     ``charset`` is not a str or None.
    /// ValueError
    ///     ``charset`` is not a WHATWG Encoding Standard label (a misspelt
    ///     label would otherwise mean UTF-8), or is longer than 16 MiB in
    ///     UTF-8.
    #[pyo3(signature = (charset=None, strict=false))]
    fn canonicalize(&self, charset: Option<&Bound<'_, PyAny>>, strict: bool) -> PyResult<PyUrl> {
        let cs = opt_charset(charset)?;
        let inner = wurl::canonicalize_with(&self.inner, &options(cs.as_deref(), strict));
        Ok(PyUrl { inner })
    }
    /// Resolve the reference ``ref`` against this URL (no canonicalization).
    ///
    /// Parameters
    /// ----------
    /// ref : str
    ///     A URL reference (``"../x"``, ``"?q"``, ``"//host/p"``, or an
    ///     absolute URL).
    ///
    /// Returns
    /// -------
    /// URL
    ///     The resolved URL; invalid when this URL is invalid or the
    ///     reference cannot be resolved against it.
    ///
    /// Raises
    /// ------
    /// TypeError
    ///     ``ref`` is not a str.
    /// ValueError
    ///     ``ref`` is longer than 16 MiB in UTF-8.
    fn resolve(&self, r#ref: &Bound<'_, PyAny>) -> PyResult<PyUrl> {
        let r = text(r#ref, "ref")?;
        Ok(PyUrl {
            inner: wurl::resolve(&self.inner, &r),
        })
    }
    /// The URL's state: its whole value as bytes.
    ///
    /// Every component, absent or empty, the authority, the hierarchical
    /// flag and the invalid reason, in wurl's versioned state format (the
    /// C ABI's ``wurl_state_export``, what Perl's Storable and Ruby's
    /// Marshal store too); ``URL.from_state`` makes an equal URL from it, in
    /// any process, with this version of wurl or a later one. Pickles hold
    /// it.
    ///
    /// Returns
    /// -------
    /// bytes
    ///     The state.
    fn state<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.export_state())
    }
    /// Make the URL of a state (``URL.state()``).
    ///
    /// Parameters
    /// ----------
    /// state : bytes
    ///     A state that ``URL.state()`` wrote (``bytes``, ``bytearray`` or
    ///     ``memoryview``).
    ///
    /// Returns
    /// -------
    /// URL
    ///     A URL equal to the one whose state it is.
    ///
    /// Raises
    /// ------
    /// TypeError
    ///     ``state`` is not bytes, bytearray or memoryview.
    /// ValueError
    ///     ``state`` is not a wurl URL state (another format or version,
    ///     truncated, altered), with the reason. Any bytes are safe to pass.
    #[classmethod]
    fn from_state(
        _cls: &Bound<'_, pyo3::types::PyType>,
        state: &Bound<'_, PyAny>,
    ) -> PyResult<PyUrl> {
        let bytes: Cow<'_, [u8]> = if let Ok(b) = state.cast::<PyBytes>() {
            Cow::Borrowed(b.as_bytes())
        } else if let Ok(b) = state.cast::<PyByteArray>() {
            Cow::Owned(b.to_vec())
        } else if state.is_instance_of::<PyMemoryView>() {
            Cow::Owned(state.call_method0("tobytes")?.extract::<Vec<u8>>()?)
        } else {
            return Err(type_error("state", state, "bytes"));
        };
        Ok(PyUrl {
            inner: import_state(&bytes)?,
        })
    }
    /// Pickle support: the URL's state.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let state = PyBytes::new(py, &slf.get().inner.export_state());
        let make = slf.get_type().getattr("_from_state")?;
        (make, (state,)).into_pyobject(py)
    }
    /// Unpickling: the URL of a pickle's state, the bytes of ``state()``,
    /// or (pickles of earlier development versions) the calls that made it.
    #[classmethod]
    fn _from_state(
        _cls: &Bound<'_, pyo3::types::PyType>,
        state: &Bound<'_, PyAny>,
    ) -> PyResult<PyUrl> {
        let inner = match state.cast::<PyBytes>() {
            Ok(b) => import_state(b.as_bytes())?,
            Err(_) => legacy_state(state, 1)?,
        };
        Ok(PyUrl { inner })
    }
    /// The serialization; `ValueError` (with the reason) for an invalid URL.
    fn __str__(&self) -> PyResult<String> {
        match self.inner.serialize() {
            Some(s) => Ok(s),
            None => Err(PyValueError::new_err(format!(
                "invalid URL: {}",
                self.invalid_reason().unwrap_or("invalid")
            ))),
        }
    }
    fn __repr__(&self) -> String {
        match self.inner.serialize() {
            Some(s) => format!("URL({s:?})"),
            None => {
                let mut parts = vec![format!(
                    "invalid_reason={:?}",
                    self.invalid_reason().unwrap_or("")
                )];
                for c in wurl::Component::ALL {
                    if let Some(v) = self.inner.get(c) {
                        parts.push(format!("{}={v:?}", c.name()));
                    }
                }
                format!("URL({})", parts.join(", "))
            }
        }
    }
}

/// A base argument: a `URL` (borrowed as it is) or a `str` (parsed).
fn base_url<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Cow<'a, Url>> {
    if let Ok(u) = obj.cast::<PyUrl>() {
        return Ok(Cow::Borrowed(&u.get().inner));
    }
    let s = obj
        .cast::<PyString>()
        .map_err(|_| type_error("base", obj, "str, URL or None"))?;
    Ok(Cow::Owned(wurl::parse(&text(s.as_any(), "base")?)))
}

// ---------------------------------------------------------------------------
// Scalar functions.

thread_local! {
    static SCRATCH: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Parse ``url`` into its raw components (no resolution, no
/// canonicalization).
///
/// Parameters
/// ----------
/// url : str
///     The URL. TAB, LF and CR are removed and leading and trailing C0
///     controls and spaces trimmed first, as the algorithm says; a lone
///     surrogate is read as U+FFFD.
///
/// Returns
/// -------
/// URL
///     The parsed URL: components as written (``None`` absent, ``""``
///     empty); invalid, with ``invalid_reason``, when it does not parse
///     (e.g. a relative reference: ``"no scheme ..."``).
///
/// Raises
/// ------
/// TypeError
///     ``url`` is not a str.
/// ValueError
///     ``url`` is longer than 16 MiB in UTF-8.
#[pyfunction]
fn parse(url: &Bound<'_, PyAny>) -> PyResult<PyUrl> {
    let u = text(url, "url")?;
    Ok(PyUrl {
        inner: wurl::parse(&u),
    })
}

/// Resolve the reference ``ref`` against ``base``, without
/// canonicalization.
///
/// Parameters
/// ----------
/// base : str or URL
///     The base URL (a str is parsed first; a URL is used as it is).
/// ref : str
///     A URL reference (``"../x"``, ``"?q"``, ``"#f"``, ``"//host/p"``, or
///     an absolute URL).
///
/// Returns
/// -------
/// URL
///     The resolved URL; invalid, with ``invalid_reason``, when the base
///     is invalid (``"base URL is invalid"``) or the reference cannot be
///     resolved against it.
///
/// Raises
/// ------
/// TypeError
///     ``base`` is not a str or URL, or ``ref`` is not a str.
/// ValueError
///     ``base`` or ``ref`` is longer than 16 MiB in UTF-8.
#[pyfunction]
fn resolve(base: &Bound<'_, PyAny>, r#ref: &Bound<'_, PyAny>) -> PyResult<PyUrl> {
    let r = text(r#ref, "ref")?;
    Ok(PyUrl {
        inner: wurl::resolve(&*base_url(base)?, &r),
    })
}

/// Canonicalize ``url`` and return its serialization.
///
/// ``url`` is resolved against ``base`` (or, without one, against itself),
/// canonicalized and serialized; the result is the dedup key a crawler
/// stores.
///
/// Parameters
/// ----------
/// url : str or URL
///     A str is resolved against ``base``; a URL (from ``parse`` or
///     ``resolve``) is canonicalized as it is.
/// base : str, URL or None
///     The base URL of a str ``url`` (the page it was found on); None: the
///     URL is its own base, so a relative reference is invalid.
/// charset : str or None
///     The encoding label of the query (a WHATWG Encoding Standard label,
///     the document's encoding); None means UTF-8, as does a label whose
///     encoding is not ASCII-compatible (UTF-16).
/// strict : bool
///     Network-strict mode: also reject hosts that other parsers (WHATWG,
///     curl) would read differently.
/// rules : Rules, str or None
///     Opt-in dedup rules applied after canonicalization (docs/keys.md): a
///     compiled ``Rules`` or its specification string.
/// surt : bool
///     Return the SURT form of the (ruled) canonical URL
///     (``com,example,www)/a?q``).
/// surt_scheme : bool
///     Return the SURT form keeping the scheme
///     (``http://(com,example,www)/a?q``).
/// model : str
///     ``"2012"`` (the default): the 2012 Web::URL::Canonicalize algorithm.
///     ``"url-standard"``: the WHATWG URL Standard's parser and serializer
///     (``http://faß.de/`` gives ``http://xn--fa-hia.de/``); ``url`` must
///     be a str, a ``URL`` base counts by its serialization, and ``strict``
///     is refused. The rules and SURT apply to either model's result.
///
/// Returns
/// -------
/// str or None
///     The canonical URL (or its key), or None when it is invalid
///     (``canonical_url`` says why, for the 2012 model).
///
/// Raises
/// ------
/// TypeError
///     ``url``, ``base`` or ``charset`` has a wrong type, or ``base`` is
///     given with a URL object.
/// ValueError
///     ``charset`` is not a WHATWG Encoding Standard label (a misspelt
///     label would otherwise mean UTF-8); ``url``, ``base`` or ``charset``
///     is longer than 16 MiB in UTF-8; or ``rules`` is a bad specification
///     (the message names the bad part).
#[pyfunction]
#[pyo3(signature = (url, base=None, charset=None, strict=false, rules=None, surt=false, surt_scheme=false, model="2012"))]
#[allow(clippy::too_many_arguments)]
fn canonicalize<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    base: Option<&Bound<'py, PyAny>>,
    charset: Option<&Bound<'py, PyAny>>,
    strict: bool,
    rules: Option<&Bound<'py, PyAny>>,
    surt: bool,
    surt_scheme: bool,
    model: &str,
) -> PyResult<Option<Bound<'py, PyString>>> {
    let model = model_arg(model, strict)?;
    let cs = opt_charset(charset)?;
    let opts = options(cs.as_deref(), strict);
    let rules = RulesArg::from_py(rules)?;
    let key = key_options(rules.get(), surt, surt_scheme);
    if model == wurl::Model::UrlStandard {
        if url.cast::<PyUrl>().is_ok() {
            return Err(PyTypeError::new_err(
                "model=\"url-standard\" takes a str url (a URL object is a 2012 record)",
            ));
        }
        let input = text(url, "url")?;
        let base = match base {
            Some(b) if !b.is_none() => match standard_base(b)? {
                Some(b) => Some(b),
                None => return Ok(None),
            },
            _ => None,
        };
        let mut out = String::new();
        return Ok(
            wurl::key_standard_into(base.as_deref(), &input, cs.as_deref(), &key, &mut out)
                .ok()
                .map(|()| PyString::new(py, &out)),
        );
    }
    if let Ok(u) = url.cast::<PyUrl>() {
        if base.is_some_and(|b| !b.is_none()) {
            return Err(PyTypeError::new_err(
                "base= applies to a str url; a URL object is canonicalized as it is (use resolve() first)",
            ));
        }
        let c = wurl::canonicalize_with(&u.get().inner, &opts);
        return Ok(c.as_str().map(|s| {
            let mut k = String::new();
            wurl::key_of_into(s, &key, &mut k);
            PyString::new(py, &k)
        }));
    }
    let input = text(url, "url")?;
    let base = match base {
        Some(b) if !b.is_none() => Some(base_url(b)?),
        _ => None,
    };
    SCRATCH.with(|cell| {
        let mut guard = cell.try_borrow_mut();
        let mut fresh = String::new();
        let out: &mut String = match guard.as_mut() {
            Ok(s) => s,
            Err(_) => &mut fresh,
        };
        out.clear();
        let r = match wurl::key_into(base.as_deref(), &input, &opts, &key, out) {
            Ok(()) => Some(PyString::new(py, out)),
            Err(_) => None,
        };
        if out.capacity() > 1 << 20 {
            *out = String::new();
        }
        Ok(r)
    })
}

/// Like ``canonicalize``, but return the canonical URL record.
///
/// Parameters
/// ----------
/// url : str
///     The URL or reference.
/// base : str, URL or None
///     The base URL; None: ``url`` is its own base.
/// charset : str or None
///     The encoding label of the query (None: UTF-8), as for
///     ``canonicalize``.
/// strict : bool
///     Network-strict mode, as for ``canonicalize``.
///
/// Returns
/// -------
/// URL
///     The canonical URL with its components, or an invalid URL whose
///     ``invalid_reason`` says which rule failed. Without ``base``, an
///     input that does not parse is returned as parsed, with its parse
///     failure as the reason.
///
/// Raises
/// ------
/// TypeError
///     An argument has a wrong type.
/// ValueError
///     ``charset`` is not a WHATWG Encoding Standard label, or ``url``,
///     ``base`` or ``charset`` is longer than 16 MiB in UTF-8.
#[pyfunction]
#[pyo3(signature = (url, base=None, charset=None, strict=false))]
fn canonical_url(
    url: &Bound<'_, PyAny>,
    base: Option<&Bound<'_, PyAny>>,
    charset: Option<&Bound<'_, PyAny>>,
    strict: bool,
) -> PyResult<PyUrl> {
    let cs = opt_charset(charset)?;
    let opts = options(cs.as_deref(), strict);
    let input = text(url, "url")?;
    let base = match base {
        Some(b) if !b.is_none() => base_url(b)?,
        _ => {
            // The input is its own base: when it does not parse, the
            // result is its parse, with its own reason (`wurl::own_base`).
            match wurl::own_base(&input) {
                Ok(parsed) => Cow::Owned(parsed),
                Err(parsed) => return Ok(PyUrl { inner: parsed }),
            }
        }
    };
    let resolved = wurl::resolve(&base, &input);
    let inner = wurl::canonicalize_with(&resolved, &opts);
    Ok(PyUrl { inner })
}

// ---------------------------------------------------------------------------
// The batch core.

/// Where each row's base comes from.
enum Bases<'a> {
    /// Each URL is its own base.
    None,
    /// One base for every row.
    One(&'a Url),
    /// A base per row; a null base means the row is its own base.
    PerRow(&'a (dyn Fn(usize) -> Option<Cow<'a, str>> + Sync)),
}

/// The results of a batch: every serialization back to back in `out`;
/// row `i` is `out[ends[i-1]..ends[i]]` when `valid[i]`.
struct Batch {
    out: String,
    ends: Vec<usize>,
    valid: Vec<bool>,
}

/// What a batch does with each row.
#[derive(Clone, Copy)]
enum Op<'o> {
    /// Resolve, canonicalize and serialize, then the key's rules and SURT
    /// (`wurl::key_into`: `canon_into` itself without them).
    Canon(&'o CanonOptions<'o>, &'o KeyOptions<'o>),
    /// Resolve and serialize, without canonicalization.
    Resolve,
    /// The URL Standard model (its charset), then the key's rules and
    /// SURT (`wurl::key_standard_into`).
    Standard(Option<&'o str>, &'o KeyOptions<'o>),
}

fn run_batch<'a>(
    n: usize,
    url_at: &(dyn Fn(usize) -> Option<Cow<'a, str>> + Sync),
    bases: &Bases<'a>,
    op: Op<'_>,
) -> Batch {
    if let Op::Standard(charset, key) = op {
        return run_batch_standard(n, url_at, bases, charset, key);
    }
    let mut b = Batch {
        out: String::new(),
        ends: Vec::with_capacity(n),
        valid: Vec::with_capacity(n),
    };
    // Pages come with their links adjacent: parse a base once per run.
    let mut cached: Option<(String, Url)> = None;
    for i in 0..n {
        let ok = match url_at(i) {
            None => false,
            Some(u) => {
                let base: Option<&Url> = match bases {
                    Bases::None => None,
                    Bases::One(b) => Some(b),
                    Bases::PerRow(f) => match f(i) {
                        None => None,
                        Some(s) => {
                            if cached.as_ref().is_none_or(|(k, _)| *k != *s) {
                                let parsed = wurl::parse(&s);
                                cached = Some((s.into_owned(), parsed));
                            }
                            cached.as_ref().map(|(_, u)| u)
                        }
                    },
                };
                let start = b.out.len();
                let ok = match op {
                    Op::Canon(opts, key) => wurl::key_into(base, &u, opts, key, &mut b.out).is_ok(),
                    // Taken by `run_batch_standard` above.
                    Op::Standard(..) => false,
                    Op::Resolve => {
                        let r = match base {
                            Some(base) => wurl::resolve(base, &u),
                            None => wurl::resolve(&wurl::parse(&u), &u),
                        };
                        wurl::serialize::serialize_into(&r, &mut b.out)
                    }
                };
                if !ok {
                    b.out.truncate(start);
                }
                ok
            }
        };
        b.ends.push(b.out.len());
        b.valid.push(ok);
    }
    b
}

/// [`run_batch`] of the URL Standard model: each row against its base as
/// a string (a `URL` base by its serialization; an invalid one makes every
/// row invalid), then the key.
fn run_batch_standard<'a>(
    n: usize,
    url_at: &(dyn Fn(usize) -> Option<Cow<'a, str>> + Sync),
    bases: &Bases<'a>,
    charset: Option<&str>,
    key: &KeyOptions<'_>,
) -> Batch {
    let mut b = Batch {
        out: String::new(),
        ends: Vec::with_capacity(n),
        valid: Vec::with_capacity(n),
    };
    for i in 0..n {
        let start = b.out.len();
        let ok = match url_at(i) {
            None => false,
            Some(u) => {
                let base: Option<Option<Cow<'_, str>>> = match bases {
                    Bases::None => None,
                    Bases::One(url) => Some(url.as_str().map(Cow::Borrowed)),
                    Bases::PerRow(f) => f(i).map(Some),
                };
                match base {
                    Some(None) => false,
                    Some(Some(base)) => {
                        wurl::key_standard_into(Some(&base), &u, charset, key, &mut b.out).is_ok()
                    }
                    None => wurl::key_standard_into(None, &u, charset, key, &mut b.out).is_ok(),
                }
            }
        };
        if !ok {
            b.out.truncate(start);
        }
        b.ends.push(b.out.len());
        b.valid.push(ok);
    }
    b
}

/// Canonicalize a batch of URLs with the GIL released.
///
/// The same result as ``[canonicalize(u, base=b, ...) for u, b in ...]``,
/// computed without the GIL (other Python threads run meanwhile) into one
/// buffer.
///
/// Parameters
/// ----------
/// urls : iterable of str or None
///     The URLs (not a str itself: that would be an iterable of
///     characters). None gives None.
/// base : str, URL, sequence of str or None, or None
///     None: each URL is its own base. A str or URL: one base for every
///     URL. A sequence of the same length as ``urls``: each URL against its
///     own base (a page's links against the page), a None base meaning the
///     URL is its own base. Consecutive equal bases are parsed once.
/// charset : str or None
///     The encoding label of the query (None: UTF-8), as for
///     ``canonicalize``.
/// strict : bool
///     Network-strict mode, as for ``canonicalize``.
/// rules : Rules, str or None
///     Opt-in dedup rules, as for ``canonicalize``.
/// surt : bool
///     The SURT form, as for ``canonicalize``.
/// surt_scheme : bool
///     The SURT form keeping the scheme, as for ``canonicalize``.
/// model : str
///     ``"2012"`` (the default) or ``"url-standard"``, as for
///     ``canonicalize`` (a str or ``URL`` base; a ``URL`` base counts by
///     its serialization).
///
/// Returns
/// -------
/// list of str or None
///     One entry per URL, in order: the canonical URL (or its key), or
///     None when the URL is None, invalid, or (with its base) longer than
///     16 MiB.
///
/// Raises
/// ------
/// TypeError
///     ``urls`` is a str or not iterable, an item is not a str or None, or
///     ``base`` has a wrong type.
/// ValueError
///     ``base`` is a sequence of another length, ``charset`` is not a
///     WHATWG Encoding Standard label, a single ``base`` or ``charset`` is
///     longer than 16 MiB in UTF-8, or ``rules`` is a bad specification.
#[pyfunction]
#[pyo3(signature = (urls, base=None, charset=None, strict=false, rules=None, surt=false, surt_scheme=false, model="2012"))]
#[allow(clippy::too_many_arguments)]
fn canonicalize_many<'py>(
    py: Python<'py>,
    urls: &Bound<'py, PyAny>,
    base: Option<&Bound<'py, PyAny>>,
    charset: Option<&Bound<'py, PyAny>>,
    strict: bool,
    rules: Option<&Bound<'py, PyAny>>,
    surt: bool,
    surt_scheme: bool,
    model: &str,
) -> PyResult<Bound<'py, PyList>> {
    let model = model_arg(model, strict)?;
    let rules = RulesArg::from_py(rules)?;
    let rules = rules.get().cloned();
    if urls.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "urls must be an iterable of str, not a str (use canonicalize())",
        ));
    }
    let cs: Option<String> = opt_charset(charset)?.map(Cow::into_owned);
    let mut items = Vec::new();
    for obj in urls.try_iter()? {
        items.push(Item::from_py(&obj?, "each url")?);
    }
    // The base: None, one str/URL, or an iterable of str/None of the same length.
    let mut one: Option<Url> = None;
    let mut per_row: Option<Vec<Item>> = None;
    if let Some(b) = base.filter(|b| !b.is_none()) {
        if b.is_instance_of::<PyString>() || b.cast::<PyUrl>().is_ok() {
            one = Some(base_url(b)?.into_owned());
        } else {
            let mut v = Vec::with_capacity(items.len());
            for obj in b.try_iter()? {
                v.push(Item::from_py(&obj?, "each base")?);
            }
            if v.len() != items.len() {
                return Err(PyValueError::new_err(format!(
                    "base has {} items but urls has {}",
                    v.len(),
                    items.len()
                )));
            }
            per_row = Some(v);
        }
    }
    let batch = py.detach(|| {
        let opts = options(cs.as_deref(), strict);
        let url_at = |i: usize| items[i].get().map(Cow::Borrowed);
        let row_base = |i: usize| per_row.as_ref().and_then(|v| v[i].get()).map(Cow::Borrowed);
        let bases = match (&one, &per_row) {
            (Some(u), _) => Bases::One(u),
            (None, Some(_)) => Bases::PerRow(&row_base),
            (None, None) => Bases::None,
        };
        // A base that is longer than 16 MiB gives None, like its URL would.
        let url_at2 = |i: usize| {
            if per_row
                .as_ref()
                .is_some_and(|v| matches!(v[i], Item::TooLong))
            {
                return None;
            }
            url_at(i)
        };
        let key = key_options(rules.as_ref(), surt, surt_scheme);
        let op = match model {
            wurl::Model::UrlStandard => Op::Standard(cs.as_deref(), &key),
            _ => Op::Canon(&opts, &key),
        };
        run_batch(items.len(), &url_at2, &bases, op)
    });
    let mut start = 0;
    let list = PyList::empty(py);
    for (end, ok) in batch.ends.iter().zip(&batch.valid) {
        if *ok {
            list.append(PyString::new(py, &batch.out[start..*end]))?;
        } else {
            list.append(py.None())?;
        }
        start = *end;
    }
    Ok(list)
}

// ---------------------------------------------------------------------------
// Arrow through the C data interface (PyCapsule protocol).

/// Imports an array from an object with `__arrow_c_array__`; the returned
/// `ArrayData` shares the producer's buffers (no copy).
fn import_arrow(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<ArrayData> {
    if !obj.hasattr("__arrow_c_array__")? {
        return Err(type_error(
            what,
            obj,
            "an Arrow array (pyarrow.Array or any object with __arrow_c_array__)",
        ));
    }
    let pair = obj.call_method0("__arrow_c_array__")?;
    let pair = pair.cast::<PyTuple>()?;
    if pair.len() != 2 {
        return Err(PyTypeError::new_err(
            "__arrow_c_array__ must return (schema capsule, array capsule)",
        ));
    }
    let schema_cap = pair.get_item(0)?;
    let array_cap = pair.get_item(1)?;
    let schema_cap = schema_cap.cast::<PyCapsule>()?;
    let array_cap = array_cap.cast::<PyCapsule>()?;
    let schema_ptr = schema_cap
        .pointer_checked(Some(c"arrow_schema"))?
        .cast::<FFI_ArrowSchema>();
    let array_ptr = array_cap
        .pointer_checked(Some(c"arrow_array"))?
        .cast::<FFI_ArrowArray>();
    // SAFETY: by the Arrow PyCapsule interface, a capsule named
    // "arrow_array" points to a valid `ArrowArray` struct that the consumer
    // may move out of; `from_raw` moves it and marks the original released,
    // so the capsule's destructor will not release it again. The capsule is
    // alive (we hold `array_cap`) while the pointer is read.
    let array = unsafe { FFI_ArrowArray::from_raw(array_ptr.as_ptr()) };
    // SAFETY: a capsule named "arrow_schema" points to a valid `ArrowSchema`
    // owned by the capsule, which we hold for the whole use of the reference.
    let schema = unsafe { schema_ptr.as_ref() };
    // SAFETY: `array` and `schema` describe the same array (they come from
    // one `__arrow_c_array__` call, as the protocol requires). The buffers
    // are not trusted beyond their sizes: values are read below with
    // bounds-checked slicing and UTF-8 validation.
    let data = unsafe { from_ffi(array, schema) }
        .map_err(|e| PyValueError::new_err(format!("cannot import {what}: {e}")))?;
    data.validate()
        .map_err(|e| PyValueError::new_err(format!("malformed Arrow array for {what}: {e}")))?;
    Ok(data)
}

/// A string column: offsets (as `i64`) and values, read with bounds checks.
struct StrColumn {
    data: ArrayData,
    large: bool,
}

impl StrColumn {
    fn new(data: ArrayData, what: &str) -> PyResult<StrColumn> {
        let large = match data.data_type() {
            DataType::Utf8 => false,
            DataType::LargeUtf8 => true,
            DataType::Null => false,
            t => {
                return Err(PyTypeError::new_err(format!(
                    "{what} must be an Arrow string or large_string array, not {t}"
                )));
            }
        };
        let col = StrColumn { data, large };
        // Check every offset once, so that `get` cannot fail later.
        for i in 0..col.data.len() {
            if !col.is_null(i) && col.bytes(i).is_none() {
                return Err(PyValueError::new_err(format!(
                    "malformed Arrow array for {what}: offsets of row {i} are out of bounds"
                )));
            }
        }
        Ok(col)
    }

    fn is_null(&self, i: usize) -> bool {
        self.data.data_type() == &DataType::Null || self.data.is_null(i)
    }

    fn bytes(&self, i: usize) -> Option<&[u8]> {
        let bufs = self.data.buffers();
        let (offs, values) = (bufs.first()?, bufs.get(1)?);
        let k = self.data.offset() + i;
        let (a, b) = if self.large {
            let o: &[i64] = offs.typed_data::<i64>();
            (*o.get(k)?, *o.get(k + 1)?)
        } else {
            let o: &[i32] = offs.typed_data::<i32>();
            (i64::from(*o.get(k)?), i64::from(*o.get(k + 1)?))
        };
        let (a, b) = (usize::try_from(a).ok()?, usize::try_from(b).ok()?);
        values.as_slice().get(a..b)
    }

    /// Row `i` as text (`None` for null or longer than 16 MiB); invalid
    /// UTF-8 from a non-conforming producer is read with U+FFFD replacement.
    fn get(&self, i: usize) -> Option<Cow<'_, str>> {
        if self.is_null(i) {
            return None;
        }
        let b = self.bytes(i)?;
        if b.len() > MAX_INPUT_LEN {
            return None;
        }
        Some(String::from_utf8_lossy(b))
    }
}

/// An Arrow string array made by `canonicalize_arrow`, exported through
/// `__arrow_c_array__` (pyarrow.array(obj) imports it without a copy).
#[pyclass(name = "ArrowStringArray", module = "wurl", frozen)]
struct ArrowOut {
    data: ArrayData,
}

#[pymethods]
impl ArrowOut {
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        // The requested schema may be ignored (the protocol allows it): the
        // array is exported as the type it has.
        let _ = requested_schema;
        let (array, schema) =
            to_ffi(&self.data).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let schema_cap = PyCapsule::new(py, schema, Some(CString::from(c"arrow_schema")))?;
        let array_cap = PyCapsule::new(py, array, Some(CString::from(c"arrow_array")))?;
        PyTuple::new(py, [schema_cap.into_any(), array_cap.into_any()])
    }
    fn __len__(&self) -> usize {
        self.data.len()
    }
    #[getter]
    fn type_name(&self) -> String {
        self.data.data_type().to_string()
    }
}

fn build_arrow(batch: Batch, large: bool) -> PyResult<ArrayData> {
    let Batch { out, ends, valid } = batch;
    let nulls = if valid.iter().all(|v| *v) {
        None
    } else {
        Some(NullBuffer::from(valid))
    };
    let values = Buffer::from_vec(out.into_bytes());
    if large {
        let mut offs = Vec::with_capacity(ends.len() + 1);
        offs.push(0i64);
        for e in &ends {
            offs.push(i64::try_from(*e).map_err(|_| PyOverflowError::new_err("output too large"))?);
        }
        // SAFETY: the offsets are the lengths of `out` after each row, so
        // they start at 0, never decrease, end at `values.len()` and fall on
        // the boundaries between complete UTF-8 strings (each row's
        // serialization was appended to a `String` whole).
        let offsets = unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::from(offs)) };
        // SAFETY: as above: valid offsets into valid UTF-8; one null entry per row.
        let a = unsafe { LargeStringArray::new_unchecked(offsets, values, nulls) };
        Ok(a.into_data())
    } else {
        let mut offs = Vec::with_capacity(ends.len() + 1);
        offs.push(0i32);
        for e in &ends {
            offs.push(i32::try_from(*e).map_err(|_| {
                PyOverflowError::new_err(
                    "the results exceed 2 GiB, too much for a string array: pass a large_string array or smaller batches",
                )
            })?);
        }
        // SAFETY: as for the large array above.
        let offsets = unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::from(offs)) };
        // SAFETY: as for the large array above.
        let a = unsafe { StringArray::new_unchecked(offsets, values, nulls) };
        Ok(a.into_data())
    }
}

/// What an Arrow batch does (an owned [`Op`], to take into `py.detach`).
enum ArrowOp {
    Canon {
        charset: Option<String>,
        strict: bool,
        rules: Option<Rules>,
        surt: bool,
        surt_scheme: bool,
    },
    Resolve,
}

/// Runs `op` over an Arrow string array (`bases`: None, one str/URL, or a
/// string array of the same length) with the GIL released.
fn arrow_batch(
    py: Python<'_>,
    urls: &Bound<'_, PyAny>,
    bases: Option<&Bound<'_, PyAny>>,
    op: ArrowOp,
) -> PyResult<ArrowOut> {
    let col = StrColumn::new(import_arrow(urls, "urls")?, "urls")?;
    let n = col.data.len();
    let mut one: Option<Url> = None;
    let mut per_row: Option<StrColumn> = None;
    if let Some(b) = bases.filter(|b| !b.is_none()) {
        if b.is_instance_of::<PyString>() || b.cast::<PyUrl>().is_ok() {
            one = Some(base_url(b)?.into_owned());
        } else {
            let c = StrColumn::new(import_arrow(b, "bases")?, "bases")?;
            if c.data.len() != n {
                return Err(PyValueError::new_err(format!(
                    "bases has {} rows but urls has {n}",
                    c.data.len()
                )));
            }
            per_row = Some(c);
        }
    }
    let data = py.detach(|| {
        let (opts, key);
        let op = match &op {
            ArrowOp::Canon {
                charset,
                strict,
                rules,
                surt,
                surt_scheme,
            } => {
                opts = options(charset.as_deref(), *strict);
                key = key_options(rules.as_ref(), *surt, *surt_scheme);
                Op::Canon(&opts, &key)
            }
            ArrowOp::Resolve => Op::Resolve,
        };
        let url_at = |i: usize| {
            // A base longer than 16 MiB makes its row null.
            if per_row
                .as_ref()
                .is_some_and(|c| !c.is_null(i) && c.get(i).is_none())
            {
                return None;
            }
            col.get(i)
        };
        let row_base = |i: usize| per_row.as_ref().and_then(|c| c.get(i));
        let bases = match (&one, &per_row) {
            (Some(u), _) => Bases::One(u),
            (None, Some(_)) => Bases::PerRow(&row_base),
            (None, None) => Bases::None,
        };
        let batch = run_batch(n, &url_at, &bases, op);
        build_arrow(batch, col.large)
    })?;
    Ok(ArrowOut { data })
}

/// Canonicalize an Arrow string array with the GIL released.
///
/// The extension's entry point; ``wurl.canonicalize_arrow`` wraps it (and
/// takes chunked arrays). Returns an array of the same length and type
/// (string or large_string), null for null or invalid inputs.
#[pyfunction]
#[pyo3(signature = (urls, bases=None, charset=None, strict=false, rules=None, surt=false, surt_scheme=false))]
#[allow(clippy::too_many_arguments)]
fn canonicalize_arrow<'py>(
    py: Python<'py>,
    urls: &Bound<'py, PyAny>,
    bases: Option<&Bound<'py, PyAny>>,
    charset: Option<&Bound<'py, PyAny>>,
    strict: bool,
    rules: Option<&Bound<'py, PyAny>>,
    surt: bool,
    surt_scheme: bool,
) -> PyResult<ArrowOut> {
    let cs: Option<String> = opt_charset(charset)?.map(Cow::into_owned);
    let rules = RulesArg::from_py(rules)?.get().cloned();
    arrow_batch(
        py,
        urls,
        bases,
        ArrowOp::Canon {
            charset: cs,
            strict,
            rules,
            surt,
            surt_scheme,
        },
    )
}

/// Resolve an Arrow string array with the GIL released (no
/// canonicalization).
///
/// The extension's entry point; ``wurl.resolve_arrow`` wraps it (and takes
/// chunked arrays). Returns an array of the same length and type, each row
/// the serialization of ``wurl.resolve(base, url)``, null for null or
/// invalid inputs.
#[pyfunction]
#[pyo3(signature = (urls, bases=None))]
fn resolve_arrow<'py>(
    py: Python<'py>,
    urls: &Bound<'py, PyAny>,
    bases: Option<&Bound<'py, PyAny>>,
) -> PyResult<ArrowOut> {
    arrow_batch(py, urls, bases, ArrowOp::Resolve)
}

// ---------------------------------------------------------------------------
// Keys (issue 28): rules and SURT.

/// A compiled rules specification: opt-in dedup rules applied after
/// canonicalization (docs/keys.md).
///
/// Compile it once and pass it as ``rules=`` to ``canonicalize``,
/// ``canonicalize_many`` or ``canonicalize_arrow``. Immutable (any thread
/// may use it), hashable, and picklable as its specification.
///
/// Parameters
/// ----------
/// spec : str
///     Comma-separated rules, each at most once: ``drop-fragment``,
///     ``strip-www``, ``sort-query``, ``drop-params=GLOB|GLOB...``,
///     ``strip-session-ids``, ``drop-userinfo``, ``normalize-escapes``;
///     e.g.
///     ``"drop-fragment,strip-www,sort-query,drop-params=utm_*|fbclid"``.
///     The empty string is no rule.
///
/// Raises
/// ------
/// ValueError
///     A bad specification; the message names the bad part.
/// TypeError
///     ``spec`` is not a str.
#[pyclass(name = "Rules", module = "wurl", frozen)]
struct PyRules {
    inner: Rules,
}

#[pymethods]
impl PyRules {
    #[new]
    fn new(spec: &Bound<'_, PyAny>) -> PyResult<PyRules> {
        let spec = text(spec, "spec")?;
        Rules::parse(&spec)
            .map(|inner| PyRules { inner })
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The specification, as given.
    #[getter]
    fn spec(&self) -> &str {
        self.inner.as_str()
    }

    fn __str__(&self) -> &str {
        self.inner.as_str()
    }

    fn __repr__(&self) -> String {
        format!("wurl.Rules({:?})", self.inner.as_str())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyRules>()
            .is_ok_and(|o| o.get().inner.as_str() == self.inner.as_str())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.as_str().hash(&mut h);
        h.finish()
    }

    /// Pickles as its specification.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let cls = slf.get_type().into_any();
        Ok((cls, (slf.get().inner.as_str().to_owned(),)))
    }
}

/// The `rules=` argument: a `Rules`, a specification string, or none.
enum RulesArg<'py> {
    None,
    Obj(Bound<'py, PyRules>),
    Owned(Rules),
}

impl<'py> RulesArg<'py> {
    fn from_py(obj: Option<&Bound<'py, PyAny>>) -> PyResult<RulesArg<'py>> {
        let Some(obj) = obj.filter(|o| !o.is_none()) else {
            return Ok(RulesArg::None);
        };
        if let Ok(r) = obj.cast::<PyRules>() {
            return Ok(RulesArg::Obj(r.clone()));
        }
        if !obj.is_instance_of::<PyString>() {
            return Err(type_error("rules", obj, "a wurl.Rules or a str"));
        }
        let spec = text(obj, "rules")?;
        Rules::parse(&spec)
            .map(RulesArg::Owned)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    fn get(&self) -> Option<&Rules> {
        match self {
            RulesArg::None => None,
            RulesArg::Obj(r) => Some(&r.get().inner),
            RulesArg::Owned(r) => Some(r),
        }
    }
}

/// The key of `rules=`, `surt=` and `surt_scheme=`.
fn key_options(rules: Option<&Rules>, surt: bool, surt_scheme: bool) -> KeyOptions<'_> {
    KeyOptions {
        rules,
        surt: (surt || surt_scheme).then_some(wurl::surt::SurtOptions {
            with_scheme: surt_scheme,
        }),
    }
}

/// The message wurl gives for a charset label that names no encoding.
///
/// The text every wurl front end shows (the C ABI's
/// ``wurl_charset_message``, the CLI, Perl, Ruby), and that of the
/// ``ValueError`` raised for such a ``charset``: the label quoted in ASCII,
/// cut after 64 bytes.
///
/// Parameters
/// ----------
/// label : str
///     A charset label (a lone surrogate is read as U+FFFD).
///
/// Returns
/// -------
/// str or None
///     The message, or ``None`` when ``label`` names an encoding (a WHATWG
///     Encoding Standard label, ASCII case-insensitive, surrounding
///     whitespace ignored).
///
/// Raises
/// ------
/// TypeError
///     ``label`` is not a str.
/// ValueError
///     ``label`` is longer than 16 MiB in UTF-8.
#[pyfunction]
fn charset_message(label: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let l = text(label, "label")?;
    Ok(wurl::charset::resolve_label(l.as_bytes())
        .err()
        .map(|e| e.to_string()))
}

/// Why ``url`` has its key, and with ``url2`` whether the two share one.
///
/// The steps come from the stages that compute the key, as they take them
/// (the same steps ``wurl explain`` prints): preprocessing, the components
/// as parsed, resolution, each component's canonicalization (the host's
/// lower case, Nameprep, Punycode and IPv4 form; the default port; the
/// path's dot segments and percent-encoding; the query's encoding), then
/// each rule's change. With ``model="url-standard"`` the URL is the url
/// crate's, whose parser reports no steps: only the rules' are listed.
///
/// Parameters
/// ----------
/// url : str
///     The URL or reference.
/// url2 : str or None
///     A second URL to compare with ``url`` (resolved the same way).
/// base : str or None
///     The base URL; None: each URL is its own base.
/// charset : str or None
///     The encoding label of the query (None: UTF-8).
/// strict : bool
///     Network-strict mode (2012 model).
/// rules : wurl.Rules, str or None
///     The rules of the key.
/// model : str
///     ``"2012"`` (the default) or ``"url-standard"``.
///
/// Returns
/// -------
/// dict
///     ``{"model", "urls": [trace, ...], "same_key", "parts_at"}``, the
///     object ``wurl explain -f json`` writes: each trace is ``{"input",
///     "base", "steps": [{"stage", "what", "before", "after"}, ...],
///     "canonical", "invalid", "key", "surt"}`` (None: absent, or no key
///     for an invalid URL); ``same_key`` is a bool with ``url2`` (else
///     None), and ``parts_at`` the first component where the two keys
///     differ, ``{"component", "first", "second"}``, or None.
///
/// Raises
/// ------
/// TypeError
///     An argument has a wrong type.
/// ValueError
///     ``charset`` is not a WHATWG label, ``rules`` is a bad
///     specification, ``model`` is unknown, or an input is longer than
///     16 MiB in UTF-8.
#[pyfunction]
#[pyo3(signature = (url, url2=None, base=None, charset=None, strict=false, rules=None, model="2012"))]
#[allow(clippy::too_many_arguments)]
fn explain<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    url2: Option<&Bound<'py, PyAny>>,
    base: Option<&Bound<'py, PyAny>>,
    charset: Option<&Bound<'py, PyAny>>,
    strict: bool,
    rules: Option<&Bound<'py, PyAny>>,
    model: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let model = model_arg(model, strict)?;
    let cs = opt_charset(charset)?;
    let rules = RulesArg::from_py(rules)?;
    let base = opt_text(base, "base")?;
    let mut inputs = vec![text(url, "url")?];
    if let Some(u2) = url2.filter(|u| !u.is_none()) {
        inputs.push(text(u2, "url2")?);
    }
    let opts = wurl::ExplainOptions {
        base: base.as_deref(),
        canon: options(cs.as_deref(), strict),
        model,
        rules: rules.get(),
    };
    let traces: Vec<wurl::Trace> = inputs.iter().map(|u| wurl::explain(u, &opts)).collect();
    let out = PyDict::new(py);
    out.set_item("model", model.name())?;
    let urls = PyList::empty(py);
    for t in &traces {
        let d = PyDict::new(py);
        d.set_item("input", &t.input)?;
        d.set_item("base", t.base.as_deref())?;
        let steps = PyList::empty(py);
        for st in &t.steps {
            let s = PyDict::new(py);
            s.set_item("stage", st.stage.name())?;
            s.set_item("what", &st.what)?;
            s.set_item("before", st.before.as_deref())?;
            s.set_item("after", st.after.as_deref())?;
            steps.append(s)?;
        }
        d.set_item("steps", steps)?;
        d.set_item("canonical", t.canonical.as_deref().ok())?;
        d.set_item("invalid", t.canonical.as_ref().err())?;
        d.set_item("key", t.key.as_deref())?;
        d.set_item("surt", t.surt.as_deref())?;
        urls.append(d)?;
    }
    out.set_item("urls", urls)?;
    let cmp = (traces.len() == 2).then(|| wurl::compare(&traces[0], &traces[1]));
    out.set_item("same_key", cmp.as_ref().map(|c| c.same_key))?;
    match cmp.as_ref().and_then(|c| c.parts_at.as_ref()) {
        Some((comp, a, b)) => {
            let p = PyDict::new(py);
            p.set_item("component", *comp)?;
            p.set_item("first", a.as_deref())?;
            p.set_item("second", b.as_deref())?;
            out.set_item("parts_at", p)?;
        }
        None => out.set_item("parts_at", py.None())?,
    }
    Ok(out)
}

/// The wurl library version.
const VERSION: &str = wurl::VERSION;

#[pymodule]
fn _wurl(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyUrl>()?;
    m.add_class::<ArrowOut>()?;
    m.add_class::<PyRules>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(canonicalize, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_url, m)?)?;
    m.add_function(wrap_pyfunction!(canonicalize_many, m)?)?;
    m.add_function(wrap_pyfunction!(canonicalize_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(charset_message, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add("LIBRARY_VERSION", VERSION)?;
    // The package's version: maturin takes the wheel's version from this
    // crate's.
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MAX_INPUT_LEN", MAX_INPUT_LEN)?;
    m.add("KEY_VERSION", wurl::KEY_VERSION)?;
    Ok(())
}
