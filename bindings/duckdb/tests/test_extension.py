"""The loadable extension (wurl.duckdb_extension) in the Python duckdb package.

Run by `.ci/run duckdb` as

    WURL_DUCKDB_EXTENSION=path/wurl.duckdb_extension WURL_CLI=path/wurl \
        python -m pytest bindings/duckdb/tests

Both variables are required: without them every test fails (a test that
cannot run is not a pass).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "python" / "tests"))
from golden_rows import golden_rows, mismatches, sql_keys  # noqa: E402


def required(var):
    v = os.environ.get(var)
    if not v or not Path(v).is_file():
        pytest.fail(f"{var} must name an existing file (got {v!r})")
    return v


@pytest.fixture(scope="module")
def ext():
    return required("WURL_DUCKDB_EXTENSION")


@pytest.fixture(scope="module")
def cli():
    return required("WURL_CLI")


def connect(ext):
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD '{ext}'")
    return con


@pytest.fixture
def con(ext):
    c = connect(ext)
    yield c
    c.close()


def one(con, sql, *params):
    return con.execute(sql, list(params)).fetchone()[0]


def dataset(name):
    for d in (ROOT / "bench" / "data", ROOT.parent / "shared" / "bench-data"):
        if (d / name).is_file():
            return d / name
    raise FileNotFoundError(name)


def test_issue_examples(con, cli):
    assert one(con, "SELECT wurl_canon('HTTP://Example.COM:80/a/./b/../c?q=é#f')") == (
        "http://example.com/a/c?q=%C3%A9#f"
    )
    want = subprocess.run(
        [cli, "canon", "--format", "surt", "http://www.example.com/a"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    assert want and one(con, "SELECT wurl_surt('http://www.example.com/a')") == want


def test_every_function(con):
    page, link = "http://EXAMPLE.com:80/x/y", "../a/./b?q=1#f"
    assert one(con, "SELECT wurl_canon(?, ?)", link, page) == "http://example.com/a/b?q=1#f"
    assert one(
        con, "SELECT wurl_canon(?, ?, 'shift_jis')", "../a/./b?q=\u65e5", "http://example.jp/dir/index.html"
    ) == "http://example.jp/a/b?q=%93%FA"
    # Resolved (dot segments go), not canonicalized (the host's case and the port stay).
    assert one(con, "SELECT wurl_resolve(?, ?)", page, link) == "http://EXAMPLE.com:80/a/b?q=1#f"
    rules = "drop-fragment,strip-www,sort-query,drop-params=utm_*"
    assert one(con, "SELECT wurl_key(?, ?)", "http://www.A.com/?b=1&utm_x=2&a=3#f", rules) == (
        "http://a.com/?a=3&b=1"
    )
    assert one(con, "SELECT wurl_surt('http://www.Example.com/a/b?z=1&a=2')") == (
        "com,example,www)/a/b?z=1&a=2"
    )
    assert one(con, "SELECT wurl_standard(?)", "http://faß.de/a\\b/../c") == "http://xn--fa-hia.de/a/c"
    assert one(con, "SELECT wurl_standard(?, ?)", "../d?x y", "http://a/b/c") == "http://a/d?x%20y"
    assert one(con, "SELECT wurl_reason('http://a/')") is None
    assert one(con, "SELECT wurl_reason('http://a:99999/')")  # a reason, not NULL


def test_same_as_python_register(con):
    """The extension and wurl.duckdb.register give the same results, function by function."""
    wurl_duckdb = pytest.importorskip("wurl.duckdb")
    pytest.importorskip("numpy")
    py = duckdb.connect()
    wurl_duckdb.register(py)
    pairs = [l.split("\t", 1) for l in dataset("links_synth.tsv").read_text("utf-8").splitlines()[:3000]]
    t = pa.table({"page": [p for p, _ in pairs], "link": [l for _, l in pairs]})
    calls = [
        "wurl_canon(link)", "wurl_canon(link, page)", "wurl_canon(link, page, 'windows-1252')",
        "wurl_resolve(page, link)", "wurl_key(link, 'strip-www,sort-query,drop-fragment')",
        "wurl_surt(link)", "wurl_standard(link)", "wurl_standard(link, page)",
        "wurl_reason(link)", "wurl_reason(link, page)",
    ]
    for c in (con, py):
        c.register("t", t)
    for call in calls:
        a = con.execute(f"SELECT {call} FROM t").fetchall()
        b = py.execute(f"SELECT {call} FROM t").fetchall()
        assert a == b, call


def test_nulls_and_invalid(con):
    row = con.execute(
        "SELECT wurl_canon(NULL), wurl_canon('x', NULL), wurl_canon(NULL, 'http://a/'),"
        " wurl_resolve(NULL, 'x'), wurl_resolve('http://a/', NULL), wurl_key(NULL, 'strip-www'),"
        " wurl_key('http://a/', NULL), wurl_surt(NULL), wurl_standard(NULL), wurl_reason(NULL),"
        " wurl_canon('http://a:99999/'), wurl_canon('x', 'http://a/', NULL)"
    ).fetchone()
    assert row == (None,) * len(row)
    assert one(con, "SELECT wurl_canon('http://a/p?')") == "http://a/p?"  # empty query kept
    got = con.execute(
        "SELECT wurl_canon(u, b) FROM (VALUES ('x', 'http://a/'), (NULL, 'http://a/'),"
        " ('y', NULL), ('z', 'http://b/')) t(u, b)"
    ).fetchall()
    assert got == [("http://a/x",), (None,), (None,), ("http://b/z",)]


def test_bad_rules_and_charset_fail_at_bind(con):
    # PREPARE binds without running: the error comes before any row.
    with pytest.raises(duckdb.Error, match="rules"):
        con.execute("PREPARE p1 AS SELECT wurl_key(x, 'no-such-rule') FROM (VALUES ('http://a/')) t(x)")
    with pytest.raises(duckdb.Error, match="charset"):
        con.execute("PREPARE p2 AS SELECT wurl_canon(x, x, 'shiftjis') FROM (VALUES ('http://a/')) t(x)")
    with pytest.raises(duckdb.Error, match="constant"):
        con.execute("SELECT wurl_key(x, x) FROM (VALUES ('http://a/')) t(x)").fetchall()
    # A lone bad rule of many, and an empty table: still an error.
    with pytest.raises(duckdb.Error, match="rules"):
        con.execute("SELECT wurl_key(x, 'strip-www,drop-params=') FROM (SELECT 'a' x WHERE false)").fetchall()
    # The connection still works afterwards.
    assert one(con, "SELECT wurl_canon('HTTP://A/')") == "http://a/"


def test_hostile_input(con, cli):
    huge = "http://a/" + "x" * (8 << 20)
    assert one(con, "SELECT length(wurl_canon(?))", huge) == len(huge)
    nul = one(con, "SELECT wurl_canon(?)", "http://a/\x00b")
    assert nul is not None and "\x00" not in nul
    got = con.execute(
        "SELECT wurl_canon(repeat('a/', 200000), 'http://h/'), wurl_canon('http://[' || repeat(':', 100000) || ']/'),"
        " wurl_key(repeat('http://www.a/?', 1000), 'sort-query,strip-www')"
    ).fetchone()
    assert got[0] == "http://h/" + "a/" * 200000

    def cli_canon(*args):
        r = subprocess.run([cli, "canon", "--invalid", "blank", *args], capture_output=True, text=True)
        return r.stdout.rstrip("\n") or None

    assert got[1] == cli_canon("http://[" + ":" * 100000 + "]/")
    want = cli_canon("--rules", "sort-query,strip-www", "http://www.a/?" * 1000)
    assert want and got[2] == want


def test_two_threads(con):
    con.execute("SET threads = 2")
    n = one(
        con,
        "SELECT count(DISTINCT wurl_canon('HTTP://A/' || (i % 5000)::VARCHAR || '/./x', 'http://b/'))"
        " FROM range(1000000) r(i)",
    )
    assert n == 5000


def test_golden_keys(con):
    rows = golden_rows()
    got = sql_keys(con, rows)
    n, first = mismatches(rows, got)
    assert n == 0, first


def test_parquet_distinct_count_equals_cli(con, cli, tmp_path):
    src = dataset("links_synth.tsv")
    pairs = [l.split("\t", 1) for l in src.read_text("utf-8").splitlines()]
    path = tmp_path / "links.parquet"
    pq.write_table(pa.table({"page": [p for p, _ in pairs], "link": [l for _, l in pairs]}), path)
    con.execute("SET threads = 2")
    got = one(con, f"SELECT count(DISTINCT wurl_canon(link, page)) FROM '{path}'")
    out = subprocess.run(
        [cli, "canon", "--pairs", "--invalid", "skip", "--allow-invalid", "-i", str(src)],
        check=True, capture_output=True,
    ).stdout
    want = len(set(out.split(b"\n")) - {b""})
    assert want > 20000 and got == want


def test_duckdb_command_line_program(ext, cli, tmp_path):
    """The DuckDB shell (PyPI's duckdb-cli, installed beside this Python: a DuckDB release of
    its own, 1.5.6 in CI, the oldest with the C API the extension asks for) loads the file
    only with -unsigned, and gives the same results."""
    shell = Path(sys.executable).parent / "duckdb"
    if not shell.is_file():
        pytest.fail(f"no DuckDB shell at {shell} (pip install duckdb-cli)")
    src = dataset("links_synth.tsv")
    pairs = [l.split("\t", 1) for l in src.read_text("utf-8").splitlines()]
    path = tmp_path / "links.parquet"
    pq.write_table(pa.table({"page": [p for p, _ in pairs], "link": [l for _, l in pairs]}), path)
    sql = (
        f"LOAD '{ext}'; SELECT wurl_canon('HTTP://Example.COM:80/a/./b/../c?q=é#f'),"
        f" wurl_surt('http://www.example.com/a'),"
        f" (SELECT count(DISTINCT wurl_canon(link, page)) FROM '{path}');"
    )
    r = subprocess.run([str(shell), "-unsigned", "-csv", "-noheader", "-c", sql], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = subprocess.run(
        [cli, "canon", "--pairs", "--invalid", "skip", "--allow-invalid", "-i", str(src)],
        check=True, capture_output=True,
    ).stdout
    want = len(set(out.split(b"\n")) - {b""})
    assert r.stdout.strip() == f"http://example.com/a/c?q=%C3%A9#f,\"com,example,www)/a\",{want}"
    refused = subprocess.run([str(shell), "-c", f"LOAD '{ext}';"], capture_output=True, text=True)
    assert refused.returncode != 0 and "unsigned" in (refused.stdout + refused.stderr)
