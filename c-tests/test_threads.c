/* Threads: several threads on separate handles, and several threads reading
 * one shared handle (parse results, a shared base for resolution and
 * canonicalization), all compared with a single-threaded run. The header
 * promises immutable handles and no global mutable state. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wurl.h"

#define NTHREADS 8
/* Rounds per thread; WURL_THREAD_ROUNDS overrides (valgrind runs use fewer). */
static int ROUNDS = 40;

static const char *const INPUTS[] = {
    "http://example.com/a/b/c",
    "HTTP://Example.COM:80/a/./b/../c?x=1#frag",
    "https://user:pw@[::1]:8443/p?q",
    "http://0x7f.1/",
    "http://\xe3\x81\x82\xe3\x81\x84.example/\xe6\xbc\xa2",
    "../../up/there?\xe5\x81\x90#f",
    "?only-query",
    "#only-fragment",
    "//other.example/x",
    "mailto:someone@example.com?subject=hi",
    "data:text/plain,hello%20world",
    "javascript:alert(1)",
    "file:///c:/windows/system32",
    "c:\\foo\\bar.html",
    "ftp://ftp.example.org/pub/file.txt;type=i",
    "http://a:b/",
    "foo",
    "",
    "http://exa mple.com/sp ace",
    "http://%41%42.example/%7e",
    "http://[::ffff:1.2.3.4]/",
    "http://xn--n3h.example/",
    "about:blank",
    "view-source:http://foo/",
    "http://example.com/\x01\x7f",
};
#define NINPUTS (sizeof INPUTS / sizeof INPUTS[0])

static const char *const CHARSETS[] = {NULL, "utf-8", "euc-jp", "iso-8859-1", "shift_jis"};
#define NCHARSETS (sizeof CHARSETS / sizeof CHARSETS[0])

static const char BASE[] = "http://base.example/dir1/dir2/file?bq#bf";

/* Everything observable about one input, as one string. */
static void describe_handle(const wurl_url *u, char *out, size_t cap, size_t *pos)
{
    for (wurl_component c = 0; c < 8; c++) {
        const char *p;
        size_t n;
        if (wurl_get(u, c, &p, &n))
            *pos += (size_t)snprintf(out + *pos, cap - *pos, "[%u:%.*s]", (unsigned)c, (int)n, p);
        else
            *pos += (size_t)snprintf(out + *pos, cap - *pos, "[%u:-]", (unsigned)c);
        if (*pos >= cap)
            *pos = cap - 1;
    }
    const char *p;
    size_t n;
    const char *why = wurl_invalid_reason(u);
    if (wurl_serialize(u, &p, &n))
        *pos += (size_t)snprintf(out + *pos, cap - *pos, "<%.*s>", (int)n, p);
    *pos += (size_t)snprintf(out + *pos, cap - *pos, "{%d,%s,%u}", (int)wurl_is_invalid(u), why ? why : "-",
                             (unsigned)wurl_host_kind(u));
    if (*pos >= cap)
        *pos = cap - 1;
}

/* Works on its own handles only: parse, resolve against a private base,
 * canonicalize with each charset, canon_into. */
static char *compute_private(size_t i)
{
    size_t cap = 16384, pos = 0;
    char *out = malloc(cap);
    out[0] = '\0';
    wurl_url *b = NULL, *p = NULL, *r = NULL;
    const char *in = INPUTS[i];
    if (wurl_parse(BASE, strlen(BASE), 0, &b) != WURL_OK || wurl_parse(in, strlen(in), 0, &p) != WURL_OK ||
        wurl_resolve(b, in, strlen(in), 0, &r) != WURL_OK) {
        snprintf(out, cap, "call failed");
        wurl_free(b);
        wurl_free(p);
        return out;
    }
    describe_handle(p, out, cap, &pos);
    describe_handle(r, out, cap, &pos);
    for (size_t k = 0; k < NCHARSETS; k++) {
        wurl_url *c = NULL;
        const char *cs = CHARSETS[k];
        if (wurl_canonicalize(r, cs, cs ? strlen(cs) : 0, 0, &c) == WURL_OK) {
            describe_handle(c, out, cap, &pos);
            wurl_free(c);
        }
        char buf[1024];
        size_t n = 0;
        wurl_status st = wurl_canon_into(NULL, in, strlen(in), cs, cs ? strlen(cs) : 0, 0, buf, sizeof buf, &n);
        pos += (size_t)snprintf(out + pos, cap - pos, "(%d:%s)", (int)st, st == WURL_OK ? buf : "");
        if (pos >= cap)
            pos = cap - 1;
    }
    wurl_free(r);
    wurl_free(p);
    wurl_free(b);
    return out;
}

/* Shared, read-only handles (built before the threads start). */
static wurl_url *shared_base;
static wurl_url *shared_parsed[NINPUTS];

/* Reads the shared handles: views, and new handles made from them. */
static char *compute_shared(size_t i)
{
    size_t cap = 16384, pos = 0;
    char *out = malloc(cap);
    out[0] = '\0';
    const char *in = INPUTS[i];
    describe_handle(shared_parsed[i], out, cap, &pos);
    describe_handle(shared_base, out, cap, &pos);
    wurl_url *r = NULL, *c = NULL;
    if (wurl_resolve(shared_base, in, strlen(in), 0, &r) == WURL_OK) {
        describe_handle(r, out, cap, &pos);
        if (wurl_canonicalize(r, "euc-jp", 6, 0, &c) == WURL_OK) {
            describe_handle(c, out, cap, &pos);
            wurl_free(c);
        }
        wurl_free(r);
    }
    if (wurl_canonicalize(shared_parsed[i], NULL, 0, WURL_FLAG_NETWORK_STRICT, &c) == WURL_OK) {
        describe_handle(c, out, cap, &pos);
        wurl_free(c);
    }
    char buf[1024];
    size_t n = 0;
    wurl_status st = wurl_canon_into(shared_base, in, strlen(in), NULL, 0, 0, buf, sizeof buf, &n);
    pos += (size_t)snprintf(out + pos, cap - pos, "(%d:%s)", (int)st, st == WURL_OK ? buf : "");
    (void)pos;
    return out;
}

static char *expected_private[NINPUTS];
static char *expected_shared[NINPUTS];

struct job {
    int id;
    int shared;
    int mismatches;
};

static void *worker(void *arg)
{
    struct job *j = arg;
    for (int round = 0; round < ROUNDS; round++) {
        for (size_t k = 0; k < NINPUTS; k++) {
            size_t i = (k + (size_t)j->id * 7 + (size_t)round) % NINPUTS; /* different orders */
            char *got = j->shared ? compute_shared(i) : compute_private(i);
            const char *want = j->shared ? expected_shared[i] : expected_private[i];
            if (strcmp(got, want) != 0) {
                if (j->mismatches++ < 3)
                    fprintf(stderr, "thread %d (%s), input %zu: got\n  %s\nwant\n  %s\n", j->id,
                            j->shared ? "shared" : "private", i, got, want);
            }
            free(got);
        }
    }
    return NULL;
}

static int run_threads(int shared)
{
    pthread_t t[NTHREADS];
    struct job jobs[NTHREADS];
    int bad = 0;
    for (int k = 0; k < NTHREADS; k++) {
        jobs[k].id = k;
        jobs[k].shared = shared;
        jobs[k].mismatches = 0;
        if (pthread_create(&t[k], NULL, worker, &jobs[k]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
    }
    for (int k = 0; k < NTHREADS; k++) {
        pthread_join(t[k], NULL);
        bad += jobs[k].mismatches;
    }
    printf("%s handles: %d threads x %d rounds x %zu inputs, %d mismatches\n", shared ? "shared" : "private",
           NTHREADS, ROUNDS, NINPUTS, bad);
    return bad != 0;
}

int main(void)
{
    const char *env = getenv("WURL_THREAD_ROUNDS");
    if (env != NULL && atoi(env) > 0)
        ROUNDS = atoi(env);
    if (wurl_parse(BASE, strlen(BASE), 0, &shared_base) != WURL_OK)
        return 1;
    for (size_t i = 0; i < NINPUTS; i++)
        if (wurl_parse(INPUTS[i], strlen(INPUTS[i]), 0, &shared_parsed[i]) != WURL_OK)
            return 1;
    /* The single-threaded reference. */
    for (size_t i = 0; i < NINPUTS; i++) {
        expected_private[i] = compute_private(i);
        expected_shared[i] = compute_shared(i);
    }
    int fail = 0;
    fail |= run_threads(0);
    fail |= run_threads(1);
    /* Shared views did not move while the threads read them. */
    for (size_t i = 0; i < NINPUTS; i++) {
        char *again = compute_shared(i);
        if (strcmp(again, expected_shared[i]) != 0) {
            fprintf(stderr, "shared handle %zu changed\n", i);
            fail = 1;
        }
        free(again);
        free(expected_private[i]);
        free(expected_shared[i]);
        wurl_free(shared_parsed[i]);
    }
    wurl_free(shared_base);
    printf("test_threads: %s\n", fail ? "FAILED" : "ok");
    return fail;
}
