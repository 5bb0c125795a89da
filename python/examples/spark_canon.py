"""Canonicalize the links of crawled pages on Spark, four ways.

A DataFrame of (page, link) rows gets a column ``canon``: each link resolved
against its page and canonicalized (null when invalid; a null page means the
link is its own base):

1. ``with_canon_column``: the column function ``wurl.spark.canonicalize``
   (``canonicalize(col("link"), base=col("page"))``), an Arrow UDF over
   ``wurl.canonicalize_arrow``: the way to use.
2. ``with_canon_map_in_arrow``: the ``wurl`` wheel inside ``mapInArrow``;
   each Arrow batch goes through ``wurl.canonicalize_arrow`` (one call per
   batch, GIL released, no per-row Python).
3. ``with_canon_arrow_udf``: the same as a hand-written ``arrow_udf``
   (Spark >= 4.1).
4. ``with_canon_pipe``: ``RDD.pipe`` through the ``wurl`` command-line tool
   shipped to the executors: ``wurl canon --pairs`` reads ``page<TAB>link``
   lines, one process per partition.

``distinct_canonical`` is the deduplicating count. The input is read with
``spark.read`` on the executors (``read_pairs``).

Run it (``local[2]`` by default)::

    python python/examples/spark_canon.py bench/data/links_synth.tsv \\
        --wurl target/release/wurl

On a cluster, ship the wheel in a packed virtual environment and the CLI as
a file (see the README's "Scaling out")::

    spark-submit --archives wurl-env.tar.gz#env \\
        --conf spark.pyspark.python=./env/bin/python \\
        --files target/release/wurl \\
        python/examples/spark_canon.py hdfs:///crawl/links.tsv --wurl ./wurl
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import pyarrow as pa

HERE = Path(__file__).resolve().parent

CANON_FIELD = "canon"


def _canon_batches(batches):
    """mapInArrow body: every batch through wurl.canonicalize_arrow."""
    import wurl

    for b in batches:
        out = wurl.canonicalize_arrow(b.column("link"), bases=b.column("page"))
        yield pa.RecordBatch.from_arrays(
            list(b.columns) + [out.cast(pa.string())], names=list(b.schema.names) + [CANON_FIELD]
        )


def with_canon_map_in_arrow(df):
    """df (page, link, ...) -> df + canon, with the wheel inside mapInArrow."""
    from pyspark.sql.types import StringType, StructField, StructType

    schema = StructType(list(df.schema.fields) + [StructField(CANON_FIELD, StringType(), True)])
    return df.mapInArrow(_canon_batches, schema)


def _copy_batches(batches):
    """mapInArrow body that only copies `link` into `canon`: Spark's own cost."""
    for b in batches:
        yield pa.RecordBatch.from_arrays(
            list(b.columns) + [b.column("link")], names=list(b.schema.names) + [CANON_FIELD]
        )


def with_link_copied(df):
    """A baseline: the same mapInArrow job with no canonicalization."""
    from pyspark.sql.types import StringType, StructField, StructType

    schema = StructType(list(df.schema.fields) + [StructField(CANON_FIELD, StringType(), True)])
    return df.mapInArrow(_copy_batches, schema)


def has_arrow_udf() -> bool:
    try:
        from pyspark.sql.functions import arrow_udf  # noqa: F401
    except ImportError:
        return False
    return True


def with_canon_arrow_udf(df):
    """The same as a column expression with arrow_udf (Spark >= 4.1)."""
    from pyspark.sql.functions import arrow_udf

    @arrow_udf("string")
    def canon(link: pa.Array, page: pa.Array) -> pa.Array:
        import wurl

        return wurl.canonicalize_arrow(link, bases=page).cast(pa.string())

    return df.withColumn(CANON_FIELD, canon(df["link"], df["page"]))


def with_canon_column(df):
    """The column function of the package: ``wurl.spark.canonicalize``."""
    from pyspark.sql.functions import col

    from wurl.spark import canonicalize

    return df.withColumn(CANON_FIELD, canonicalize(col("link"), base=col("page")))


#: The command of the RDD.pipe recipe: records ``page<TAB>link``, invalid
#: ones as empty lines (a canonical URL is never empty), exit status 0 with
#: invalid links (``--allow-invalid``), no message per invalid link (-q).
PIPE_ARGS = "canon --pairs --allow-invalid -q"

# TAB, LF and CR: the algorithm removes them from every URL before anything
# else, so removing them first changes no result, and keeps each row one
# line (LF, CR) with its first TAB between page and link.
_DROP_BASE = {9: None, 10: None, 13: None}
_DROP_LINK = {10: None, 13: None}


def pipe_line(page, link):
    """The ``wurl canon --pairs`` record of a row: ``page<TAB>link``; a null
    page (the link is its own base) is the link itself."""
    base = link if page is None else page
    return f"{base.translate(_DROP_BASE)}\t{link.translate(_DROP_LINK)}"


def with_canon_pipe(df, wurl_bin: str):
    """The same through RDD.pipe and the wurl CLI: one ``wurl canon
    --pairs`` process per partition, reading ``page<TAB>link`` lines and
    writing one line per row (empty = invalid, or a null link)."""
    spark = df.sparkSession
    cmd = f"{wurl_bin} {PIPE_ARGS}"

    def line(r):
        # A null link gives an empty output line (no URL): send a record
        # without a TAB, which --pairs reports invalid (quietly).
        return "" if r["link"] is None else pipe_line(r["page"], r["link"])

    rdd = df.rdd
    piped = rdd.map(line).pipe(cmd, checkCode=True)
    # Line k of the output is row k of the input. (PySpark's RDD.zip refuses
    # RDDs whose pickled batches differ in size, so rows are paired by index.)
    keyed_rows = rdd.zipWithIndex().map(lambda ri: (ri[1], tuple(ri[0])))
    keyed_out = piped.zipWithIndex().map(lambda ci: (ci[1], ci[0] if ci[0] != "" else None))
    n = rdd.getNumPartitions()
    rows = keyed_rows.join(keyed_out, n).sortByKey(numPartitions=n).map(lambda kv: kv[1][0] + (kv[1][1],))
    from pyspark.sql.types import StringType, StructField, StructType

    schema = StructType(list(df.schema.fields) + [StructField(CANON_FIELD, StringType(), True)])
    return spark.createDataFrame(rows, schema)


def distinct_canonical(df) -> int:
    """How many distinct valid canonical URLs."""
    return df.where(df[CANON_FIELD].isNotNull()).select(CANON_FIELD).distinct().count()


def session(master: str = "local[2]"):
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master(master)
        .appName("wurl-canon")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    # The functions above run on the executors: ship this module to them.
    spark.sparkContext.addPyFile(str(Path(__file__).resolve()))
    return spark


def read_pairs(spark, path: str):
    """A file of ``page<TAB>link`` lines as a DataFrame (i, page, link), read
    by the executors (``spark.read.text``, which splits large files into
    partitions: ``spark.sql.files.maxPartitionBytes``), not on the driver. ``i`` grows
    with the line's position in the input (to check that order is kept); a
    line without a TAB has a null link."""
    from pyspark.sql import functions as F

    parts = F.split(F.col("value"), "\t", 2)
    return spark.read.text(path).select(
        F.monotonically_increasing_id().alias("i"),
        parts.getItem(0).alias("page"),
        F.when(F.size(parts) > 1, parts.getItem(1)).alias("link"),
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pairs", help="TSV file of page<TAB>link lines")
    ap.add_argument("--wurl", default=str(HERE.parents[1] / "target" / "release" / "wurl"))
    ap.add_argument("--master", default="local[2]")
    ap.add_argument(
        "--ways",
        default="baseline,column,map_in_arrow,arrow_udf,pipe",
        help="comma-separated, run in this order (repeats allowed): baseline (mapInArrow copying the link, no wurl), column (wurl.spark.canonicalize), map_in_arrow, arrow_udf, pipe",
    )
    args = ap.parse_args(argv)
    chosen = args.ways.split(",")
    spark = session(args.master)
    spark.sparkContext.setLogLevel("ERROR")
    df = read_pairs(spark, args.pairs).cache()
    n = df.count()
    ways = [
        ("baseline", "mapInArrow copying the link (no wurl)", with_link_copied),
        ("column", "wurl.spark.canonicalize column", with_canon_column),
        ("map_in_arrow", "mapInArrow + wurl wheel", with_canon_map_in_arrow),
    ]
    if has_arrow_udf():
        ways.append(("arrow_udf", "arrow_udf + wurl wheel", with_canon_arrow_udf))
    ways.append(("pipe", "RDD.pipe + wurl canon --pairs", lambda d: with_canon_pipe(d, args.wurl)))
    by_key = {k: (name, f) for k, name, f in ways}
    for key in chosen:
        if key not in by_key:
            raise SystemExit(f"unknown or unavailable way: {key}")
        name, f = by_key[key]
        t0 = time.perf_counter()
        out = f(df).cache()
        valid = out.where(out[CANON_FIELD].isNotNull()).count()
        distinct = distinct_canonical(out)
        dt = time.perf_counter() - t0
        print(f"{name}: {n} rows, {valid} valid, {distinct} distinct canonical URLs, {dt:.2f} s ({n / dt:,.0f} rows/s)")
        out.unpersist()
    spark.stop()


if __name__ == "__main__":
    main()
