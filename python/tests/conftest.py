from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The integer expressions cbindgen writes for `#define WURL_NAME VALUE`
# (`((16 * 1024) * 1024)`): numbers, + - * << and parentheses.
_INT_EXPR = re.compile(r"[0-9\s()*+\-<]+")


def header_constants(path: Path = ROOT / "include" / "wurl.h") -> dict[str, int]:
    """Every `#define WURL_NAME VALUE` of the C header whose value is an
    integer expression, evaluated (the tests compare the constants the
    package restates with them)."""
    out = {}
    for line in path.read_text().splitlines():
        m = re.match(r"\s*#\s*define\s+(WURL_\w+)\s+(.*?)\s*$", line)
        if m and _INT_EXPR.fullmatch(m.group(2)):
            # Only digits and operators (checked above): nothing else runs.
            out[m.group(1)] = int(eval(m.group(2), {"__builtins__": {}}))
    return out


#: The C header's integer constants.
HEADER = header_constants()


def dataset(name: str) -> Path:
    """A benchmark dataset: bench/data/NAME, else ../shared/bench-data/NAME
    (the shared folder beside the clone). Missing is an error, not a skip."""
    for d in (ROOT / "bench" / "data", ROOT.parent / "shared" / "bench-data"):
        if (d / name).is_file():
            return d / name
    raise FileNotFoundError(f"dataset {name} is neither in bench/data nor in ../shared/bench-data")


def read_lines(name: str):
    text = dataset(name).read_bytes().decode("utf-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [l[:-1] if l.endswith("\r") else l for l in lines]


def read_pairs(name: str = "links_synth.tsv"):
    return [tuple(l.split("\t", 1)) for l in read_lines(name)]


@pytest.fixture(scope="session")
def kasztp():
    return read_lines("kasztp.txt")


@pytest.fixture(scope="session")
def links():
    return read_pairs()
