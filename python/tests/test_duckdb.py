"""wurl.duckdb: wurl's SQL functions as Arrow UDFs on a DuckDB connection."""

from __future__ import annotations

import pytest

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pytest.importorskip("numpy")  # DuckDB's Arrow UDFs need it

import wurl  # noqa: E402
import wurl.duckdb  # noqa: E402
from golden_rows import golden_rows, mismatches, sql_keys  # noqa: E402


@pytest.fixture
def con():
    c = duckdb.connect()
    wurl.duckdb.register(c)
    yield c
    c.close()


def one(con, sql, *params):
    return con.execute(sql, list(params)).fetchone()[0]


def test_issue_examples(con):
    assert one(con, "SELECT wurl_canon('HTTP://Example.COM:80/a/./b/../c?q=é#f')") == (
        "http://example.com/a/c?q=%C3%A9#f"
    )
    assert one(con, "SELECT wurl_surt('http://www.example.com/a')") == wurl.canonicalize(
        "http://www.example.com/a", surt=True
    )


def test_every_function_matches_the_python_api(con):
    page, link = "http://EXAMPLE.com:80/x/y", "../a/./b?q=1#f"
    assert one(con, "SELECT wurl_canon(?, ?)", link, page) == wurl.canonicalize(link, base=page)
    assert one(con, "SELECT wurl_canon(?, ?, 'shift_jis')", "?q=\u65e5", page) == (
        wurl.canonicalize("?q=\u65e5", base=page, charset="shift_jis")
    )
    assert one(con, "SELECT wurl_resolve(?, ?)", page, link) == wurl.resolve(page, link).serialize()
    rules = "drop-fragment,strip-www,sort-query,drop-params=utm_*"
    u = "http://www.A.com/?b=1&utm_x=2&a=3#f"
    assert one(con, "SELECT wurl_key(?, ?)", u, rules) == "http://a.com/?a=3&b=1"
    assert one(con, "SELECT wurl_standard(?)", "http://faß.de/a\\b/../c") == "http://xn--fa-hia.de/a/c"
    assert one(con, "SELECT wurl_standard(?, ?)", "../d?x y", "http://a/b/c") == "http://a/d?x%20y"
    assert one(con, "SELECT wurl_reason('http://a/')") is None
    why = wurl.canonical_url("http://a:99999/").invalid_reason
    assert why and one(con, "SELECT wurl_reason('http://a:99999/')") == why
    assert one(con, "SELECT wurl_reason('x', 'http://a:99999/')") == wurl.canonical_url(
        "x", base="http://a:99999/"
    ).invalid_reason


def test_nulls_and_invalid(con):
    row = con.execute(
        "SELECT wurl_canon(NULL), wurl_canon('x', NULL), wurl_canon(NULL, 'http://a/'),"
        " wurl_resolve(NULL, 'x'), wurl_key(NULL, 'strip-www'), wurl_key('http://a/', NULL),"
        " wurl_surt(NULL), wurl_standard(NULL), wurl_reason(NULL), wurl_canon('http://a:99999/'),"
        " wurl_canon('x', 'http://a/', NULL)"
    ).fetchone()
    assert row == (None,) * len(row)
    # Absent and empty stay different: an empty query is kept.
    assert one(con, "SELECT wurl_canon('http://a/p?')") == "http://a/p?"
    got = con.execute(
        "SELECT wurl_canon(u, b) FROM (VALUES ('x', 'http://a/'), (NULL, 'http://a/'),"
        " ('y', NULL), ('z', 'http://b/')) t(u, b)"
    ).fetchall()
    assert got == [("http://a/x",), (None,), (None,), ("http://b/z",)]


def test_bad_rules_and_charset_are_errors(con):
    with pytest.raises(duckdb.Error, match="rules"):
        con.execute("SELECT wurl_key('http://a/', 'no-such-rule')").fetchall()
    with pytest.raises(duckdb.Error, match="charset"):
        con.execute("SELECT wurl_canon('x', 'http://a/', 'shiftjis')").fetchall()


def test_hostile_input(con):
    huge = "http://a/" + "x" * (4 << 20)
    assert one(con, "SELECT length(wurl_canon(?))", huge) == len(huge)
    assert one(con, "SELECT wurl_canon(?)", "http://a/\x00b") == wurl.canonicalize("http://a/\x00b")
    con.execute("SET threads = 2")
    n = one(
        con,
        "SELECT count(DISTINCT wurl_canon('http://a/' || (i % 1000)::VARCHAR)) FROM range(200000) r(i)",
    )
    assert n == 1000


def test_golden_keys(con):
    rows = golden_rows()
    got = sql_keys(con, rows)
    n, first = mismatches(rows, got)
    assert n == 0, first


def test_docstring_examples():
    import doctest

    r = doctest.testmod(wurl.duckdb, verbose=False)
    assert r.attempted >= 3 and r.failed == 0
