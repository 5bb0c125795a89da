/* The C ABI contract of wurl, function by function: argument checking,
 * absent versus present-empty components, views, statuses, flags. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wurl.h"
#include "wtest.h"

/* A pointer value that no constructor returns: constructors must leave *out
 * untouched on error. */
#define SENTINEL ((wurl_url *)(uintptr_t)0x5a5a5a50u)

static wurl_url *parse(const char *s, size_t n)
{
    wurl_url *u = NULL;
    wurl_status st = wurl_parse(s, n, 0, &u);
    CHECK_MSG(st == WURL_OK && u != NULL, "wurl_parse: %s", wurl_status_str(st));
    return u;
}

static wurl_url *parse_cs(const char *s) { return parse(s, strlen(s)); }

static wurl_url *resolve_cs(const wurl_url *base, const char *s)
{
    wurl_url *u = NULL;
    wurl_status st = wurl_resolve(base, s, strlen(s), 0, &u);
    CHECK_MSG(st == WURL_OK && u != NULL, "wurl_resolve: %s", wurl_status_str(st));
    return u;
}

static wurl_url *canon(const wurl_url *url, const char *charset, uint32_t flags)
{
    wurl_url *u = NULL;
    wurl_status st = wurl_canonicalize(url, charset, charset ? strlen(charset) : 0, flags, &u);
    CHECK_MSG(st == WURL_OK && u != NULL, "wurl_canonicalize: %s", wurl_status_str(st));
    return u;
}

/* The full pipeline: parse base (or input), resolve, canonicalize. */
static wurl_url *pipeline(const char *input, const char *base, const char *charset, uint32_t flags)
{
    wurl_url *b = parse_cs(base ? base : input);
    wurl_url *r = resolve_cs(b, input);
    wurl_url *c = canon(r, charset, flags);
    wurl_free(b);
    wurl_free(r);
    return c;
}

static void test_version_and_status(void)
{
    const char *v = wurl_version();
    CHECK(v != NULL);
    CHECK(v != NULL && strcmp(v, WURL_VERSION) == 0);
    CHECK(wurl_version() == v); /* static */

    /* The key version is the one CHANGELOG.md names (CMake reads it from there). */
    CHECK_MSG(wurl_key_version() == WURL_TEST_KEY_VERSION, "wurl_key_version() is %u, CHANGELOG.md names %u",
              (unsigned)wurl_key_version(), (unsigned)WURL_TEST_KEY_VERSION);

    /* The numeric macros spell the same version, and work in #if. */
#if !defined(WURL_VERSION_MAJOR) || !defined(WURL_VERSION_MINOR) || !defined(WURL_VERSION_PATCH)
#error "wurl.h must define WURL_VERSION_MAJOR, _MINOR and _PATCH"
#endif
    char numeric[64];
    snprintf(numeric, sizeof numeric, "%d.%d.%d", WURL_VERSION_MAJOR, WURL_VERSION_MINOR, WURL_VERSION_PATCH);
    CHECK_MSG(strcmp(numeric, WURL_VERSION) == 0, "numeric macros give %s, WURL_VERSION is %s", numeric,
              WURL_VERSION);

    const wurl_status all[] = {WURL_OK,      WURL_E_NULL_ARG,         WURL_E_BAD_ARG,   WURL_E_TOO_LONG,
                               WURL_E_PANIC, WURL_E_BUFFER_TOO_SMALL, WURL_INVALID_URL, WURL_E_BAD_RULES,
                               WURL_E_UNKNOWN_CHARSET, WURL_E_BAD_STATE};
    const size_t n = sizeof all / sizeof all[0];
    const char *unknown = wurl_status_str(99);
    CHECK(unknown != NULL && strcmp(unknown, "unknown status") == 0);
    CHECK(wurl_status_str(-1) != NULL && strcmp(wurl_status_str(-1), "unknown status") == 0);
    CHECK(wurl_status_str(INT32_MAX) != NULL);
    CHECK(wurl_status_str(INT32_MIN) != NULL);
    for (size_t i = 0; i < n; i++) {
        const char *si = wurl_status_str(all[i]);
        CHECK_MSG(si != NULL && si[0] != '\0', "status %d", (int)all[i]);
        if (si == NULL)
            continue;
        CHECK_MSG(strcmp(si, unknown) != 0, "status %d is described as unknown", (int)all[i]);
        for (size_t j = 0; j < i; j++) {
            const char *sj = wurl_status_str(all[j]);
            CHECK_MSG(sj == NULL || strcmp(si, sj) != 0, "statuses %d and %d share \"%s\"", (int)all[i],
                      (int)all[j], si);
        }
    }
    /* Distinct values, too. */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            CHECK(all[i] != all[j]);
}

static void test_null_arguments(void)
{
    wurl_url *out = SENTINEL;
    const char *p = (const char *)"x";
    size_t len = 77;
    wurl_url *u = parse_cs("http://a/b?c#d");

    /* wurl_free(NULL) does nothing. */
    wurl_free(NULL);

    /* wurl_parse */
    CHECK(wurl_parse(S("http://a/"), 0, NULL) == WURL_E_NULL_ARG);
    CHECK(wurl_parse(NULL, 5, 0, &out) == WURL_E_NULL_ARG);
    CHECK(out == SENTINEL);
    CHECK(wurl_parse(NULL, (size_t)-1, 0, &out) == WURL_E_NULL_ARG);
    CHECK(out == SENTINEL);
    /* (NULL, 0) is the empty string: parsed, found invalid (no scheme). */
    out = SENTINEL;
    CHECK(wurl_parse(NULL, 0, 0, &out) == WURL_OK);
    CHECK(out != SENTINEL && out != NULL);
    if (out != SENTINEL && out != NULL) {
        CHECK(wurl_is_invalid(out));
        CHECK(wtest_comp_is(out, WURL_COMPONENT_PATH, ""));
        CHECK(wtest_comp_is(out, WURL_COMPONENT_SCHEME, NULL));
        CHECK(wtest_ser_is(out, NULL));
        wurl_free(out);
    }
    /* (p, 0) is the empty string too. */
    out = SENTINEL;
    CHECK(wurl_parse("http://ignored/", 0, 0, &out) == WURL_OK);
    if (out != SENTINEL && out != NULL) {
        CHECK(wurl_is_invalid(out));
        CHECK(wtest_comp_is(out, WURL_COMPONENT_PATH, ""));
        wurl_free(out);
    }

    /* wurl_resolve */
    out = SENTINEL;
    CHECK(wurl_resolve(NULL, S("x"), 0, &out) == WURL_E_NULL_ARG);
    CHECK(out == SENTINEL);
    CHECK(wurl_resolve(u, S("x"), 0, NULL) == WURL_E_NULL_ARG);
    CHECK(wurl_resolve(u, NULL, 3, 0, &out) == WURL_E_NULL_ARG);
    CHECK(out == SENTINEL);
    CHECK(wurl_resolve(NULL, NULL, 0, 0, NULL) == WURL_E_NULL_ARG);
    /* (NULL, 0): the empty reference is the base without its fragment. */
    CHECK(wurl_resolve(u, NULL, 0, 0, &out) == WURL_OK);
    if (out != SENTINEL && out != NULL) {
        CHECK(!wurl_is_invalid(out));
        CHECK(wtest_comp_is(out, WURL_COMPONENT_PATH, "/b"));
        CHECK(wtest_comp_is(out, WURL_COMPONENT_QUERY, "c"));
        CHECK(wtest_comp_is(out, WURL_COMPONENT_FRAGMENT, NULL));
        wurl_free(out);
    }

    /* wurl_canonicalize */
    out = SENTINEL;
    CHECK(wurl_canonicalize(NULL, NULL, 0, 0, &out) == WURL_E_NULL_ARG);
    CHECK(out == SENTINEL);
    CHECK(wurl_canonicalize(u, NULL, 0, 0, NULL) == WURL_E_NULL_ARG);
    CHECK(wurl_canonicalize(u, NULL, 4, 0, &out) == WURL_E_NULL_ARG);
    CHECK(out == SENTINEL);
    /* (NULL, 0) charset is UTF-8. */
    CHECK(wurl_canonicalize(u, NULL, 0, 0, &out) == WURL_OK);
    if (out != SENTINEL && out != NULL) {
        CHECK(!wurl_is_invalid(out));
        CHECK(wtest_ser_is(out, "http://a/b?c#d"));
        wurl_free(out);
    }

    /* wurl_canon_into */
    {
        char buf[64];
        size_t n = 999;
        CHECK(wurl_canon_into(NULL, S("http://a/"), NULL, 0, 0, buf, sizeof buf, NULL) == WURL_E_NULL_ARG);
        CHECK(wurl_canon_into(NULL, S("http://a/"), NULL, 0, 0, NULL, 10, &n) == WURL_E_NULL_ARG);
        CHECK(n == 999);
        CHECK(wurl_canon_into(NULL, NULL, 3, NULL, 0, 0, buf, sizeof buf, &n) == WURL_E_NULL_ARG);
        CHECK(n == 999);
        CHECK(wurl_canon_into(NULL, S("http://a/"), NULL, 5, 0, buf, sizeof buf, &n) == WURL_E_NULL_ARG);
        CHECK(n == 999);
        CHECK(wurl_canon_into(u, NULL, 3, NULL, 0, 0, buf, sizeof buf, &n) == WURL_E_NULL_ARG);
        CHECK(n == 999);
        /* buf may be NULL when buf_cap is 0: the needed length comes back. */
        CHECK(wurl_canon_into(NULL, S("http://a/"), NULL, 0, 0, NULL, 0, &n) == WURL_E_BUFFER_TOO_SMALL);
        CHECK(n == 9);
    }

    /* Readers with a NULL handle. */
    p = (const char *)"x";
    len = 77;
    CHECK(!wurl_serialize(NULL, &p, &len));
    CHECK(p == NULL && len == 0);
    CHECK(!wurl_serialize(NULL, NULL, NULL));
    for (wurl_component c = 0; c < 8; c++) {
        p = (const char *)"x";
        len = 77;
        CHECK(!wurl_get(NULL, c, &p, &len));
        CHECK(p == NULL && len == 0);
        CHECK(!wurl_get(NULL, c, NULL, NULL));
    }
    CHECK(!wurl_is_invalid(NULL));
    CHECK(wurl_invalid_reason(NULL) == NULL);
    CHECK(wurl_host_kind(NULL) == WURL_HOST_NONE);

    /* Either out pointer of a view may be NULL. */
    CHECK(wurl_get(u, WURL_COMPONENT_HOST, NULL, NULL));
    len = 0;
    CHECK(wurl_get(u, WURL_COMPONENT_HOST, NULL, &len));
    CHECK(len == 1);
    p = NULL;
    CHECK(wurl_get(u, WURL_COMPONENT_HOST, &p, NULL));
    CHECK(p != NULL && strcmp(p, "a") == 0);
    CHECK(wurl_serialize(u, NULL, NULL));
    len = 0;
    CHECK(wurl_serialize(u, NULL, &len));
    CHECK(len == strlen("http://a/b?c#d"));
    p = NULL;
    CHECK(wurl_serialize(u, &p, NULL));
    CHECK(p != NULL && strcmp(p, "http://a/b?c#d") == 0);
    p = (const char *)"x";
    CHECK(!wurl_get(u, WURL_COMPONENT_PORT, &p, NULL));
    CHECK(p == NULL);
    len = 5;
    CHECK(!wurl_get(u, WURL_COMPONENT_PORT, NULL, &len));
    CHECK(len == 0);

    wurl_free(u);
}

static void test_flags_and_components(void)
{
    wurl_url *out = SENTINEL;
    wurl_url *u = parse_cs("http://a/");
    char buf[64];
    size_t n = 999;

    CHECK(wurl_parse(S("http://a/"), 1, &out) == WURL_E_BAD_ARG);
    CHECK(wurl_parse(S("http://a/"), WURL_FLAG_NETWORK_STRICT, &out) == WURL_E_BAD_ARG);
    CHECK(wurl_parse(S("http://a/"), 0x80000000u, &out) == WURL_E_BAD_ARG);
    CHECK(out == SENTINEL);
    CHECK(wurl_resolve(u, S("b"), 1, &out) == WURL_E_BAD_ARG);
    CHECK(wurl_resolve(u, S("b"), 0xffffffffu, &out) == WURL_E_BAD_ARG);
    CHECK(out == SENTINEL);
    CHECK(wurl_canonicalize(u, NULL, 0, 2, &out) == WURL_E_BAD_ARG);
    CHECK(wurl_canonicalize(u, NULL, 0, WURL_FLAG_NETWORK_STRICT | 0x100u, &out) == WURL_E_BAD_ARG);
    CHECK(out == SENTINEL);
    CHECK(wurl_canon_into(u, S("b"), NULL, 0, 8, buf, sizeof buf, &n) == WURL_E_BAD_ARG);
    CHECK(wurl_canon_into(NULL, S("http://a/"), NULL, 0, 0x80000000u, buf, sizeof buf, &n) == WURL_E_BAD_ARG);
    CHECK(n == 999);
    /* The one known flag is accepted. */
    CHECK(wurl_canonicalize(u, NULL, 0, WURL_FLAG_NETWORK_STRICT, &out) == WURL_OK);
    if (out != SENTINEL) {
        wurl_free(out);
        out = SENTINEL;
    }
    CHECK(wurl_canon_into(NULL, S("http://a/"), NULL, 0, WURL_FLAG_NETWORK_STRICT, buf, sizeof buf, &n) ==
          WURL_OK);

    /* Unknown components: false and (NULL, 0). */
    const wurl_component bad[] = {8, 9, 99, 0x7fffffffu, 0xffffffffu};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *p = (const char *)"x";
        size_t len = 5;
        CHECK_MSG(!wurl_get(u, bad[i], &p, &len), "component %u", (unsigned)bad[i]);
        CHECK_MSG(p == NULL && len == 0, "component %u", (unsigned)bad[i]);
    }
    wurl_free(u);
}

/* `input` parsed: component `which` is present-empty; `input2` parsed:
 * the same component is absent. */
static void absent_vs_empty(wurl_component which, const char *empty_in, const char *absent_in)
{
    wurl_url *a = parse_cs(empty_in);
    wurl_url *b = parse_cs(absent_in);
    const char *p = NULL;
    size_t len = 99;
    CHECK_MSG(wurl_get(a, which, &p, &len), "%s: component %u must be present", empty_in, (unsigned)which);
    CHECK_MSG(p != NULL && len == 0 && p[0] == '\0', "%s: component %u must be empty", empty_in,
              (unsigned)which);
    CHECK_MSG(wtest_comp_is(b, which, NULL), "%s: component %u must be absent", absent_in, (unsigned)which);
    wurl_free(a);
    wurl_free(b);
}

static void test_absent_vs_empty(void)
{
    absent_vs_empty(WURL_COMPONENT_QUERY, "http://a/?", "http://a/");
    absent_vs_empty(WURL_COMPONENT_FRAGMENT, "http://a/#", "http://a/");
    absent_vs_empty(WURL_COMPONENT_USER, "http://@a/", "http://a/");
    absent_vs_empty(WURL_COMPONENT_PASSWORD, "http://:@a/", "http://@a/");
    absent_vs_empty(WURL_COMPONENT_PORT, "http://a:/", "http://a/");
    absent_vs_empty(WURL_COMPONENT_HOST, "http:///x", "mailto:x");
    /* The path is always present (possibly empty), even when invalid. */
    {
        wurl_url *u = parse_cs(":abc");
        CHECK(wurl_is_invalid(u));
        CHECK(wtest_comp_is(u, WURL_COMPONENT_SCHEME, NULL));
        CHECK(wtest_comp_is(u, WURL_COMPONENT_PATH, ":abc"));
        wurl_free(u);
        u = parse_cs("http://a");
        CHECK(wtest_comp_is(u, WURL_COMPONENT_PATH, ""));
        wurl_free(u);
    }

    /* The whole record of http://@a/?#, component by component. */
    wurl_url *u = parse_cs("http://@a/?#");
    CHECK(!wurl_is_invalid(u));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_SCHEME, "http"));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_USER, ""));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_PASSWORD, NULL));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_HOST, "a"));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_PORT, NULL));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_PATH, "/"));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_QUERY, ""));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_FRAGMENT, ""));
    wurl_free(u);

    /* Canonicalization keeps the difference. */
    u = pipeline("http://a/?#", NULL, NULL, 0);
    CHECK(wtest_ser_is(u, "http://a/?#"));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_QUERY, ""));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_FRAGMENT, ""));
    wurl_free(u);
    u = pipeline("http://a/", NULL, NULL, 0);
    CHECK(wtest_ser_is(u, "http://a/"));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_QUERY, NULL));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_FRAGMENT, NULL));
    wurl_free(u);
}

static void test_embedded_nul_and_utf8(void)
{
    /* Inputs are (ptr, len): a NUL is an ordinary byte. */
    static const char in[] = "http://a/b\0c?d\0e";
    wurl_url *u = parse(in, sizeof in - 1);
    const char *p = NULL;
    size_t len = 0;
    CHECK(!wurl_is_invalid(u));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_HOST, "a"));
    CHECK(wurl_get(u, WURL_COMPONENT_PATH, &p, &len));
    CHECK(len == 4 && p != NULL && memcmp(p, "/b\0c", 4) == 0 && p[4] == '\0');
    CHECK(wurl_get(u, WURL_COMPONENT_QUERY, &p, &len));
    CHECK(len == 3 && p != NULL && memcmp(p, "d\0e", 3) == 0 && p[3] == '\0');
    wurl_free(u);

    /* Canonicalized, the NUL is percent-encoded. */
    wurl_url *b = parse(in, sizeof in - 1);
    wurl_url *r = NULL;
    CHECK(wurl_resolve(b, in, sizeof in - 1, 0, &r) == WURL_OK);
    wurl_url *c = canon(r, NULL, 0);
    CHECK(wtest_ser_is(c, "http://a/b%00c?d%00e"));
    wurl_free(b);
    wurl_free(r);
    wurl_free(c);

    /* Invalid UTF-8: one U+FFFD per maximal invalid subpart. */
    u = parse(S("http://a/\xff\xed\xa0\x80z"));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_PATH,
                        "/\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdz"));
    wurl_free(u);
    u = parse(S("http://a/\xe2\x82"));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_PATH, "/\xef\xbf\xbd"));
    wurl_free(u);

    /* Too long: refused before it is read. */
    {
        size_t big = (size_t)WURL_MAX_INPUT_LEN + 1;
        char *mem = calloc(big, 1);
        wurl_url *out = SENTINEL;
        size_t n = 999;
        CHECK(mem != NULL);
        if (mem != NULL) {
            CHECK(wurl_parse(mem, big, 0, &out) == WURL_E_TOO_LONG);
            CHECK(out == SENTINEL);
            CHECK(wurl_canon_into(NULL, mem, big, NULL, 0, 0, NULL, 0, &n) == WURL_E_TOO_LONG);
            CHECK(n == 999);
            wurl_url *base = parse_cs("http://a/");
            CHECK(wurl_resolve(base, mem, big, 0, &out) == WURL_E_TOO_LONG);
            CHECK(out == SENTINEL);
            CHECK(wurl_canonicalize(base, mem, big, 0, &out) == WURL_E_TOO_LONG);
            CHECK(out == SENTINEL);
            wurl_free(base);
            free(mem);
        }
    }
}

static void test_invalid_urls(void)
{
    /* No scheme: invalid, but the components stay readable. */
    wurl_url *u = parse_cs("foo");
    CHECK(wurl_is_invalid(u));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_PATH, "foo"));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_SCHEME, NULL));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_HOST, NULL));
    CHECK(wtest_ser_is(u, NULL));
    const char *why = wurl_invalid_reason(u);
    CHECK(why != NULL && why[0] != '\0');
    if (why != NULL)
        printf("invalid_reason(parse(\"foo\")) = \"%s\"\n", why);

    /* Resolving against an invalid base gives an invalid result. */
    wurl_url *r = resolve_cs(u, "http://x/");
    CHECK(wurl_is_invalid(r));
    CHECK(wtest_ser_is(r, NULL));
    CHECK(wurl_invalid_reason(r) != NULL);
    /* Canonicalizing keeps it invalid. */
    wurl_url *c = canon(r, NULL, 0);
    CHECK(wurl_is_invalid(c));
    CHECK(wtest_ser_is(c, NULL));
    CHECK(wurl_invalid_reason(c) != NULL);
    wurl_free(c);
    wurl_free(r);
    wurl_free(u);

    /* Relative reference against a non-hierarchical base. */
    u = parse_cs("mailto:foo");
    CHECK(!wurl_is_invalid(u));
    CHECK(wurl_invalid_reason(u) == NULL);
    r = resolve_cs(u, "hoge");
    CHECK(wurl_is_invalid(r));
    CHECK(wurl_invalid_reason(r) != NULL);
    CHECK(wtest_ser_is(r, NULL));
    wurl_free(r);
    wurl_free(u);

    /* Valid URLs have no reason. */
    u = parse_cs("http://a/");
    CHECK(wurl_invalid_reason(u) == NULL);
    CHECK(wtest_ser_is(u, "http://a/"));
    wurl_free(u);

    /* An invalid host makes canonicalization invalid. */
    u = pipeline("http://a:b/", NULL, NULL, 0); /* port not numeric */
    CHECK(wurl_is_invalid(u));
    CHECK(wurl_invalid_reason(u) != NULL);
    CHECK(wtest_ser_is(u, NULL));
    wurl_free(u);
    u = pipeline("http://%5B:80%5D/", NULL, NULL, 0); /* host begins with %5B */
    CHECK(wurl_is_invalid(u));
    wurl_free(u);
}

static void test_views_stable(void)
{
    wurl_url *a = parse_cs("http://user:pw@host.example:8080/p/q?query#frag");
    const char *views[9];
    size_t lens[9];
    for (wurl_component c = 0; c < 8; c++)
        CHECK(wurl_get(a, c, &views[c], &lens[c]));
    CHECK(wurl_serialize(a, &views[8], &lens[8]));
    char *copies[9];
    for (int i = 0; i < 9; i++) {
        copies[i] = malloc(lens[i] + 1);
        memcpy(copies[i], views[i], lens[i] + 1);
    }

    /* Lots of other work, allocations and frees on other handles. */
    for (int round = 0; round < 200; round++) {
        char in[64];
        snprintf(in, sizeof in, "HTTP://H%d.Example/%d/../x?%d#%d", round, round, round, round);
        wurl_url *b = parse_cs(in);
        wurl_url *r = resolve_cs(b, "../y/./z");
        wurl_url *c = canon(r, "euc-jp", 0);
        const char *p;
        size_t n;
        (void)wurl_serialize(c, &p, &n);
        (void)wurl_get(a, WURL_COMPONENT_PATH, &p, &n);
        wurl_free(c);
        wurl_free(r);
        wurl_free(b);
        void *junk = malloc(64 + (size_t)round);
        memset(junk, 0xa5, 64 + (size_t)round);
        free(junk);
    }
    /* wurl_canonicalize leaves its input untouched. */
    wurl_url *ca = canon(a, NULL, 0);
    wurl_free(ca);

    for (wurl_component c = 0; c < 8; c++) {
        const char *p = NULL;
        size_t n = 0;
        CHECK(wurl_get(a, c, &p, &n));
        CHECK_MSG(p == views[c] && n == lens[c], "component %u moved", (unsigned)c);
        CHECK_MSG(memcmp(views[c], copies[c], lens[c] + 1) == 0, "component %u changed", (unsigned)c);
    }
    {
        const char *p = NULL;
        size_t n = 0;
        CHECK(wurl_serialize(a, &p, &n));
        CHECK(p == views[8] && n == lens[8]);
        CHECK(memcmp(views[8], copies[8], lens[8] + 1) == 0);
        CHECK(strcmp(views[8], "http://user:pw@host.example:8080/p/q?query#frag") == 0);
    }
    CHECK(wtest_comp_is(a, WURL_COMPONENT_PORT, "8080"));
    CHECK(wtest_comp_is(a, WURL_COMPONENT_PASSWORD, "pw"));
    for (int i = 0; i < 9; i++)
        free(copies[i]);
    wurl_free(a);
}

static void test_canonicalize(void)
{
    /* Parse then canonicalize alone. */
    wurl_url *u = parse_cs("HTTP://Example.COM:80/a/b");
    wurl_url *c = canon(u, NULL, 0);
    CHECK(wtest_ser_is(c, "http://example.com/a/b"));
    CHECK(wtest_comp_is(c, WURL_COMPONENT_SCHEME, "http"));
    CHECK(wtest_comp_is(c, WURL_COMPONENT_HOST, "example.com"));
    CHECK(wtest_comp_is(c, WURL_COMPONENT_PORT, NULL));
    CHECK(wurl_host_kind(c) == WURL_HOST_DOMAIN);
    /* The input handle is untouched. */
    CHECK(wtest_comp_is(u, WURL_COMPONENT_SCHEME, "HTTP"));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_HOST, "Example.COM"));
    CHECK(wtest_comp_is(u, WURL_COMPONENT_PORT, "80"));
    wurl_free(c);
    wurl_free(u);

    /* The full pipeline, with dot-segments. */
    c = pipeline("HTTP://Example.COM:80/a/./b", NULL, NULL, 0);
    CHECK(wtest_ser_is(c, "http://example.com/a/b"));
    CHECK(!wurl_is_invalid(c));
    wurl_free(c);
    c = pipeline("../a/./b", "http://EXAMPLE.com:80/x/y", NULL, 0);
    CHECK(wtest_ser_is(c, "http://example.com/a/b"));
    wurl_free(c);

    /* Charsets apply to the query. */
    c = pipeline("?\xe5\x81\x90", "http://hoge", NULL, 0);
    CHECK(wtest_ser_is(c, "http://hoge/?%E5%81%90"));
    wurl_free(c);
    c = pipeline("?\xe5\x81\x90", "http://hoge", "euc-jp", 0);
    CHECK(wtest_ser_is(c, "http://hoge/?%D0%F4"));
    wurl_free(c);
    c = pipeline("?\xe5\x81\x90", "http://hoge", "iso-8859-1", 0);
    CHECK(wtest_ser_is(c, "http://hoge/??"));
    wurl_free(c);
    c = pipeline("?\xe5\x81\x90", "http://hoge", "no-such-charset", 0); /* unknown: UTF-8 */
    CHECK(wtest_ser_is(c, "http://hoge/?%E5%81%90"));
    wurl_free(c);

    /* Host kinds of canonicalized URLs. */
    c = pipeline("http://127.0.0.1/", NULL, NULL, 0);
    CHECK(wurl_host_kind(c) == WURL_HOST_IPV4);
    wurl_free(c);
    c = pipeline("http://0x7f.1/", NULL, NULL, 0);
    CHECK(wtest_comp_is(c, WURL_COMPONENT_HOST, "127.0.0.1"));
    CHECK(wurl_host_kind(c) == WURL_HOST_IPV4);
    wurl_free(c);
    c = pipeline("http://[0::1]/", NULL, NULL, 0);
    CHECK(wtest_comp_is(c, WURL_COMPONENT_HOST, "[::1]"));
    CHECK(wurl_host_kind(c) == WURL_HOST_IPV6);
    wurl_free(c);
    c = pipeline("http:///x", NULL, NULL, 0);
    CHECK(wurl_host_kind(c) == WURL_HOST_EMPTY);
    CHECK(wtest_ser_is(c, "http:///x"));
    wurl_free(c);
    c = pipeline("mailto:a@b", NULL, NULL, 0);
    CHECK(wurl_host_kind(c) == WURL_HOST_NONE);
    wurl_free(c);
    c = pipeline("http://\xe3\x81\x82.example/", NULL, NULL, 0); /* IDN */
    CHECK(wtest_comp_is(c, WURL_COMPONENT_HOST, "xn--l8j.example"));
    CHECK(wurl_host_kind(c) == WURL_HOST_DOMAIN);
    wurl_free(c);
    /* On a raw parsed URL, 0x7f.1 is a domain. */
    u = parse_cs("http://0x7f.1/");
    CHECK(wurl_host_kind(u) == WURL_HOST_DOMAIN);
    wurl_free(u);

    /* WURL_FLAG_NETWORK_STRICT rejects an empty host for http (the
     * StrictEmptyHost rule); without the flag, http:///x is valid. */
    c = pipeline("http:///x", NULL, NULL, WURL_FLAG_NETWORK_STRICT);
    CHECK(wurl_is_invalid(c));
    CHECK(wurl_invalid_reason(c) != NULL);
    wurl_free(c);
    c = pipeline("http://example.com/x", NULL, NULL, WURL_FLAG_NETWORK_STRICT);
    CHECK(!wurl_is_invalid(c));
    CHECK(wtest_ser_is(c, "http://example.com/x"));
    wurl_free(c);
}

static void test_canon_into(void)
{
    static const char in[] = "HTTP://Example.COM:80/a/./b";
    const char *want = "http://example.com/a/b";
    char buf[64];
    size_t n = 0;

    /* Size query. */
    wurl_status st = wurl_canon_into(NULL, S(in), NULL, 0, 0, NULL, 0, &n);
    CHECK(st == WURL_E_BUFFER_TOO_SMALL);
    CHECK(n == strlen(want));
    size_t need = n;

    /* Exactly `need` bytes is too small (no room for the NUL): nothing but
     * *out_len is written. */
    if (need < sizeof buf) {
        memset(buf, '#', sizeof buf);
        n = 0;
        CHECK(wurl_canon_into(NULL, S(in), NULL, 0, 0, buf, need, &n) == WURL_E_BUFFER_TOO_SMALL);
        CHECK(n == need);
        int untouched = 1;
        for (size_t i = 0; i < sizeof buf; i++)
            untouched &= buf[i] == '#';
        CHECK(untouched);
        /* need + 1 fits. */
        n = 0;
        CHECK(wurl_canon_into(NULL, S(in), NULL, 0, 0, buf, need + 1, &n) == WURL_OK);
        CHECK(n == need && buf[n] == '\0' && strlen(buf) == n);
        CHECK(buf[need + 1] == '#');
        CHECK(strcmp(buf, want) == 0);
    }
    n = 0;
    CHECK(wurl_canon_into(NULL, S(in), NULL, 0, 0, buf, sizeof buf, &n) == WURL_OK);
    CHECK(n == strlen(want) && strcmp(buf, want) == 0);

    /* The same as the handle pipeline. */
    wurl_url *c = pipeline(in, NULL, NULL, 0);
    const char *p = NULL;
    size_t pl = 0;
    CHECK(wurl_serialize(c, &p, &pl));
    CHECK(p != NULL && pl == n && memcmp(p, buf, n) == 0);
    wurl_free(c);

    /* With a base. */
    wurl_url *base = parse_cs("http://EXAMPLE.com:80/x/y");
    n = 0;
    CHECK(wurl_canon_into(base, S("../a/./b"), NULL, 0, 0, buf, sizeof buf, &n) == WURL_OK);
    CHECK(n == strlen(want) && strcmp(buf, want) == 0);
    /* With a charset. */
    CHECK(wurl_canon_into(base, S("?\xe5\x81\x90"), S("euc-jp"), 0, buf, sizeof buf, &n) == WURL_OK);
    CHECK(strcmp(buf, "http://example.com/x/y?%D0%F4") == 0);
    wurl_free(base);

    /* Invalid: WURL_INVALID_URL, nothing written to buf. */
    memset(buf, '#', sizeof buf);
    n = 12345;
    CHECK(wurl_canon_into(NULL, S("foo"), NULL, 0, 0, buf, sizeof buf, &n) == WURL_INVALID_URL);
    CHECK(buf[0] == '#');
    wurl_url *mail = parse_cs("mailto:foo");
    CHECK(wurl_canon_into(mail, S("hoge"), NULL, 0, 0, buf, sizeof buf, &n) == WURL_INVALID_URL);
    CHECK(buf[0] == '#');
    /* Invalid even with no room at all. */
    CHECK(wurl_canon_into(mail, S("hoge"), NULL, 0, 0, NULL, 0, &n) == WURL_INVALID_URL);
    wurl_free(mail);
    CHECK(wurl_canon_into(NULL, S("http://a:b/"), NULL, 0, 0, buf, sizeof buf, &n) == WURL_INVALID_URL);

    /* Empty input with no base: invalid (no scheme). */
    CHECK(wurl_canon_into(NULL, NULL, 0, NULL, 0, 0, buf, sizeof buf, &n) == WURL_INVALID_URL);

    /* Many calls in a row (the allocation-free steady state). */
    for (int i = 0; i < 1000; i++) {
        n = 0;
        CHECK(wurl_canon_into(NULL, S("http://example.com/p?q#f"), NULL, 0, 0, buf, sizeof buf, &n) == WURL_OK);
        if (n != strlen("http://example.com/p?q#f"))
            break;
    }
}

static void test_charset_known(void)
{
    /* WHATWG labels, ASCII case-insensitive, surrounding whitespace ignored. */
    CHECK(wurl_charset_known(S("shift_jis")));
    CHECK(wurl_charset_known(S(" Windows-1252\t")));
    CHECK(wurl_charset_known(S("latin1")));
    CHECK(wurl_charset_known(S("utf-16le")));
    /* A misspelt label, which canonicalization would read as UTF-8. */
    CHECK(!wurl_charset_known(S("shiftjis")));
    CHECK(!wurl_charset_known(S("utf-7")));
    CHECK(!wurl_charset_known(S("sjis\0")));
    /* No label, and arguments that cannot be read. */
    CHECK(!wurl_charset_known(NULL, 0));
    CHECK(!wurl_charset_known("sjis", 0));
    CHECK(!wurl_charset_known(NULL, 4));
    CHECK(!wurl_charset_known("sjis", (size_t)WURL_MAX_INPUT_LEN + 1));
}

/* Opt-in refusal of an unknown label, and the one message for it. */
static void test_charset_strict(void)
{
    char buf[256], msg[WURL_CHARSET_MESSAGE_MAX + 1];
    size_t n = 7;
    wurl_url *u = NULL, *out = NULL;
    const wurl_url *sentinel = (const wurl_url *)&n;
    CHECK(wurl_parse(S("http://hoge/?\xE5\x81\x90"), 0, &u) == WURL_OK);

    /* Without the flag an unknown label means UTF-8, as before. */
    CHECK(wurl_canon_into(u, S("?\xE5\x81\x90"), S("shiftjis"), 0, buf, sizeof buf, &n) == WURL_OK);
    CHECK(strcmp(buf, "http://hoge/?%E5%81%90") == 0);
    /* With it: the status, nothing written. */
    n = 7;
    strcpy(buf, "untouched");
    CHECK(wurl_canon_into(u, S("?x"), S("shiftjis"), WURL_FLAG_CHARSET_STRICT, buf, sizeof buf, &n) ==
          WURL_E_UNKNOWN_CHARSET);
    CHECK(n == 7 && strcmp(buf, "untouched") == 0);
    out = (wurl_url *)sentinel;
    CHECK(wurl_canonicalize(u, S("shiftjis"), WURL_FLAG_CHARSET_STRICT, &out) == WURL_E_UNKNOWN_CHARSET);
    CHECK(out == sentinel);
    CHECK(wurl_canon_key_into(u, S("?x"), S("utf-7"), WURL_FLAG_CHARSET_STRICT, NULL, 0, buf, sizeof buf, &n) ==
          WURL_E_UNKNOWN_CHARSET);
    CHECK(wurl_canon_into(u, S("?x"), S("shiftjis"), WURL_FLAG_CHARSET_STRICT | WURL_FLAG_URL_STANDARD, buf,
                          sizeof buf, &n) == WURL_E_UNKNOWN_CHARSET);
    CHECK(wurl_canon_into(u, S("?x"), S("shiftjis"), WURL_FLAG_CHARSET_STRICT | WURL_FLAG_NETWORK_STRICT, buf,
                          sizeof buf, &n) == WURL_E_UNKNOWN_CHARSET);
    /* The empty label names no encoding; no label (NULL) is UTF-8. */
    CHECK(wurl_canon_into(u, S("?x"), "", 0, WURL_FLAG_CHARSET_STRICT, buf, sizeof buf, &n) ==
          WURL_E_UNKNOWN_CHARSET);
    CHECK(wurl_canon_into(u, S("?x"), NULL, 0, WURL_FLAG_CHARSET_STRICT, buf, sizeof buf, &n) == WURL_OK);
    /* A known label is read as without the flag. */
    CHECK(wurl_canon_into(u, S("?\xE5\x81\x90"), S(" EUC-JP "), WURL_FLAG_CHARSET_STRICT, buf, sizeof buf, &n) ==
          WURL_OK);
    CHECK(strcmp(buf, "http://hoge/?%D0%F4") == 0);
    CHECK(wurl_canonicalize(u, S("euc-jp"), WURL_FLAG_CHARSET_STRICT, &out) == WURL_OK);
    CHECK(wtest_ser_is(out, "http://hoge/?%D0%F4"));
    wurl_free(out);
    /* The argument checks come first. */
    CHECK(wurl_canon_into(u, S("?x"), NULL, 3, WURL_FLAG_CHARSET_STRICT, buf, sizeof buf, &n) == WURL_E_NULL_ARG);
    CHECK(wurl_canon_into(u, S("?x"), "x", (size_t)WURL_MAX_INPUT_LEN + 1, WURL_FLAG_CHARSET_STRICT, buf,
                          sizeof buf, &n) == WURL_E_TOO_LONG);
    CHECK(wurl_canon_into(u, S("?x"), S("shiftjis"), WURL_FLAG_CHARSET_STRICT | 8u, buf, sizeof buf, &n) ==
          WURL_E_BAD_ARG);
    CHECK(strcmp(wurl_status_str(WURL_E_UNKNOWN_CHARSET), "the charset label names no encoding") == 0);

    /* The message. */
    CHECK(wurl_charset_message(S("shiftjs"), msg, sizeof msg) == WURL_E_UNKNOWN_CHARSET);
    CHECK_MSG(strcmp(msg, "unknown charset label \"shiftjs\" (a WHATWG Encoding Standard label, e.g. "
                          "\"utf-8\", \"shift_jis\", \"windows-1252\")") == 0,
              "%s", msg);
    CHECK(wurl_charset_message("", 0, msg, sizeof msg) == WURL_E_UNKNOWN_CHARSET);
    CHECK(strncmp(msg, "unknown charset label \"\" (", 26) == 0);
    CHECK(wurl_charset_message(S("a\"\xFF\xC3\xA9"), msg, sizeof msg) == WURL_E_UNKNOWN_CHARSET);
    {
        const char *want = "unknown charset label \"a\\\"\\xFF\\u{e9}\" (";
        CHECK_MSG(strncmp(msg, want, strlen(want)) == 0, "%s", msg);
    }
    strcpy(msg, "x");
    CHECK(wurl_charset_message(S("Shift_JIS"), msg, sizeof msg) == WURL_OK && msg[0] == '\0');
    strcpy(msg, "x");
    CHECK(wurl_charset_message(NULL, 0, msg, sizeof msg) == WURL_OK && msg[0] == '\0');
    /* Cut to fit, and at most WURL_CHARSET_MESSAGE_MAX bytes whatever the label. */
    char small[10];
    CHECK(wurl_charset_message(S("nope"), small, sizeof small) == WURL_E_UNKNOWN_CHARSET);
    CHECK(strcmp(small, "unknown c") == 0);
    CHECK(wurl_charset_message(S("nope"), NULL, 0) == WURL_E_UNKNOWN_CHARSET);
    static char worst[100000];
    memset(worst, 0xFF, sizeof worst);
    memset(msg, 'z', sizeof msg);
    CHECK(wurl_charset_message(worst, sizeof worst, msg, sizeof msg) == WURL_E_UNKNOWN_CHARSET);
    CHECK(strlen(msg) <= WURL_CHARSET_MESSAGE_MAX && strstr(msg, "(100000 bytes; ") != NULL);
    CHECK(wurl_charset_message(S("x"), NULL, 4) == WURL_E_NULL_ARG);
    CHECK(wurl_charset_message(NULL, 4, msg, sizeof msg) == WURL_E_NULL_ARG);
    CHECK(wurl_charset_message("x", (size_t)WURL_MAX_INPUT_LEN + 1, msg, sizeof msg) == WURL_E_TOO_LONG);
    wurl_free(u);
}

/* A handle's state, exported and imported; bytes that are not a state are refused. */
static void test_state(void)
{
    const char *inputs[] = {"http://user:@Host:80/p?#", "foo", "mailto:a@b", "file:///c:/x", "http://a:99999/"};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        wurl_url *u = NULL, *c = NULL, *back = NULL;
        CHECK(wurl_parse(CS(inputs[i]), 0, &u) == WURL_OK);
        CHECK(wurl_canonicalize(u, NULL, 0, 0, &c) == WURL_OK);
        const wurl_url *hs[] = {u, c};
        for (size_t k = 0; k < 2; k++) {
            size_t need = 0, n = 0;
            unsigned char buf[512];
            memset(buf, 0xA5, sizeof buf);
            CHECK(wurl_state_export(hs[k], NULL, 0, &need) == WURL_E_BUFFER_TOO_SMALL);
            CHECK(need > 5 && need < sizeof buf);
            CHECK(wurl_state_export(hs[k], buf, need - 1, &n) == WURL_E_BUFFER_TOO_SMALL && n == need &&
                  buf[0] == 0xA5);
            CHECK(wurl_state_export(hs[k], buf, sizeof buf, &n) == WURL_OK && n == need && buf[need] == 0xA5);
            CHECK(memcmp(buf, "wurl\x01", 5) == 0);
            CHECK(wurl_state_import(buf, n, &back) == WURL_OK);
            CHECK(wurl_is_invalid(back) == wurl_is_invalid(hs[k]));
            for (wurl_component w = 0; w < 8; w++) {
                const char *p1, *p2;
                size_t l1, l2;
                int a = wurl_get(hs[k], w, &p1, &l1), b = wurl_get(back, w, &p2, &l2);
                CHECK_MSG(a == b && l1 == l2 && (!a || memcmp(p1, p2, l1) == 0), "%s: component %u",
                          inputs[i], (unsigned)w);
            }
            wurl_free(back);
            /* Every truncation and a flipped magic: refused, *out untouched. */
            for (size_t cut = 0; cut < n; cut++) {
                back = (wurl_url *)&n;
                CHECK(wurl_state_import(buf, cut, &back) == WURL_E_BAD_STATE && back == (wurl_url *)&n);
            }
            buf[0] ^= 0x20;
            CHECK(wurl_state_import(buf, n, &back) == WURL_E_BAD_STATE);
        }
        wurl_free(c);
        wurl_free(u);
    }
    wurl_url *out = NULL;
    size_t n = 0;
    CHECK(wurl_state_import(NULL, 0, &out) == WURL_E_BAD_STATE);
    CHECK(wurl_state_import(NULL, 4, &out) == WURL_E_NULL_ARG);
    CHECK(wurl_state_import((const uint8_t *)"wurl", 4, NULL) == WURL_E_NULL_ARG);
    CHECK(wurl_state_export(NULL, NULL, 0, &n) == WURL_E_NULL_ARG);
    CHECK(strcmp(wurl_status_str(WURL_E_BAD_STATE), "the bytes are not a wurl URL state") == 0);
}

int main(void)
{
    test_version_and_status();
    test_null_arguments();
    test_flags_and_components();
    test_absent_vs_empty();
    test_embedded_nul_and_utf8();
    test_invalid_urls();
    test_views_stable();
    test_canonicalize();
    test_canon_into();
    test_charset_known();
    test_charset_strict();
    test_state();
    return wtest_finish("test_api");
}
