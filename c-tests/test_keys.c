/* Keys (issue 28) through the C ABI: rules compiled once and used with the
 * bulk call and the handle path, SURT, bad specifications and hostile
 * arguments, and one rules handle shared by threads (see test_threads.c
 * for the thread conventions; here two threads suffice). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "wurl.h"
#include "wtest.h"

#define SENTINEL ((wurl_rules *)(uintptr_t)0x5a5a5a50u)

/* wurl_canon_key_into(NULL, input) into buf; returns the status. */
static wurl_status key(const char *input, const wurl_rules *rules, uint32_t key_flags, char *buf,
                       size_t cap, size_t *len)
{
    return wurl_canon_key_into(NULL, input, strlen(input), NULL, 0, 0, rules, key_flags, buf, cap,
                               len);
}

static void check_key(const char *input, const wurl_rules *rules, uint32_t key_flags,
                      const char *want)
{
    char buf[512];
    size_t len = 0;
    wurl_status st = key(input, rules, key_flags, buf, sizeof buf, &len);
    CHECK_MSG(st == WURL_OK && len == strlen(want) && memcmp(buf, want, len) == 0 &&
                  buf[len] == '\0',
              "%s (flags %u): status %d, got \"%.*s\", want \"%s\"", input, (unsigned)key_flags,
              (int)st, st == WURL_OK ? (int)len : 0, buf, want);
}

static wurl_rules *compile(const char *spec)
{
    wurl_rules *r = NULL;
    char msg[256] = "";
    wurl_status st = wurl_rules_compile(spec, strlen(spec), &r, msg, sizeof msg);
    CHECK_MSG(st == WURL_OK && r != NULL, "%s: %s", spec, msg);
    return r;
}

static void test_issue_examples(void)
{
    wurl_rules *r =
        compile("drop-fragment,strip-www,sort-query,strip-session-ids,drop-params=utm_*");
    check_key("http://www.Example.com/x;jsessionid=ABC?b=2&utm_source=x&a=1#f", r, 0,
              "http://example.com/x?a=1&b=2");
    check_key("http://www.Example.com/x;jsessionid=ABC?b=2&utm_source=x&a=1#f", r,
              WURL_KEY_SURT, "com,example)/x?a=1&b=2");
    wurl_rules_free(r);
    check_key("http://www.Example.com/a/b?z=1&a=2", NULL, WURL_KEY_SURT,
              "com,example,www)/a/b?z=1&a=2");
    check_key("http://www.Example.com/a/b?z=1&a=2", NULL, WURL_KEY_SURT_SCHEME,
              "http://(com,example,www)/a/b?z=1&a=2");
    check_key("http://www.Example.com/a/b?z=1&a=2", NULL, 0, "http://www.example.com/a/b?z=1&a=2");
}

static void test_each_rule(void)
{
    static const struct {
        const char *spec, *input, *want;
    } cases[] = {
        {"drop-fragment", "http://a/x#f", "http://a/x"},
        {"strip-www", "http://WWW2.a.com/", "http://a.com/"},
        {"strip-www", "http://www.com/", "http://www.com/"},
        {"sort-query", "http://a/?b=1&&a=2&", "http://a/?a=2&b=1"},
        {"drop-params=utm_*|fbclid", "http://a/?utm_x=1&q=2&fbclid=3", "http://a/?q=2"},
        {"strip-session-ids", "http://a/p;jsessionid=1?PHPSESSID=2&x=3", "http://a/p?x=3"},
        {"drop-userinfo", "http://u:p@a/", "http://a/"},
        {"", "http://u@www.a.b/?b&a#f", "http://u@www.a.b/?b&a#f"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wurl_rules *r = compile(cases[i].spec);
        check_key(cases[i].input, r, 0, cases[i].want);
        wurl_rules_free(r);
    }
}

static void test_bad_specs(void)
{
    static const struct {
        const char *spec, *part;
    } cases[] = {
        {"sort-querry", "\"sort-querry\""},
        {"drop-fragment,,sort-query", "empty rule"},
        {"strip-www=1", "\"strip-www=1\""},
        {"drop-params=a||b", "empty pattern"},
        {"drop-params=a b", "\"a b\""},
        {"sort-query,sort-query", "twice"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wurl_rules *r = SENTINEL;
        char msg[256];
        memset(msg, 'x', sizeof msg);
        wurl_status st =
            wurl_rules_compile(cases[i].spec, strlen(cases[i].spec), &r, msg, sizeof msg);
        CHECK_MSG(st == WURL_E_BAD_RULES, "%s: %d", cases[i].spec, (int)st);
        CHECK(r == SENTINEL);
        CHECK_MSG(memchr(msg, '\0', sizeof msg) != NULL && strstr(msg, cases[i].part) != NULL,
                  "%s: %.200s", cases[i].spec, msg);
    }
    /* A message cut to a small buffer is NUL-terminated. */
    wurl_rules *r = SENTINEL;
    char small[8];
    CHECK(wurl_rules_compile(S("nope"), &r, small, sizeof small) == WURL_E_BAD_RULES);
    CHECK(strlen(small) == sizeof small - 1 && r == SENTINEL);
    /* No message buffer at all. */
    CHECK(wurl_rules_compile(S("nope"), &r, NULL, 0) == WURL_E_BAD_RULES);
    CHECK(strcmp(wurl_status_str(WURL_E_BAD_RULES), "the rules specification is not valid") == 0);
}

static void test_hostile_arguments(void)
{
    wurl_rules *r = SENTINEL;
    char buf[64];
    size_t len = 0;
    CHECK(wurl_rules_compile(S("sort-query"), NULL, NULL, 0) == WURL_E_NULL_ARG);
    CHECK(wurl_rules_compile(S("sort-query"), &r, NULL, 4) == WURL_E_NULL_ARG);
    CHECK(wurl_rules_compile(NULL, 5, &r, NULL, 0) == WURL_E_NULL_ARG);
    CHECK(r == SENTINEL);
    wurl_rules_free(NULL);
    r = compile("sort-query");
    CHECK(key("http://a/", r, 4, buf, sizeof buf, &len) == WURL_E_BAD_ARG);
    CHECK(key("http://a/", r, 0, buf, sizeof buf, NULL) == WURL_E_NULL_ARG);
    CHECK(key("http://a/", r, 0, NULL, 8, &len) == WURL_E_NULL_ARG);
    CHECK(key("http://a:99999/", r, 0, buf, sizeof buf, &len) == WURL_INVALID_URL);
    /* Too small: the length needed, nothing written. */
    memset(buf, 'x', sizeof buf);
    CHECK(key("http://www.a.com/?b&a", r, WURL_KEY_SURT, buf, 5, &len) ==
          WURL_E_BUFFER_TOO_SMALL);
    CHECK(len == strlen("com,a,www)/?a&b") && buf[0] == 'x');
    CHECK(key("http://www.a.com/?b&a", r, WURL_KEY_SURT, NULL, 0, &len) ==
          WURL_E_BUFFER_TOO_SMALL);
    /* The handle path. */
    wurl_url *p = NULL, *res = NULL, *c = NULL;
    CHECK(wurl_parse(S("HTTP://WWW.A.COM/?b&a#f"), 0, &p) == WURL_OK);
    CHECK(wurl_resolve(p, S("HTTP://WWW.A.COM/?b&a#f"), 0, &res) == WURL_OK);
    CHECK(wurl_canonicalize(res, NULL, 0, 0, &c) == WURL_OK);
    CHECK(wurl_url_key_into(c, r, WURL_KEY_SURT, buf, sizeof buf, &len) == WURL_OK);
    CHECK(wtest_view_eq(buf, len, "com,a,www)/?a&b#f") && buf[len] == '\0');
    CHECK(wurl_url_key_into(c, NULL, 0, buf, sizeof buf, &len) == WURL_OK);
    CHECK(wtest_view_eq(buf, len, "http://www.a.com/?b&a#f"));
    CHECK(wurl_url_key_into(NULL, r, 0, buf, sizeof buf, &len) == WURL_E_NULL_ARG);
    CHECK(wurl_url_key_into(c, r, 0, buf, 3, &len) == WURL_E_BUFFER_TOO_SMALL);
    CHECK(len == strlen("http://www.a.com/?a&b#f"));
    wurl_free(c);
    wurl_free(res);
    wurl_free(p);
    wurl_rules_free(r);
}

/* The key of a handle is the key of its canonicalization: a parsed,
 * never canonicalized handle is canonicalized first. */
static void test_handle_keys_canonicalize_first(void)
{
    wurl_rules *r = compile("strip-www,sort-query");
    char buf[128];
    size_t len = 0;
    wurl_url *p = NULL, *c = NULL;
    CHECK(wurl_parse(S("HTTP://WWW.Example.COM:80/a/../b?b&a"), 0, &p) == WURL_OK);
    CHECK(wurl_url_key_into(p, r, WURL_KEY_SURT, buf, sizeof buf, &len) == WURL_OK);
    CHECK_MSG(wtest_view_eq(buf, len, "com,example)/b?a&b"), "%.*s", (int)len, buf);
    CHECK(wurl_url_key_into(p, NULL, 0, buf, sizeof buf, &len) == WURL_OK);
    CHECK(wtest_view_eq(buf, len, "http://www.example.com/b?b&a"));
    CHECK(wurl_canonicalize(p, NULL, 0, 0, &c) == WURL_OK);
    CHECK(wurl_url_key_into(c, r, WURL_KEY_SURT, buf, sizeof buf, &len) == WURL_OK);
    CHECK_MSG(wtest_view_eq(buf, len, "com,example)/b?a&b"), "%.*s", (int)len, buf);
    wurl_free(c);
    wurl_free(p);
    /* A handle whose canonicalization is invalid has no key. */
    CHECK(wurl_parse(S("http://a:99999/"), 0, &p) == WURL_OK);
    CHECK(wurl_url_key_into(p, r, 0, buf, sizeof buf, &len) == WURL_INVALID_URL);
    wurl_free(p);
    wurl_rules_free(r);
}

/* Keys stay canonical URLs of the same site. */
static void test_keys_stay_canonical(void)
{
    static const char *const cases[][3] = {
        {"strip-session-ids", "http:/;jsessionid=1/evil.com/x", "http:/;jsessionid=1/evil.com/x"},
        {"drop-userinfo", "https://u@//evil.com:443/", "https://u@//evil.com:443/"},
        {"strip-www", "http://www.0x7f.1/", "http://www.0x7f.1/"},
        {"strip-session-ids", "http://slashdot.org/article.pl?sid=00/11/23/1616201",
         "http://slashdot.org/article.pl?sid=00/11/23/1616201"},
        {"sort-query", "http://a/?a=&a", "http://a/?a&a="},
        {"normalize-escapes", "http://a/%7euser/%2f?q=%4a", "http://a/~user/%2F?q=J"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wurl_rules *r = compile(cases[i][0]);
        check_key(cases[i][1], r, 0, cases[i][2]);
        wurl_rules_free(r);
    }
    char msg[256];
    wurl_rules *r = NULL;
    CHECK(wurl_rules_compile(S("drop-params=x\"y"), &r, msg, sizeof msg) == WURL_E_BAD_RULES);
    CHECK_MSG(strstr(msg, "'\"'") != NULL, "%s", msg);
}

struct job {
    const wurl_rules *rules;
    int failures;
};

static void *worker(void *arg)
{
    struct job *j = arg;
    char buf[128];
    size_t len;
    for (int i = 0; i < 5000; i++) {
        wurl_status st = key("http://www.A.com/p;jsessionid=1?utm_a=1&z=1&b=2#f", j->rules,
                             WURL_KEY_SURT, buf, sizeof buf, &len);
        if (st != WURL_OK || !wtest_view_eq(buf, len, "com,a)/p?b=2&z=1"))
            j->failures++;
    }
    return NULL;
}

static void test_threads(void)
{
    wurl_rules *r = compile("drop-fragment,strip-www,sort-query,strip-session-ids,"
                            "drop-params=utm_*");
    struct job jobs[2] = {{r, 0}, {r, 0}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&t[i], NULL, worker, &jobs[i]) == 0);
    for (int i = 0; i < 2; i++) {
        CHECK(pthread_join(t[i], NULL) == 0);
        CHECK_MSG(jobs[i].failures == 0, "thread %d: %d wrong keys", i, jobs[i].failures);
    }
    wurl_rules_free(r);
}

int main(void)
{
    test_issue_examples();
    test_each_rule();
    test_bad_specs();
    test_hostile_arguments();
    test_handle_keys_canonicalize_first();
    test_keys_stay_canonical();
    test_threads();
    return wtest_finish("test_keys");
}
