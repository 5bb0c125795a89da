"""The Spark example on a real local Spark (local[2]): the wheel inside
mapInArrow (and arrow_udf where the installed Spark has it) and the wurl CLI
through RDD.pipe give exactly what the CLI gives, on a conformance sample and
on links_synth.tsv; row count and order kept; invalid -> null; the
deduplicating count.

Needs pyspark, pandas, pyarrow, Java 17, and the CLI (WURL_CLI, default
target/release/wurl)."""

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
from conftest import read_pairs  # noqa: E402
from datfile import canon_files, load  # noqa: E402

import wurl  # noqa: E402

WURL = os.environ.get("WURL_CLI", str(ROOT / "target" / "release" / "wurl"))


def cli_expected(rows):
    """The CLI's answer for each (page, link), run directly (one `wurl canon`
    per run of rows with the same page)."""
    out = []
    i = 0
    while i < len(rows):
        page = rows[i][0]
        j = i
        while j < len(rows) and rows[j][0] == page and j - i < 500:
            j += 1
        links = [l for _, l in rows[i:j]]
        cmd = [WURL, "canon", "-q"] + ([] if page is None else [f"--base={page}"]) + ["--"] + links
        r = subprocess.run(cmd, capture_output=True)
        assert r.returncode in (0, 1), r.stderr
        lines = r.stdout.decode("utf-8").split("\n")
        assert lines[-1] == ""
        lines = lines[:-1]
        assert len(lines) == len(links)
        out.extend(l if l != "" else None for l in lines)
        i = j
    return out


def conformance_sample():
    """Every canonicalization test that fits the line formats: no charset,
    no CR/LF (TAB, too, in the page), no NUL (arguments cannot hold it), and
    a page other than the literal `\\N`."""
    rows, skipped = [], 0
    for f in canon_files():
        for t in load(f):
            data = t.get("data") or ""
            base = t.get("base") or None
            if (
                t.get("charset")
                or any(c in data for c in "\r\n\x00")
                or (base is not None and (any(c in base for c in "\r\n\t\x00") or base == "\\N"))
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
    # Ship the CLI and the pipe script as files, as --files does on a cluster.
    s.sparkContext.addFile(WURL)
    s.sparkContext.addFile(str(ROOT / "python" / "examples" / "wurl_pairs.sh"))
    yield s
    s.stop()


def frame(spark, rows):
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    schema = StructType(
        [
            StructField("i", LongType(), False),
            StructField("page", StringType(), True),
            StructField("link", StringType(), True),
        ]
    )
    data = [(i, p, l) for i, (p, l) in enumerate(rows)]
    return spark.createDataFrame(spark.sparkContext.parallelize(data, 3), schema)


def check_all_ways(spark, rows):
    assert os.access(WURL, os.X_OK), f"build the CLI first: {WURL}"
    want = cli_expected(rows)
    assert len(want) == len(rows)
    # The wheel alone agrees with the CLI.
    assert wurl.canonicalize_many([l for _, l in rows], base=[p for p, _ in rows]) == want
    df = frame(spark, rows)
    ways = {"mapInArrow": spark_canon.with_canon_map_in_arrow(df)}
    if spark_canon.has_arrow_udf():
        ways["arrow_udf"] = spark_canon.with_canon_arrow_udf(df)
    from pyspark import SparkFiles

    shipped = SparkFiles.get(Path(WURL).name)
    assert shipped != WURL and os.access(shipped, os.X_OK)
    ways["pipe"] = spark_canon.with_canon_pipe(df, shipped, SparkFiles.get("wurl_pairs.sh"))
    n_distinct = len({w for w in want if w is not None})
    for name, out in ways.items():
        got = out.collect()
        assert len(got) == len(rows), name
        assert [r["i"] for r in got] == list(range(len(rows))), f"{name}: order changed"
        assert [(r["page"], r["link"]) for r in got] == rows, name
        canon = [r["canon"] for r in got]
        bad = [(rows[k], canon[k], want[k]) for k in range(len(rows)) if canon[k] != want[k]]
        assert not bad, f"{name}: {len(bad)} differ, e.g. {bad[:3]}"
        assert spark_canon.distinct_canonical(out) == n_distinct, name
    return want, list(ways)


def test_conformance_sample(spark):
    rows = conformance_sample()
    assert len(rows) > 8000
    want, ways = check_all_ways(spark, rows)
    assert sum(w is None for w in want) > 100  # invalid -> null is exercised
    assert len(ways) >= 2


def test_links_synth(spark):
    rows = [(p, l) for p, l in read_pairs()]
    assert len(rows) == 24120
    want, _ = check_all_ways(spark, rows)
    # Deduplication happens: fewer distinct canonical URLs than links.
    assert len({w for w in want if w is not None}) < len(rows)


def test_pairs_script_edge_cases():
    """wurl_pairs.sh alone: a link that looks like an option, an empty link,
    a null page, a page run longer than its 256-argument chunk, a page
    starting with '-', TAB inside a link."""
    rows = (
        [("http://p/a/b", "-x"), ("http://p/a/b", ""), (None, "http://A/"), (None, "rel"), ("-p", "x")]
        + [("http://q/d/", f"l{i}") for i in range(600)]
        + [("http://p/a/b", "x\ty"), ("http://p/a/b", "--base=http://evil/")]
    )
    want = cli_expected(rows)
    null = "\\N"
    lines = "".join(f"{null if p is None else p}\t{l}\n" for p, l in rows)
    r = subprocess.run(
        ["/bin/sh", str(ROOT / "python" / "examples" / "wurl_pairs.sh"), WURL],
        input=lines.encode(),
        capture_output=True,
        env={},
    )
    assert r.returncode == 0, r.stderr
    got = r.stdout.decode().split("\n")
    assert got[-1] == ""
    got = [g if g != "" else None for g in got[:-1]]
    assert got == want
    assert want[0] == "http://p/a/-x" and want[1] == "http://p/a/b" and want[3] is None
    assert want[-1] == "http://p/a/--base=http://evil/"
    assert want == wurl.canonicalize_many([l for _, l in rows], base=[p for p, _ in rows])
