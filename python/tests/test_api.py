"""The Python API: absent vs empty, invalid reasons, batch functions equal to
the scalar call on every dataset line, the GIL released, bad input."""

from __future__ import annotations

import re
import sys
import threading
import time

import pyarrow as pa
import pytest

import wurl
from conftest import HEADER, ROOT, read_lines, read_pairs

# The C ABI's input limit, from include/wurl.h (the package's own must equal it).
MIB16 = HEADER["WURL_MAX_INPUT_LEN"]
TOO_LONG = f"longer than {MIB16} bytes"


# --- absent vs empty -------------------------------------------------------


@pytest.mark.parametrize(
    "url, comp, want",
    [
        ("http://h/p?", "query", ""),
        ("http://h/p", "query", None),
        ("http://h/p#", "fragment", ""),
        ("http://h/p", "fragment", None),
        ("http://u:@h/", "password", ""),
        ("http://u@h/", "password", None),
        ("http://@h/", "user", ""),
        ("http://h/", "user", None),
        ("http://h:/", "port", ""),
        ("http://h/", "port", None),
        ("http:///x", "host", ""),
        ("mailto:a@b", "host", None),
    ],
)
def test_absent_vs_empty_parse(url, comp, want):
    assert getattr(wurl.parse(url), comp) == want


def test_absent_vs_empty_canonical():
    assert wurl.canonicalize("http://h/p?") == "http://h/p?"
    assert wurl.canonicalize("http://h/p") == "http://h/p"
    assert wurl.canonicalize("http://h/p#") == "http://h/p#"
    # Canonicalization drops an empty password (the spec), keeps "" query/fragment.
    assert wurl.parse("http://u:@h/p?#").password == ""
    c = wurl.canonical_url("http://u:@h/p?#")
    assert (c.user, c.password, c.query, c.fragment) == ("u", None, "", "")
    c = wurl.canonical_url("http://h/p")
    assert (c.user, c.password, c.query, c.fragment) == (None, None, None, None)
    # The host kinds.
    assert wurl.canonical_url("http:///x").host_kind in ("empty", "none")
    assert wurl.canonical_url("http://1.2.3.4/").host_kind == "ipv4"
    assert wurl.canonical_url("http://[::1]/").host_kind == "ipv6"
    assert wurl.canonical_url("http://example.com/").host_kind == "domain"
    assert wurl.parse("mailto:x").host_kind == "none"
    assert wurl.canonical_url("file:///x").host_kind == "empty"


# --- invalid reasons -------------------------------------------------------


@pytest.mark.parametrize(
    "url, base, reason",
    [
        ("http://a:99999/", None, "port out of range"),
        ("http://a:x/", None, "port is not a number"),
        ("//h/x", None, "no scheme (relative reference without a base)"),
        ("x", "nope", "base URL is invalid"),
        ("x", "mailto:a", "relative reference against a non-hierarchical base"),
        ("http://xn--\u00fc/", None, "host label begins with xn-- but is not ASCII"),
        ("http://a\x00b/", None, "forbidden character in host (NUL, '/', '%' or '\\')"),
        ("http://a\u2028b/", None, "prohibited character in host"),
        ("http://" + "a" * 64 + "\u00e9/", None, "host label longer than 63 characters"),
    ],
)
def test_invalid_reasons(url, base, reason):
    c = wurl.canonical_url(url, base=base)
    assert c.invalid
    assert c.invalid_reason == reason
    assert c.serialize() is None
    assert wurl.canonicalize(url, base=base) is None
    with pytest.raises(ValueError, match="invalid URL: "):
        str(c)
    assert "invalid_reason=" in repr(c)


def test_strict_mode():
    assert wurl.canonicalize("http://0x7f.1/") == "http://127.0.0.1/"
    assert wurl.canonicalize("http:///x") is not None
    assert wurl.canonicalize("http:///x", strict=True) is None
    c = wurl.canonical_url("http:///x", strict=True)
    assert c.invalid_reason == "network-strict: empty host"


def test_charset():
    assert wurl.canonicalize("http://h/?q=\u00e9") == "http://h/?q=%C3%A9"
    assert wurl.canonicalize("http://h/?q=\u00e9", charset="iso-8859-1") == "http://h/?q=%E9"
    assert wurl.canonicalize_many(["http://h/?q=\u00e9"], charset="iso-8859-1") == ["http://h/?q=%E9"]


@pytest.mark.parametrize("label", ["shiftjis", "no-such-label", "utf-7", "", "utf_8", "sj\u00e9is", 'a"b\\c'])
def test_unknown_charset_raises(label):
    # The library would read it as UTF-8: a misspelt label is refused by
    # every function that takes a charset, with the library's message as it is.
    msg = wurl.charset_message(label)
    assert msg is not None and re.fullmatch(r"[\x20-\x7e]+", msg), msg
    u = wurl.parse("http://hoge/?\u5050")
    calls = [
        lambda: wurl.canonicalize("http://hoge/?\u5050", charset=label),
        lambda: wurl.canonicalize("?x", base="http://hoge/", charset=label, rules="sort-query"),
        lambda: wurl.canonicalize("http://hoge/", charset=label, model="url-standard"),
        lambda: wurl.canonical_url("http://hoge/", charset=label),
        lambda: u.canonicalize(label),
        lambda: u.canonicalize(charset=label),
        lambda: wurl.canonicalize_many(["http://hoge/"], charset=label),
        lambda: wurl.canonicalize_many(["http://hoge/"], charset=label, model="url-standard"),
        lambda: wurl.canonicalize_arrow(pa.array(["http://hoge/"]), charset=label),
    ]
    for call in calls:
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value) == msg


def test_known_charset_labels():
    # WHATWG labels, ASCII case-insensitive, surrounding whitespace ignored.
    for label in ["Shift_JIS", " sjis ", "EUC-JP", "latin1", "windows-1252"]:
        assert wurl.canonicalize("http://h/?\u3042", charset=label) is not None
    assert wurl.canonicalize("http://h/?\u3042", charset=" Shift_JIS ") == "http://h/?%82%A0"
    # Known, but not ASCII-compatible: UTF-8, as the algorithm says.
    assert wurl.canonicalize("http://h/?\u3042", charset="utf-16le") == "http://h/?%E3%81%82"
    for label in ["Shift_JIS", " sjis ", "utf-16le"]:
        assert wurl.charset_message(label) is None, label
    # A long unknown label is quoted in part.
    with pytest.raises(ValueError) as e:
        wurl.canonicalize("http://h/", charset="x" * 10_000)
    assert str(e.value) == wurl.charset_message("x" * 10_000)
    assert len(str(e.value)) < 300
    with pytest.raises(TypeError):
        wurl.charset_message(None)
    with pytest.raises(ValueError, match=TOO_LONG):
        wurl.charset_message("x" * (wurl.MAX_INPUT_LEN + 1))


def _unescape_hex(s):
    """The cross-binding TSV's escapes (\\xHH, \\N) to bytes."""
    import re

    return re.sub(rb"\\x([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), s.encode())


def test_invalid_utf8_reads_as_in_the_other_bindings():
    # bytes are not taken; decoding them with "replace" reads invalid UTF-8
    # as the C ABI does (one U+FFFD per maximal invalid subpart), so the
    # result is what C, Ruby and Perl give for the same bytes: the rows of
    # bindings/cross-binding-expected.tsv, which they check.
    with pytest.raises(TypeError):
        wurl.canonicalize(b"http://a/caf\xe9")
    path = ROOT / "bindings" / "cross-binding-expected.tsv"
    checked = 0
    for line in path.read_text(encoding="ascii").splitlines():
        if line.startswith("#"):
            continue
        cols = line.split("\t")
        if cols[0] not in ("canon", "parse"):
            continue
        raw = _unescape_hex(cols[1])
        try:
            raw.decode("utf-8")
            continue
        except UnicodeDecodeError:
            pass
        text = raw.decode("utf-8", "replace")
        want = None if cols[13] == "\\N" else _unescape_hex(cols[13]).decode("utf-8")
        if cols[0] == "canon":
            assert wurl.canonicalize(text) == want, cols[1]
        else:
            assert wurl.parse(text).serialize() == want, cols[1]
        checked += 1
    assert checked >= 6, checked
    # E9 alone, then E8 80 (a truncated sequence): two maximal subparts.
    got = wurl.canonicalize(b"http://a/caf\xe9\xe8\x80".decode("utf-8", "replace"))
    assert got == "http://a/caf%EF%BF%BD%EF%BF%BD"


def test_url_object():
    u = wurl.parse("HTTP://Example.COM:80/a/../b")
    assert u.scheme == "HTTP" and u.port == "80"
    c = u.canonicalize()
    assert str(c) == "http://example.com/b" and c.port is None
    assert str(wurl.resolve(c, "?q")) == str(wurl.resolve("http://example.com/b", "?q")) == "http://example.com/b?q"
    assert wurl.parse("http://a/") == wurl.parse("http://a/") and wurl.parse("http://a/") != wurl.parse("http://b/")
    assert str(c.resolve("x").canonicalize()) == "http://example.com/x"
    assert c.hierarchical
    assert repr(c) == "URL('http://example.com/b')" or repr(c) == 'URL("http://example.com/b")'
    with pytest.raises(TypeError):
        wurl.canonicalize(c, base="http://x/")
    assert wurl.canonicalize(u) == "http://example.com/b"
    with pytest.raises((AttributeError, TypeError)):
        c.host = "x"


# --- batch functions == scalar on every dataset line -----------------------


DATASETS = ["kasztp.txt", "node_files.txt", "idn_synth.txt", "pagewritten.txt"]


@pytest.mark.parametrize("name", DATASETS)
def test_batches_equal_scalar(name):
    urls = read_lines(name)
    assert len(urls) > 10000
    want = [wurl.canonicalize(u) for u in urls]
    assert wurl.canonicalize_many(urls) == want
    for t in (pa.string(), pa.large_string()):
        got = wurl.canonicalize_arrow(pa.array(urls, type=t))
        assert got.type == t
        assert got.to_pylist() == want
    # Through the capsule protocol from another producer than pyarrow.Array.
    chunked = pa.chunked_array([urls[:5000], urls[5000:]])
    assert wurl.canonicalize_arrow(chunked).to_pylist() == want


def test_links_batches_equal_scalar():
    pairs = read_pairs()
    assert len(pairs) == 24120
    pages = [p for p, _ in pairs]
    links = [l for _, l in pairs]
    want = [wurl.canonicalize(l, base=p) for p, l in pairs]
    assert sum(w is None for w in want) < len(want) // 100
    assert wurl.canonicalize_many(links, base=pages) == want
    got = wurl.canonicalize_arrow(pa.array(links), bases=pa.array(pages))
    assert got.to_pylist() == want
    got = wurl.canonicalize_arrow(
        pa.array(links, type=pa.large_string()), bases=pa.array(pages, type=pa.large_string())
    )
    assert got.to_pylist() == want
    # One scalar base for every row.
    want1 = [wurl.canonicalize(l, base=pages[0]) for l in links]
    assert wurl.canonicalize_many(links, base=pages[0]) == want1
    assert wurl.canonicalize_arrow(pa.array(links), bases=pages[0]).to_pylist() == want1
    assert wurl.canonicalize_arrow(pa.array(links), bases=wurl.parse(pages[0])).to_pylist() == want1


def test_arrow_nulls_slices_and_null_bases():
    urls = pa.array(["http://A/", None, "x/y", "//nope", "../z", ""])
    bases = pa.array(["http://b/c/d", "http://b/", None, None, "http://b/c/d", None])
    got = wurl.canonicalize_arrow(urls, bases=bases).to_pylist()
    assert got == [
        wurl.canonicalize("http://A/", base="http://b/c/d"),
        None,
        wurl.canonicalize("x/y"),
        None,
        "http://b/z",
        None,
    ]
    # A sliced array (non-zero offset) on both sides.
    got = wurl.canonicalize_arrow(urls.slice(2), bases=bases.slice(2)).to_pylist()
    assert got == [wurl.canonicalize("x/y"), None, "http://b/z", None]
    # Length is preserved for an empty and an all-null array.
    assert wurl.canonicalize_arrow(pa.array([], pa.string())).to_pylist() == []
    assert wurl.canonicalize_arrow(pa.array([None, None], pa.string())).to_pylist() == [None, None]
    assert wurl.canonicalize_arrow(pa.array([None, None])).to_pylist() == [None, None]


def test_arrow_errors():
    with pytest.raises(TypeError, match="Arrow"):
        wurl.canonicalize_arrow(["http://a/"])
    with pytest.raises(TypeError, match="string"):
        wurl.canonicalize_arrow(pa.array([1, 2]))
    with pytest.raises(ValueError, match="rows"):
        wurl.canonicalize_arrow(pa.array(["a"]), bases=pa.array(["b", "c"]))


def test_arrow_result_exports_capsules():
    out = wurl._wurl.canonicalize_arrow(pa.array(["http://A/", "//x"]), None, None, False)
    assert isinstance(out, wurl.ArrowStringArray) and len(out) == 2
    a = pa.array(out)
    b = pa.array(out)  # exported twice: each export is independent
    assert a.to_pylist() == b.to_pylist() == ["http://a/", None]
    del out
    assert a.to_pylist() == ["http://a/", None]


# --- the GIL is released ----------------------------------------------------


def _ran_during(fn):
    """How many times this thread ran while fn (in another thread) was inside
    its call. The switch interval is made so long that the interpreter never
    takes the GIL from a thread that runs Python: this thread can only run
    inside fn's call when that call releases the GIL. So the count is 0 for a
    call that holds the GIL, and at least 1 for one that releases it, on a
    busy machine as on an idle one: nothing here reads a clock."""
    inside = threading.Event()
    done = threading.Event()

    def run():
        inside.set()
        try:
            fn()
        finally:
            inside.clear()
            done.set()

    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        th = threading.Thread(target=run)
        th.start()
        seen = 0
        while not done.is_set():
            if inside.is_set():
                seen += 1
            time.sleep(0)  # lets the worker have the GIL
        th.join()
    finally:
        sys.setswitchinterval(old)
    return seen


@pytest.fixture(scope="module")
def many_urls():
    return read_lines("kasztp.txt") * 24  # ~1.15 M URLs


def test_gil_control_a_gil_holding_call_is_detected():
    # sorted() of a big list holds the GIL for its whole run: this thread
    # never runs inside it.
    import random

    big = random.Random(1).sample(range(1_000_000), 1_000_000)
    assert _ran_during(lambda: sorted(big)) == 0


def test_gil_released_by_canonicalize_arrow(many_urls):
    arr = pa.array(many_urls)
    assert _ran_during(lambda: wurl.canonicalize_arrow(arr)) > 0


def test_gil_released_by_canonicalize_many(many_urls):
    # Reading the list and building the result hold the GIL; the work
    # between them does not.
    assert _ran_during(lambda: wurl.canonicalize_many(many_urls)) > 0


def test_two_threads_run_batches_at_once(many_urls):
    # Each batch releases the GIL, so two threads' batches run together
    # (how much faster depends on free cores: not asserted); the results are
    # those of one thread.
    arr = pa.array(many_urls[:200_000])
    want = pa.array(wurl.canonicalize_arrow(arr))
    got = {}

    def work(name):
        got[name] = pa.array(wurl.canonicalize_arrow(arr))

    threads = [threading.Thread(target=work, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got["a"].equals(want) and got["b"].equals(want)


# --- bad input ---------------------------------------------------------------


@pytest.mark.parametrize("bad", [3, b"http://a/", 3.5, object(), ["http://a/"]])
def test_non_str_raises_type_error(bad):
    with pytest.raises(TypeError, match="must be str"):
        wurl.canonicalize(bad)
    with pytest.raises(TypeError):
        wurl.parse(bad)
    with pytest.raises(TypeError):
        wurl.canonicalize_many(["http://a/", bad])
    with pytest.raises(TypeError):
        wurl.canonicalize("http://a/", base=bad)


def test_none_input():
    with pytest.raises(TypeError):
        wurl.canonicalize(None)
    assert wurl.canonicalize_many([None, "http://a/"]) == [None, "http://a/"]
    with pytest.raises(TypeError, match="not a str"):
        wurl.canonicalize_many("http://a/")


def test_lone_surrogates_read_as_replacement_character():
    assert wurl.canonicalize("http://h/\ud800") == wurl.canonicalize("http://h/\ufffd") == "http://h/%EF%BF%BD"
    assert wurl.canonicalize("http://h/?\udcff#\udc80") == "http://h/?%EF%BF%BD#\ufffd"
    # A high and a low surrogate in a row are two lone surrogates in a str.
    assert wurl.canonicalize("http://h/\ud83d\ude00") == "http://h/%EF%BF%BD%EF%BF%BD"
    assert wurl.parse("http://h\udc00/").host == "h\ufffd"
    assert wurl.canonicalize_many(["http://h/\ud800", None]) == ["http://h/%EF%BF%BD", None]
    assert wurl.canonicalize("http://h/x", base="http://\ud800/") == wurl.canonicalize("http://h/x", base="http://\ufffd/")


def test_sixteen_mib():
    ok = "http://h/" + "a" * (MIB16 - len("http://h/"))
    too = ok + "a"
    assert len(ok.encode()) == MIB16
    assert wurl.canonicalize(ok) == ok
    with pytest.raises(ValueError, match=TOO_LONG):
        wurl.canonicalize(too)
    with pytest.raises(ValueError, match=TOO_LONG):
        wurl.parse(too)
    with pytest.raises(ValueError, match=TOO_LONG):
        wurl.resolve(too, "x")
    with pytest.raises(ValueError, match=TOO_LONG):
        wurl.canonicalize("x", base=too)
    # Multi-byte: 16 MiB of UTF-8 is fewer characters.
    wide = "http://h/" + "\u00e9" * (MIB16 // 2)
    with pytest.raises(ValueError, match=TOO_LONG):
        wurl.canonicalize(wide)
    # In batches the row is None / null, the others are unaffected.
    assert wurl.canonicalize_many([too, "http://a/"]) == [None, "http://a/"]
    assert wurl.canonicalize_arrow(pa.array([too, "http://a/"])).to_pylist() == [None, "http://a/"]
    assert wurl.canonicalize_many(["x", "y"], base=[too, "http://a/"]) == [None, "http://a/y"]
    assert wurl.canonicalize_arrow(pa.array(["x", "y"]), bases=pa.array([too, "http://a/"])).to_pylist() == [
        None,
        "http://a/y",
    ]


def test_nul_and_controls():
    assert wurl.canonicalize("http://h/\x00") == "http://h/%00"
    assert wurl.canonicalize("http://h/a\nb") == wurl.canonicalize_many(["http://h/a\nb"])[0]


def test_versions():
    assert wurl.LIBRARY_VERSION


def test_constants_are_the_header_s():
    # A parser that found nothing would make the check vacuous.
    assert len(HEADER) >= 30 and HEADER["WURL_MAX_INPUT_LEN"] > 0
    assert wurl.MAX_INPUT_LEN == HEADER["WURL_MAX_INPUT_LEN"]


# --- docs and stubs ------------------------------------------------------------


def test_docstring_examples():
    import doctest

    r = doctest.testmod(wurl, verbose=False)
    assert r.attempted >= 5 and r.failed == 0


def test_stubs_match_module():
    import ast
    from pathlib import Path

    stub = Path(wurl.__file__).with_name("_wurl.pyi")
    tree = ast.parse(stub.read_text())
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    names |= {t.id for n in tree.body if isinstance(n, ast.AnnAssign) for t in [n.target]}
    public = {n for n in dir(wurl._wurl) if not n.startswith("_")}
    assert public <= names, public - names
    for cls in ("URL", "ArrowStringArray"):
        node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
        members = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        real = {n for n in dir(getattr(wurl, cls)) if not n.startswith("_")}
        assert real <= members, real - members
    for f in ("canonicalize", "canonicalize_many", "canonicalize_arrow", "parse", "resolve", "canonical_url"):
        assert getattr(wurl, f).__doc__
