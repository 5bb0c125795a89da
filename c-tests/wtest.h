/* Tiny test helpers shared by the C tests of wurl. Header-only. */
#ifndef WURL_C_TESTS_WTEST_H
#define WURL_C_TESTS_WTEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wurl.h"

static int wtest_failures = 0;
static int wtest_checks = 0;

#define CHECK(cond)                                                          \
    do {                                                                     \
        wtest_checks++;                                                      \
        if (!(cond)) {                                                       \
            wtest_failures++;                                                \
            fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                    \
    } while (0)

#define CHECK_MSG(cond, ...)                                                 \
    do {                                                                     \
        wtest_checks++;                                                      \
        if (!(cond)) {                                                       \
            wtest_failures++;                                                \
            fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
        }                                                                    \
    } while (0)

static inline int wtest_finish(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, wtest_checks - wtest_failures, wtest_failures);
    return wtest_failures == 0 ? 0 : 1;
}

/* (ptr, len) of a string literal / C string. */
#define S(lit) (lit), (sizeof(lit) - 1)
#define CS(str) (str), strlen(str)

/* Whether the view (p, n) holds exactly the C string `want`. */
static inline int wtest_view_eq(const char *p, size_t n, const char *want)
{
    return p != NULL && n == strlen(want) && memcmp(p, want, n) == 0;
}

/* Whether component `which` of `u` is present with the value `want`
 * (`want` NULL: absent, with a (NULL, 0) view). Also checks the trailing NUL. */
static inline int wtest_comp_is(const wurl_url *u, wurl_component which, const char *want)
{
    const char *p = (const char *)"sentinel";
    size_t n = 12345;
    int present = wurl_get(u, which, &p, &n);
    if (want == NULL)
        return !present && p == NULL && n == 0;
    return present && wtest_view_eq(p, n, want) && p[n] == '\0';
}

/* Whether `u` serializes to exactly `want` (`want` NULL: cannot serialize). */
static inline int wtest_ser_is(const wurl_url *u, const char *want)
{
    const char *p = (const char *)"sentinel";
    size_t n = 12345;
    int ok = wurl_serialize(u, &p, &n);
    if (want == NULL)
        return !ok && p == NULL && n == 0;
    return ok && wtest_view_eq(p, n, want) && p[n] == '\0';
}

#endif /* WURL_C_TESTS_WTEST_H */
