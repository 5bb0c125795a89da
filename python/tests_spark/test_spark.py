"""wurl on a real local Spark (local[2]), compared with the wurl CLI run
directly: the column functions of wurl.spark (canonicalize, resolve, with
and without reasons, per-row / one / no base, nulls), the example's other
paths (the wheel inside mapInArrow and arrow_udf, and the CLI through
RDD.pipe with `wurl canon --pairs`), on a conformance sample and on
links_synth.tsv read with spark.read; row count and order kept; invalid ->
null; the deduplicating count.

Needs pyspark, pandas (< 3: pyspark 4.3 warns with pandas 3), pyarrow,
Java 17, and the CLI (WURL_CLI, default target/release/wurl)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "python" / "examples"))
sys.path.insert(0, str(ROOT / "python" / "tests"))

import spark_canon  # noqa: E402
from conftest import dataset, read_pairs  # noqa: E402
from datfile import canon_files, load  # noqa: E402

import wurl  # noqa: E402
from wurl.spark import canonicalize, resolve  # noqa: E402

WURL = os.environ.get("WURL_CLI", str(ROOT / "target" / "release" / "wurl"))


def run_cli(args, lines):
    """`wurl ARGS` on `lines` (standard input, one per line): the output
    lines, one per input line (after the header row with `-f tsv`)."""
    data = "".join(l + "\n" for l in lines).encode("utf-8")
    r = subprocess.run([WURL, *args], input=data, capture_output=True)
    assert r.returncode in (0, 1), r.stderr
    out = r.stdout.decode("utf-8").split("\n")
    assert out[-1] == ""
    out = out[:-1]
    if "tsv" in args:
        assert out[0].split("\t")[-1] == "invalid", out[0]
        out = out[1:]
    assert len(out) == len(lines), (args, len(out), len(lines))
    return out


def cli_expected(rows, sub="canon", tsv=False):
    """The CLI's answer for each (page, link): rows with a page through one
    `wurl SUB --pairs` run, rows without one through one `wurl canon` run
    (the link its own base). Text: the URL or None (invalid). With `tsv`:
    (url, reason) from the tsv output."""
    with_page = [i for i, (p, _) in enumerate(rows) if p is not None]
    without = [i for i, (p, _) in enumerate(rows) if p is None]
    fmt = ["-f", "tsv"] if tsv else []
    out = [None] * len(rows)
    if with_page:
        got = run_cli([sub, "--pairs", "-q", *fmt], [f"{rows[i][0]}\t{rows[i][1]}" for i in with_page])
        for i, g in zip(with_page, got):
            out[i] = g
    if without:
        assert sub == "canon", "resolve needs a base"
        got = run_cli(["canon", "-q", *fmt], [rows[i][1] for i in without])
        for i, g in zip(without, got):
            out[i] = g
    if not tsv:
        return [o if o != "" else None for o in out]

    def field(v):
        # PostgreSQL COPY text: \N absent; \\, \t, \n, \r escaped.
        if v == "\\N":
            return None
        esc = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}
        out, k = [], 0
        while k < len(v):
            if v[k] == "\\" and k + 1 < len(v):
                out.append(esc[v[k + 1]])
                k += 2
            else:
                out.append(v[k])
                k += 1
        return "".join(out)

    res = []
    for o in out:
        f = o.split("\t")
        url, reason = (f[1], f[-1]) if len(f) == 11 else (f[0], f[-1])
        res.append((field(url), field(reason)))
    return res


def conformance_sample():
    """Every canonicalization test that fits one line: no charset, no
    CR/LF/NUL in the link, no TAB/CR/LF/NUL in the page (the CLI's record
    separators)."""
    rows, skipped = [], 0
    for f in canon_files():
        for t in load(f):
            data = t.get("data") or ""
            base = t.get("base") or None
            if (
                t.get("charset")
                or any(c in data for c in "\r\n\x00")
                or (base is not None and any(c in base for c in "\r\n\t\x00"))
            ):
                skipped += 1
                continue
            rows.append((base, data))
    print(f"conformance sample: {len(rows)} tests, {skipped} skipped", file=sys.stderr)
    return rows


@pytest.fixture(scope="module")
def spark():
    s = spark_canon.session("local[2]")
    s.sparkContext.setLogLevel("ERROR")
    # Ship the CLI as a file, as --files does on a cluster.
    s.sparkContext.addFile(WURL)
    yield s
    s.stop()


def frame(spark, rows, partitions=3):
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    schema = StructType(
        [
            StructField("i", LongType(), False),
            StructField("page", StringType(), True),
            StructField("link", StringType(), True),
        ]
    )
    data = [(i, p, l) for i, (p, l) in enumerate(rows)]
    return spark.createDataFrame(spark.sparkContext.parallelize(data, partitions), schema)


def ordered(df):
    return sorted(df.collect(), key=lambda r: r["i"])


def check_all_ways(spark, df, rows):
    """Every path of the example on `df` (i, page, link) equals the CLI on
    `rows`; returns the CLI's answers."""
    assert os.access(WURL, os.X_OK), f"build the CLI first: {WURL}"
    want = cli_expected(rows)
    assert len(want) == len(rows)
    # The wheel alone agrees with the CLI.
    assert wurl.canonicalize_many([l for _, l in rows], base=[p for p, _ in rows]) == want
    ways = {
        "wurl.spark.canonicalize": spark_canon.with_canon_column(df),
        "mapInArrow": spark_canon.with_canon_map_in_arrow(df),
    }
    if spark_canon.has_arrow_udf():
        ways["arrow_udf"] = spark_canon.with_canon_arrow_udf(df)
    from pyspark import SparkFiles

    shipped = SparkFiles.get(Path(WURL).name)
    assert shipped != WURL and os.access(shipped, os.X_OK)
    ways["pipe --pairs"] = spark_canon.with_canon_pipe(df, shipped)
    n_distinct = len({w for w in want if w is not None})
    for name, out in ways.items():
        got = out.collect()
        assert len(got) == len(rows), name
        ids = [r["i"] for r in got]
        assert ids == sorted(ids), f"{name}: order changed"
        assert [(r["page"], r["link"]) for r in got] == rows, name
        canon = [r["canon"] for r in got]
        bad = [(rows[k], canon[k], want[k]) for k in range(len(rows)) if canon[k] != want[k]]
        assert not bad, f"{name}: {len(bad)} differ, e.g. {bad[:3]}"
        assert spark_canon.distinct_canonical(out) == n_distinct, name
    return want, list(ways)


def test_conformance_sample(spark):
    rows = conformance_sample()
    assert len(rows) > 8000
    want, ways = check_all_ways(spark, frame(spark, rows), rows)
    assert sum(w is None for w in want) > 100  # invalid -> null is exercised
    assert sum(p is None for p, _ in rows) > 100  # rows that are their own base
    assert len(ways) >= 3


def test_links_synth_read_with_spark_read(spark):
    rows = [(p, l) for p, l in read_pairs()]
    assert len(rows) == 24120
    # 512 KiB splits: the 1.7 MB file is read as 4 partitions (Spark would
    # read a file this small as one), so that order across them is checked.
    spark.conf.set("spark.sql.files.maxPartitionBytes", str(512 * 1024))
    try:
        df = spark_canon.read_pairs(spark, str(dataset("links_synth.tsv")))
        assert df.rdd.getNumPartitions() >= 3, "read in parallel"
        want, _ = check_all_ways(spark, df, rows)
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
    # Deduplication happens: fewer distinct canonical URLs than links.
    assert len({w for w in want if w is not None}) < len(rows)


def test_column_functions_against_the_cli(spark):
    """canonicalize and resolve, with reasons, on links_synth and on the
    conformance sample, against `wurl canon|resolve --pairs [-f tsv]`."""
    from pyspark.sql.functions import col

    links = [(p, l) for p, l in read_pairs()]
    sample = conformance_sample()
    for rows in (links, sample):
        df = frame(spark, rows, partitions=4)
        out = ordered(
            df.select(
                "i",
                canonicalize(col("link"), base=col("page")).alias("c"),
                canonicalize("link", base="page", with_reason=True).alias("cr"),
            )
        )
        assert [r["c"] for r in out] == cli_expected(rows)
        got = [(r["cr"]["url"], r["cr"]["reason"]) for r in out]
        want = cli_expected(rows, tsv=True)
        bad = [(rows[k], got[k], want[k]) for k in range(len(rows)) if got[k] != want[k]]
        assert not bad, f"{len(bad)} reasons differ, e.g. {bad[:3]}"
        # resolve: the rows with a page (the CLI's resolve needs a base).
        paged = [(p, l) for p, l in rows if p is not None]
        out = ordered(frame(spark, paged).select("i", resolve(col("link"), base=col("page")).alias("r")))
        assert [r["r"] for r in out] == cli_expected(paged, sub="resolve")
    assert sum(w[1] is not None for w in cli_expected(sample, tsv=True)) > 100


def test_one_base_no_base_and_nulls(spark):
    from pyspark.sql.functions import col, lit

    links = [l for _, l in read_pairs()][:3000] + [None, "", "http://a:99999/", "../up"]
    rows = [(None, l) for l in links]
    df = frame(spark, rows)
    page = "https://www.example.com/dir/page.html?q#f"
    base_url = wurl.parse(page)
    out = ordered(
        df.select(
            "i",
            canonicalize("link", base=base_url).alias("one"),
            canonicalize("link", base=lit(page)).alias("lit"),
            canonicalize("link").alias("none"),
            resolve("link", base=base_url).alias("res"),
            canonicalize("link", base=base_url, with_reason=True).alias("why"),
        )
    )
    nn = [l for l in links if l is not None]
    by_base = dict(zip(nn, run_cli(["canon", "-q", "--base", page], nn)))
    by_self = dict(zip(nn, run_cli(["canon", "-q"], nn)))
    resolved = dict(zip(nn, run_cli(["resolve", "-q", "--base", page], nn)))

    def want(d, l):
        return None if l is None or d[l] == "" else d[l]

    assert [r["one"] for r in out] == [want(by_base, l) for l in links]
    assert [r["lit"] for r in out] == [want(by_base, l) for l in links]
    assert [r["none"] for r in out] == [want(by_self, l) for l in links]
    assert [r["res"] for r in out] == [want(resolved, l) for l in links]
    # A null URL is null with a null reason; an invalid one null with one.
    null_row = out[len(links) - 4]
    assert null_row["one"] is None and null_row["why"]["url"] is None and null_row["why"]["reason"] is None
    assert out[len(links) - 2]["why"]["reason"] == wurl.canonical_url("http://a:99999/", base=base_url).invalid_reason
    # A null per-row base: the row is its own base.
    both = frame(spark, [(None, "HTTP://A/x"), ("http://b/", "y"), (None, "rel")])
    out = ordered(both.select("i", canonicalize("link", base="page", with_reason=True).alias("w")))
    assert [r["w"]["url"] for r in out] == ["http://a/x", "http://b/y", None]
    assert out[2]["w"]["reason"] == wurl.canonical_url("rel").invalid_reason


def test_pandas_udf_path_equals_arrow_path(spark):
    """Spark < 4.1 has no arrow_udf: the pandas_udf path gives the same."""
    from pyspark.sql.functions import col

    from wurl import spark as ws

    rows = conformance_sample()[:3000] + [(None, None), ("http://a/", None)]
    df = frame(spark, rows)
    cols = []
    for use_arrow in (True, False):
        for op in ("canon", "resolve"):
            for reason in (False, True):
                name = f"{op}_{reason}_{use_arrow}"
                c = ws._apply(op, col("link"), col("page"), None, False, reason, _use_arrow=use_arrow)
                cols.append(c.alias(name))
    out = ordered(df.select("i", *cols))
    for op in ("canon", "resolve"):
        for reason in (False, True):
            a = [r[f"{op}_{reason}_True"] for r in out]
            p = [r[f"{op}_{reason}_False"] for r in out]
            assert a == p, (op, reason)
    assert sum(r["canon_False_True"] is None for r in out) > 50


def test_bad_arguments(spark):
    from pyspark.sql.functions import col

    with pytest.raises(TypeError):
        canonicalize(3)
    with pytest.raises(TypeError):
        canonicalize(col("link"), base=3)
    with pytest.raises(TypeError):
        canonicalize(col("link"), charset=1)


def test_pipe_recipe_edge_cases():
    """The RDD.pipe recipe's lines through `wurl canon --pairs` alone (an
    empty environment, as RDD.pipe gives): a link that looks like an option,
    an empty link, null pages, a page starting with '-', TAB/LF/CR inside a
    link or a page."""
    rows = [
        ("http://p/a/b", "-x"),
        ("http://p/a/b", ""),
        (None, "http://A/"),
        (None, "rel"),
        ("-p", "x"),
        ("http://p/a/b", "x\ty"),
        ("http://p/a/b", "--base=http://evil/"),
        ("http://p/a/b", "l\ni\rnk"),
        ("http://p/\ta/b", "c"),
        ("http://p/a/b\n", "d"),
        (None, "http://a\tb.test/"),
    ] + [("http://q/d/", f"l{i}") for i in range(600)]
    lines = "".join(spark_canon.pipe_line(p, l) + "\n" for p, l in rows)
    r = subprocess.run([WURL, *spark_canon.PIPE_ARGS.split()], input=lines.encode(), capture_output=True, env={})
    assert r.returncode == 0, r.stderr
    assert r.stderr == b""
    got = r.stdout.decode().split("\n")
    assert got[-1] == ""
    got = [g if g != "" else None for g in got[:-1]]
    # The wheel with the rows as they are (TAB, LF and CR kept): the
    # recipe's removal of them changes nothing.
    want = wurl.canonicalize_many([l for _, l in rows], base=[p for p, _ in rows])
    assert got == want
    assert want[0] == wurl.canonicalize("-x", base="http://p/a/b") is not None
    assert want[3] is None and want[4] is None
    assert want[6] == wurl.canonicalize("--base=http://evil/", base="http://p/a/b")
    assert want[8] == wurl.canonicalize("c", base="http://p/a/b") and want[9] is not None
    assert want[10] == wurl.canonicalize("http://ab.test/")


RULES = "drop-fragment,strip-www,sort-query,strip-session-ids,drop-params=utm_*|fbclid"


def test_keys_rules_and_surt(spark):
    """canonicalize(..., rules=, surt=, surt_scheme=) against `wurl canon
    --pairs --rules ... [--format surt [--surt-scheme]]`, per-row base, on
    links_synth and the conformance sample; the pandas_udf path the same."""
    from pyspark.sql.functions import col

    from wurl import spark as ws

    links = [(p, l) for p, l in read_pairs()]
    sample = [(p, l) for p, l in conformance_sample() if p is not None]
    for rows in (links, sample):
        df = frame(spark, rows, partitions=4)
        compiled = wurl.Rules(RULES)
        out = ordered(
            df.select(
                "i",
                canonicalize(col("link"), base=col("page"), rules=RULES).alias("r"),
                canonicalize("link", base="page", rules=compiled, surt=True).alias("rs"),
                canonicalize("link", base="page", surt_scheme=True).alias("ss"),
                canonicalize("link", base="page", rules=compiled, with_reason=True).alias("why"),
                ws._apply("canon", col("link"), col("page"), None, False, False, False, RULES, True).alias("pd"),
            )
        )
        pairs = [f"{p}\t{l}" for p, l in rows]

        def cli(*args):
            return [g if g != "" else None for g in run_cli(["canon", "--pairs", "-q", *args], pairs)]

        ruled = cli("--rules", RULES)
        ruled_surt = cli("--rules", RULES, "--format", "surt")
        surt_scheme = cli("--format", "surt", "--surt-scheme")
        assert [r["r"] for r in out] == ruled
        assert [r["rs"] for r in out] == ruled_surt
        assert [r["ss"] for r in out] == surt_scheme
        assert [r["pd"] for r in out] == ruled_surt
        assert [r["why"]["url"] for r in out] == ruled
        # The rules change keys: these are not the plain canonical URLs.
        plain = cli()
        assert sum(a != b for a, b in zip(ruled, plain)) > 10
        assert sum(a is None for a in ruled) == sum(a is None for a in plain)
    # One base for every row, and no base.
    page = "https://www.example.com/d/p.html"
    nn = [l for _, l in links[:2000]]
    df = frame(spark, [(None, l) for l in nn])
    out = ordered(
        df.select(
            "i",
            canonicalize("link", base=wurl.parse(page), rules=RULES, surt=True).alias("one"),
            canonicalize("link", rules=RULES).alias("none"),
        )
    )
    assert [r["one"] for r in out] == wurl.canonicalize_many(nn, base=page, rules=RULES, surt=True)
    assert [r["none"] for r in out] == wurl.canonicalize_many(nn, rules=RULES)


def test_bad_rules_fail_on_the_driver():
    from pyspark.sql.functions import col

    with pytest.raises(ValueError, match="no-such-rule"):
        canonicalize(col("link"), rules="strip-www,no-such-rule")
    with pytest.raises(TypeError, match="rules"):
        canonicalize(col("link"), rules=3)


NO_PYARROW_JOB = r"""
import sys
sys.path.insert(0, sys.argv[1])
import spark_canon
from pyspark.sql.functions import col
from wurl.spark import canonicalize

spark = spark_canon.session("local[1]")
spark.sparkContext.setLogLevel("OFF")
df = spark.createDataFrame([("http://p/", "a")], "page string, link string")
try:
    df.select(canonicalize(col("link"), base=col("page"))).collect()
except Exception as e:
    print("FAILED:", e)
else:
    print("RAN")
spark.stop()
"""


def test_worker_without_pyarrow_names_pyspark_python(tmp_path):
    """Executors whose Python (PYSPARK_PYTHON) lacks pyarrow: the task fails
    with wurl.spark's message naming PYSPARK_PYTHON, not a bare
    ModuleNotFoundError. The workers' Python here is this one with pyarrow
    hidden (a sitecustomize that makes `import pyarrow` fail); the driver
    keeps it."""
    block = tmp_path / "no-pyarrow"
    block.mkdir()
    (block / "sitecustomize.py").write_text('import sys\nsys.modules["pyarrow"] = None\n')
    worker = tmp_path / "python-without-pyarrow"
    worker.write_text(f'#!/bin/sh\nPYTHONPATH="{block}${{PYTHONPATH:+:$PYTHONPATH}}" exec "{sys.executable}" "$@"\n')
    worker.chmod(0o755)
    check = subprocess.run([str(worker), "-c", "import pyarrow"], capture_output=True, text=True)
    assert check.returncode != 0 and "pyarrow" in check.stderr
    env = dict(os.environ, PYSPARK_PYTHON=str(worker), PYSPARK_DRIVER_PYTHON=sys.executable)
    r = subprocess.run(
        [sys.executable, "-c", NO_PYARROW_JOB, str(ROOT / "python" / "examples")],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    out = r.stdout
    assert out.startswith("FAILED:"), out[-2000:]
    assert "wurl.spark needs pyarrow" in out, out[-3000:]
    assert "PYSPARK_PYTHON" in out, out[-3000:]
