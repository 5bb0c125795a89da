#!/usr/bin/env python3
"""Writes urltestdata-href.json: [input, base or null, href or null] for
every test of urltestdata.json (null href: the URL Standard's parser must
fail), without the tests that the `url` crate lists in
expected_failures.txt (it does not follow the standard there). Lone
surrogates, which no binding can pass as text, are written as U+FFFD, as
every interface of wurl reads them. Run from this directory:
    python3 derive.py
"""
import json


def scalar(s):
    return s.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def escape_default(s):
    # Rust's str::escape_default, as the crate's test names use it.
    out = []
    for c in s:
        o = ord(c)
        if c == "\t":
            out.append("\\t")
        elif c == "\r":
            out.append("\\r")
        elif c == "\n":
            out.append("\\n")
        elif c in "'\"\\":
            out.append("\\" + c)
        elif 0x20 <= o < 0x7F:
            out.append(c)
        else:
            out.append("\\u{%x}" % o)
    return "".join(out)


def name(t):
    n = "<%s>" % escape_default(t["input"])
    if t.get("base") is not None:
        n += " against <%s>" % escape_default(t["base"])
    return n


skip = set(open("expected_failures.txt", encoding="utf-8").read().splitlines())
rows = []
for t in json.load(open("urltestdata.json", encoding="utf-8")):
    if not isinstance(t, dict) or name(t) in skip:
        continue
    href = None if t.get("failure") else t["href"]
    base = t.get("base")
    rows.append([scalar(t["input"]), None if base is None else scalar(base), href])
with open("urltestdata-href.json", "w", encoding="utf-8") as f:
    f.write("[\n")
    f.write(",\n".join(json.dumps(r, ensure_ascii=False) for r in rows))
    f.write("\n]\n")
print(len(rows), "tests")
