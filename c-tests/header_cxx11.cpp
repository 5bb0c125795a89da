// Compile-only: include/wurl.h on its own, as strict C++11
// (-std=c++11 -Wall -Wextra -Wpedantic -Werror). Not linked.
#include "wurl.h"
#include "wurl.h" // the include guard works

#include <type_traits>

// The functions have C linkage and the promised signatures.
static_assert(std::is_same<decltype(&wurl_parse), wurl_status (*)(const char *, size_t, uint32_t, wurl_url **)>::value,
              "wurl_parse");
static_assert(std::is_same<decltype(&wurl_get),
                           bool (*)(const wurl_url *, wurl_component, const char **, size_t *)>::value,
              "wurl_get");
static_assert(std::is_same<decltype(&wurl_canon_into),
                           wurl_status (*)(const wurl_url *, const char *, size_t, const char *, size_t, uint32_t,
                                           char *, size_t, size_t *)>::value,
              "wurl_canon_into");
static_assert(std::is_same<wurl_status, int32_t>::value, "wurl_status is int32_t");
static_assert(std::is_same<wurl_component, uint32_t>::value, "wurl_component is uint32_t");
static_assert(WURL_OK == 0, "WURL_OK");
static_assert(WURL_COMPONENT_FRAGMENT == 7, "component values");
static_assert(WURL_MAX_INPUT_LEN == 16 * 1024 * 1024, "WURL_MAX_INPUT_LEN");

extern "C" int wurl_header_cxx11_check();
extern "C" int wurl_header_cxx11_check()
{
    constexpr const char *v = WURL_VERSION;
    return v[0] != 0 ? WURL_HOST_IPV6 : WURL_HOST_NONE;
}
