/* The URL Standard model through the C ABI (WURL_FLAG_URL_STANDARD): the
 * Web Platform Tests' urltestdata (tests/data/wpt/urltestdata-href.json,
 * given as the argument) through wurl_canon_standard_into, and through
 * wurl_canon_into and wurl_canon_key_into with the flag; the flag's example
 * and its refusals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wurl.h"
#include "wtest.h"

/* One JSON value of the data file: a string (decoded into `out`, its length
 * into `*len`) or null (returns 0). The file holds one
 * `["input", "base" or null, "href" or null]` per line; its only escapes
 * are \" \\ \/ \b \f \n \r \t and \u00XX (control characters): non-ASCII
 * is written as UTF-8. Returns -1 on anything else. */
static int json_value(const char **p, char *out, size_t *len)
{
    const char *s = *p;
    while (*s == ' ' || *s == ',' || *s == '[')
        s++;
    if (strncmp(s, "null", 4) == 0) {
        *p = s + 4;
        return 0;
    }
    if (*s != '"')
        return -1;
    s++;
    size_t n = 0;
    while (*s != '"') {
        char c = *s++;
        if (c == '\0')
            return -1;
        if (c == '\\') {
            c = *s++;
            switch (c) {
            case '"': case '\\': case '/': break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'u': {
                unsigned v = 0;
                if (sscanf(s, "%4x", &v) != 1 || v > 0x7f)
                    return -1;
                c = (char)v;
                s += 4;
                break;
            }
            default: return -1;
            }
        }
        out[n++] = c;
    }
    *p = s + 1;
    *len = n;
    return 1;
}

static void run_data(const char *path)
{
    FILE *f = fopen(path, "rb");
    CHECK_MSG(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    static char line[65536], input[65536], base[65536], href[65536], buf[65536];
    int rows = 0, valid = 0, other_bases = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] != '[' || line[1] == '\n')
            continue;
        const char *p = line;
        size_t il = 0, bl = 0, hl = 0;
        int hi = json_value(&p, input, &il);
        int hb = json_value(&p, base, &bl);
        int hh = json_value(&p, href, &hl);
        CHECK_MSG(hi == 1 && hb >= 0 && hh >= 0, "bad line: %s", line);
        if (hi != 1 || hb < 0 || hh < 0)
            continue;
        rows++;
        /* The base as a string: wurl_canon_standard_into. */
        size_t len = 0;
        wurl_status st = wurl_canon_standard_into(hb ? base : NULL, hb ? bl : 0, input, il, NULL, 0,
                                                  NULL, 0, buf, sizeof buf, &len);
        /* The base as a wurl_parse handle, with the flag: the same result
         * when the handle's serialization is the base (the 2012 parser
         * reads a few otherwise: `a:` is a drive letter to it). */
        wurl_url *b = NULL;
        int same_base = 1;
        if (hb) {
            CHECK(wurl_parse(base, bl, 0, &b) == WURL_OK);
            const char *sp = NULL;
            size_t sl = 0;
            same_base = wurl_serialize(b, &sp, &sl) && sl == bl && memcmp(sp, base, bl) == 0;
        }
        size_t flen = 0, klen = 0;
        static char fbuf[65536], kbuf[65536];
        wurl_status fst = wurl_canon_into(b, input, il, NULL, 0, WURL_FLAG_URL_STANDARD, fbuf,
                                          sizeof fbuf, &flen);
        wurl_status kst = wurl_canon_key_into(b, input, il, NULL, 0, WURL_FLAG_URL_STANDARD, NULL,
                                              0, kbuf, sizeof kbuf, &klen);
        wurl_free(b);
        if (!same_base) {
            other_bases++;
        } else {
            CHECK_MSG(fst == st && kst == st && (st != WURL_OK || (flen == len && klen == len &&
                                                                  memcmp(fbuf, buf, len) == 0 &&
                                                                  memcmp(kbuf, buf, len) == 0)),
                      "flag on a handle: %.*s against %.*s", (int)il, input, (int)bl, base);
        }
        if (hh) {
            valid++;
            CHECK_MSG(st == WURL_OK && len == hl && memcmp(buf, href, hl) == 0 && buf[len] == 0,
                      "%.*s against %.*s: status %d, got %.*s, want %.*s", (int)il, input,
                      (int)bl, base, (int)st, st == WURL_OK ? (int)len : 0, buf, (int)hl, href);
        } else {
            CHECK_MSG(st == WURL_INVALID_URL, "%.*s against %.*s: status %d, want invalid",
                      (int)il, input, (int)bl, base, (int)st);
        }
    }
    fclose(f);
    CHECK_MSG(rows > 700 && valid > 500, "%d rows, %d valid", rows, valid);
    CHECK_MSG(other_bases < 40, "%d bases the 2012 parser reads otherwise", other_bases);
}

static void check(const char *input, uint32_t flags, const char *want)
{
    char buf[256];
    size_t len = 0;
    wurl_status st = wurl_canon_into(NULL, input, strlen(input), NULL, 0, flags, buf, sizeof buf,
                                     &len);
    CHECK_MSG(st == WURL_OK && wtest_view_eq(buf, len, want), "%s (flags %u): got %.*s, want %s",
              input, (unsigned)flags, st == WURL_OK ? (int)len : 0, buf, want);
}

int main(int argc, char **argv)
{
    const char *input = "http://fa\xc3\x9f.de/a\\b/../c";
    check(input, WURL_FLAG_URL_STANDARD, "http://xn--fa-hia.de/a/c");
    check(input, 0, "http://fass.de/a/c");
    /* The key call: rules and SURT on the URL Standard's result. */
    {
        wurl_rules *r = NULL;
        CHECK(wurl_rules_compile(S("strip-www,sort-query"), &r, NULL, 0) == WURL_OK);
        char buf[256];
        size_t len = 0;
        const char *in = "http://www.fa\xc3\x9f.de/?b&a";
        CHECK(wurl_canon_key_into(NULL, in, strlen(in), NULL, 0, WURL_FLAG_URL_STANDARD, r,
                                  WURL_KEY_SURT, buf, sizeof buf, &len) == WURL_OK);
        CHECK(wtest_view_eq(buf, len, "de,xn--fa-hia)/?a&b"));
        wurl_rules_free(r);
    }
    /* Refused: with the network-strict flag, and by wurl_canonicalize. */
    {
        char buf[64];
        size_t len = 0;
        CHECK(wurl_canon_into(NULL, S("http://a/"), NULL, 0,
                              WURL_FLAG_URL_STANDARD | WURL_FLAG_NETWORK_STRICT, buf, sizeof buf,
                              &len) == WURL_E_BAD_ARG);
        wurl_url *u = NULL, *c = NULL;
        CHECK(wurl_parse(S("http://a/"), 0, &u) == WURL_OK);
        CHECK(wurl_canonicalize(u, NULL, 0, WURL_FLAG_URL_STANDARD, &c) == WURL_E_BAD_ARG);
        CHECK(c == NULL);
        wurl_free(u);
        /* A URL the standard's parser rejects: WURL_INVALID_URL. */
        CHECK(wurl_canon_into(NULL, S("http://a:99999/"), NULL, 0, WURL_FLAG_URL_STANDARD, buf,
                              sizeof buf, &len) == WURL_INVALID_URL);
    }
    if (argc > 1)
        run_data(argv[1]);
    else
        CHECK_MSG(0, "usage: test_standard tests/data/wpt/urltestdata-href.json");
    return wtest_finish("test_standard");
}
