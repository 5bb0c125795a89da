// tour — the C++ API (wurl.hpp) in one program: parse, resolve and
// canonicalize a link, read components (absent vs empty), make keys with
// rules and SURT, and canonicalize a file of URLs in bulk.
//
//     tour [URLS.txt]
//
// With a file (one URL per line), every line is canonicalized with
// wurl::canon_into into one reused std::string, and the count of canonical
// and invalid lines is printed with the first three results. Exits 0, or 1
// when a call fails.
#include <wurl.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

namespace {
// An optional component as the tour prints it.
std::string show(std::optional<std::string_view> c)
{
    return c ? '"' + std::string(*c) + '"' : std::string("(absent)");
}
} // namespace

int main(int argc, char **argv)
{
    // Parse a page's URL: a result holds the status of the call and the URL.
    auto page = wurl::parse("http://www.Example.com:80/news/today.html?");
    if (!page) {
        std::cerr << "parse: " << page.message() << '\n';
        return 1;
    }
    std::cout << "host " << show(page->host()) << ", query " << show(page->query()) << ", fragment "
              << show(page->fragment()) << '\n';

    // Resolve a link against it and canonicalize (UTF-8 query).
    auto link = wurl::resolve(*page, "../a/./b?utm_source=x&z=1&q=\xC3\xA9#top");
    auto canon = wurl::canonicalize(link.value());
    if (auto s = canon->serialize())
        std::cout << "canonical " << *s << '\n';

    // An invalid URL is a successful call; the URL says why it is invalid.
    auto bad = wurl::canonicalize(wurl::parse("http://a:99999/").value());
    std::cout << "invalid: " << (bad->is_invalid() ? bad->invalid_reason() : "no") << '\n';

    // Keys: rules compiled once, then applied (and SURT) per URL.
    auto rules = wurl::rules::compile("strip-www,sort-query,drop-fragment,drop-params=utm_*");
    if (!rules) {
        std::cerr << "rules: " << rules.message() << '\n';
        return 1;
    }
    std::string key;
    canon->key_into(key, &*rules);
    std::cout << "key " << key << '\n';
    canon->key_into(key, &*rules, wurl::key_surt);
    std::cout << "surt " << key << '\n';
    auto typo = wurl::rules::compile("strip-www,sort");
    std::cout << "bad rules: " << wurl::status_str(typo.code()) << '\n';  // typo.message() quotes "sort"

    if (argc < 2)
        return 0;

    // Bulk: one reused std::string, no handle and (once warm) no allocation per URL.
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::cerr << "cannot read " << argv[1] << '\n';
        return 1;
    }
    std::string line, out;
    unsigned long canonical = 0, invalid = 0;
    while (std::getline(in, line)) {
        if (canonical + invalid == 0 && line.compare(0, 3, "\xEF\xBB\xBF") == 0)
            line.erase(0, 3);  // a byte-order mark
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty())
            continue;
        wurl::status st = wurl::canon_into(out, line);
        if (st == wurl::status::ok) {
            if (++canonical <= 3)
                std::cout << out << '\n';
        } else if (st == wurl::status::invalid_url) {
            ++invalid;
        } else {
            std::cerr << "canon_into: " << wurl::status_str(st) << '\n';
            return 1;
        }
    }
    std::cout << canonical << " canonical, " << invalid << " invalid\n";
    return 0;
}
