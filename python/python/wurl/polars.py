"""wurl on Polars columns: the Arrow batch functions as Polars expressions.

Importing ``wurl.polars`` registers the expression namespace ``wurl``::

    >>> import polars as pl, wurl.polars
    >>> df = pl.DataFrame({"page": ["http://h/a/b"], "link": ["../c/./d"]})
    >>> df.select(pl.col("link").wurl.canon(base=pl.col("page"))).item()
    'http://h/c/d'

``canon(base=None, charset=None, rules=None, surt=False)``,
``resolve(base)``, ``key(rules)``, ``surt()`` and ``standard(base=None)``,
the same results as the SQL functions of ``wurl.duckdb`` and the DuckDB
extension: null in (the URL or its base) gives null, an invalid URL gives
null. ``base`` is a str (one base for every row) or an expression (a base
per row). The functions are also here as plain functions of an expression
(``wurl.polars.canon(pl.col("url"))``), and work on a ``Series`` with
``map_batches`` semantics: the column goes to ``canonicalize_arrow`` whole,
without Python per row (``standard`` excepted).

Polars keeps strings as Arrow ``string_view``; each batch is handed to wurl
as ``large_string`` (a copy of the column's bytes), and the result comes
back as a Polars ``String`` column.
"""

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

import wurl

__all__ = ["canon", "resolve", "key", "surt", "standard"]


def _arrow(s):
    """A Polars Series as a pyarrow large_string array (wurl does not read string_view)."""
    a = s.to_arrow(compat_level=pl.CompatLevel.oldest())
    if isinstance(a, pa.ChunkedArray):
        a = a.combine_chunks()
    if not pa.types.is_large_string(a.type):
        a = a.cast(pa.large_string())
    return a


def _series(a, name):
    return pl.Series(name, a, dtype=pl.String)


def _masked(out, *cols):
    mask = None
    for c in cols:
        m = pc.is_null(c)
        mask = m if mask is None else pc.or_(mask, m)
    if mask is None or not pc.any(mask).as_py():
        return out
    return pc.if_else(mask, pa.scalar(None, out.type), out)


def _call(expr, base, fn):
    """``fn(urls, bases)`` over the column(s): ``bases`` is None, a str, or a per-row array."""
    if isinstance(base, pl.Expr):

        def run(cols):
            u, b = _arrow(cols[0]), _arrow(cols[1])
            return _series(_masked(fn(u, b), u, b), cols[0].name)

        return pl.map_batches([expr, base], run, return_dtype=pl.String)

    def run1(s):
        u = _arrow(s)
        return _series(fn(u, base), s.name)

    return expr.map_batches(run1, return_dtype=pl.String)


def canon(expr, base=None, charset=None, rules=None, surt=False):
    """Canonical URLs of ``expr`` (each resolved against ``base`` first, when given)."""
    if isinstance(rules, str):
        rules = wurl.Rules(rules)
    return _call(
        expr,
        base,
        lambda u, b: wurl.canonicalize_arrow(u, b, charset=charset, rules=rules, surt=surt),
    )


def resolve(expr, base):
    """``expr`` resolved against ``base`` and serialized, not canonicalized."""
    return _call(expr, base, lambda u, b: wurl.resolve_arrow(u, b))


def key(expr, rules):
    """The canonical URL with ``rules`` (a spec string or ``wurl.Rules``) applied."""
    return canon(expr, rules=rules)


def surt(expr):
    """The SURT form of the canonical URL."""
    return canon(expr, surt=True)


def standard(expr, base=None):
    """The URL Standard model's serialization (one Python value per row)."""

    def fn(u, b):
        urls = u.to_pylist()
        if b is None or isinstance(b, str):
            out = wurl.canonicalize_many(urls, base=b, model="url-standard")
        else:
            out = [
                None if x is None or y is None else wurl.canonicalize(x, base=y, model="url-standard")
                for x, y in zip(urls, b.to_pylist())
            ]
        return pa.array(out, pa.large_string())

    return _call(expr, base, fn)


@pl.api.register_expr_namespace("wurl")
class WurlNamespace:
    """``pl.col(...).wurl``: the functions above on this expression."""

    def __init__(self, expr):
        self._expr = expr

    def canon(self, base=None, charset=None, rules=None, surt=False):
        return canon(self._expr, base=base, charset=charset, rules=rules, surt=surt)

    def resolve(self, base):
        return resolve(self._expr, base)

    def key(self, rules):
        return key(self._expr, rules)

    def surt(self):
        return surt(self._expr)

    def standard(self, base=None):
        return standard(self._expr, base=base)
