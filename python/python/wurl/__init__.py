"""wurl: URL parsing, resolution and canonicalization as the 2012
Web::URL::Canonicalize algorithm specifies them, from the wurl Rust library.

Scalar functions::

    >>> import wurl
    >>> wurl.canonicalize("HTTP://Example.COM:80/a/./b/../c?q#f")
    'http://example.com/a/c?q#f'
    >>> wurl.canonicalize("../x", base="http://h/a/b/")
    'http://h/a/x'
    >>> wurl.canonicalize("http://a:99999/") is None     # invalid
    True
    >>> u = wurl.parse("http://user:@host/p?")
    >>> (u.password, u.query, u.fragment)              # "" = empty, None = absent
    ('', '', None)

Keys for crawlers and web archives (docs/keys.md): opt-in rules applied
after canonicalization, and the SURT form::

    >>> wurl.canonicalize("http://www.A.com/?b=1&utm_x=2&a=3#f",
    ...                   rules="drop-fragment,strip-www,sort-query,drop-params=utm_*")
    'http://a.com/?a=3&b=1'
    >>> wurl.canonicalize("http://www.Example.com/a/b?z=1&a=2", surt=True)
    'com,example,www)/a/b?z=1&a=2'

The WHATWG URL Standard, beside the 2012 model (the default), with
``model="url-standard"`` in ``canonicalize`` and ``canonicalize_many``::

    >>> wurl.canonicalize("http://faß.de/a\\\\b/../c", model="url-standard")
    'http://xn--fa-hia.de/a/c'
    >>> wurl.canonicalize("http://faß.de/a\\\\b/../c")
    'http://fass.de/a/c'

Batch functions (the GIL is released while they run)::

    >>> wurl.canonicalize_many(["http://A/", "mailto:x", None, "//nope"])
    ['http://a/', 'mailto:x', None, None]

``canonicalize_arrow`` and ``resolve_arrow`` take and return Arrow string
arrays (pyarrow or any object with ``__arrow_c_array__``); see their
docstrings. ``wurl.spark`` (import it when pyspark is installed) has
``canonicalize`` and ``resolve`` as Spark column functions.

Why a URL has its key, and whether two share one (the steps ``wurl
explain`` prints, from the stages that compute the key)::

    >>> e = wurl.explain("HTTP://Example.COM:80/a/./b/../c", "http://example.com/a/c")
    >>> e["same_key"], [s["what"] for s in e["urls"][0]["steps"] if s["stage"] == "port"]
    (True, ['default port 80 dropped'])

``URL`` objects are immutable, compare and hash by value, and pickle::

    >>> import pickle
    >>> u = wurl.parse("http://user:@host/p?")
    >>> pickle.loads(pickle.dumps(u)) == u and hash(u) == hash(wurl.parse("http://user:@host/p?"))
    True

Strings: a lone surrogate (which has no UTF-8 form) is read as U+FFFD; an
input longer than 16 MiB in UTF-8 raises ``ValueError`` in the scalar
functions and gives ``None`` (null) in the batch functions; a value that is
not a ``str`` raises ``TypeError`` (``None`` is allowed in batches and gives
``None``). ``bytes`` are not taken: ``b.decode("utf-8", "replace")`` reads
invalid UTF-8 exactly as the C ABI, Ruby and Perl (``bytes => 1``) do, one
U+FFFD per maximal invalid sequence. A ``charset`` that is not a WHATWG
Encoding Standard label raises ``ValueError`` (a misspelt label would
otherwise mean UTF-8) with the message ``charset_message(label)`` gives,
the one every wurl front end shows.
"""

from . import _wurl
from ._wurl import (
    URL,
    ArrowStringArray,
    Rules,
    canonical_url,
    canonicalize,
    canonicalize_many,
    charset_message,
    explain,
    parse,
    resolve,
)

__all__ = [
    "URL",
    "ArrowStringArray",
    "Rules",
    "canonical_url",
    "canonicalize",
    "canonicalize_arrow",
    "canonicalize_many",
    "charset_message",
    "explain",
    "parse",
    "resolve",
    "resolve_arrow",
    "LIBRARY_VERSION",
    "MAX_INPUT_LEN",
    "KEY_VERSION",
    "require_key_version",
]

#: The package's version (the wheel's).
__version__ = _wurl.__version__
#: The version of the wurl Rust library inside.
LIBRARY_VERSION = _wurl.LIBRARY_VERSION
#: The longest input accepted, in UTF-8 bytes (16 MiB).
MAX_INPUT_LEN = _wurl.MAX_INPUT_LEN
#: The version of the keys this library makes, bumped by every key change
#: its CHANGELOG lists (docs/keys.md, "Key version"); store it beside keys.
KEY_VERSION = _wurl.KEY_VERSION


def require_key_version(version):
    """Refuse to go on unless this wurl makes keys of ``version``.

    Call it before making keys that join stored ones, so that a crawl never
    stores keys of two versions side by side (the CLI's
    ``wurl canon --key-version N``).

    Raises
    ------
    RuntimeError
        This wurl makes keys of another version.
    TypeError
        ``version`` is not an int.
    """
    if isinstance(version, bool) or not isinstance(version, int):
        raise TypeError(f"require_key_version: an int, not {type(version).__name__}")
    if version != KEY_VERSION:
        raise RuntimeError(
            f"this wurl makes keys of version {KEY_VERSION}; "
            f"its keys would not be those of version {version}"
        )


def __dir__():
    # The API only: not the extension module, the helpers, or the
    # submodules that happen to be imported.
    return sorted(__all__ + ["__version__"])


def _arrow_call(entry, urls, bases, *args):
    """Runs the extension's Arrow ``entry`` over ``urls`` (chunked arrays
    chunk by chunk, per-row bases sliced alike) and returns a pyarrow array
    (an ``ArrowStringArray`` without pyarrow)."""
    try:
        import pyarrow as pa
    except ImportError:  # pragma: no cover - exercised only without pyarrow
        pa = None
    if pa is not None and isinstance(urls, pa.ChunkedArray):
        if isinstance(bases, (pa.Array, pa.ChunkedArray)):
            if len(bases) != len(urls):
                raise ValueError(f"bases has {len(bases)} rows but urls has {len(urls)}")
            bases = pa.chunked_array(bases) if isinstance(bases, pa.Array) else bases
            chunks = []
            start = 0
            for c in urls.chunks:
                b = bases.slice(start, len(c)).combine_chunks()
                chunks.append(_arrow_call(entry, c, b, *args))
                start += len(c)
        else:
            chunks = [_arrow_call(entry, c, bases, *args) for c in urls.chunks]
        return pa.chunked_array(chunks, type=urls.type)
    if pa is not None and isinstance(bases, pa.ChunkedArray):
        bases = bases.combine_chunks()
    out = entry(urls, bases, *args)
    if pa is None:
        return out
    return pa.array(out)


def canonicalize_arrow(
    urls, bases=None, charset=None, strict=False, rules=None, surt=False, surt_scheme=False
):
    """Canonicalize an Arrow string array; return an array of the same length.

    Each row is resolved against its base, canonicalized and serialized, as
    ``canonicalize`` does, with the GIL released and without per-row Python.

    Parameters
    ----------
    urls : pyarrow.Array, pyarrow.ChunkedArray or Arrow-compatible object
        A ``string`` or ``large_string`` array (``pyarrow.StringArray``,
        ``LargeStringArray``, a ``ChunkedArray`` of them, or any object with
        the Arrow PyCapsule interface ``__arrow_c_array__``). Its buffers
        are read in place (no copy). Other types (``string_view`` too) raise
        ``TypeError``: cast first.
    bases : None, str, URL, or Arrow string array
        None: each URL is its own base. A str or URL: one base for every
        row. An Arrow string array of the same length: each row against its
        own base (each link against its page); a null base means the row is
        its own base. Rows with the same base next to each other parse it
        once, so keep a page's links together.
    charset : str or None
        The encoding label of the query (a WHATWG Encoding Standard label,
        the document's encoding); None means UTF-8. Another label raises
        ``ValueError``.
    strict : bool
        Network-strict mode: also reject hosts that other parsers (WHATWG,
        curl) would read differently.
    rules : wurl.Rules, str or None
        Opt-in dedup rules applied after canonicalization (docs/keys.md): a
        compiled ``Rules`` or its specification string.
    surt : bool
        Return the SURT form of the (ruled) canonical URL.
    surt_scheme : bool
        Return the SURT form keeping the scheme.

    Returns
    -------
    pyarrow.Array or pyarrow.ChunkedArray
        The canonical URLs, of the input's type (string or large_string;
        chunked when the input was), null where the input is null, invalid,
        or (with its base) longer than 16 MiB. Without pyarrow installed, an
        ``ArrowStringArray`` that any Arrow library imports through
        ``__arrow_c_array__``.

    Raises
    ------
    TypeError
        ``urls`` or ``bases`` is not an Arrow string array, or ``charset``
        is not a str.
    ValueError
        ``bases`` has another length; a malformed Arrow array; a
        ``charset`` that is not a WHATWG label; a single ``bases`` or
        ``charset`` longer than 16 MiB; a bad ``rules`` specification.
    OverflowError
        The results exceed 2 GiB in a ``string`` array (pass
        ``large_string`` or smaller batches).
    """
    if isinstance(rules, str):
        rules = Rules(rules)
    return _arrow_call(
        _wurl.canonicalize_arrow, urls, bases, charset, strict, rules, surt, surt_scheme
    )


def resolve_arrow(urls, bases=None):
    """Resolve an Arrow string array; return an array of the same length.

    Each row is resolved against its base and serialized, as
    ``resolve(base, url).serialize()`` does (no canonicalization), with the
    GIL released and without per-row Python.

    Parameters
    ----------
    urls : pyarrow.Array, pyarrow.ChunkedArray or Arrow-compatible object
        A ``string`` or ``large_string`` array, as for
        ``canonicalize_arrow``.
    bases : None, str, URL, or Arrow string array
        As for ``canonicalize_arrow``: None (each URL is its own base), one
        base for every row, or a base per row (null: the row is its own
        base).

    Returns
    -------
    pyarrow.Array or pyarrow.ChunkedArray
        The resolved URLs, of the input's type, null where the input is
        null or the result is invalid (an ``ArrowStringArray`` without
        pyarrow).

    Raises
    ------
    TypeError
        ``urls`` or ``bases`` is not an Arrow string array.
    ValueError
        ``bases`` has another length, or a malformed Arrow array.
    OverflowError
        The results exceed 2 GiB in a ``string`` array.
    """
    return _arrow_call(_wurl.resolve_arrow, urls, bases)
