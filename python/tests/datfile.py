"""A reader for the conformance suite's .dat format, the same rules as
tests/common/dat.rs (tests/data/README.md): fields, options, `escaped`,
`| ` prefixes, NAME8 fields replacing NAME, blank lines, CRLF."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

_ESC = re.compile(r"\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})")


def unescape(s: str) -> str:
    """\\uXXXX and \\UXXXXXXXX to code points; a surrogate becomes U+FFFD,
    as the suite's NAME8 fields expect (and as wurl reads a lone surrogate)."""

    def rep(m: re.Match) -> str:
        cp = int(m.group(1)[1:], 16)
        if 0xD800 <= cp <= 0xDFFF or cp > 0x10FFFF:
            return "\ufffd"
        return chr(cp)

    return _ESC.sub(rep, s)


class DatTest:
    def __init__(self, line: int, fields: dict):
        self.line = line
        self.fields = fields

    def get(self, name: str):
        return self.fields.get(name)


def _finish_field(name, options, lines, raw):
    escaped = bool(options) and options[-1] == "escaped"
    if escaped:
        options = options[:-1]
    if name in ("data", "path", "path8"):
        lines = [l[2:] if l.startswith("| ") else l for l in lines]
    if not lines:
        value = options[0] if options else ""
    else:
        value = "\n".join(lines)
    if escaped:
        value = unescape(value)
    raw.append((name, value))


def _finish_test(line, raw, out):
    if not raw:
        return
    fields = dict(raw)
    for k, v in raw:
        if k.endswith("8"):
            fields[k[:-1]] = v
    out.append(DatTest(line, fields))


def parse_dat(text: str):
    tests = []
    raw = []
    field = None  # (name, options, lines)
    test_line = 0
    prev_blank = True
    pending_blank = 0
    for n, line in enumerate(text.split("\n")):
        if line.endswith("\r"):
            line = line[:-1]
        if line.startswith("#"):
            body = line[1:]
            if field is not None:
                _finish_field(*field, raw)
                field = None
            if prev_blank:
                _finish_test(test_line, raw, tests)
                raw = []
                test_line = n + 1
            m = re.match(r"[A-Za-z0-9_-]*", body)
            end = m.end()
            name = body[:end]
            options = [w for w in body[end:].split(" ") if w and w != ":"]
            field = (name, options, [])
            pending_blank = 0
            prev_blank = False
        elif line == "":
            pending_blank += 1
            prev_blank = True
        else:
            if field is not None:
                field[2].extend([""] * pending_blank)
                field[2].append(line)
            pending_blank = 0
            prev_blank = False
    if field is not None:
        _finish_field(*field, raw)
    _finish_test(test_line, raw, tests)
    return tests


def load(rel: str):
    # Bytes, not text mode: universal newlines would turn a lone CR into LF.
    return parse_dat((DATA / rel).read_bytes().decode("utf-8"))


def canon_files():
    out = []
    for d in ("", "generated/"):
        names = sorted(
            n
            for n in os.listdir(DATA / d)
            if n.endswith(".dat") and (n.startswith("decomps") or d)
        )
        out.extend(d + n for n in names)
    return out
