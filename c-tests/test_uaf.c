/* A deliberate use-after-free of a wurl view. Registered only when the C
 * tests run under AddressSanitizer (WURL_SANITIZE=ON) or valgrind
 * (WURL_VALGRIND=ON), with WILL_FAIL: it passes only when the tool catches
 * the bad read, which proves the tool is really on. Without a tool it exits 0
 * (and the test, expected to fail, is reported as failing). */
#include <stdio.h>
#include <string.h>

#include "wurl.h"

int main(void)
{
    static const char in[] = "http://use-after-free.example/some/path?q#f";
    wurl_url *u = NULL;
    if (wurl_parse(in, sizeof in - 1, 0, &u) != WURL_OK || u == NULL) {
        fprintf(stderr, "wurl_parse failed\n");
        return 0; /* not the failure this test is about */
    }
    const char *host = NULL;
    size_t len = 0;
    (void)wurl_get(u, WURL_COMPONENT_HOST, &host, &len);
    wurl_free(u);
    /* The view ended with wurl_free: reading it is a use after free. */
    volatile char c = host[len / 2];
    printf("read '%c' after free: the use after free was NOT detected\n", c);
    return 0;
}
