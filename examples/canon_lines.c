/* canon_lines — canonicalize URLs, one per line of standard input.
 *
 *     canon_lines [CHARSET] < urls.txt > canonical.txt
 *
 * Writes one canonical URL per valid input line, in order; an invalid line
 * writes nothing to standard output and "line N: invalid: REASON" to
 * standard error. CHARSET is the label of the document encoding used for
 * queries ("shift_jis", "latin1", ...; default UTF-8). Exits 0 when every
 * line was valid, 1 when some were invalid, 2 on an error.
 *
 * This is the bulk call, wurl_canon_into: no handle per URL, and the output
 * buffer is reused, sized by wurl_output_bound for the longest line so far
 * (a buffer of that size holds every result: one call per line).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wurl.h>

/* The reason of an invalid URL needs a handle: only on that rare path. */
static void report_invalid(unsigned long lineno, const char *line, size_t len,
                           const char *charset) {
    wurl_url *base = NULL, *resolved = NULL, *canon = NULL;
    const char *reason = NULL;
    /* wurl_canon_into(NULL, line, ...) is resolve(parse(line), line) +
       canonicalize: when the parsed line is invalid itself ("foo" has no
       scheme), that is the reason; otherwise ask the canonical URL. */
    if (wurl_parse(line, len, 0, &base) == WURL_OK) {
        if (wurl_is_invalid(base))
            reason = wurl_invalid_reason(base);
        else if (wurl_resolve(base, line, len, 0, &resolved) == WURL_OK &&
                 wurl_canonicalize(resolved, charset, charset ? strlen(charset) : 0, 0,
                                   &canon) == WURL_OK)
            reason = wurl_invalid_reason(canon);
    }
    fprintf(stderr, "line %lu: invalid: %s\n", lineno, reason ? reason : "?");
    wurl_free(canon);
    wurl_free(resolved);
    wurl_free(base);
}

int main(int argc, char **argv) {
    const char *charset = argc > 1 ? argv[1] : NULL;
    size_t charset_len = charset ? strlen(charset) : 0;
    char *line = NULL;
    size_t line_cap = 0;
    size_t out_cap = wurl_output_bound(0, 0, 0);
    char *out = malloc(out_cap);
    unsigned long lineno = 0;
    int status = 0;
    ssize_t got;

    if (!out) return 2;
    while ((got = getline(&line, &line_cap, stdin)) != -1) {
        size_t len = (size_t)got, n = 0;
        lineno++;
        if (len > 0 && line[len - 1] == '\n') len--;
        /* Room for any result of this line (no base: 0). */
        size_t need = wurl_output_bound(0, len, 0);
        if (need > out_cap) {
            char *bigger = realloc(out, need);
            if (!bigger) { status = 2; break; }
            out = bigger;
            out_cap = need;
        }
        /* The input is its own base (base = NULL): absolute URLs. */
        wurl_status st = wurl_canon_into(NULL, line, len, charset, charset_len, 0,
                                         out, out_cap, &n);
        if (st == WURL_OK) {
            fwrite(out, 1, n, stdout);
            putchar('\n');
        } else if (st == WURL_INVALID_URL) {
            report_invalid(lineno, line, len, charset);
            status = 1;
        } else {
            fprintf(stderr, "line %lu: %s\n", lineno, wurl_status_str(st));
            status = 2;
            break;
        }
    }
    free(line);
    free(out);
    return status;
}
