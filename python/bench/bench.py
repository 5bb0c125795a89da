"""Python URL canonicalization benchmark: wurl (scalar and batch) beside
can_ada, ada-url, w3lib, yarl and urllib.parse (whichever are installed).

    python python/bench/bench.py [--repeat 5] [--datasets kasztp,links]

Datasets (bench/data, else ../shared/bench-data):
  kasztp      48,010 real URLs, each canonicalized alone.
  links       links_synth.tsv: 24,120 (page, link) pairs; each link resolved
              against its page, then canonicalized/serialized.

Each figure is the best of --repeat runs over the whole dataset, in
microseconds per URL (wall time / number of URLs), in one process. Scalar
rows are a Python loop calling the function once per URL (the loop is part
of the cost, for every library alike); batch rows are one call per dataset
(the Arrow arrays are built before timing). The targets of issue 14 are
printed at the end."""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def dataset(name: str) -> Path:
    for d in (ROOT / "bench" / "data", ROOT.parent / "shared" / "bench-data"):
        if (d / name).is_file():
            return d / name
    raise SystemExit(f"dataset {name} not found in bench/data or ../shared/bench-data")


def lines(name: str):
    text = dataset(name).read_bytes().decode("utf-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    out = text.split("\n")
    if out and out[-1] == "":
        out.pop()
    return [l[:-1] if l.endswith("\r") else l for l in out]


def best(fn, repeat):
    t = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - t0)
    return t


def candidates_single(urls):
    """(name, kind, callable running over the whole dataset)."""
    import wurl

    c = []
    canon = wurl.canonicalize
    c.append(("wurl.canonicalize", "scalar", lambda: [canon(u) for u in urls]))
    c.append(("wurl.canonicalize_many", "batch", lambda: wurl.canonicalize_many(urls)))
    try:
        import pyarrow as pa

        arr = pa.array(urls)
        c.append(("wurl.canonicalize_arrow", "batch", lambda: wurl.canonicalize_arrow(arr)))
    except ImportError:
        pass
    try:
        import can_ada

        parse = can_ada.parse

        def can_ada_href():
            out = []
            for u in urls:
                try:
                    out.append(parse(u).href)
                except ValueError:
                    out.append(None)
            return out

        c.append(("can_ada parse + href", "scalar", can_ada_href))
    except ImportError:
        pass
    try:
        import ada_url

        URL = ada_url.URL

        def ada_href():
            out = []
            for u in urls:
                try:
                    out.append(URL(u).href)
                except ValueError:
                    out.append(None)
            return out

        c.append(("ada_url.URL(u).href", "scalar", ada_href))
    except ImportError:
        pass
    try:
        from w3lib.url import canonicalize_url

        def w3():
            out = []
            for u in urls:
                try:
                    out.append(canonicalize_url(u))
                except Exception:
                    out.append(None)
            return out

        c.append(("w3lib canonicalize_url", "scalar", w3))
    except ImportError:
        pass
    try:
        import yarl

        def ya():
            out = []
            for u in urls:
                try:
                    out.append(str(yarl.URL(u)))
                except Exception:
                    out.append(None)
            return out

        c.append(("str(yarl.URL(u))", "scalar", ya))
    except ImportError:
        pass
    from urllib.parse import urlsplit

    def ul():
        out = []
        for u in urls:
            try:
                out.append(urlsplit(u).geturl())
            except ValueError:
                out.append(None)
        return out

    c.append(("urllib urlsplit().geturl()", "scalar", ul))
    return c


def candidates_links(pairs):
    import wurl

    pages = [p for p, _ in pairs]
    links = [l for _, l in pairs]
    c = []
    canon = wurl.canonicalize

    def scalar():
        # The natural scalar use: the page parsed once, then each link.
        out = []
        prev = None
        base = None
        for p, l in pairs:
            if p != prev:
                prev = p
                base = wurl.parse(p)
            out.append(canon(l, base=base))
        return out

    c.append(("wurl.canonicalize(link, base=URL)", "scalar", scalar))
    c.append(("wurl.canonicalize(link, base=str)", "scalar", lambda: [canon(l, base=p) for p, l in pairs]))
    c.append(("wurl.canonicalize_many(links, base=pages)", "batch", lambda: wurl.canonicalize_many(links, base=pages)))
    try:
        import pyarrow as pa

        la, pg = pa.array(links), pa.array(pages)
        c.append(("wurl.canonicalize_arrow(links, bases=pages)", "batch", lambda: wurl.canonicalize_arrow(la, bases=pg)))
    except ImportError:
        pass
    try:
        import ada_url

        URL = ada_url.URL

        def ada():
            out = []
            for p, l in pairs:
                try:
                    out.append(URL(l, base=p).href)
                except ValueError:
                    out.append(None)
            return out

        c.append(("ada_url.URL(link, base=page).href", "scalar", ada))
    except ImportError:
        pass
    try:
        import yarl

        def ya():
            out = []
            for p, l in pairs:
                try:
                    out.append(str(yarl.URL(p).join(yarl.URL(l))))
                except Exception:
                    out.append(None)
            return out

        c.append(("str(yarl.URL(page).join(URL(link)))", "scalar", ya))
    except ImportError:
        pass
    try:
        from urllib.parse import urljoin

        from w3lib.url import canonicalize_url

        def w3():
            out = []
            for p, l in pairs:
                try:
                    out.append(canonicalize_url(urljoin(p, l)))
                except Exception:
                    out.append(None)
            return out

        c.append(("w3lib canonicalize_url(urljoin())", "scalar", w3))
    except ImportError:
        pass
    from urllib.parse import urljoin

    c.append(("urllib urljoin(page, link)", "scalar", lambda: [urljoin(p, l) for p, l in pairs]))
    return c


def run(title, n, cands, repeat):
    print(f"\n### {title} ({n:,} URLs, best of {repeat})\n")
    print("| library / call | kind | µs/URL |")
    print("|---|---|---:|")
    res = {}
    for name, kind, fn in cands:
        fn()  # warm-up
        t = best(fn, repeat)
        res[name] = t / n * 1e6
        print(f"| {name} | {kind} | {res[name]:.3f} |", flush=True)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--datasets", default="kasztp,links")
    args = ap.parse_args()
    import wurl

    print(f"Python {platform.python_version()}, wurl {wurl.LIBRARY_VERSION}, {platform.machine()}")
    ds = args.datasets.split(",")
    results = {}
    if "kasztp" in ds:
        urls = lines("kasztp.txt")
        results["kasztp"] = run("kasztp", len(urls), candidates_single(urls), args.repeat)
    if "links" in ds:
        pairs = [tuple(l.split("\t", 1)) for l in lines("links_synth.tsv")]
        results["links"] = run("links_synth", len(pairs), candidates_links(pairs), args.repeat)
    r = results.get("kasztp", {})
    ca = r.get("can_ada parse + href")
    if ca:
        print("\nTargets (kasztp):")
        arrow = r.get("wurl.canonicalize_arrow")
        if arrow is not None:
            ok = arrow <= 0.3 * ca
            print(f"  canonicalize_arrow / can_ada = {arrow / ca:.2f} (target <= 0.3): {'met' if ok else 'MISSED'}")
        sc = r["wurl.canonicalize"]
        ok = sc <= 1.0 * ca
        print(f"  canonicalize (scalar) / can_ada = {sc / ca:.2f} (target <= 1.0): {'met' if ok else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
