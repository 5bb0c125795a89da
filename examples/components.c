/* components — print the components of URLs, telling absent from empty.
 *
 *     components URL...
 *
 * For each URL, prints the components as parsed (raw, before
 * canonicalization), then the canonical URL. A present component is shown
 * quoted, even when it is empty (""); an absent one is shown as (absent).
 * `http://a/?` has an empty query; `http://a/` has none.
 */
#include <stdio.h>
#include <string.h>
#include <wurl.h>

static const char *const NAMES[] = {"scheme", "user", "password", "host",
                                    "port", "path", "query", "fragment"};

static void print_components(const wurl_url *url) {
    for (wurl_component c = WURL_COMPONENT_SCHEME; c <= WURL_COMPONENT_FRAGMENT; c++) {
        const char *s;
        size_t n;
        if (wurl_get(url, c, &s, &n))
            printf("  %-9s \"%.*s\"\n", NAMES[c], (int)n, s);
        else
            printf("  %-9s (absent)\n", NAMES[c]);
    }
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        wurl_url *url = NULL, *canon = NULL;
        wurl_status st = wurl_parse(argv[i], strlen(argv[i]), 0, &url);
        if (st == WURL_OK)
            st = wurl_canonicalize(url, NULL, 0, 0, &canon);
        if (st != WURL_OK) {
            fprintf(stderr, "%s: %s\n", argv[i], wurl_status_str(st));
            wurl_free(url);
            return 2;
        }
        printf("%s\n", argv[i]);
        print_components(url);
        const char *s;
        size_t n;
        if (wurl_serialize(canon, &s, &n))
            printf("  canonical %.*s\n", (int)n, s);
        else
            printf("  invalid: %s\n", wurl_invalid_reason(canon));
        wurl_free(canon);
        wurl_free(url);
    }
    return 0;
}
