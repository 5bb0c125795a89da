// The C++ API (include/wurl.hpp): ownership, absent vs empty components,
// results and their statuses, rules and their error message, keys, and the
// bulk helpers (into a std::string, and wurl::buffer) against the C calls
// they wrap. Built as C++17 and C++20, against libwurl.a and libwurl.so.
#include <wurl.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

int failures = 0;
int checks = 0;

void check(bool ok, const char *what, int line)
{
    ++checks;
    if (!ok) {
        std::fprintf(stderr, "FAILED (line %d): %s\n", line, what);
        ++failures;
    }
}
#define CHECK(cond) check((cond), #cond, __LINE__)

using opt = std::optional<std::string_view>;

// The C bulk call into a std::vector: the reference for the C++ helpers.
std::pair<wurl_status, std::string> c_canon(const wurl_url *base, std::string_view in, std::string_view cs = {},
                                            uint32_t flags = 0)
{
    size_t base_len = 0;
    if (base != nullptr)
        (void)wurl_serialize(base, nullptr, &base_len);
    std::vector<char> buf(wurl_output_bound(base_len, in.size(), flags));  // sized once
    size_t len = 0;
    wurl_status st =
        wurl_canon_into(base, in.data(), in.size(), cs.data(), cs.size(), flags, buf.data(), buf.size(), &len);
    return {st, st == WURL_OK ? std::string(buf.data(), len) : std::string()};
}

} // namespace

// Ownership: move-only, like std::unique_ptr.
static_assert(!std::is_copy_constructible<wurl::url>::value, "url is move-only");
static_assert(std::is_nothrow_move_constructible<wurl::url>::value, "url moves without throwing");
static_assert(!std::is_copy_constructible<wurl::rules>::value, "rules is move-only");
static_assert(std::is_same<decltype(std::declval<wurl::url>().host()), opt>::value, "components are optional views");
static_assert(!std::is_copy_constructible<wurl::buffer>::value, "buffer is move-only");
static_assert(std::is_nothrow_move_constructible<wurl::buffer>::value &&
                  std::is_nothrow_move_assignable<wurl::buffer>::value,
              "buffer moves without throwing");
static_assert(std::is_same<decltype(std::declval<wurl::buffer &>().canon("")), wurl::result<std::string_view>>::value,
              "buffer::canon returns a view result");

int main()
{
    CHECK(wurl::version() == WURL_VERSION);
    CHECK(wurl::key_version() == wurl_key_version() && wurl::key_version() >= 1);
    CHECK(std::string(wurl::status_str(wurl::status::invalid_url)) == wurl_status_str(WURL_INVALID_URL));

    // --- parse: components, absent vs empty -----------------------------------------
    {
        auto r = wurl::parse("http://user:@Example.COM:/p?#");
        CHECK(r.ok() && bool(r) && r.code() == wurl::status::ok && r.message().empty());
        const wurl::url &u = *r;
        CHECK(u.is_valid() && !u.is_invalid() && u.invalid_reason() == nullptr);
        CHECK(u.scheme() == opt("http"));
        CHECK(u.user() == opt("user"));
        CHECK(u.password() == opt(""));  // present, empty
        CHECK(u.host() == opt("Example.COM"));
        CHECK(u.port() == opt(""));
        CHECK(u.path() == opt("/p"));
        CHECK(u.query() == opt("") && u.query().has_value());
        CHECK(u.fragment() == opt(""));
        CHECK(u.serialize() == opt("http://user:@Example.COM:/p?#"));
        CHECK(u.host_kind() == wurl::host_kind::domain);

        auto a = wurl::parse("http://u@a/x");
        CHECK(!a->password().has_value());  // absent
        CHECK(!a->query().has_value() && !a->fragment().has_value() && !a->port().has_value());
        CHECK(a->component(99) == std::nullopt);
    }

    // Embedded NUL survives (inputs are (pointer, length)).
    {
        std::string in("http://a/x\0y", 12);
        auto r = wurl::parse(in);
        CHECK(r.ok() && r->path().has_value() && r->path()->size() == 4 && (*r->path())[2] == '\0');
    }

    // --- invalid URLs: ok calls, invalid results with a reason -------------------------
    {
        auto r = wurl::parse("foo");
        CHECK(r.ok());
        CHECK(r->is_invalid() && !r->is_valid());
        CHECK(r->invalid_reason() != nullptr && std::strlen(r->invalid_reason()) > 0);
        CHECK(!r->serialize().has_value());
        CHECK(r->path() == opt("foo"));  // components stay readable
        CHECK(!r->scheme().has_value());
    }

    // --- resolve, canonicalize; views survive a move -----------------------------------
    {
        auto base = wurl::parse("http://EXAMPLE.com:80/x/y");
        auto resolved = wurl::resolve(*base, "../a/./b?q=\xC3\xA9");
        CHECK(resolved.ok());
        auto canon = wurl::canonicalize(*resolved);
        CHECK(canon.ok());
        std::string_view s = canon->serialize().value_or("");
        CHECK(s == "http://example.com/a/b?q=%C3%A9");
        wurl::url moved = std::move(canon).value();
        CHECK(moved.serialize() == opt(s) && moved.serialize()->data() == s.data());  // the same bytes
        CHECK(!moved.fragment().has_value());
        CHECK(moved.host_kind() == wurl::host_kind::domain);

        // charset and network-strict flag
        auto sj = wurl::canonicalize(wurl::resolve(*base, "?q=\xE6\x97\xA5").value(), "shift_jis");
        CHECK(sj->serialize() == opt("http://example.com/x/y?q=%93%FA"));
        auto p = wurl::parse("http:///evil.com/x");
        auto strict = wurl::canonicalize(*p, {}, wurl::network_strict);
        CHECK(strict.ok() && strict->is_invalid() &&
              std::string(strict->invalid_reason()) == "network-strict: empty host");
        // An unknown label: UTF-8 as before, or refused with the one message.
        auto sj2 = wurl::resolve(*base, "?q=\xE6\x97\xA5").value();
        CHECK(wurl::canonicalize(sj2, "shiftjis")->serialize() == opt("http://example.com/x/y?q=%E6%97%A5"));
        auto unk = wurl::canonicalize(sj2, "shiftjis", wurl::charset_strict);
        CHECK(unk.code() == wurl::status::unknown_charset);
        CHECK(unk.message() == wurl::charset_message("shiftjis").value());
        CHECK(unk.message().rfind("unknown charset label \"shiftjis\" (a WHATWG", 0) == 0);
        CHECK(wurl::canonicalize(sj2, "sjis", wurl::charset_strict)->serialize() ==
              opt("http://example.com/x/y?q=%93%FA"));
        CHECK(!wurl::charset_message("Shift_JIS").has_value() && !wurl::charset_message({}).has_value());
        CHECK(wurl::charset_message("").has_value());
        std::string strict_out;
        CHECK(wurl::canon_into(strict_out, "?q", &*base, "nope", wurl::charset_strict) ==
                  wurl::status::unknown_charset &&
              strict_out.empty());
        auto v4 = wurl::canonicalize(wurl::parse("http://0x7f.1/").value());
        CHECK(v4->host_kind() == wurl::host_kind::ipv4 && v4->host() == opt("127.0.0.1"));

        // A failed call: status, message, value() throws.
        auto bad = wurl::canonicalize(*p, {}, 0x80);
        CHECK(!bad.ok() && !bad && bad.code() == wurl::status::bad_arg);
        CHECK(bad.message() == wurl_status_str(WURL_E_BAD_ARG));
        bool threw = false;
        try {
            (void)bad.value();
        } catch (const wurl::error &e) {
            threw = e.code() == wurl::status::bad_arg && std::string(e.what()) == bad.message();
        }
        CHECK(threw);
        // A default (moved-from) url is no handle: every accessor is safe.
        wurl::url none;
        CHECK(!none.has_handle() && !none.is_valid() && !none.serialize() && !none.host());
        auto r2 = wurl::resolve(none, "x");
        CHECK(r2.code() == wurl::status::null_arg);
    }

    // --- state ----------------------------------------------------------------------------
    {
        auto u = wurl::parse("http://user:@Host/p?#").value();
        auto st = u.export_state();
        CHECK(st.ok() && st->size() > 5 && std::memcmp(st->data(), "wurl\x01", 5) == 0);
        auto back = wurl::import_state(*st);
        CHECK(back.ok() && back->password() == opt("") && !back->port() && back->query() == opt(""));
        CHECK(back->serialize() == u.serialize());
        CHECK(back->export_state().value() == *st);
        CHECK(wurl::import_state(st->data(), st->size() - 1).code() == wurl::status::bad_state);
        CHECK(wurl::import_state(nullptr, 0).code() == wurl::status::bad_state);
        wurl::url none;
        CHECK(none.export_state().code() == wurl::status::null_arg);
    }

    // --- release / adopt ------------------------------------------------------------------
    {
        wurl::url u = wurl::parse("http://a/").value();
        wurl_url *raw = u.release();
        CHECK(!u.has_handle() && raw != nullptr);
        wurl::url again(raw);
        CHECK(again.host() == opt("a"));
        u = std::move(again);
        CHECK(u.host() == opt("a") && !again.has_handle());
    }

    // --- rules ----------------------------------------------------------------------------
    {
        auto rs = wurl::rules::compile("strip-www,sort-query,drop-params=utm_*");
        CHECK(rs.ok() && rs->get() != nullptr);
        auto bad = wurl::rules::compile("strip-www,no-such-rule");
        CHECK(!bad.ok() && bad.code() == wurl::status::bad_rules);
        CHECK(bad.message().find("no-such-rule") != std::string::npos);
        bool threw = false;
        try {
            (void)wurl::rules::compile("sort-query,sort-query").value();
        } catch (const wurl::error &e) {
            threw = e.code() == wurl::status::bad_rules && std::strstr(e.what(), "sort-query") != nullptr;
        }
        CHECK(threw);

        std::string key;
        const char *in = "http://www.Example.com/a?z=1&utm_source=x&a=2#f";
        CHECK(wurl::key_into(key, in, &*rs) == wurl::status::ok);
        CHECK(key == "http://example.com/a?a=2&z=1#f");
        CHECK(wurl::key_into(key, in, &*rs, wurl::key_surt) == wurl::status::ok);
        CHECK(key == "com,example)/a?a=2&z=1#f");
        CHECK(wurl::key_into(key, in, nullptr, wurl::key_surt_scheme) == wurl::status::ok);
        CHECK(key == "http://(com,example,www)/a?z=1&utm_source=x&a=2#f");
        CHECK(wurl::key_into(key, "http://a:99999/", &*rs) == wurl::status::invalid_url && key.empty());
        CHECK(wurl::key_into(key, in, &*rs, 0x40) == wurl::status::bad_arg && key.empty());

        // The key of a handle, the same bytes.
        auto c = wurl::canonicalize(wurl::parse(in).value());
        std::string k2;
        CHECK(c->key_into(k2, &*rs, wurl::key_surt) == wurl::status::ok && k2 == "com,example)/a?a=2&z=1#f");
        CHECK(c->key_into(k2) == wurl::status::ok && k2 == *c->serialize());
        auto inv = wurl::canonicalize(wurl::parse("foo").value());
        CHECK(inv->key_into(k2, &*rs) == wurl::status::invalid_url && k2.empty());

        // Moving rules keeps the compiled handle.
        wurl::rules moved = std::move(rs).value();
        CHECK(moved.get() != nullptr && wurl::key_into(key, in, &moved) == wurl::status::ok);
    }

    // --- the bulk helper: the C call's bytes, growth, reuse ------------------------------
    {
        auto page = wurl::parse("http://example.jp/dir/index.html").value();
        std::string out;
        const char *links[] = {"../a/./b?q=\xE6\x97\xA5", "#top", "http://a:99999/", "", "//x/y", "HTTP://A/%7e"};
        for (const char *l : links) {
            for (const char *cs : {"", "shift_jis"}) {
                auto want = c_canon(page.get(), l, cs);
                wurl::status st = wurl::canon_into(out, l, &page, cs);
                CHECK(static_cast<wurl_status>(st) == want.first);
                CHECK(out == want.second);
            }
        }
        CHECK(wurl::canon_into(out, "http://a:99999/") == wurl::status::invalid_url && out.empty());
        CHECK(wurl::canon_into(out, "http://a/", nullptr, {}, 0x80) == wurl::status::bad_arg && out.empty());

        // Growth past the capacity: a result longer than anything before.
        std::string longpath(5000, 'a');
        std::string in = "http://example.com/" + longpath + "/../b";
        out.clear();
        out.shrink_to_fit();
        CHECK(wurl::canon_into(out, in) == wurl::status::ok);
        CHECK(out == "http://example.com/b");
        std::string in2 = "http://example.com/" + longpath;
        CHECK(wurl::canon_into(out, in2) == wurl::status::ok && out == in2 && out.size() == in2.size());
        CHECK(out.c_str()[out.size()] == '\0');
        // Steady state: the capacity is reused, the data pointer stays.
        const char *data = out.data();
        std::size_t cap = out.capacity();
        for (int i = 0; i < 100; ++i) {
            CHECK(wurl::canon_into(out, i % 2 ? "http://a/x" : in2) == wurl::status::ok);
        }
        CHECK(out.data() == data && out.capacity() == cap);

        // Too long: the C call's status.
        std::string huge(WURL_MAX_INPUT_LEN + 1, 'a');
        CHECK(wurl::canon_into(out, huge) == wurl::status::too_long && out.empty());
    }

    // --- wurl::buffer: the C call's bytes in the buffer's own storage ------------------
    {
        auto page = wurl::parse("http://example.jp/dir/index.html").value();
        wurl::buffer buf;
        CHECK(buf.capacity() == 0);
        const char *links[] = {"../a/./b?q=\xE6\x97\xA5", "#top", "http://a:99999/", "", "//x/y", "HTTP://A/%7e"};
        for (const char *l : links) {
            for (const char *cs : {"", "shift_jis"}) {
                auto want = c_canon(page.get(), l, cs);
                auto r = buf.canon(l, &page, cs);
                CHECK(static_cast<wurl_status>(r.code()) == want.first);
                CHECK(r.ok() == (want.first == WURL_OK));
                CHECK(*r == want.second);
                if (r.ok())
                    CHECK(r->data()[r->size()] == '\0');  // the C call's NUL
            }
        }
        CHECK(buf.capacity() >= 255);  // the first call allocated

        auto inv = buf.canon("http://a:99999/");
        CHECK(!inv && inv.code() == wurl::status::invalid_url && inv->empty());
        CHECK(inv.message() == wurl_status_str(WURL_INVALID_URL));
        auto bad = buf.canon("http://a/", nullptr, {}, 0x80);
        CHECK(bad.code() == wurl::status::bad_arg && bad->empty());
        bool threw = false;
        try {
            (void)bad.value();
        } catch (const wurl::error &e) {
            threw = e.code() == wurl::status::bad_arg;
        }
        CHECK(threw);
        std::string huge(WURL_MAX_INPUT_LEN + 1, 'a');
        CHECK(buf.canon(huge).code() == wurl::status::too_long);

        // Growth: an input whose bound is above the capacity grows the
        // storage first, to at least twice as large; the result is whole.
        std::string longpath(5000, 'a');
        std::string in = "http://example.com/" + longpath;
        std::size_t before = buf.capacity();
        auto lr = buf.canon(in);
        CHECK(lr.ok() && *lr == in && lr->data()[lr->size()] == '\0');
        CHECK(buf.capacity() >= in.size() && buf.capacity() >= 2 * before);
        // Steady state: the same storage, no growth.
        const char *data = lr->data();
        std::size_t cap = buf.capacity();
        for (int i = 0; i < 100; ++i) {
            auto r = buf.canon(i % 2 ? "http://A/x" : in);
            CHECK(r.ok() && r->data() == data && *r == (i % 2 ? std::string("http://a/x") : in));
        }
        CHECK(buf.capacity() == cap);

        // reserve: room before the first call; a buffer of the input's bound
        // never grows.
        const std::size_t room = wurl_output_bound(0, in.size(), 0);
        wurl::buffer sized(room);
        CHECK(sized.capacity() >= room);
        auto sr = sized.canon(in);
        CHECK(sr.ok() && *sr == in && sized.capacity() >= room && sized.capacity() < 2 * room);
        sized.reserve(10);  // never shrinks
        CHECK(sized.capacity() >= room);

        // Keys: the bytes of the std::string helpers.
        auto rs = wurl::rules::compile("strip-www,sort-query,drop-params=utm_*").value();
        const char *kin = "http://www.Example.com/a?z=1&utm_source=x&a=2#f";
        std::string key;
        for (std::uint32_t kf : {std::uint32_t(0), wurl::key_surt, wurl::key_surt_scheme}) {
            CHECK(wurl::key_into(key, kin, &rs, kf) == wurl::status::ok);
            auto k = buf.key(kin, &rs, kf);
            CHECK(k.ok() && *k == key);
            auto c = wurl::canonicalize(wurl::parse(kin).value());
            CHECK(c->key_into(key, &rs, kf) == wurl::status::ok);
            auto hk = buf.key(*c, &rs, kf);
            CHECK(hk.ok() && *hk == key);
        }
        CHECK(buf.key("http://a:99999/", &rs).code() == wurl::status::invalid_url);
        CHECK(buf.key(wurl::canonicalize(wurl::parse("foo").value()).value()).code() == wurl::status::invalid_url);
        CHECK(buf.key(kin, &rs, 0x40).code() == wurl::status::bad_arg);

        // A move keeps the storage, so a view stays valid; the moved-from
        // buffer is empty and still usable.
        auto last = buf.canon("http://b/c");
        wurl::buffer moved = std::move(buf);
        CHECK(*last == "http://b/c" && moved.capacity() == cap && buf.capacity() == 0);
        auto again = buf.canon("http://c/");
        CHECK(again.ok() && *again == "http://c/" && *last == "http://b/c");
        buf = std::move(moved);
        CHECK(buf.capacity() == cap && moved.capacity() == 0 && *last == "http://b/c");
    }

    // --- a url without a handle is no URL: as a base (or the URL itself) every
    // call gives null_arg; only a null pointer base means "no base" -------------
    {
        const wurl::status null_arg = wurl::status::null_arg;
        auto rs = wurl::rules::compile("strip-www").value();
        wurl::url page = wurl::parse("http://a/").value();
        // A scheme-relative path: with the base it takes the base's host,
        // without a base it stays as it is, so a handle-less base read as
        // "no base" would be seen.
        const char *rel = "http:/foo";
        auto with_base = c_canon(page.get(), rel);
        auto no_base = c_canon(nullptr, rel);
        CHECK(with_base.first == WURL_OK && with_base.second == "http://a/foo");
        CHECK(no_base.first == WURL_OK && no_base.second != with_base.second);

        // A null pointer base: no base, as documented.
        std::string out;
        wurl::buffer buf;
        CHECK(wurl::canon_into(out, rel, nullptr) == wurl::status::ok && out == no_base.second);
        CHECK(wurl::key_into(out, rel, &rs, 0, nullptr) == wurl::status::ok && out == no_base.second);
        CHECK(buf.canon(rel, nullptr).ok() && *buf.canon(rel, nullptr) == no_base.second);
        CHECK(buf.key(rel, &rs, 0, nullptr).ok() && *buf.key(rel, &rs, 0, nullptr) == no_base.second);

        // Three ways to hold no handle: moved from, released, default.
        wurl::url owner = std::move(page);
        CHECK(!page.has_handle() && owner.has_handle());
        wurl::url released = wurl::parse("http://b/").value();
        wurl::url adopted(released.release());
        wurl::url none;
        const wurl::url *handleless[] = {&page, &released, &none};
        for (const wurl::url *b : handleless) {
            for (const char *in : {rel, "http://b/x", ""}) {
                out = "stale";
                CHECK(wurl::canon_into(out, in, b) == null_arg && out.empty());
                out = "stale";
                CHECK(wurl::key_into(out, in, nullptr, 0, b) == null_arg && out.empty());
                out = "stale";
                CHECK(wurl::key_into(out, in, &rs, wurl::key_surt, b, "shift_jis") == null_arg && out.empty());

                auto c = buf.canon(in, b);
                CHECK(!c && c.code() == null_arg && c->empty() && c.message() == wurl_status_str(WURL_E_NULL_ARG));
                bool threw = false;
                try {
                    (void)c.value();
                } catch (const wurl::error &e) {
                    threw = e.code() == null_arg;
                }
                CHECK(threw);
                auto k = buf.key(in, &rs, 0, b);
                CHECK(!k && k.code() == null_arg && k->empty());

                auto r = wurl::resolve(*b, in);
                CHECK(!r && r.code() == null_arg && !r->has_handle());
            }
            // The URL itself without a handle: the same status.
            CHECK(wurl::canonicalize(*b).code() == null_arg);
            out = "stale";
            CHECK(b->key_into(out, &rs) == null_arg && out.empty());
            CHECK(buf.key(*b).code() == null_arg);
        }
        // A fresh buffer fails the same way, before allocating anything.
        wurl::buffer fresh;
        CHECK(fresh.canon(rel, &page).code() == null_arg && fresh.capacity() == 0);

        // The handle that was moved or released still works as a base.
        CHECK(wurl::canon_into(out, rel, &owner) == wurl::status::ok && out == with_base.second);
        CHECK(*buf.canon(rel, &adopted) == "http://b/foo");
    }

    // --- rules without a handle are no rules specification: every call that
    // takes them gives null_arg; only a null pointer means "no rules" ----------
    {
        const wurl::status null_arg = wurl::status::null_arg;
        // An input the rules change, so that handle-less rules read as "no
        // rules" would be seen, in both key forms.
        const char *in = "http://www.example.com/b";
        auto page = wurl::parse("http://www.c/").value();
        auto canon = wurl::canonicalize(wurl::parse(in).value()).value();
        wurl::rules rs = wurl::rules::compile("strip-www").value();
        std::string with_rules, no_rules, with_rules_surt, no_rules_surt;
        CHECK(wurl::key_into(with_rules, in, &rs) == wurl::status::ok && with_rules == "http://example.com/b");
        CHECK(wurl::key_into(no_rules, in) == wurl::status::ok && no_rules == c_canon(nullptr, in).second);
        CHECK(wurl::key_into(with_rules_surt, in, &rs, wurl::key_surt) == wurl::status::ok);
        CHECK(wurl::key_into(no_rules_surt, in, nullptr, wurl::key_surt) == wurl::status::ok);
        CHECK(with_rules != no_rules && with_rules_surt != no_rules_surt);

        // A null pointer: no rules, as documented, in every call.
        std::string out;
        wurl::buffer buf;
        CHECK(wurl::key_into(out, in, nullptr) == wurl::status::ok && out == no_rules);
        CHECK(canon.key_into(out, nullptr) == wurl::status::ok && out == no_rules);
        CHECK(canon.key_into(out, nullptr, wurl::key_surt) == wurl::status::ok && out == no_rules_surt);
        CHECK(buf.key(in, nullptr).ok() && *buf.key(in, nullptr) == no_rules);
        auto hk = buf.key(canon, nullptr, wurl::key_surt);
        CHECK(hk.ok() && *hk == no_rules_surt);

        // Three ways to hold no handle: moved from by construction, moved
        // from by assignment, default-constructed.
        wurl::rules owner = std::move(rs);
        CHECK(rs.get() == nullptr && owner.get() != nullptr);
        wurl::rules assigned_from = wurl::rules::compile("strip-www").value();
        wurl::rules assigned_to;
        assigned_to = std::move(assigned_from);
        CHECK(assigned_from.get() == nullptr && assigned_to.get() != nullptr);
        wurl::rules none;
        CHECK(none.get() == nullptr);
        const wurl::rules *handleless[] = {&rs, &assigned_from, &none};
        const wurl::url *bases[] = {nullptr, &page};
        for (const wurl::rules *r : handleless) {
            for (std::uint32_t kf : {std::uint32_t(0), wurl::key_surt, wurl::key_surt_scheme}) {
                // Valid, invalid and empty input, with and without a base:
                // the rules are refused before the input is read.
                for (const char *i : {in, "http://a:99999/", ""}) {
                    for (const wurl::url *b : bases) {
                        out = "stale";
                        CHECK(wurl::key_into(out, i, r, kf, b) == null_arg && out.empty());
                        out = "stale";
                        CHECK(wurl::key_into(out, i, r, kf, b, "shift_jis", wurl::network_strict) == null_arg &&
                              out.empty());

                        auto k = buf.key(i, r, kf, b);
                        CHECK(!k && k.code() == null_arg && k->empty() &&
                              k.message() == wurl_status_str(WURL_E_NULL_ARG));
                        bool threw = false;
                        try {
                            (void)k.value();
                        } catch (const wurl::error &e) {
                            threw = e.code() == null_arg;
                        }
                        CHECK(threw);
                    }
                }
                // The key of a handle: valid, invalid, and no handle at all.
                wurl::url invalid = wurl::canonicalize(wurl::parse("foo").value()).value();
                wurl::url no_url;
                for (const wurl::url *u : {&canon, &invalid, &no_url}) {
                    out = "stale";
                    CHECK(u->key_into(out, r, kf) == null_arg && out.empty());
                    auto hk = buf.key(*u, r, kf);
                    CHECK(!hk && hk.code() == null_arg && hk->empty());
                    bool threw = false;
                    try {
                        (void)hk.value();
                    } catch (const wurl::error &e) {
                        threw = e.code() == null_arg;
                    }
                    CHECK(threw);
                }
            }
            // Refused before the key flags are checked, too.
            out = "stale";
            CHECK(wurl::key_into(out, in, r, 0x40) == null_arg && out.empty());
            CHECK(canon.key_into(out, r, 0x40) == null_arg);
            CHECK(buf.key(in, r, 0x40).code() == null_arg && buf.key(canon, r, 0x40).code() == null_arg);
        }
        // A fresh buffer fails the same way, before allocating anything.
        wurl::buffer fresh;
        CHECK(fresh.key(in, &none).code() == null_arg && fresh.key(canon, &rs).code() == null_arg);
        CHECK(fresh.capacity() == 0);

        // The handle that was moved still applies its rules, in every call.
        CHECK(wurl::key_into(out, in, &owner) == wurl::status::ok && out == with_rules);
        CHECK(canon.key_into(out, &assigned_to, wurl::key_surt) == wurl::status::ok && out == with_rules_surt);
        CHECK(*buf.key(in, &owner, 0, &page) == with_rules);
        CHECK(*buf.key(canon, &assigned_to) == with_rules);
    }

#if defined(__cpp_lib_string_resize_and_overwrite)
    const char *into = "resize_and_overwrite";
#else
    const char *into = "resize";
#endif
    std::printf("test_hpp (C++%ld, std::string helpers by %s): %d checks, %s\n", static_cast<long>(__cplusplus), into,
                checks, failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
