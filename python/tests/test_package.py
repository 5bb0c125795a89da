"""The package as its users expect it (issue 27): __version__, help() of
every function, dir(wurl), URL objects that pickle and hash/compare by value,
and resolve_arrow."""

from __future__ import annotations

import copy
import importlib.metadata
import inspect
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

import wurl

ROOT = Path(__file__).resolve().parents[2]

COMPONENTS = ("scheme", "user", "password", "host", "port", "path", "query", "fragment")


def fields(u):
    """Everything a URL object shows."""
    return tuple(getattr(u, c) for c in COMPONENTS) + (
        u.invalid,
        u.invalid_reason,
        u.host_kind,
        u.hierarchical,
        u.serialize(),
    )


def test_version_is_the_package_version():
    assert wurl.__version__ == importlib.metadata.version("wurl-canon")
    cargo = (ROOT / "python" / "Cargo.toml").read_text()
    assert f'\nversion = "{wurl.__version__}"\n' in cargo


def test_dir_shows_only_the_api():
    names = set(dir(wurl))
    assert names == set(wurl.__all__) | {"__version__"}
    for n in ("Any", "Optional", "Union", "annotations", "_wurl", "spark"):
        assert n not in names
    for n in wurl.__all__:
        assert hasattr(wurl, n), n


FUNCTIONS = [
    wurl.canonicalize,
    wurl.canonical_url,
    wurl.canonicalize_many,
    wurl.canonicalize_arrow,
    wurl.resolve_arrow,
    wurl.charset_message,
    wurl.explain,
    wurl.parse,
    wurl.resolve,
    wurl.URL.canonicalize,
    wurl.URL.resolve,
    wurl.URL.from_state,
]


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__qualname__)
def test_help_documents_parameters_return_and_errors(f):
    doc = inspect.getdoc(f)
    assert doc, f
    for section in ("Parameters\n----------", "Returns\n-------", "Raises\n------"):
        assert section in doc, f"{f.__qualname__}: no {section.splitlines()[0]}"
    params = [p for p in inspect.signature(f).parameters if p not in ("self", "$self")]
    assert params, f
    for p in params:
        assert re.search(rf"^{p} : ", doc, re.M), f"{f.__qualname__}: parameter {p} undocumented"


# --- pickling, hashing, equality ----------------------------------------------


def sample_urls(kasztp):
    """URL objects made every way the API makes them, valid and invalid."""
    out = []
    for u in kasztp[:1500]:
        out.append(wurl.parse(u))
        out.append(wurl.canonical_url(u))
    for s in [
        "http://user:@host/p?",
        "http://h/p",
        "http://a:99999/",
        "nope",
        "",
        "mailto:x",
        "HTTP://Ex%41mple.COM:80/a/./b/../c?q=é#f",
        "http://[::1]/",
        "http:///x",
        "http://h/\ud800",
    ]:
        out.append(wurl.parse(s))
        out.append(wurl.canonical_url(s))
        out.append(wurl.canonical_url(s, strict=True))
        out.append(wurl.canonical_url(s, charset="iso-8859-1"))
        out.append(wurl.canonical_url("../r?é", base=s))
        out.append(wurl.resolve(s, "../g"))
        out.append(wurl.parse(s).canonicalize(charset="shift_jis"))
        out.append(wurl.parse(s).resolve("?q").canonicalize(strict=True))
        out.append(wurl.canonical_url("x", base=wurl.parse(s).resolve("a/")))
    return out


def test_pickle_gives_an_equal_url(kasztp):
    urls = sample_urls(kasztp)
    assert sum(u.invalid for u in urls) > 20 and sum(not u.invalid for u in urls) > 3000
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        for u in urls:
            v = pickle.loads(pickle.dumps(u, protocol=proto))
            assert type(v) is wurl.URL
            assert v == u and hash(v) == hash(u), repr(u)
            assert fields(v) == fields(u), repr(u)
    for u in urls[:50]:
        assert copy.deepcopy(u) == u and copy.copy(u) == u


def test_pickle_in_another_process():
    urls = [wurl.parse("http://user:@host/p?"), wurl.canonical_url("http://a:99999/"), wurl.resolve("http://a/b/c", "../d#")]
    code = (
        "import pickle, sys; us = pickle.loads(sys.stdin.buffer.read()); "
        "print(repr([(u.serialize(), u.invalid_reason, u.password, u.query, u.fragment) for u in us]))"
    )
    r = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(urls), capture_output=True, check=True)
    want = [(u.serialize(), u.invalid_reason, u.password, u.query, u.fragment) for u in urls]
    assert r.stdout.decode().strip() == repr(want)


def test_state_round_trip(kasztp):
    # The pickle's state is the URL's state: every URL made every way, valid
    # and invalid, absent and empty, comes back equal, in one encoding.
    urls = sample_urls(kasztp)
    for u in urls:
        s = u.state()
        assert type(s) is bytes and s.startswith(b"wurl")
        v = wurl.URL.from_state(s)
        assert v == u and hash(v) == hash(u) and fields(v) == fields(u), repr(u)
        assert v.state() == s, repr(u)
        assert v.canonicalize() == u.canonicalize(), repr(u)
    p, q = wurl.URL.from_state(wurl.parse("http://user:@host/p?#").state()), wurl.URL.from_state(wurl.parse("http://h/p").state())
    assert (p.password, p.query, p.fragment) == ("", "", "")
    assert (q.user, q.password, q.query, q.fragment) == (None, None, None, None)
    s = urls[0].state()
    assert wurl.URL.from_state(bytearray(s)) == urls[0] == wurl.URL.from_state(memoryview(s))


def test_long_derivations_pickle():
    # The state is the URL's value, not how it was made: a long chain of
    # calls pickles as any URL does.
    u = wurl.parse("http://a/")
    for _ in range(200):
        u = u.resolve("b/")
    assert u.path == "/" + "b/" * 200
    assert pickle.loads(pickle.dumps(u)) == u
    v = wurl.parse("nope")
    for _ in range(200):
        v = v.canonicalize()
    assert pickle.loads(pickle.dumps(v)) == v and v.invalid
    # Resolutions and canonicalizations with a charset, far past the 64
    # steps pickles of the calls kept.
    w = wurl.parse("http://a/")
    for i in range(100):
        w = w.resolve(f"x{i}/?\u3042").canonicalize(charset="shift_jis")
    assert w.query == "%82%A0"
    assert pickle.loads(pickle.dumps(w)) == w


def test_malformed_states_are_refused():
    # ValueError, never a crash: bytes that are no state, every truncation,
    # every octet changed (a change may give another whole URL).
    class Pickled:
        """A pickle whose URL state is `state`."""

        def __init__(self, state):
            self.state = state

        def __reduce__(self):
            return (wurl.URL._from_state, (self.state,))

    for junk in [b"", b"wurl", b"junk", b"wurl\x02", b"\0" * 64, b"x" * 1000]:
        with pytest.raises(ValueError):
            wurl.URL.from_state(junk)
        with pytest.raises(ValueError):
            pickle.loads(pickle.dumps(Pickled(junk)))
    assert pickle.loads(pickle.dumps(Pickled(wurl.parse("http://a/").state()))) == wurl.parse("http://a/")
    state = wurl.parse("http://user:@host/p?#").state()
    for n in range(len(state)):
        with pytest.raises(ValueError):
            wurl.URL.from_state(state[:n])
    with pytest.raises(ValueError):
        wurl.URL.from_state(state + b"x")
    refused = made = 0
    for i in range(len(state)):
        for x in (0x01, 0x80, 0xFF):
            s = bytearray(state)
            s[i] ^= x
            try:
                v = wurl.URL.from_state(bytes(s))
            except ValueError:
                refused += 1
            else:
                made += v.state() == bytes(s) and fields(v) is not None
    assert refused + made == 3 * len(state) and refused > len(state)
    for bad in [None, "wurl", 5, [1, 2]]:
        with pytest.raises(TypeError):
            wurl.URL.from_state(bad)


def test_pickles_of_earlier_versions_load():
    # Earlier development versions pickled the calls that made a URL.
    old = ("canon", ("resolve", ("parse", "http://User@Example.COM/a/b"), "../c?\u00e9"), "iso-8859-1", False)
    u = wurl.URL._from_state(old)
    assert u == wurl.parse("http://User@Example.COM/a/b").resolve("../c?\u00e9").canonicalize("iso-8859-1")
    assert u.serialize() == "http://User@example.com/c?%E9"


def test_hash_and_equality_by_value(kasztp):
    a = [wurl.parse(u) for u in kasztp[:3000]]
    b = [wurl.parse(u) for u in kasztp[:3000]]
    for x, y in zip(a, b):
        assert x is not y and x == y and hash(x) == hash(y)
    assert len(set(a) | set(b)) == len(set(kasztp[:3000]))
    # Absent and empty differ, in == and (almost surely) in hash.
    p, q = wurl.parse("http://h/p?"), wurl.parse("http://h/p")
    assert p != q and p.query == "" and q.query is None
    assert len({p, q}) == 2
    # Usable as dict keys: a new object of the same value finds the entry.
    d = {u: i for i, u in enumerate(a[:100])}
    assert all(d[wurl.parse(kasztp[i])] == i for i in range(100) if kasztp[i] not in kasztp[:i])
    assert wurl.parse("x") != "x"


# --- resolve_arrow ------------------------------------------------------------------


def test_resolve_arrow_equals_scalar_resolve(links):
    pages = [p for p, _ in links]
    refs = [l for _, l in links]

    def scalar(base, ref):
        if base is None:
            return wurl.resolve(ref, ref).serialize() if ref is not None else None
        return wurl.resolve(base, ref).serialize() if ref is not None else None

    want = [scalar(p, l) for p, l in links]
    got = wurl.resolve_arrow(pa.array(refs), pa.array(pages)).to_pylist()
    assert got == want
    assert sum(w is None for w in want) < len(want)
    # Chunked and large_string.
    chunked = pa.chunked_array([refs[:1000], refs[1000:]], type=pa.large_string())
    out = wurl.resolve_arrow(chunked, pa.array(pages))
    assert out.type == pa.large_string() and out.to_pylist() == want
    # One base; none (each its own base); nulls kept.
    base = "http://example.com/a/b"
    assert wurl.resolve_arrow(pa.array(refs[:500]), base).to_pylist() == [scalar(base, r) for r in refs[:500]]
    mixed = ["http://A/b/../c", None, "rel", "http://h/?"]
    assert wurl.resolve_arrow(pa.array(mixed)).to_pylist() == [scalar(None, r) for r in mixed]
    with pytest.raises(ValueError):
        wurl.resolve_arrow(pa.array(["a"]), pa.array(["b", "c"]))
