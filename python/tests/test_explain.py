"""wurl.explain: the steps of the stages that compute the key, as the CLI's
`wurl explain -f json` writes them, and its key equal to canonicalize's."""

import json
import os
import subprocess

import pytest

import wurl
from golden_rows import ROOT, golden_rows

FIRST = "HTTP://www.Example.COM:80/a/./b/../c?q=é#f"
SECOND = "http://www.example.com/a/c?q=%C3%A9#f"


def whats(e, k, stage):
    return [s["what"] for s in e["urls"][k]["steps"] if s["stage"] == stage]


def test_two_urls_share_a_key_by_the_steps_of_the_first():
    e = wurl.explain(FIRST, SECOND)
    assert e["model"] == "2012"
    assert e["same_key"] is True and e["parts_at"] is None
    first = e["urls"][0]
    assert first["canonical"] == first["key"] == SECOND
    assert first["surt"] == "com,example,www)/a/c?q=%C3%A9#f"
    assert whats(e, 0, "scheme") == ["lower case"]
    assert whats(e, 0, "host") == ["lower case (Nameprep)"]
    assert whats(e, 0, "port") == ["default port 80 dropped"]
    assert whats(e, 0, "path") == ["remove dot-segments"]
    assert whats(e, 0, "query") == ["encoded as UTF-8, then percent-encoded (the query set)"]
    port = next(s for s in first["steps"] if s["stage"] == "port")
    assert (port["before"], port["after"]) == ("80", None)  # absent after
    # The second URL is canonical: only its parse is reported.
    assert {s["stage"] for s in e["urls"][1]["steps"]} == {"parse"}


def test_rules_and_where_keys_part():
    e = wurl.explain(FIRST, "http://www2.example.com/a/c", rules="strip-www")
    assert e["same_key"] is False
    assert e["parts_at"] == {"component": "query", "first": "q=%C3%A9", "second": None}
    assert whats(e, 1, "rule") == ["strip-www"]
    assert e["urls"][1]["key"] == "http://example.com/a/c"
    e = wurl.explain("http://www.a.com/", "http://www2.a.com/", rules=wurl.Rules("strip-www"))
    assert e["same_key"] is True


def test_one_url_base_charset_model_and_invalid():
    e = wurl.explain("../x?é", base="http://example.com/dir/", charset="windows-1252")
    assert e["same_key"] is None and len(e["urls"]) == 1
    assert e["urls"][0]["base"] == "http://example.com/dir/"
    assert e["urls"][0]["key"] == "http://example.com/x?%E9"
    e = wurl.explain("http://faß.de/a\\b/../c", model="url-standard")
    assert e["model"] == "url-standard"
    assert e["urls"][0]["key"] == "http://xn--fa-hia.de/a/c" and e["urls"][0]["steps"] == []
    e = wurl.explain("http://%5Bx/")
    t = e["urls"][0]
    assert t["canonical"] is None and t["key"] is None
    assert t["invalid"] == "host begins with percent-encoded '['"
    with pytest.raises(ValueError):
        wurl.explain("http://a/", rules="nope")
    with pytest.raises(ValueError):
        wurl.explain("http://a/", charset="nope")
    with pytest.raises(ValueError):
        wurl.explain("http://a/", model="1999")
    with pytest.raises(TypeError):
        wurl.explain(b"http://a/")


def test_key_is_canonicalizes_on_golden_rows():
    # Every 50th row (the Rust tests check every row): explain's key is the bulk call's.
    checked = 0
    for i, (url, base, charset, key) in enumerate(golden_rows()):
        if i % 50:
            continue
        e = wurl.explain(url, base=base, charset=charset, rules="strip-www,sort-query")
        want = wurl.canonicalize(url, base=base, charset=charset, rules="strip-www,sort-query")
        assert e["urls"][0]["key"] == want, (url, base)
        if key is not None:
            assert e["urls"][0]["canonical"] == key, (url, base)
        checked += 1
    assert checked > 4000


def test_the_cli_writes_the_same_object():
    # CI's python step builds the release CLI before the tests.
    found = [ROOT / "target" / d / "wurl" for d in ("release", "debug")]
    cli = os.environ.get("WURL_CLI") or next((str(p) for p in found if p.is_file()), None)
    if not cli:
        pytest.skip("no built wurl (WURL_CLI, or target/release/wurl)")
    out = subprocess.run(
        [cli, "explain", "-f", "json", "--rules", "strip-www", FIRST, SECOND],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert json.loads(out) == wurl.explain(FIRST, SECOND, rules="strip-www")
