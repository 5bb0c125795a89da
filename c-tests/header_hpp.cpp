// Compile-only: include/wurl.hpp on its own, twice (the include guard), as
// strict C++17 without exceptions (-fno-exceptions: result::value() then
// aborts instead of throwing), every template instantiated. Not linked.
#include "wurl.hpp"
#include "wurl.hpp"

#include <string>

extern "C" int wurl_header_hpp_check();
extern "C" int wurl_header_hpp_check()
{
    std::string out;
    auto u = wurl::parse("http://a/");
    auto r = wurl::rules::compile("strip-www");
    auto c = wurl::canonicalize(wurl::resolve(u.value(), "b").value());
    int n = static_cast<int>(wurl::canon_into(out, "http://a/", &*u)) +
            static_cast<int>(wurl::key_into(out, "http://a/", &r.value(), wurl::key_surt)) +
            static_cast<int>(c->key_into(out, &*r));
    wurl::buffer buf;
    n += static_cast<int>(buf.canon("http://a/", &*u).value().size()) +
         static_cast<int>(buf.key("http://a/", &*r, wurl::key_surt)->size()) +
         static_cast<int>(buf.key(*c, &*r).code());
    return n + static_cast<int>(c->host().value_or("").size()) + static_cast<int>(r.message().size());
}
