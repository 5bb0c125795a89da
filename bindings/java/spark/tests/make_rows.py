"""Writes the Parquet file of (i, page, link) rows that the Spark test runs
on: every 8th line of links_synth.tsv (page<TAB>link) and hostile rows made
here (nulls, empty strings, invalid and malformed URLs, control characters,
non-ASCII, a link and a page one byte over the 16 MiB input limit).

    python make_rows.py LINKS_TSV OUT_PARQUET

Needs pyarrow. The rows are the same on every run (no randomness)."""

import sys

import pyarrow as pa
import pyarrow.parquet as pq

LIMIT = 16 * 1024 * 1024  # the C ABI's input limit (WURL_MAX_INPUT_LEN)

PAGE = "https://www.Example.com:443/dir/page.html?q=1#top"

# (page, link): each row is resolved link-against-page; a None page means
# the link is its own base.
HOSTILE = [
    (None, None),
    (PAGE, None),
    (None, ""),
    (PAGE, ""),
    ("", ""),
    ("", "x"),
    (None, "relative/only"),
    (PAGE, "../../../../../../x"),
    (PAGE, "HTTP://Example.COM:80/a/./b/../c?q=\u00e9#f"),
    (None, "HTTP://Example.COM:80/a/./b/../c?q=\u00e9#f"),
    (PAGE, "http://a:99999/"),
    (PAGE, "http://[::1"),
    (PAGE, "http://[::1]:8080/x"),
    (PAGE, "http://1.2.3.4.5/"),
    (PAGE, "http://0x7f.1/"),
    (PAGE, "http://%zz/"),
    (PAGE, "%zz%"),
    (PAGE, "javascript:alert(1)"),
    (PAGE, "mailto:someone@example.com"),
    (PAGE, "data:text/html,<b>x</b>"),
    (PAGE, "file:///C:|/x"),
    (PAGE, "//evil.example/\\\\x"),
    (PAGE, "\\\\server\\share"),
    (PAGE, " \t http://a/ b \n"),
    (PAGE, "http://a/\x00b"),
    (PAGE, "http://a/\x01\x1f\x7f"),
    (PAGE, "\r\n"),
    (PAGE, "http://\u00c4\u00d6\u00dc.de/\u00e4?\u00f6#\u00fc"),
    (PAGE, "http://xn--/"),
    (PAGE, "http://\u0661\u0662\u0663.example/"),
    (PAGE, "http://a/\U0001f600?\U0001f600#\U0001f600"),
    (PAGE, "http://a/\u202e\u200b\ufeff"),
    (PAGE, "http://" + "a" * 300 + ".com/"),
    (PAGE, "http://a/" + "../" * 2000),
    (PAGE, "?" + "&".join(f"k{n}=v" for n in range(2000))),
    (PAGE, "http://www.Example.com/x;jsessionid=ABC?b=2&utm_source=x&a=1&fbclid=Z#f"),
    (PAGE, "http://user:pw@www.example.com:8080/?PHPSESSID=9&item=4"),
    ("http://[::1", "x"),
    ("not a url", "x"),
    ("not a url", "http://ok.example/"),
    ("mailto:a@b", "x"),
    ("http://a:99999/", "y"),
    (PAGE, "http://a/" + "b" * (LIMIT + 1 - len("http://a/"))),
    ("http://a/" + "p" * (LIMIT + 1 - len("http://a/")), "x"),
]


def main():
    links_tsv, out = sys.argv[1], sys.argv[2]
    pages, links = [], []
    with open(links_tsv, encoding="utf-8") as f:
        for n, line in enumerate(f):
            if n % 8:
                continue
            page, link = line.rstrip("\n").split("\t", 1)
            pages.append(page)
            links.append(link)
    # Hostile rows between the links, not only at the end, so that they
    # share batches and partitions with ordinary rows.
    step = max(1, len(pages) // len(HOSTILE))
    for k, (p, l) in enumerate(HOSTILE):
        at = min(len(pages), k * step + k)
        pages.insert(at, p)
        links.insert(at, l)
    table = pa.table(
        {
            "i": pa.array(range(len(pages)), pa.int64()),
            "page": pa.array(pages, pa.string()),
            "link": pa.array(links, pa.string()),
        }
    )
    pq.write_table(table, out, row_group_size=1024)
    print(f"{out}: {len(pages)} rows, {len(HOSTILE)} of them hostile")


if __name__ == "__main__":
    main()
