"""The URL Standard model (model="url-standard") through the Python package:
the Web Platform Tests' urltestdata (tests/data/wpt), the issue's example,
rules and SURT on its results, and the arguments it refuses."""

import json

import pytest

import wurl
from conftest import ROOT

DATA = ROOT / "tests" / "data" / "wpt" / "urltestdata-href.json"
EXAMPLE = "http://faß.de/a\\b/../c"


def cases():
    rows = json.loads(DATA.read_text(encoding="utf-8"))
    assert len(rows) > 700
    return rows


def test_urltestdata_scalar_and_batch():
    rows = cases()
    bad = []
    for inp, base, href in rows:
        got = wurl.canonicalize(inp, base=base, model="url-standard")
        if got != href:
            bad.append((inp, base, href, got))
    assert not bad, bad[:10]
    # The batch call, with a base per row (None: the URL is its own base).
    got = wurl.canonicalize_many([r[0] for r in rows], base=[r[1] for r in rows], model="url-standard")
    assert got == [r[2] for r in rows]
    assert sum(h is None for _, _, h in rows) > 100


def test_issue_example_and_default():
    assert wurl.canonicalize(EXAMPLE, model="url-standard") == "http://xn--fa-hia.de/a/c"
    assert wurl.canonicalize(EXAMPLE) == "http://fass.de/a/c"
    assert wurl.canonicalize(EXAMPLE, model="2012") == "http://fass.de/a/c"
    assert wurl.canonicalize_many([EXAMPLE], model="url-standard") == ["http://xn--fa-hia.de/a/c"]
    assert wurl.canonicalize_many([EXAMPLE], base="http://x/", model="url-standard") == [
        "http://xn--fa-hia.de/a/c"
    ]


def test_base_rules_surt():
    assert wurl.canonicalize("../c d", base="http://ex.com/a/b", model="url-standard") == "http://ex.com/c%20d"
    assert wurl.canonicalize("../c", base=wurl.parse("http://ex.com/a/b"), model="url-standard") == "http://ex.com/c"
    assert wurl.canonicalize("x", base="nope", model="url-standard") is None
    assert (
        wurl.canonicalize("http://www.faß.de/?b&a#f", rules="strip-www,sort-query,drop-fragment", surt=True,
                          model="url-standard")
        == "de,xn--fa-hia)/?a&b"
    )
    assert wurl.canonicalize("http://a/?\u00e9", charset="latin1", model="url-standard") == "http://a/?%E9"


def test_refused():
    with pytest.raises(ValueError, match="model"):
        wurl.canonicalize("http://a/", model="whatwg")
    with pytest.raises(ValueError, match="strict"):
        wurl.canonicalize("http://a/", strict=True, model="url-standard")
    with pytest.raises(TypeError):
        wurl.canonicalize(wurl.parse("http://a/"), model="url-standard")
    with pytest.raises(ValueError, match="model"):
        wurl.canonicalize_many(["http://a/"], model="")
