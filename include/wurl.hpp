/*
 * wurl.hpp — the C++17 API of wurl: a header-only layer over the C ABI of
 * wurl.h (every call below is one or two calls of it; there is no second
 * implementation). Link with the C library as usual: wurl::wurl or
 * wurl::wurl_shared from the CMake package, or `pkg-config --libs wurl`.
 *
 *   wurl::url          an owning, move-only handle (wurl_free in its
 *                      destructor); its accessors return std::string_view
 *                      views into the handle, std::nullopt for an absent
 *                      component (absent and empty stay different).
 *   wurl::parse, wurl::resolve, wurl::canonicalize
 *                      return wurl::result<wurl::url>: the status of the
 *                      call and, when it succeeded, the URL (which may be
 *                      invalid: url.invalid_reason() says why).
 *   wurl::rules        a compiled rules specification (docs/keys.md);
 *                      wurl::rules::compile gives its error message.
 *   wurl::canon_into, wurl::key_into, url::key_into
 *                      the bulk path: the result written into a std::string
 *                      the caller reuses; once its capacity suffices, no
 *                      allocation per URL.
 *   wurl::buffer       the bulk path at the C call's cost: canon and key
 *                      write into the buffer's own storage and return a
 *                      std::string_view of the result, valid until the
 *                      next call on the buffer.
 *
 * Nothing here throws except result::value() on a failed call (as
 * std::optional::value does; without exceptions, -fno-exceptions, it calls
 * std::abort instead) and std::bad_alloc when a std::string or a
 * wurl::buffer cannot grow. Every view (std::string_view) of a URL lives as
 * long as the wurl::url it came from, and moving a wurl::url keeps them
 * valid.
 *
 * A base is optional where it is a pointer (`const url *base`): nullptr
 * means no base (the input is its own base). A wurl::url that holds no
 * handle (moved from, released, or default-constructed) is not a URL: given
 * as a base, by pointer or by reference, or as the URL of canonicalize or
 * key, the call fails with status::null_arg, as the C call does for a NULL
 * handle. It is never read as "no base": that would silently resolve
 * against the wrong URL.
 *
 * Rules follow the same rule: `const rules *r` nullptr means no rules, but
 * a wurl::rules that holds no handle (moved from or default-constructed)
 * is not a compiled specification, and every call that takes it (key_into,
 * url::key_into, buffer::key) fails with status::null_arg, its output
 * empty. It is never read as "no rules": the key would silently lose the
 * rules the caller asked for.
 */
#ifndef WURL_HPP
#define WURL_HPP

#include "wurl.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#if __cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L)
#error "wurl.hpp needs C++17 (wurl.h alone works from C++11)"
#endif

namespace wurl {

/* The status of a call (wurl_status): ok, or why the call itself failed.
   invalid_url is not a failure: the bulk calls read the input and found it
   invalid. */
enum class status : std::int32_t {
    ok = WURL_OK,
    null_arg = WURL_E_NULL_ARG,
    bad_arg = WURL_E_BAD_ARG,
    too_long = WURL_E_TOO_LONG,
    panic = WURL_E_PANIC,
    buffer_too_small = WURL_E_BUFFER_TOO_SMALL,
    invalid_url = WURL_INVALID_URL,
    bad_rules = WURL_E_BAD_RULES,
    unknown_charset = WURL_E_UNKNOWN_CHARSET,
    bad_state = WURL_E_BAD_STATE,
};

/* A static English description of a status (wurl_status_str). */
inline const char *status_str(status s) noexcept { return wurl_status_str(static_cast<wurl_status>(s)); }

/* The library's version (wurl_version); equals WURL_VERSION when the header
   and the library match. */
inline std::string_view version() noexcept { return wurl_version(); }

/* The version of the keys this library makes (wurl_key_version); bumped by
   every key change CHANGELOG.md lists. */
inline std::uint32_t key_version() noexcept { return wurl_key_version(); }

/* The message for a charset label that names no encoding, the one every
   wurl interface shows (wurl_charset_message), or std::nullopt for a label
   that names one (and for no label: a default view). */
inline std::optional<std::string> charset_message(std::string_view label)
{
    char msg[WURL_CHARSET_MESSAGE_MAX + 1];
    msg[0] = '\0';
    if (wurl_charset_message(label.data(), label.size(), msg, sizeof msg) != WURL_E_UNKNOWN_CHARSET)
        return std::nullopt;
    return std::string(msg);
}

/* canonicalize / canon_into / key_into flag: network-strict mode (see
   WURL_FLAG_NETWORK_STRICT in wurl.h). */
inline constexpr std::uint32_t network_strict = WURL_FLAG_NETWORK_STRICT;
/* canonicalize / canon_into / key_into flag: a charset label that names no
   encoding gives status::unknown_charset instead of meaning UTF-8 (see
   WURL_FLAG_CHARSET_STRICT; a default charset view is no label, an empty
   non-null one the empty label, which names none). */
inline constexpr std::uint32_t charset_strict = WURL_FLAG_CHARSET_STRICT;
/* Key flags: the SURT form without, or with, the scheme. */
inline constexpr std::uint32_t key_surt = WURL_KEY_SURT;
inline constexpr std::uint32_t key_surt_scheme = WURL_KEY_SURT_SCHEME;

/* What a URL's host is (wurl_host_kind). */
enum class host_kind : std::uint32_t {
    none = WURL_HOST_NONE,
    empty = WURL_HOST_EMPTY,
    domain = WURL_HOST_DOMAIN,
    ipv4 = WURL_HOST_IPV4,
    ipv6 = WURL_HOST_IPV6,
};

/* What result::value() throws when the call failed. */
class error : public std::runtime_error {
  public:
    explicit error(status s, const std::string &what) : std::runtime_error(what), status_(s) {}
    status code() const noexcept { return status_; }

  private:
    status status_;
};

namespace detail {
/* (ptr, len) of a view; an empty view is (NULL, 0) or a valid pointer with
   length 0, both the empty string to the C ABI. */
inline const char *ptr(std::string_view s) noexcept { return s.data(); }

inline std::optional<std::string_view> view(bool present, const char *p, std::size_t n) noexcept
{
    if (!present)
        return std::nullopt;
    return std::string_view(p, n);
}

[[noreturn]] inline void fail(status s, const std::string &what)
{
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
    throw error(s, what);
#else
    (void)s;
    (void)what;
    std::abort();
#endif
}

#if defined(__cpp_lib_string_resize_and_overwrite)
/* Runs a bulk call `call(buf, cap, &len)` into `out` (C++23), sized once by
   `bound` (wurl_output_bound: the call never asks for more): the call
   writes straight into out's characters, which resize_and_overwrite leaves
   unfilled. The C call writes a NUL after the result, at most at p[n],
   which resize_and_overwrite lets it write. `out` holds the result on ok
   and is empty otherwise. */
template <class Call> status into(std::string &out, std::size_t bound, Call call)
{
    status st = status::ok;
    auto op = [&](char *p, std::size_t n) noexcept {
        std::size_t len = 0;
        st = static_cast<status>(call(p, n + 1, &len));
        return st == status::ok ? len : 0;
    };
    out.resize_and_overwrite(bound - 1, op);
    return st;
}
#else
/* Runs a bulk call `call(buf, cap, &len)` into `out`, sized once by
   `bound` (wurl_output_bound: the call never asks for more): into out's
   own characters, resized to the bound (growing a std::string's size
   zero-fills the new part: C++23's resize_and_overwrite, above, does not).
   The C call writes a NUL after the result, into the terminator that a
   std::string keeps anyway. `out` holds the result on ok and is empty
   otherwise. */
template <class Call> status into(std::string &out, std::size_t bound, Call call)
{
    if (out.size() < bound - 1)
        out.resize(bound - 1);
    std::size_t len = 0;
    auto st = static_cast<status>(call(out.data(), out.size() + 1, &len));
    // Shrinking: erase(pos) only sets the length (resize is a call into
    // the library).
    out.erase(st == status::ok ? len : 0);
    return st;
}
#endif

/* wurl_output_bound of `input` against `base` (its serialization's
   length; nullptr: none) for `flags`. */
inline std::size_t bound(std::string_view input, const wurl_url *base, std::uint32_t flags) noexcept
{
    std::size_t base_len = 0;
    if (base != nullptr)
        (void)wurl_serialize(base, nullptr, &base_len);
    return wurl_output_bound(base_len, input.size(), flags);
}
} // namespace detail

/* The result of a call that makes an object: its status and, when the call
   succeeded (ok()), the object. Like std::optional, with the status and a
   message kept. */
template <class T> class [[nodiscard]] result {
  public:
    result(status s, T v) noexcept : status_(s), value_(std::move(v)) {}
    result(status s, std::string message) noexcept : status_(s), message_(std::move(message)) {}

    /* The call succeeded: value() is there. */
    bool ok() const noexcept { return status_ == status::ok; }
    explicit operator bool() const noexcept { return ok(); }
    /* The call's status (status::ok when it succeeded). */
    status code() const noexcept { return status_; }

    /* The object; throws wurl::error (or aborts without exceptions) when
       the call failed. */
    T &value() &
    {
        check();
        return value_;
    }
    const T &value() const &
    {
        check();
        return value_;
    }
    T &&value() &&
    {
        check();
        return std::move(value_);
    }
    /* Unchecked access: only after ok(). */
    T &operator*() & noexcept { return value_; }
    const T &operator*() const & noexcept { return value_; }
    T &&operator*() && noexcept { return std::move(value_); }
    T *operator->() noexcept { return &value_; }
    const T *operator->() const noexcept { return &value_; }

    /* Why the call failed, in English ("" when it succeeded): the status's
       description, the rules compiler's message for status::bad_rules, or
       the charset message for status::unknown_charset. */
    std::string message() const
    {
        if (ok())
            return std::string();
        if (!message_.empty())
            return message_;
        return status_str(status_);
    }

  private:
    void check() const
    {
        if (!ok())
            detail::fail(status_, message());
    }

    status status_;
    T value_{};
    std::string message_;
};

class rules;

/* A parsed, resolved or canonicalized URL: an owning, move-only handle of
   the C API (immutable; any number of threads may read one at once). */
class url {
  public:
    /* No URL (a moved-from handle is one too). */
    url() noexcept = default;
    /* Takes ownership of a handle a wurl_* constructor returned. */
    explicit url(wurl_url *handle) noexcept : h_(handle) {}
    url(url &&other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
    url &operator=(url &&other) noexcept
    {
        if (this != &other) {
            wurl_free(h_);
            h_ = std::exchange(other.h_, nullptr);
        }
        return *this;
    }
    url(const url &) = delete;
    url &operator=(const url &) = delete;
    ~url() { wurl_free(h_); }

    /* The C handle, still owned by this object. */
    const wurl_url *get() const noexcept { return h_; }
    /* Gives up ownership: the caller frees the handle with wurl_free. */
    wurl_url *release() noexcept { return std::exchange(h_, nullptr); }
    /* Whether this object holds a handle. */
    bool has_handle() const noexcept { return h_ != nullptr; }

    /* Whether the algorithm found the URL invalid (its components stay
       readable; it has no serialization). */
    bool is_invalid() const noexcept { return wurl_is_invalid(h_); }
    bool is_valid() const noexcept { return h_ != nullptr && !wurl_is_invalid(h_); }
    /* Why the URL is invalid (a static string), or nullptr when it is valid. */
    const char *invalid_reason() const noexcept { return wurl_invalid_reason(h_); }

    /* The serialization; std::nullopt for an invalid URL. */
    std::optional<std::string_view> serialize() const noexcept
    {
        const char *p = nullptr;
        std::size_t n = 0;
        const bool present = wurl_serialize(h_, &p, &n);
        return detail::view(present, p, n);
    }

    /* One component (WURL_COMPONENT_*): std::nullopt when absent, an empty
       view when present and empty. */
    std::optional<std::string_view> component(wurl_component which) const noexcept
    {
        const char *p = nullptr;
        std::size_t n = 0;
        const bool present = wurl_get(h_, which, &p, &n);
        return detail::view(present, p, n);
    }
    std::optional<std::string_view> scheme() const noexcept { return component(WURL_COMPONENT_SCHEME); }
    std::optional<std::string_view> user() const noexcept { return component(WURL_COMPONENT_USER); }
    std::optional<std::string_view> password() const noexcept { return component(WURL_COMPONENT_PASSWORD); }
    std::optional<std::string_view> host() const noexcept { return component(WURL_COMPONENT_HOST); }
    std::optional<std::string_view> port() const noexcept { return component(WURL_COMPONENT_PORT); }
    std::optional<std::string_view> path() const noexcept { return component(WURL_COMPONENT_PATH); }
    std::optional<std::string_view> query() const noexcept { return component(WURL_COMPONENT_QUERY); }
    std::optional<std::string_view> fragment() const noexcept { return component(WURL_COMPONENT_FRAGMENT); }

    /* What the host is (meant for canonicalized URLs). */
    wurl::host_kind host_kind() const noexcept { return static_cast<wurl::host_kind>(wurl_host_kind(h_)); }

    /* The key of this URL (meant to be canonicalized) into `out`
       (wurl_url_key_into): its serialization with `rules` applied (nullptr:
       none), in SURT form with key_surt or key_surt_scheme. Returns
       status::ok (out holds the key) or status::invalid_url / an error
       (out is empty; status::null_arg when this url or `*r` holds no
       handle). Defined after wurl::rules. */
    status key_into(std::string &out, const rules *r = nullptr, std::uint32_t key_flags = 0) const;

    /* The URL's state (wurl_state_export): its whole value as bytes (a
       versioned format, not text), which import_state() turns back into a
       url of the same value, in this process or another. A url without a
       handle gives status::null_arg. */
    result<std::vector<std::uint8_t>> export_state() const
    {
        using bytes = std::vector<std::uint8_t>;
        std::size_t n = 0;
        auto st = static_cast<status>(wurl_state_export(h_, nullptr, 0, &n));
        if (st != status::buffer_too_small)
            return result<bytes>(st, std::string());
        bytes out(n);
        st = static_cast<status>(wurl_state_export(h_, out.data(), out.size(), &n));
        if (st != status::ok)
            return result<bytes>(st, std::string());
        return result<bytes>(status::ok, std::move(out));
    }

  private:
    wurl_url *h_ = nullptr;
};

/* A compiled rules specification (wurl_rules_compile): move-only, freed by
   its destructor, usable by any number of threads at once. */
class rules {
  public:
    /* No rules specification (a moved-from object is none either): every
       call given it fails with status::null_arg. For no rules, pass
       nullptr. */
    rules() noexcept = default;
    rules(rules &&other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
    rules &operator=(rules &&other) noexcept
    {
        if (this != &other) {
            wurl_rules_free(h_);
            h_ = std::exchange(other.h_, nullptr);
        }
        return *this;
    }
    rules(const rules &) = delete;
    rules &operator=(const rules &) = delete;
    ~rules() { wurl_rules_free(h_); }

    /* Compiles `spec` ("strip-www,sort-query,drop-params=utm_*|fbclid", ...;
       docs/keys.md). On status::bad_rules, message() quotes the bad part. */
    static result<rules> compile(std::string_view spec)
    {
        wurl_rules *out = nullptr;
        char msg[512];
        msg[0] = '\0';
        auto st = static_cast<status>(wurl_rules_compile(detail::ptr(spec), spec.size(), &out, msg, sizeof msg));
        if (st != status::ok)
            return result<rules>(st, std::string(st == status::bad_rules ? msg : ""));
        return result<rules>(status::ok, rules(out));
    }

    /* The C handle, still owned by this object (NULL when it holds none). */
    const wurl_rules *get() const noexcept { return h_; }

  private:
    explicit rules(wurl_rules *h) noexcept : h_(h) {}
    wurl_rules *h_ = nullptr;
};

namespace detail {
/* A constructor's status and handle as a result. */
inline result<url> made(wurl_status st, wurl_url *out)
{
    if (st != WURL_OK)
        return result<url>(static_cast<status>(st), std::string());
    return result<url>(status::ok, url(out));
}

/* Whether `base` points to a wurl::url without a handle. Such a base is no
   URL, and the call fails with status::null_arg: passing it down as NULL
   would ask the C call for "no base" and resolve the input against itself,
   a wrong result with status::ok. */
inline bool handleless(const url *base) noexcept { return base != nullptr && !base->has_handle(); }

/* Whether `r` points to a wurl::rules without a handle. Such rules are no
   specification, and the call fails with status::null_arg: passing them
   down as NULL would ask the C call for "no rules", a key without the
   rules the caller gave, with status::ok. */
inline bool handleless(const rules *r) noexcept { return r != nullptr && r->get() == nullptr; }
} // namespace detail

inline status url::key_into(std::string &out, const rules *r, std::uint32_t key_flags) const
{
    if (detail::handleless(r)) {
        out.clear();
        return status::null_arg;
    }
    const wurl_rules *rh = r ? r->get() : nullptr;
    return detail::into(out, detail::bound({}, h_, 0), [&](char *buf, std::size_t cap, std::size_t *len) {
        return wurl_url_key_into(h_, rh, key_flags, buf, cap, len);
    });
}

/* The url whose state export_state() gave (wurl_state_import); bytes that
   are not such a state give status::bad_state. */
inline result<url> import_state(const std::uint8_t *state, std::size_t len)
{
    wurl_url *out = nullptr;
    wurl_status st = wurl_state_import(state, len, &out);
    return detail::made(st, out);
}
inline result<url> import_state(const std::vector<std::uint8_t> &state)
{
    return import_state(state.data(), state.size());
}

/* Parses `input` ("steps to parse a URL"): no resolution, no
   canonicalization. */
inline result<url> parse(std::string_view input)
{
    wurl_url *out = nullptr;
    wurl_status st = wurl_parse(detail::ptr(input), input.size(), 0, &out);
    return detail::made(st, out);
}

/* Resolves `input` against `base` ("steps to resolve a URL"). A `base`
   without a handle (moved from) gives status::null_arg. */
inline result<url> resolve(const url &base, std::string_view input)
{
    wurl_url *out = nullptr;
    wurl_status st = wurl_resolve(base.get(), detail::ptr(input), input.size(), 0, &out);
    return detail::made(st, out);
}

/* Canonicalizes `u` ("steps to canonicalize a URL"); `charset` is the
   document's encoding label for the query (empty: UTF-8), `flags` 0,
   wurl::network_strict and/or wurl::charset_strict (an unknown label:
   status::unknown_charset, message() the charset message). A `u` without
   a handle gives status::null_arg. */
inline result<url> canonicalize(const url &u, std::string_view charset = {}, std::uint32_t flags = 0)
{
    wurl_url *out = nullptr;
    wurl_status st = wurl_canonicalize(u.get(), detail::ptr(charset), charset.size(), flags, &out);
    if (st == WURL_E_UNKNOWN_CHARSET)
        return result<url>(status::unknown_charset, charset_message(charset).value_or(""));
    return detail::made(st, out);
}

/* The bulk path (wurl_canon_into): resolves `input` against `base`
   (nullptr: the input is its own base; a url without a handle, such as a
   moved-from one: status::null_arg), canonicalizes, and writes the
   serialization into `out`, which the caller keeps from one call to the
   next: its capacity is reused, so once it fits the longest result no call
   allocates. Returns status::ok (out holds the canonical URL),
   status::invalid_url (out is empty), or why the call failed (out is
   empty). The result is exactly what resolve + canonicalize + serialize
   give. */
inline status canon_into(std::string &out, std::string_view input, const url *base = nullptr,
                         std::string_view charset = {}, std::uint32_t flags = 0)
{
    if (detail::handleless(base)) {
        out.clear();
        return status::null_arg;
    }
    const wurl_url *b = base ? base->get() : nullptr;
    return detail::into(out, detail::bound(input, b, flags), [&](char *buf, std::size_t cap, std::size_t *len) {
        return wurl_canon_into(b, detail::ptr(input), input.size(), detail::ptr(charset), charset.size(), flags, buf,
                               cap, len);
    });
}

/* The bulk path with a key (wurl_canon_key_into): what canon_into writes,
   then `rules` applied (nullptr: none) and, with key_surt or
   key_surt_scheme, the SURT form. Returns as canon_into does (a `base` or
   `*r` without a handle: status::null_arg, out empty). */
inline status key_into(std::string &out, std::string_view input, const rules *r = nullptr,
                       std::uint32_t key_flags = 0, const url *base = nullptr, std::string_view charset = {},
                       std::uint32_t flags = 0)
{
    if (detail::handleless(base) || detail::handleless(r)) {
        out.clear();
        return status::null_arg;
    }
    const wurl_url *b = base ? base->get() : nullptr;
    const wurl_rules *rh = r ? r->get() : nullptr;
    return detail::into(out, detail::bound(input, b, flags), [&](char *buf, std::size_t cap, std::size_t *len) {
        return wurl_canon_key_into(b, detail::ptr(input), input.size(), detail::ptr(charset), charset.size(), flags,
                                   rh, key_flags, buf, cap, len);
    });
}

/* A reusable output buffer for the bulk path, the C call's cost with
   nothing added: the result is written by the C call straight into the
   buffer's own characters (never zero-filled, never copied) and read as a
   std::string_view. canon and key return result<std::string_view>: the
   call's status and, on status::ok, a view of the result, valid until the
   next call on this buffer or its destruction (a move keeps it valid) and
   followed by a NUL not counted in its size. On status::invalid_url or a
   failure the view is empty (code() says which; message() says why).

   The buffer grows, to at least twice its capacity, only when a result
   does not fit; once it fits the longest result no call allocates. Growing
   may throw std::bad_alloc; nothing else throws. Move-only; one buffer per
   thread (a call writes into it). */
class buffer {
  public:
    /* No storage yet: the first call allocates. */
    buffer() noexcept = default;
    /* Room for results of up to `capacity` bytes before the first call. */
    explicit buffer(std::size_t capacity) { reserve(capacity); }
    buffer(buffer &&other) noexcept
        : data_(std::move(other.data_)), cap_(std::exchange(other.cap_, 0))
    {
    }
    buffer &operator=(buffer &&other) noexcept
    {
        if (this != &other) {
            data_ = std::move(other.data_);
            cap_ = std::exchange(other.cap_, 0);
        }
        return *this;
    }
    buffer(const buffer &) = delete;
    buffer &operator=(const buffer &) = delete;

    /* The longest result that fits without growing. */
    std::size_t capacity() const noexcept { return cap_ == 0 ? 0 : cap_ - 1; }
    /* Makes room for results of up to `n` bytes (never shrinks). */
    void reserve(std::size_t n)
    {
        if (n >= cap_)
            allocate(n + 1);
    }

    /* wurl_canon_into: what wurl::canon_into writes, into this buffer (a
       `base` without a handle: status::null_arg). */
    result<std::string_view> canon(std::string_view input, const url *base = nullptr, std::string_view charset = {},
                                   std::uint32_t flags = 0)
    {
        if (detail::handleless(base))
            return result<std::string_view>(status::null_arg, std::string_view());
        const wurl_url *b = base ? base->get() : nullptr;
        return run(detail::bound(input, b, flags), [&](char *buf, std::size_t cap, std::size_t *len) {
            return wurl_canon_into(b, detail::ptr(input), input.size(), detail::ptr(charset), charset.size(), flags,
                                   buf, cap, len);
        });
    }

    /* wurl_canon_key_into: what wurl::key_into writes, into this buffer (a
       `base` or `*r` without a handle: status::null_arg). */
    result<std::string_view> key(std::string_view input, const rules *r = nullptr, std::uint32_t key_flags = 0,
                                 const url *base = nullptr, std::string_view charset = {}, std::uint32_t flags = 0)
    {
        if (detail::handleless(base) || detail::handleless(r))
            return result<std::string_view>(status::null_arg, std::string_view());
        const wurl_url *b = base ? base->get() : nullptr;
        const wurl_rules *rh = r ? r->get() : nullptr;
        return run(detail::bound(input, b, flags), [&](char *buf, std::size_t cap, std::size_t *len) {
            return wurl_canon_key_into(b, detail::ptr(input), input.size(), detail::ptr(charset), charset.size(),
                                       flags, rh, key_flags, buf, cap, len);
        });
    }

    /* wurl_url_key_into: what url::key_into writes, into this buffer (a `u`
       or `*r` without a handle: status::null_arg). */
    result<std::string_view> key(const url &u, const rules *r = nullptr, std::uint32_t key_flags = 0)
    {
        if (detail::handleless(r))
            return result<std::string_view>(status::null_arg, std::string_view());
        const wurl_rules *rh = r ? r->get() : nullptr;
        return run(detail::bound({}, u.get(), 0), [&](char *buf, std::size_t cap, std::size_t *len) {
            return wurl_url_key_into(u.get(), rh, key_flags, buf, cap, len);
        });
    }

  private:
    /* Runs `call(buf, cap, &len)` into the buffer, first grown (to at
       least twice its capacity) when it is smaller than `bound`
       (wurl_output_bound: the call never asks for more), so one call
       always does. */
    template <class Call> result<std::string_view> run(std::size_t bound, Call call)
    {
        if (bound > cap_)
            allocate(cap_ * 2 > bound ? cap_ * 2 : bound);
        std::size_t len = 0;
        auto st = static_cast<status>(call(data_.get(), cap_, &len));
        return result<std::string_view>(st, st == status::ok ? std::string_view(data_.get(), len)
                                                             : std::string_view());
    }

    /* New storage of `cap` bytes, default-initialized (`new char[]`), so
       nothing is written to it. The old contents are not kept: the C calls
       write into the buffer only when they succeed. */
    void allocate(std::size_t cap)
    {
        data_.reset(new char[cap]);
        cap_ = cap;
    }

    std::unique_ptr<char[]> data_;
    std::size_t cap_ = 0;
};

} // namespace wurl

#endif /* WURL_HPP */
