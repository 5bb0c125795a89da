"""wurl's SQL functions on a DuckDB connection, without the extension.

``register(con)`` registers, as Arrow UDFs of the Python ``duckdb`` package
(``create_function(..., type="arrow")``), the functions of the loadable
extension (bindings/duckdb) under the same names and with the same results::

    >>> import duckdb, wurl.duckdb
    >>> con = duckdb.connect()
    >>> wurl.duckdb.register(con)
    >>> con.execute("SELECT wurl_canon('HTTP://Example.COM:80/a/./b/../c')").fetchone()[0]
    'http://example.com/a/c'

- ``wurl_canon(url)``, ``wurl_canon(url, base)``, ``wurl_canon(url, base, charset)``
- ``wurl_resolve(base, url)``: resolved, not canonicalized
- ``wurl_key(url, rules)``: the canonical URL with the rules of docs/keys.md
- ``wurl_surt(url)``: the SURT form of the canonical URL
- ``wurl_standard(url)``, ``wurl_standard(url, base)``: the URL Standard model
- ``wurl_reason(url)``, ``wurl_reason(url, base)``: why the URL is invalid, NULL when valid

NULL in any argument gives NULL; an invalid URL gives NULL. The canonical
functions run on wurl's Arrow batch functions (``canonicalize_arrow``,
``resolve_arrow``: no Python per row); ``wurl_standard`` and ``wurl_reason``
go through the batch and scalar functions, one Python value per row.

Differences from the extension: Python UDFs cannot be overloaded, so each
arity is a UDF of its own (``wurl_canon__1`` ...) and ``wurl_canon`` etc. are
temporary macros over them (they last as long as the connection); and a bad
rules specification or charset is an error when the first batch runs (a
UDF is not told its constant arguments at bind time), not when the query is
bound. Requires ``duckdb``, ``pyarrow`` and ``numpy`` (DuckDB's Arrow UDFs
need numpy).
"""

from functools import lru_cache

import pyarrow as pa
import pyarrow.compute as pc

import wurl

__all__ = ["register", "FUNCTIONS"]

#: The names ``register`` defines, with the arities of each.
FUNCTIONS = {
    "wurl_canon": (1, 2, 3),
    "wurl_resolve": (2,),
    "wurl_key": (2,),
    "wurl_surt": (1,),
    "wurl_standard": (1, 2),
    "wurl_reason": (1, 2),
}


@lru_cache(maxsize=64)
def _rules(spec):
    return wurl.Rules(spec)


def _flat(a):
    """A plain string array of ``a`` (a DuckDB batch comes as a ChunkedArray)."""
    if isinstance(a, pa.ChunkedArray):
        a = a.combine_chunks() if a.num_chunks != 1 else a.chunk(0)
    if pa.types.is_string_view(a.type) or pa.types.is_large_string(a.type):
        a = a.cast(pa.string())
    return a


def _constant(a, what):
    """The one value of a constant argument column (None when it is NULL)."""
    a = _flat(a)
    u = pc.unique(a)
    if len(u) > 1:
        raise ValueError(f"wurl: {what} must be a constant")
    return u[0].as_py() if len(u) else None


def _nulls_where(result, *args):
    """``result`` with NULL wherever one of ``args`` is NULL (NULL in, NULL out)."""
    mask = None
    for a in args:
        m = pc.is_null(a)
        mask = m if mask is None else pc.or_(mask, m)
    if mask is None or not pc.any(mask).as_py():
        return result
    return pc.if_else(mask, pa.scalar(None, pa.string()), result)


def _charset(label):
    # The same check as the extension's: a label that names no encoding
    # would otherwise silently mean UTF-8.
    try:
        wurl.canonicalize("http://a/", charset=label)
    except ValueError:
        shown = label[:64]
        raise ValueError(
            f"wurl: unknown charset label {shown!r} (a WHATWG Encoding Standard label, "
            "e.g. 'utf-8', 'shift_jis', 'windows-1252')"
        ) from None
    return label


def _canon_1(urls):
    u = _flat(urls)
    return _flat(wurl.canonicalize_arrow(u))


def _canon_2(urls, bases):
    u, b = _flat(urls), _flat(bases)
    return _nulls_where(_flat(wurl.canonicalize_arrow(u, b)), u, b)


def _canon_3(urls, bases, charsets):
    u, b = _flat(urls), _flat(bases)
    cs = _constant(charsets, "charset")
    if cs is None:
        return pa.nulls(len(u), pa.string())
    out = _flat(wurl.canonicalize_arrow(u, b, charset=_charset(cs)))
    return _nulls_where(out, u, b)


def _resolve_2(bases, urls):
    u, b = _flat(urls), _flat(bases)
    return _nulls_where(_flat(wurl.resolve_arrow(u, b)), u, b)


def _key_2(urls, rules):
    u = _flat(urls)
    spec = _constant(rules, "rules")
    if spec is None:
        return pa.nulls(len(u), pa.string())
    return _flat(wurl.canonicalize_arrow(u, rules=_rules(spec)))


def _surt_1(urls):
    return _flat(wurl.canonicalize_arrow(_flat(urls), surt=True))


def _standard_1(urls):
    u = _flat(urls).to_pylist()
    return pa.array(wurl.canonicalize_many(u, model="url-standard"), pa.string())


def _standard_2(urls, bases):
    u, b = _flat(urls), _flat(bases)
    out = [
        None if x is None or y is None else wurl.canonicalize(x, base=y, model="url-standard")
        for x, y in zip(u.to_pylist(), b.to_pylist())
    ]
    return pa.array(out, pa.string())


def _reason(url, base=None):
    c = wurl.canonical_url(url, base=base)
    return c.invalid_reason if c.invalid else None


def _reason_1(urls):
    out = [None if x is None else _reason(x) for x in _flat(urls).to_pylist()]
    return pa.array(out, pa.string())


def _reason_2(urls, bases):
    u, b = _flat(urls), _flat(bases)
    out = [
        None if x is None or y is None else _reason(x, y)
        for x, y in zip(u.to_pylist(), b.to_pylist())
    ]
    return pa.array(out, pa.string())


_IMPLS = {
    ("wurl_canon", 1): _canon_1,
    ("wurl_canon", 2): _canon_2,
    ("wurl_canon", 3): _canon_3,
    ("wurl_resolve", 2): _resolve_2,
    ("wurl_key", 2): _key_2,
    ("wurl_surt", 1): _surt_1,
    ("wurl_standard", 1): _standard_1,
    ("wurl_standard", 2): _standard_2,
    ("wurl_reason", 1): _reason_1,
    ("wurl_reason", 2): _reason_2,
}


def register(con):
    """Register wurl's SQL functions on the DuckDB connection ``con``.

    Each function is an Arrow UDF per arity (``wurl_canon__1`` ...) and a
    temporary macro of the public name over them. Calling ``register``
    again on the same connection replaces them. Returns None.
    """
    varchar = "VARCHAR"
    for name, arities in FUNCTIONS.items():
        overloads = []
        for n in arities:
            udf = f"{name}__{n}"
            try:
                con.remove_function(udf)
            except Exception:
                pass
            con.create_function(
                udf,
                _IMPLS[(name, n)],
                [varchar] * n,
                varchar,
                type="arrow",
                null_handling="special",
            )
            params = ", ".join(f"a{i}" for i in range(n))
            overloads.append(f"({params}) AS {udf}({params})")
        con.execute(f"CREATE OR REPLACE TEMP MACRO {name}" + ", ".join(overloads))
