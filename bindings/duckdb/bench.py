#!/usr/bin/env python3
"""One run (not a test): wurl_canon in DuckDB against the CLI and the Python Arrow path.

    target/python-venv/bin/python bindings/duckdb/bench.py \
        --ext target/duckdb/wurl.duckdb_extension --cli target/release/wurl [--times 20]

For kasztp (one URL a line) and links_synth (page TAB link), the rows
repeated --times times: a Parquet file for DuckDB and a text file for the
CLI, the same rows. Each row is timed best of --repeat, in ns per URL:

- `extension`: `SELECT sum(length(wurl_canon(url))) FROM 'f.parquet'` (links:
  `wurl_canon(link, page)`), SET threads = 1, minus the same query with
  `length(url)` (reading the Parquet, which the CLI does not do either)
- `extension, 2 threads`: the same with SET threads = 2
- `cli`: `wurl canon [--pairs] --invalid skip --allow-invalid -i f.txt > /dev/null`
- `python arrow`: `wurl.canonicalize_arrow(column)` on the column read into memory
- `python udf`: `wurl.duckdb.register` and the extension's query, threads = 1
"""

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[2]


def dataset(name):
    for d in (ROOT / "bench" / "data", ROOT.parent / "shared" / "bench-data"):
        if (d / name).is_file():
            return d / name
    raise SystemExit(f"no dataset {name}")


def best(f, repeat):
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t0)
    return min(ts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ext", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--times", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    import wurl
    import wurl.duckdb

    tmp = Path(tempfile.mkdtemp())
    print(f"duckdb {duckdb.__version__}, rows repeated {a.times}x, best of {a.repeat}, ns per URL")
    print(f"{'dataset':<12} {'rows':>9} {'extension':>10} {'ext 2 thr':>10} {'cli':>8} {'py arrow':>9} {'py udf':>8}")
    for name, pairs in (("kasztp.txt", False), ("links_synth.tsv", True)):
        text = dataset(name).read_text("utf-8")
        # A byte order mark begins kasztp: dropped (repeated, it would stand
        # inside the file), as the tests read the datasets.
        lines = text.removeprefix("\ufeff").splitlines() * a.times
        txt = tmp / name
        txt.write_text("\n".join(lines) + "\n", "utf-8")
        if pairs:
            cols = [l.split("\t", 1) for l in lines]
            table = pa.table({"page": [p for p, _ in cols], "url": [u for _, u in cols]})
            call, base = "wurl_canon(url, page)", "length(url) + length(page)"
        else:
            table = pa.table({"url": lines})
            call, base = "wurl_canon(url)", "length(url)"
        pqf = tmp / (name + ".parquet")
        pq.write_table(table, pqf)
        n = len(lines)

        con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
        con.execute(f"LOAD '{a.ext}'")

        def q(sql, threads, c=con):
            c.execute(f"SET threads = {threads}")
            return lambda: c.execute(sql).fetchall()

        read = best(q(f"SELECT sum({base}) FROM '{pqf}'", 1), a.repeat)
        ext = best(q(f"SELECT sum(length({call})) FROM '{pqf}'", 1), a.repeat) - read
        read2 = best(q(f"SELECT sum({base}) FROM '{pqf}'", 2), a.repeat)
        ext2 = best(q(f"SELECT sum(length({call})) FROM '{pqf}'", 2), a.repeat) - read2
        args = [a.cli, "canon"] + (["--pairs"] if pairs else []) + ["--invalid", "skip", "--allow-invalid", "-i", str(txt)]
        cli = best(lambda: subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), a.repeat)
        urls = table.column("url").combine_chunks()
        bases = table.column("page").combine_chunks() if pairs else None
        arrow = best(lambda: wurl.canonicalize_arrow(urls, bases), a.repeat)
        py = duckdb.connect()
        wurl.duckdb.register(py)
        udf = best(q(f"SELECT sum(length({call})) FROM '{pqf}'", 1, py), a.repeat) - read
        ns = lambda t: f"{t / n * 1e9:.0f}"
        print(f"{name:<12} {n:>9} {ns(ext):>10} {ns(ext2):>10} {ns(cli):>8} {ns(arrow):>9} {ns(udf):>8}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
