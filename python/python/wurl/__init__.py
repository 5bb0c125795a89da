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

Batch functions (the GIL is released while they run)::

    >>> wurl.canonicalize_many(["http://A/", "mailto:x", None, "//nope"])
    ['http://a/', 'mailto:x', None, None]

``canonicalize_arrow`` takes and returns Arrow string arrays (pyarrow or any
object with ``__arrow_c_array__``); see its docstring.

Strings: a lone surrogate (which has no UTF-8 form) is read as U+FFFD; an
input longer than 16 MiB in UTF-8 raises ``ValueError`` in the scalar
functions and gives ``None`` (null) in the batch functions; a value that is
not a ``str`` raises ``TypeError`` (``None`` is allowed in batches and gives
``None``).
"""

from __future__ import annotations

from typing import Any, Optional, Union

from . import _wurl
from ._wurl import (
    URL,
    ArrowStringArray,
    Rules,
    canonical_url,
    canonicalize,
    canonicalize_many,
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
    "parse",
    "resolve",
    "LIBRARY_VERSION",
    "MAX_INPUT_LEN",
]

LIBRARY_VERSION: str = _wurl.LIBRARY_VERSION
MAX_INPUT_LEN: int = _wurl.MAX_INPUT_LEN


def canonicalize_arrow(
    urls: Any,
    bases: Any = None,
    charset: Optional[str] = None,
    strict: bool = False,
    rules: Union[Rules, str, None] = None,
    surt: bool = False,
    surt_scheme: bool = False,
) -> Any:
    """Canonicalize an Arrow string array; return an array of the same length.

    ``urls`` is a ``pyarrow.StringArray`` or ``LargeStringArray``, a
    ``pyarrow.ChunkedArray`` of them, or any object with the Arrow PyCapsule
    interface (``__arrow_c_array__``). Its buffers are read in place (no
    copy); the results are written into one new values buffer, with the GIL
    released.

    ``bases`` is ``None`` (each URL is its own base), a ``str`` or ``URL``
    (one base for every row), or an Arrow string array of the same length
    (each row against its own base, e.g. each link against its page; a null
    base means the row is its own base). Rows with the same base next to
    each other parse it once.

    The result has the input's type (string or large_string) and is null
    where the input is null or the canonical URL is invalid. It is a
    ``pyarrow.Array`` when pyarrow is installed, else a
    :class:`ArrowStringArray` that any Arrow library can import through
    ``__arrow_c_array__``.

    ``rules``, ``surt`` and ``surt_scheme`` make keys as in
    :func:`canonicalize` (see docs/keys.md).
    """
    if isinstance(rules, str):
        rules = Rules(rules)
    keys = dict(rules=rules, surt=surt, surt_scheme=surt_scheme)
    try:
        import pyarrow as pa
    except ImportError:  # pragma: no cover - exercised only without pyarrow
        pa = None
    if pa is not None and isinstance(urls, pa.ChunkedArray):
        if pa is not None and isinstance(bases, (pa.Array, pa.ChunkedArray)):
            if len(bases) != len(urls):
                raise ValueError(f"bases has {len(bases)} rows but urls has {len(urls)}")
            bases = pa.chunked_array(bases) if isinstance(bases, pa.Array) else bases
            chunks = []
            start = 0
            for c in urls.chunks:
                b = bases.slice(start, len(c)).combine_chunks()
                chunks.append(canonicalize_arrow(c, b, charset, strict, **keys))
                start += len(c)
        else:
            chunks = [canonicalize_arrow(c, bases, charset, strict, **keys) for c in urls.chunks]
        return pa.chunked_array(chunks, type=urls.type)
    if pa is not None and isinstance(bases, pa.ChunkedArray):
        bases = bases.combine_chunks()
    out = _wurl.canonicalize_arrow(urls, bases, charset, strict, **keys)
    if pa is None:
        return out
    return pa.array(out)
