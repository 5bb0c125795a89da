"""Keys (issue 28) through the Python package: rules=, surt=, wurl.Rules."""

import pickle
import threading

import pytest

import wurl

ISSUE_RULES = "drop-fragment,strip-www,sort-query,strip-session-ids,drop-params=utm_*"
ISSUE_URL = "http://www.Example.com/x;jsessionid=ABC?b=2&utm_source=x&a=1#f"


def test_issue_examples():
    assert wurl.canonicalize(ISSUE_URL, rules=ISSUE_RULES) == "http://example.com/x?a=1&b=2"
    r = wurl.Rules(ISSUE_RULES)
    assert wurl.canonicalize(ISSUE_URL, rules=r) == "http://example.com/x?a=1&b=2"
    assert wurl.canonicalize(ISSUE_URL, rules=r, surt=True) == "com,example)/x?a=1&b=2"
    u = "http://www.Example.com/a/b?z=1&a=2"
    assert wurl.canonicalize(u, surt=True) == "com,example,www)/a/b?z=1&a=2"
    assert wurl.canonicalize(u, surt_scheme=True) == "http://(com,example,www)/a/b?z=1&a=2"
    # Without rules, the 2012 key.
    assert wurl.canonicalize(ISSUE_URL) == "http://www.example.com/x;jsessionid=ABC?b=2&utm_source=x&a=1#f"


def test_base_invalid_and_url_objects():
    assert (
        wurl.canonicalize("x?b&a", base="http://www2.a.com/dir/", rules="strip-www,sort-query", surt=True)
        == "com,a)/dir/x?a&b"
    )
    assert wurl.canonicalize("http://a:99999/", rules=ISSUE_RULES, surt=True) is None
    parsed = wurl.parse("HTTP://u:p@WWW.A.com/?b&a#f")
    assert wurl.canonicalize(parsed, rules="drop-userinfo,strip-www,sort-query") == "http://a.com/?a&b#f"
    assert wurl.canonicalize(parsed, surt=True) == "com,a,www)/?b&a#f"


def test_batches():
    urls = ["http://www.A.com/?b&a#f", None, "http://a:99999/", "mailto:x?b&a"]
    want = ["com,a)/?a&b", None, None, "mailto:x?a&b"]
    rules = "strip-www,sort-query,drop-fragment"
    assert wurl.canonicalize_many(urls, rules=rules, surt=True) == want
    pa = pytest.importorskip("pyarrow")
    got = wurl.canonicalize_arrow(pa.array(urls), rules=wurl.Rules(rules), surt=True)
    assert got.to_pylist() == want
    chunked = pa.chunked_array([urls[:2], urls[2:]])
    assert wurl.canonicalize_arrow(chunked, rules=rules, surt=True).to_pylist() == want


def test_batches_equal_scalars_on_kasztp():
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[2] / "bench" / "data" / "kasztp.txt"
    if not path.exists():
        pytest.skip("no kasztp dataset")
    lines = [l for l in path.read_text(encoding="utf-8").lstrip("\ufeff").splitlines() if l][:5000]
    rules = wurl.Rules("drop-fragment,strip-www,sort-query,drop-params=utm_*|*id")
    many = wurl.canonicalize_many(lines, rules=rules, surt=True)
    assert many == [wurl.canonicalize(l, rules=rules, surt=True) for l in lines]
    # The rules changed some keys, and the keys are fixed points of the rules.
    plain = wurl.canonicalize_many(lines)
    ruled = wurl.canonicalize_many(lines, rules=rules)
    assert sum(p != r for p, r in zip(plain, ruled)) > 100
    assert wurl.canonicalize_many(ruled, rules=rules) == ruled


@pytest.mark.parametrize(
    "spec,part",
    [
        ("sort-querry", '"sort-querry"'),
        ("drop-fragment,,strip-www", "empty rule"),
        ("strip-www=1", '"strip-www=1"'),
        ("drop-params=a||b", "empty pattern"),
        ("sort-query,sort-query", "twice"),
    ],
)
def test_bad_specifications(spec, part):
    with pytest.raises(ValueError, match=part.replace("|", "\\|")):
        wurl.Rules(spec)
    with pytest.raises(ValueError, match=part.replace("|", "\\|")):
        wurl.canonicalize("http://a/", rules=spec)
    with pytest.raises(ValueError):
        wurl.canonicalize_many(["http://a/"], rules=spec)


def test_rules_object():
    r = wurl.Rules("sort-query")
    assert r.spec == str(r) == "sort-query"
    assert repr(r) == 'wurl.Rules("sort-query")'
    assert r == wurl.Rules("sort-query") and hash(r) == hash(wurl.Rules("sort-query"))
    assert pickle.loads(pickle.dumps(r)) == r
    with pytest.raises(TypeError):
        wurl.canonicalize("http://a/", rules=3)
    with pytest.raises(TypeError):
        wurl.Rules(None)


def test_threads_share_rules():
    r = wurl.Rules(ISSUE_RULES)
    out = []

    def run():
        out.append({wurl.canonicalize(ISSUE_URL, rules=r, surt=True) for _ in range(500)})

    ts = [threading.Thread(target=run) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert out == [{"com,example)/x?a=1&b=2"}] * 4


def test_key_of_a_url_object_is_the_key_of_its_canonicalization():
    u = wurl.parse("HTTP://WWW.Example.COM:80/a/../b?b&a")
    assert wurl.canonicalize(u, rules="strip-www,sort-query", surt=True) == "com,example)/b?a&b"
    assert wurl.canonicalize(u, rules="strip-www,sort-query") == "http://example.com/b?a&b"
    assert wurl.canonicalize(wurl.parse("http://a:99999/"), surt=True) is None
