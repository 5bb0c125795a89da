// The consumer project's C++ program: the installed header from C++.
#include <wurl.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

int main()
{
    struct Free {
        void operator()(wurl_url *u) const { wurl_free(u); }
    };
    wurl_url *raw = nullptr;
    const std::string in = "HTTP://Example.COM/x?y#z";
    if (wurl_parse(in.data(), in.size(), 0, &raw) != WURL_OK)
        return 1;
    std::unique_ptr<wurl_url, Free> u(raw);
    const char *p = nullptr;
    size_t n = 0;
    bool ok = wurl_get(u.get(), WURL_COMPONENT_HOST, &p, &n) && std::string(p, n) == "Example.COM" &&
              std::strcmp(wurl_version(), WURL_VERSION) == 0;
    std::printf("consumer_cxx: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
