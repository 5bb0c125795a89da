// A C++ program using the C header: RAII ownership of handles, views as
// std::string, status handling. Linked statically and against the shared
// library like the C tests.
#include "wurl.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Deleter {
    void operator()(wurl_url *u) const noexcept { wurl_free(u); }
};
using Url = std::unique_ptr<wurl_url, Deleter>;

int failures = 0;

void check(bool ok, const char *what)
{
    if (!ok) {
        std::fprintf(stderr, "FAILED: %s\n", what);
        ++failures;
    }
}

Url parse(const std::string &s)
{
    wurl_url *out = nullptr;
    wurl_status st = wurl_parse(s.data(), s.size(), 0, &out);
    check(st == WURL_OK, "wurl_parse");
    return Url(out);
}

// A component as (present, value).
std::pair<bool, std::string> get(const Url &u, wurl_component c)
{
    const char *p = nullptr;
    size_t n = 0;
    if (!wurl_get(u.get(), c, &p, &n))
        return {false, std::string()};
    return {true, std::string(p, n)};
}

std::string serialize(const Url &u)
{
    const char *p = nullptr;
    size_t n = 0;
    return wurl_serialize(u.get(), &p, &n) ? std::string(p, n) : std::string("(invalid)");
}

} // namespace

int main()
{
    check(std::strcmp(wurl_version(), WURL_VERSION) == 0, "version");

    Url u = parse("http://user@example.com/a?b#c");
    check(!wurl_is_invalid(u.get()), "valid");
    check(get(u, WURL_COMPONENT_USER) == std::make_pair(true, std::string("user")), "user");
    check(get(u, WURL_COMPONENT_PASSWORD).first == false, "password absent");
    check(serialize(u) == "http://user@example.com/a?b#c", "serialize");

    // Embedded NUL survives a std::string round trip.
    std::string with_nul("http://a/x\0y", 12);
    Url n = parse(with_nul);
    check(get(n, WURL_COMPONENT_PATH).second == std::string("/x\0y", 4), "embedded NUL");

    // Resolve and canonicalize, with move-only ownership.
    wurl_url *r = nullptr;
    check(wurl_resolve(u.get(), "../d/./e", 8, 0, &r) == WURL_OK, "resolve");
    Url resolved(r);
    wurl_url *c = nullptr;
    check(wurl_canonicalize(resolved.get(), nullptr, 0, 0, &c) == WURL_OK, "canonicalize");
    Url canon(std::move(c));
    check(!wurl_is_invalid(canon.get()), "canonical valid");

    // The bulk path into a std::vector, sized by a first call.
    const std::string in = "http://example.com/x/../y";
    size_t need = 0;
    check(wurl_canon_into(nullptr, in.data(), in.size(), nullptr, 0, 0, nullptr, 0, &need) ==
              WURL_E_BUFFER_TOO_SMALL,
          "size query");
    std::vector<char> buf(need + 1);
    size_t len = 0;
    check(wurl_canon_into(nullptr, in.data(), in.size(), nullptr, 0, 0, buf.data(), buf.size(), &len) == WURL_OK,
          "canon_into");
    check(std::string(buf.data(), len) == "http://example.com/y", "canon_into result");

    // Invalid URLs keep their components.
    Url bad = parse("foo");
    check(wurl_is_invalid(bad.get()) && wurl_invalid_reason(bad.get()) != nullptr, "invalid");
    check(get(bad, WURL_COMPONENT_PATH).second == "foo", "invalid path");
    check(serialize(bad) == "(invalid)", "no serialization");

    std::vector<Url> many;
    for (int i = 0; i < 100; ++i)
        many.push_back(parse("http://h" + std::to_string(i) + ".example/"));
    check(get(many[42], WURL_COMPONENT_HOST).second == "h42.example", "many");

    std::printf("test_cxx: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
