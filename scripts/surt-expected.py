#!/usr/bin/env python3
"""Generates tests/data/surt-ia.tsv: the Internet Archive's SURT of wurl's
canonical URL, for a sample of the http(s) lines of the benchmark datasets.
The test tests/keys.rs compares wurl's own SURT with these values; it does
not need this script or the `surt` package, only the committed file.

The Internet Archive's transform is the `surt` package from PyPI, with its
canonicalizer turned off (an identity canonicalizer), so that it only
reorders wurl's canonical URL:

    python3 -m venv /tmp/surt-venv
    /tmp/surt-venv/bin/pip install surt==0.3.1
    cargo build --release -p wurl-cli
    /tmp/surt-venv/bin/python scripts/surt-expected.py target/release/wurl

Every http(s) line of every dataset is transformed and compared with
`wurl canon --format surt` (the count and any difference go to standard
error, and the exit status is 1 on a difference); the file keeps a sample:
every line whose canonical URL has a port, user-info, an IP address, an
empty host or label, a `www<digits>` label, or an empty query or fragment;
every 10th other line with a query or fragment; every 40th of the rest
(see `kind`).

Lines are read as tests/common/datasets.rs (and the benchmark) reads them:
a leading BOM dropped, CR before LF dropped, empty lines dropped, invalid
UTF-8 replaced; a .tsv line is `page<TAB>link`, the link resolved against
the page.
"""

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import surt

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "data"
OUT = ROOT / "tests" / "data" / "surt-ia.tsv"
DATASETS = ["kasztp.txt", "node_files.txt", "idn_synth.txt", "pagewritten.txt", "links_synth.tsv"]


def lines(path):
    text = path.read_bytes().decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    out = []
    for line in text.split("\n"):
        if line.endswith("\r"):
            line = line[:-1]
        if line:
            out.append(line)
    return out


def wurl(exe, args, inputs):
    """`wurl canon ARGS` of each input (NUL-separated both ways); None for
    an invalid URL."""
    data = "".join(i + "\0" for i in inputs).encode()
    r = subprocess.run(
        [exe, "canon", "-z", "-q", "--allow-invalid", *args],
        input=data,
        stdout=subprocess.PIPE,
        check=True,
    )
    out = r.stdout.decode().split("\0")
    assert out[-1] == "" and len(out) == len(inputs) + 1, (args, len(out))
    return [o or None for o in out[:-1]]


def canonical_and_surt(exe, name):
    """[(line index, canonical, wurl's SURT)] for every line of `name`."""
    ls = lines(DATA / name)
    groups = []  # (base or None, [(index, input)])
    if name.endswith(".tsv"):
        for i, line in enumerate(ls):
            page, link = line.split("\t", 1)
            if not groups or groups[-1][0] != page:
                groups.append((page, []))
            groups[-1][1].append((i, link))
    else:
        groups.append((None, list(enumerate(ls))))
    rows = []
    for base, items in groups:
        args = ["--base", base] if base is not None else []
        inputs = [u for _, u in items]
        canon = wurl(exe, args, inputs)
        surts = wurl(exe, args + ["--format", "surt"], inputs)
        rows.extend((i, c, s) for (i, _), c, s in zip(items, canon, surts))
    return rows


def identity(url, **options):
    return url


def kind(canon):
    """"rare": a URL whose SURT meets a convention of its own (a port,
    user-info, an IP address, an empty host or label, a "www" label with
    digits, an empty query or fragment); "query": another URL with a query
    or a fragment; "plain": the rest."""
    m = re.match(r"https?://([^/?#]*)", canon)
    authority = m.group(1) if m else ""
    host = authority.rsplit("@", 1)[-1].split(":")[0]
    rare = (
        "@" in authority
        or ":" in authority
        or re.fullmatch(r"[0-9.]+", host) is not None
        or "" in host.split(".")
        or re.match(r"www[0-9]", host) is not None
        or canon.endswith(("?", "#"))
        or "?#" in canon
    )
    return "rare" if rare else "query" if "?" in canon or "#" in canon else "plain"


# Every "rare" line is kept, and every STRIDE-th line of the other kinds.
STRIDE = {"rare": 1, "query": 10, "plain": 40}


def main():
    exe = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target" / "release" / "wurl")
    total = differ = kept = 0
    version = importlib.metadata.version("surt")
    out = [f"# dataset\tline\tcanonical\tsurt {version} of canonical (canonicalizer off)"]
    for name in DATASETS:
        stem = name.rsplit(".", 1)[0]
        seen = {}
        for i, canon, mine in canonical_and_surt(exe, name):
            if canon is None or not re.match(r"https?://", canon):
                continue
            theirs = surt.surt(canon, canonicalizer=identity)
            total += 1
            if theirs != mine:
                differ += 1
                if differ <= 20:
                    print(f"differs: {stem}:{i}: {canon!r}: surt {theirs!r}, wurl {mine!r}",
                          file=sys.stderr)
            k = kind(canon)
            seen[k] = seen.get(k, 0) + 1
            if seen[k] % STRIDE[k] == 1 % STRIDE[k]:
                kept += 1
                assert "\t" not in canon and "\n" not in canon
                out.append(f"{stem}\t{i}\t{canon}\t{theirs}")
    OUT.write_text("\n".join(out) + "\n")
    print(f"{total} http(s) lines compared, {differ} differ; {kept} rows written to {OUT}",
          file=sys.stderr)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
