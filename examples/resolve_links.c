/* resolve_links — resolve the links of a page against the page's URL.
 *
 *     resolve_links PAGE_URL [CHARSET] < hrefs.txt
 *
 * Reads one link (an href value as written in the page) per line and writes
 * "LINK<TAB>CANONICAL" for each, or "LINK<TAB>invalid: REASON". CHARSET is
 * the page's encoding label, used for the queries of the links. Exits 0,
 * or 2 on an error (an invalid link is a result, not an error).
 *
 * This uses the handle API: the page is parsed once, and every link is
 * resolved against it (wurl_resolve), canonicalized (wurl_canonicalize) and
 * serialized (wurl_serialize). For throughput without the components, use
 * wurl_canon_into(page, link, ...) as canon_lines.c does.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wurl.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s PAGE_URL [CHARSET] < hrefs.txt\n", argv[0]);
        return 2;
    }
    const char *charset = argc > 2 ? argv[2] : NULL;
    size_t charset_len = charset ? strlen(charset) : 0;
    wurl_url *page = NULL;
    wurl_status st = wurl_parse(argv[1], strlen(argv[1]), 0, &page);
    if (st != WURL_OK) {
        fprintf(stderr, "page URL: %s\n", wurl_status_str(st));
        return 2;
    }
    if (wurl_is_invalid(page)) {
        /* Links can still resolve against it (a fragment-only link, for
           instance), but most will be invalid too: say so once. */
        fprintf(stderr, "warning: the page URL is invalid: %s\n", wurl_invalid_reason(page));
    }

    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int status = 0;
    while ((got = getline(&line, &cap, stdin)) != -1) {
        size_t len = (size_t)got;
        if (len > 0 && line[len - 1] == '\n') len--;
        wurl_url *resolved = NULL, *canon = NULL;
        st = wurl_resolve(page, line, len, 0, &resolved);
        if (st == WURL_OK)
            st = wurl_canonicalize(resolved, charset, charset_len, 0, &canon);
        if (st != WURL_OK) {
            fprintf(stderr, "%s\n", wurl_status_str(st));
            wurl_free(resolved);
            status = 2;
            break;
        }
        const char *s;
        size_t n;
        fwrite(line, 1, len, stdout);
        if (wurl_serialize(canon, &s, &n))
            printf("\t%.*s\n", (int)n, s);
        else
            printf("\tinvalid: %s\n", wurl_invalid_reason(canon));
        wurl_free(canon);
        wurl_free(resolved);
    }
    free(line);
    wurl_free(page);
    return status;
}
