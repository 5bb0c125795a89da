/* The consumer project's C program: uses the installed header and library,
 * and checks that it got the variant it asked for (static or shared). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <wurl.h>

int main(void)
{
    int fail = 0;
    if (strcmp(wurl_version(), WURL_VERSION) != 0) {
        fprintf(stderr, "version mismatch: library %s, header %s\n", wurl_version(), WURL_VERSION);
        fail = 1;
    }

    static const char in[] = "http://example.com/a/../b?c#d";
    char buf[256];
    size_t n = 0;
    wurl_status st = wurl_canon_into(NULL, in, sizeof in - 1, NULL, 0, 0, buf, sizeof buf, &n);
    if (st != WURL_OK || strcmp(buf, "http://example.com/b?c#d") != 0) {
        fprintf(stderr, "wurl_canon_into: %s, \"%s\"\n", wurl_status_str(st), st == WURL_OK ? buf : "");
        fail = 1;
    }

    wurl_url *u = NULL;
    if (wurl_parse("http://@a/?", 11, 0, &u) != WURL_OK) {
        fprintf(stderr, "wurl_parse failed\n");
        return 1;
    }
    const char *p;
    size_t len;
    if (!wurl_get(u, WURL_COMPONENT_USER, &p, &len) || len != 0 || wurl_get(u, WURL_COMPONENT_PASSWORD, &p, &len)) {
        fprintf(stderr, "absent/empty components wrong\n");
        fail = 1;
    }
    wurl_free(u);

    /* Where does wurl_parse live: in libwurl.so or in this executable? */
    Dl_info info;
    memset(&info, 0, sizeof info);
    if (dladdr((void *)(size_t)&wurl_parse, &info) == 0 || info.dli_fname == NULL) {
        fprintf(stderr, "dladdr failed\n");
        fail = 1;
    } else {
        int in_so = strstr(info.dli_fname, "libwurl.so") != NULL;
        printf("wurl_parse is in %s\n", info.dli_fname);
        if (in_so != WURL_CONSUMER_SHARED) {
            fprintf(stderr, "expected the %s library\n", WURL_CONSUMER_SHARED ? "shared" : "static");
            fail = 1;
        }
    }
    printf("consumer (%s): %s\n", WURL_CONSUMER_SHARED ? "shared" : "static", fail ? "FAILED" : "ok");
    return fail;
}
