"""The same bytes give the same results from Python as from C, C++, the
CLI, Perl and Ruby: the one-call rows of bindings/cross-binding-expected.tsv
(written by bindings/tools/cross_check.c, with every class of invalid UTF-8
in the host, path, query and fragment among real lines) are recomputed
here, the input bytes decoded with ``decode("utf-8", "replace")`` (the
documented road for bytes: one U+FFFD per maximal invalid subpart, as the
C ABI reads them), and the output compared as UTF-8 bytes."""

from __future__ import annotations

import re

import wurl

from conftest import ROOT

TABLE = ROOT / "bindings" / "cross-binding-expected.tsv"
BASE = "http://base.example/dir/file?q#f"


def _unescape(s: str):
    if s == "\\N":
        return None
    return re.sub(
        rb"\\(\\|x([0-9A-F]{2}))",
        lambda m: bytes([int(m.group(2), 16)]) if m.group(2) else b"\\",
        s.encode("ascii"),
    )


def _rows():
    for line in TABLE.read_text(encoding="ascii").splitlines():
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        assert len(cols) == 14, line
        yield cols[0], _unescape(cols[1]), _unescape(cols[13])


def _compute(op: str, text: str):
    if op == "parse":
        return wurl.parse(text).serialize()
    if op == "resolve":
        return wurl.parse(BASE).resolve(text).serialize()
    if op in ("canon", "canon_into"):
        return wurl.canonicalize(text)
    if op == "canon_1252":
        return wurl.canonicalize(text, charset="windows-1252")
    if op == "key:surt":
        return wurl.canonicalize(text, surt=True)
    if op.startswith("key:"):
        return wurl.canonicalize(text, rules=op[len("key:"):])
    raise AssertionError(f"unknown op {op}")


def test_same_bytes_same_output():
    checked = invalid_utf8 = 0
    failures = []
    for op, raw, want in _rows():
        text = raw.decode("utf-8", "replace")
        got = _compute(op, text)
        got_bytes = None if got is None else got.encode("utf-8")
        if got_bytes != want:
            failures.append((op, raw, want, got_bytes))
        checked += 1
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            invalid_utf8 += 1
    assert not failures, failures[:10]
    assert checked >= 900, checked
    assert invalid_utf8 >= 600, invalid_utf8


def test_replace_is_one_fffd_per_maximal_subpart():
    # The bytes of a surrogate, an overlong "/" and a code point above
    # U+10FFFF are three, two and four U+FFFD, as the C ABI reads them.
    assert b"\xed\xa0\x80".decode("utf-8", "replace") == "\ufffd" * 3
    assert b"\xc0\xaf".decode("utf-8", "replace") == "\ufffd" * 2
    assert b"\xf4\x90\x80\x80".decode("utf-8", "replace") == "\ufffd" * 4
    assert b"\xe2\x82".decode("utf-8", "replace") == "\ufffd"
