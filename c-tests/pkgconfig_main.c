/* Built by pkgconfig_test.sh with `pkg-config --cflags --libs wurl`. */
#include <stdio.h>
#include <string.h>

#include <wurl.h>

int main(int argc, char **argv)
{
    char buf[128];
    size_t n = 0;
    wurl_status st = wurl_canon_into(NULL, "http://example.com/./a", 22, NULL, 0, 0, buf, sizeof buf, &n);
    int ok = st == WURL_OK && strcmp(buf, "http://example.com/a") == 0 && strcmp(wurl_version(), WURL_VERSION) == 0;
    printf("pkg-config program (%s): %s\n", argc > 1 ? argv[1] : "?", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
