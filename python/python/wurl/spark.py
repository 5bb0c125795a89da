"""wurl as Spark column functions (needs pyspark and pyarrow).

::

    from pyspark.sql.functions import col
    from wurl.spark import canonicalize

    links = spark.read.parquet("links/")               # (page, link) rows
    keys = links.withColumn("key", canonicalize(col("link"), base=col("page")))
    keys.select("key").where(col("key").isNotNull()).distinct().count()

``canonicalize`` and ``resolve`` return Spark ``Column`` expressions. They
run on the Arrow path: Spark hands each batch of rows to the executor's
Python worker as Arrow arrays, and ``wurl.canonicalize_arrow`` /
``wurl.resolve_arrow`` process the whole batch in Rust with the GIL
released (no Python per row). The executors need the ``wurl-canon`` wheel
installed (see the README's "Scaling out").

Columns may be given as ``Column`` objects or by name (a ``str`` is a column
name, as everywhere in PySpark). The base is per row (a column: each link
against its own page; a null base means the row is its own base), one base
for all rows (a ``wurl.URL``, e.g. ``base=wurl.parse("https://example.com/")``,
or a literal column ``lit("https://example.com/")``), or none (``None``:
each URL is its own base). Nulls stay null; an invalid URL gives null.
With ``with_reason=True`` the column is a struct ``<url, reason>`` instead:
``reason`` says why ``url`` is null for an invalid row (the CLI's wording:
``"base is invalid: …"`` for an invalid per-row base), and is null for
valid and null rows. Reasons are computed in Python, for the invalid rows
only.

``canonicalize`` makes keys too, as ``wurl.canonicalize`` does:
``rules=`` (a ``wurl.Rules`` or its specification string, compiled once on
the driver: a bad one raises ``ValueError`` there) applies opt-in dedup
rules after canonicalization, ``surt=True`` (``surt_scheme=True``) gives
the SURT form (docs/keys.md).

On Spark 4.1 or newer the functions are ``arrow_udf``s (Arrow arrays in and
out); on older Spark (3.x, 4.0) ``pandas_udf``s, which Spark also feeds
through Arrow.

The Python that runs the functions on the executors (``PYSPARK_PYTHON``,
or ``spark.pyspark.python``) needs ``wurl-canon`` and ``pyarrow``
installed; without pyarrow a task fails with an ``ImportError`` that names
``PYSPARK_PYTHON`` (python/README.md: "Spark").
"""

import sys

try:
    import pyarrow as pa
except ImportError as _e:
    # Also what a Spark task reports when the executors' Python lacks
    # pyarrow: unpickling a function of this module imports it first.
    raise ImportError(
        f"wurl.spark needs pyarrow, which the Python running it ({sys.executable}) "
        "does not have. On Spark that is the executors' Python: PYSPARK_PYTHON "
        "(or spark.pyspark.python) must name a Python with pyarrow and wurl-canon "
        "installed (pip install 'wurl-canon[arrow]' there, or ship a packed virtual "
        "environment with --archives; see python/README.md, \"Spark\")"
    ) from _e
from pyspark.sql import Column
from pyspark.sql import functions as _F
from pyspark.sql.types import StringType, StructField, StructType

import wurl as _wurl

__all__ = ["canonicalize", "resolve", "REASON_TYPE"]

#: The type of a column made with ``with_reason=True``.
REASON_TYPE = StructType(
    [
        StructField("url", StringType(), True),
        StructField("reason", StringType(), True),
    ]
)

_TOO_LONG = "input longer than 16 MiB"


def __dir__():
    return sorted(__all__)


def _column(c, what):
    if isinstance(c, Column):
        return c
    if isinstance(c, str):
        return _F.col(c)
    raise TypeError(f"{what} must be a pyspark Column or a column name (str), not {type(c).__name__}")


def _reason(op, url, base, charset, strict):
    """Why ``url`` (a str) against ``base`` (None, a str from a base column,
    or a ``wurl.URL``) is invalid."""
    try:
        if base is None:
            base_url = None
        else:
            try:
                base_url = base if isinstance(base, _wurl.URL) else _wurl.parse(base)
            except ValueError:
                return "base longer than 16 MiB"
            if base_url.invalid:
                return f"base is invalid: {base_url.invalid_reason}"
        if op == "canon":
            r = _wurl.canonical_url(url, base=base_url, charset=charset, strict=strict)
        else:
            if base_url is None:
                # The input is its own base: its own parse failure says
                # more than "base URL is invalid".
                base_url = _wurl.parse(url)
                if base_url.invalid:
                    return base_url.invalid_reason
            r = _wurl.resolve(base_url, url)
    except ValueError:
        return _TOO_LONG
    return r.invalid_reason or "invalid URL"


_NO_KEY = (None, False, False)


def _batch(op, charset, strict, with_reason, one_base, urls, bases, key=_NO_KEY):
    """One Arrow batch: ``urls`` (and ``bases``, a per-row array, or
    ``None`` for ``one_base``) to the result array. ``key`` is ``(rules,
    surt, surt_scheme)`` for ``canon``."""
    b = bases if bases is not None else one_base
    if op == "canon":
        rules, surt, surt_scheme = key
        out = _wurl.canonicalize_arrow(urls, b, charset, strict, rules, surt, surt_scheme)
    else:
        out = _wurl.resolve_arrow(urls, b)
    out = out.cast(pa.string())
    if not with_reason:
        return out
    import pyarrow.compute as pc

    reasons = [None] * len(out)
    # Only the rows that are null in the result but not in the input.
    invalid = pc.indices_nonzero(pc.and_(pc.is_null(out), pc.is_valid(urls)))
    for i in invalid.to_pylist():
        row_base = one_base if bases is None else bases[i].as_py()
        reasons[i] = _reason(op, urls[i].as_py(), row_base, charset, strict)
    return pa.StructArray.from_arrays([out, pa.array(reasons, pa.string())], names=["url", "reason"])


def _has_arrow_udf():
    try:
        from pyspark.sql.functions import arrow_udf  # noqa: F401
    except ImportError:
        return False
    return True


def _pandas_batch(op, charset, strict, with_reason, one_base, urls, bases, key):
    """``_batch`` on pandas Series (the ``pandas_udf`` path)."""
    import pandas as pd

    u = pa.Array.from_pandas(urls, type=pa.string())
    b = None if bases is None else pa.Array.from_pandas(bases, type=pa.string())
    a = _batch(op, charset, strict, with_reason, one_base, u, b, key)
    if with_reason:
        return pd.DataFrame({"url": a.field("url").to_pandas(), "reason": a.field("reason").to_pandas()})
    return a.to_pandas()


def _shippable(f):
    """``f`` once Spark has read its type hints: without them. They name
    pyarrow (or pandas) classes, and a pickled function's annotations are
    restored before its globals, so an executor without pyarrow would fail
    on them with a bare ``No module named 'pyarrow'``; without them the
    first import is this module's, whose error names PYSPARK_PYTHON."""
    f.__annotations__ = {}
    return f


def _udf(op, charset, strict, with_reason, one_base, per_row, use_arrow=None, key=_NO_KEY):
    """The UDF: ``arrow_udf`` where Spark has it, else ``pandas_udf``.

    The functions given to Spark refer to this module's functions only (no
    pyarrow object in their closures), for ``_shippable``."""
    rtype = REASON_TYPE if with_reason else StringType()
    if use_arrow is None:
        use_arrow = _has_arrow_udf()
    if use_arrow:
        from pyspark.sql.functions import arrow_udf

        if per_row:

            def f2(urls: pa.Array, bases: pa.Array) -> pa.Array:
                return _batch(op, charset, strict, with_reason, None, urls, bases, key)

            udf = arrow_udf(f2, rtype)
            _shippable(f2)
            return udf

        def f1(urls: pa.Array) -> pa.Array:
            return _batch(op, charset, strict, with_reason, one_base, urls, None, key)

        udf = arrow_udf(f1, rtype)
        _shippable(f1)
        return udf

    import pandas as pd
    from pyspark.sql.functions import pandas_udf

    if per_row:

        def p2(urls: pd.Series, bases: pd.Series) -> pd.Series:
            return _pandas_batch(op, charset, strict, with_reason, None, urls, bases, key)

        udf = pandas_udf(p2, rtype)
        _shippable(p2)
        return udf

    def p1(urls: pd.Series) -> pd.Series:
        return _pandas_batch(op, charset, strict, with_reason, one_base, urls, None, key)

    udf = pandas_udf(p1, rtype)
    _shippable(p1)
    return udf


def _apply(
    op, url_col, base, charset, strict, with_reason, _use_arrow=None, rules=None, surt=False, surt_scheme=False
):
    url = _column(url_col, "url_col")
    if charset is not None and not isinstance(charset, str):
        raise TypeError(f"charset must be a str or None, not {type(charset).__name__}")
    if charset is not None:
        # A label that names no encoding raises ValueError here, on the
        # driver, rather than in every task.
        _wurl.canonicalize("http://a/", charset=charset)
    # Compiled here, on the driver: a bad specification fails now, and the
    # executors get the compiled rules (they pickle as their specification).
    if isinstance(rules, str):
        rules = _wurl.Rules(rules)
    elif rules is not None and not isinstance(rules, _wurl.Rules):
        raise TypeError(f"rules must be a wurl.Rules, a str or None, not {type(rules).__name__}")
    key = (rules, bool(surt), bool(surt_scheme))
    if base is None or isinstance(base, _wurl.URL):
        return _udf(op, charset, bool(strict), with_reason, base, False, _use_arrow, key)(url)
    return _udf(op, charset, bool(strict), with_reason, None, True, _use_arrow, key)(url, _column(base, "base"))


def canonicalize(
    url_col, base=None, charset=None, strict=False, with_reason=False, rules=None, surt=False, surt_scheme=False
):
    """The canonical URL of each row, as a Spark column.

    Each URL is resolved against its base, canonicalized and serialized
    (``wurl.canonicalize``), batch by batch through Arrow.

    Parameters
    ----------
    url_col : Column or str
        The URLs (a string column, or its name).
    base : Column, str, wurl.URL or None
        A column (or column name) of bases, one per row: each URL against
        its own base (a null base: the row is its own base); rows with the
        same base next to each other parse it once. A ``wurl.URL``: one base
        for every row. None: each URL is its own base.
    charset : str or None
        The encoding label of the query (a WHATWG Encoding Standard label,
        the documents' encoding); None means UTF-8. Another label raises
        ``ValueError`` when the column is made.
    strict : bool
        Network-strict mode: also reject hosts that other parsers (WHATWG,
        curl) would read differently.
    with_reason : bool
        False: a string column. True: a struct column ``<url, reason>``
        (``REASON_TYPE``) whose ``reason`` says why ``url`` is null.
    rules : wurl.Rules, str or None
        Opt-in dedup rules applied after canonicalization (docs/keys.md): a
        compiled ``wurl.Rules`` or its specification string (compiled here,
        on the driver).
    surt : bool
        The SURT form of the (ruled) canonical URL.
    surt_scheme : bool
        The SURT form keeping the scheme.

    Returns
    -------
    Column
        A string column: the canonical URL (the key, with ``rules`` or
        ``surt``), null where the URL is null or invalid. With
        ``with_reason``, the struct above.

    Raises
    ------
    TypeError
        ``url_col`` or ``base`` is not a Column, a column name or (for
        ``base``) a ``wurl.URL`` or None; ``charset`` is not a str;
        ``rules`` is not a ``wurl.Rules``, a str or None.
    ValueError
        ``charset`` is not a WHATWG Encoding Standard label, or ``rules``
        is not a valid specification.
    """
    return _apply("canon", url_col, base, charset, strict, with_reason, None, rules, surt, surt_scheme)


def resolve(url_col, base=None, with_reason=False):
    """Each row resolved against its base (no canonicalization), as a
    Spark column.

    The serialization of ``wurl.resolve(base, url)``, batch by batch
    through Arrow; what ``wurl resolve`` prints.

    Parameters
    ----------
    url_col : Column or str
        The URL references (a string column, or its name).
    base : Column, str, wurl.URL or None
        As for ``canonicalize``: a base per row (a column or its name; null:
        the row is its own base), one ``wurl.URL`` for every row, or None
        (each URL is its own base).
    with_reason : bool
        True: a struct column ``<url, reason>`` (``REASON_TYPE``).

    Returns
    -------
    Column
        A string column: the resolved URL, null where the URL is null or
        the result invalid. With ``with_reason``, the struct.

    Raises
    ------
    TypeError
        ``url_col`` or ``base`` has a wrong type.
    """
    return _apply("resolve", url_col, base, None, False, with_reason)
