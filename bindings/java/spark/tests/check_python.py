"""The Python side of the Spark test (tests/run.sh): the Python wurl.spark
functions on the same Parquet rows as SparkCheck's spark.sql query, each
column compared row by row with the Java result that SparkCheck wrote.

    spark-submit --master local[2] check_python.py ROWS_PARQUET JAVA_PARQUET

Needs pyspark, pyarrow and the wurl-canon wheel in the Python that runs it
(and PYSPARK_PYTHON naming that Python, for the executors). Exits 1 when
any row differs."""

import sys

import pyarrow.parquet as pq
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

import wurl
from wurl.spark import canonicalize, resolve

# As in SparkCheck.java.
RULES = "drop-fragment,strip-www,sort-query,strip-session-ids,drop-params=utm_*|fbclid|gclid"
RULES2 = "drop-userinfo,normalize-escapes"


def main():
    rows_path, java_path = sys.argv[1], sys.argv[2]
    spark = SparkSession.builder.appName("wurl check_python").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    try:
        rows = spark.read.parquet(rows_path).repartition(4)
        py = rows.select(
            "i",
            canonicalize(F.col("link"), base=F.col("page")).alias("canon"),
            canonicalize("link").alias("canon_self"),
            # wurl_resolve(page, link): the resolution alone.
            resolve("link", base="page").alias("resolved"),
            canonicalize("link", rules=RULES).alias("key"),
            F.when(F.col("i") % 2 == 0, canonicalize("link", rules=RULES))
            .otherwise(canonicalize("link", rules=RULES2))
            .alias("key_mixed"),
            canonicalize("link", rules="").alias("key_empty"),
            canonicalize("link", surt=True).alias("surt"),
        )
        got = {r["i"]: r for r in py.collect()}
        java = {r["i"]: r for r in spark.read.parquet(java_path).collect()}
    finally:
        spark.stop()

    # The URL Standard model has no wurl.spark function: the wheel's batch
    # call on the same rows, read with pyarrow.
    t = pq.read_table(rows_path).to_pydict()
    ids, pages, links = t["i"], t["page"], t["link"]

    def standard(base):
        # canonicalize_many raises for a URL over the 16 MiB limit; the
        # Spark functions give null for it, as for an invalid one.
        out = []
        for k, link in enumerate(links):
            b = base[k] if isinstance(base, list) else base
            try:
                out.append(wurl.canonicalize_many([link], base=[b], model="url-standard")[0])
            except ValueError:
                out.append(None)
        return dict(zip(ids, out))

    std_self = standard(None)
    std_base = standard(pages)

    n = len(ids)
    assert len(got) == n and len(java) == n, (n, len(got), len(java))
    bad = 0
    columns = ["canon", "canon_self", "resolved", "key", "key_mixed", "key_empty", "surt"]
    for c in columns + ["standard", "standard_base"]:
        if c == "standard":
            want = std_self
        elif c == "standard_base":
            want = std_base
        else:
            want = {i: got[i][c] for i in ids}
        differ = [i for i in ids if java[i][c] != want[i]]
        nulls = sum(want[i] is None for i in ids)
        print(f"{c}: {n - len(differ)} of {n} rows equal ({nulls} null)")
        for i in differ[:3]:
            print(f"  row {i}: page {pages[i]!r:.80} link {links[i]!r:.80}")
            print(f"    java   {java[i][c]!r:.120}")
            print(f"    python {want[i]!r:.120}")
        bad += len(differ)
        # Both kinds of rows are there: a comparison of nulls alone would
        # prove nothing.
        assert nulls > 10 and n - nulls > 500, (c, nulls)
    if bad:
        print(f"check_python: {bad} values differ", file=sys.stderr)
        sys.exit(1)
    print(f"check_python: {n} rows, {len(columns) + 2} columns, Java equals Python")


if __name__ == "__main__":
    main()
