"""wurl.polars: the Arrow batch functions on Polars columns, the same keys as SQL."""

from __future__ import annotations

import pytest

pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")

import wurl  # noqa: E402
import wurl.polars  # noqa: E402
from golden_rows import by_form, golden_rows, mismatches  # noqa: E402


def test_namespace_and_functions():
    df = pl.DataFrame(
        {
            "page": ["http://EXAMPLE.com:80/x/y", "http://h/a/b", None, "http://h/"],
            "link": ["../a/./b?q=1#f", "http://a:99999/", "x", None],
        }
    )
    got = df.select(
        c=pl.col("link").wurl.canon(base=pl.col("page")),
        r=pl.col("link").wurl.resolve(pl.col("page")),
        one=pl.col("link").wurl.canon(base="http://z/"),
        own=wurl.polars.canon(pl.col("page")),
    )
    assert got["c"].to_list() == ["http://example.com/a/b?q=1#f", None, None, None]
    assert got["r"].to_list() == [
        wurl.resolve("http://EXAMPLE.com:80/x/y", "../a/./b?q=1#f").serialize(),
        wurl.resolve("http://h/a/b", "http://a:99999/").serialize(),
        None,
        None,
    ]
    assert got["one"].to_list() == ["http://z/a/b?q=1#f", None, "http://z/x", None]
    assert got["own"].to_list() == ["http://example.com/x/y", "http://h/a/b", None, "http://h/"]
    s = pl.DataFrame({"u": ["http://www.A.com/?b=1&utm_x=2&a=3#f", "http://www.Example.com/a"]})
    k = s.select(
        key=pl.col("u").wurl.key("drop-fragment,strip-www,sort-query,drop-params=utm_*"),
        surt=pl.col("u").wurl.surt(),
        std=pl.col("u").wurl.standard(),
    )
    assert k["key"].to_list() == ["http://a.com/?a=3&b=1", "http://example.com/a"]
    assert k["surt"].to_list() == [
        wurl.canonicalize(u, surt=True) for u in s["u"].to_list()
    ]
    assert k["std"].to_list() == [wurl.canonicalize(u, model="url-standard") for u in s["u"]]


def test_bad_rules_and_charset():
    df = pl.DataFrame({"u": ["http://a/"]})
    with pytest.raises(ValueError):
        df.select(pl.col("u").wurl.key("no-such-rule"))
    with pytest.raises(Exception, match="charset"):
        df.select(pl.col("u").wurl.canon(charset="shiftjis"))


def test_golden_keys_same_as_sql():
    """Every golden row through Polars, grouped as the SQL test groups them."""
    rows = golden_rows()
    got = [None] * len(rows)
    for (has_base, cs), items in by_form(rows).items():
        df = pl.DataFrame(
            {
                "i": [i for i, _, _ in items],
                "input": pl.Series([x for _, x, _ in items], dtype=pl.String),
                "base": pl.Series([b for _, _, b in items], dtype=pl.String),
            }
        )
        base = pl.col("base") if has_base else None
        out = df.select("i", k=pl.col("input").wurl.canon(base=base, charset=cs))
        for i, k in zip(out["i"].to_list(), out["k"].to_list()):
            got[i] = k
    n, first = mismatches(rows, got)
    assert n == 0, first


def test_same_keys_as_duckdb_register():
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("numpy")
    import wurl.duckdb

    from conftest import read_pairs

    pairs = read_pairs()[:20000]
    df = pl.DataFrame({"page": [p for p, _ in pairs], "link": [l for _, l in pairs]})
    via_polars = df.select(pl.col("link").wurl.canon(base=pl.col("page")))["link"].to_list()
    con = duckdb.connect()
    wurl.duckdb.register(con)
    con.register("links", df.to_arrow())
    via_sql = [r[0] for r in con.execute("SELECT wurl_canon(link, page) FROM links").fetchall()]
    assert via_polars == via_sql
    assert sum(k is not None for k in via_sql) > 19000


def test_docstring_examples():
    import doctest

    r = doctest.testmod(wurl.polars, verbose=False)
    assert r.attempted >= 2 and r.failed == 0
