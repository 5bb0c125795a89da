"""The rows of tests/data/golden-keys.tsv.xz (format: tests/golden_keys.rs):
input, base, charset (None when absent) and the key (None when invalid)."""

from __future__ import annotations

import lzma
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "golden-keys.tsv.xz"

_ESC = re.compile(r"\\(x[0-9A-Fa-f]{2}|.)")
_SIMPLE = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}


def _unescape(field: str):
    if field == "\\N":
        return None

    def one(m):
        e = m.group(1)
        if e in _SIMPLE:
            return _SIMPLE[e]
        if e.startswith("x") and len(e) == 3:
            return chr(int(e[1:], 16))
        raise ValueError(f"bad escape \\{e}")

    return _ESC.sub(one, field)


def golden_rows():
    """[(input, base, charset, key)] in file order; key None for an invalid row."""
    rows = []
    with lzma.open(GOLDEN, "rt", encoding="utf-8", newline="\n") as f:
        header = f.readline()
        assert header.startswith("input\tbase\tcharset"), header
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            fields = line.split("\t")
            assert len(fields) == 5, line
            inp, base, cs, status, out = fields
            assert status in ("ok", "invalid"), line
            rows.append(
                (_unescape(inp), _unescape(base), _unescape(cs), _unescape(out) if status == "ok" else None)
            )
    return rows


def known_label(label):
    """Whether ``label`` names an encoding (wurl's Python API refuses one that does not)."""
    import wurl

    try:
        wurl.canonicalize("http://a/", charset=label)
    except ValueError:
        return False
    return True


def by_form(rows):
    """The rows grouped by the SQL call that computes them: {(has_base, charset): [(i, input, base)]}.
    A row without a base but with a charset is computed with the input as its own base
    (``wurl_canon(input, input, charset)``), which is what "no base" means. A charset label
    that names no encoding (the suite has a few, e.g. ibm037) is read as UTF-8 by the
    library, which is what its golden key is; the SQL functions refuse such a label (a
    misspelling would otherwise silently mean UTF-8), so those rows are computed without one."""
    groups = {}
    for i, (inp, base, cs, _) in enumerate(rows):
        if cs is not None and not known_label(cs):
            cs = None
        if base is None and cs is not None:
            base = inp
        groups.setdefault((base is not None, cs), []).append((i, inp, base))
    return groups


def sql_keys(con, rows):
    """The key of every row through ``wurl_canon`` on the DuckDB connection ``con``
    (the extension loaded, or ``wurl.duckdb.register``): a list parallel to ``rows``."""
    import pyarrow as pa

    out = [None] * len(rows)
    for (has_base, cs), items in by_form(rows).items():
        t = pa.table(
            {
                "i": pa.array([i for i, _, _ in items], pa.int64()),
                "input": pa.array([inp for _, inp, _ in items], pa.string()),
                "base": pa.array([b for _, _, b in items], pa.string()),
            }
        )
        con.register("golden_group", t)
        args = "input"
        if has_base:
            args += ", base"
        if cs is not None:
            args += ", '" + cs.replace("'", "''") + "'"
        for i, key in con.execute(f"SELECT i, wurl_canon({args}) FROM golden_group").fetchall():
            out[i] = key
        con.unregister("golden_group")
    return out


def mismatches(rows, got, limit=10):
    """The first rows whose key differs, for an assertion message."""
    bad = [(r, g) for r, g in zip(rows, got) if r[3] != g]
    return len(bad), bad[:limit]
