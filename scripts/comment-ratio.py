#!/usr/bin/env python3
"""Comment lines among the non-test lines of src/**/*.rs, per file and in all.

A comment line is a line whose trimmed text starts with `//` (`///` and `//!` included); the
lines counted are the non-blank lines outside `#[cfg(test)] mod NAME { ... }` blocks.

usage: python3 scripts/comment-ratio.py [SRC_DIR]
"""
import pathlib
import sys

src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "src")
total_c = total_n = 0
rows = []
for f in sorted(src.rglob("*.rs")):
    c = n = 0
    skip = pending = False
    depth = 0
    for line in f.read_text(encoding="utf-8").split("\n"):
        s = line.strip()
        if skip:
            depth += line.count("{") - line.count("}")
            skip = depth > 0
            continue
        if s.startswith("#[cfg(test)]"):
            pending = True
            continue
        if pending:
            pending = False
            if s.startswith(("mod ", "pub mod ")) and not s.endswith(";"):
                depth = line.count("{") - line.count("}")
                skip = depth > 0
                continue
        if not s:
            continue
        n += 1
        c += s.startswith("//")
    rows.append((c, n, f))
    total_c += c
    total_n += n
for c, n, f in sorted(rows, key=lambda r: -r[0] / max(r[1], 1)):
    print(f"{str(f):28} {c:5} {n:6} {100 * c / max(n, 1):5.1f} %")
print(f"{'all':28} {total_c:5} {total_n:6} {100 * total_c / total_n:5.1f} %")
