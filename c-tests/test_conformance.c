/* The conformance suite (tests/data, see tests/data/README.md) run through
 * the C ABI, with the semantics of the spec bundle's conformance/README.md.
 *
 * usage: test_conformance [options] FILE|DIR...
 *
 *   FILE   a .dat file; how it is judged follows from its name:
 *            parsing.dat           parse only
 *            resolving.dat         parse base, resolve
 *            anything else (.dat)  parse base, resolve, canonicalize,
 *                                  serialize, idempotency
 *          or a .tsv file in the format of url_to_canon_url.tsv, judged
 *          through wurl_canon_into.
 *   DIR    every *.dat file in it (not recursive), sorted by name.
 *
 *   --max-report=N    print the details of at most N failures (default 200,
 *                     0 = all; env WURL_CONFORMANCE_MAX_REPORT).
 *   --surrogates=MODE how a \uD800-\uDFFF escape (and one above U+10FFFF)
 *                     becomes UTF-8 input: `replace` (default) writes U+FFFD,
 *                     which is what the `NAME8` fields describe ("a lone
 *                     surrogate in the input has become U+FFFD"); `wtf8`
 *                     writes the 3-byte generalized UTF-8 form and lets the
 *                     library's decoder replace it (one U+FFFD per invalid
 *                     byte under WHATWG "UTF-8 decode", so the NAME8 tests
 *                     fail in that mode: it exists for experiments only).
 *   --allow-failures=N  exit 0 when at most N checks failed (for the
 *                     unicode32 archive, whose expectations follow Unicode
 *                     6.0: characters assigned since then may differ).
 *   --verbose         print every test's result.
 *
 * Output: a line per file `FILE: N passed, M failed`, the details of each
 * failure (absent components are shown as (absent), present ones quoted),
 * and last a summary line `N passed, M failed`. Exit status 0 when nothing
 * failed, 1 when a check failed, 2 on a usage or I/O error.
 *
 * Counting: every test is one check; a canonicalization test that expects a
 * valid result is also an idempotency check.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wurl.h"

/* ------------------------------------------------------------------ */
/* Byte strings                                                        */

typedef struct {
    char *p;
    size_t n, cap;
} bstr;

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (q == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return q;
}

static void bs_reserve(bstr *b, size_t extra)
{
    if (b->n + extra + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        while (cap < b->n + extra + 1)
            cap *= 2;
        b->p = xrealloc(b->p, cap);
        b->cap = cap;
    }
}

static void bs_append(bstr *b, const char *s, size_t n)
{
    bs_reserve(b, n);
    if (n)
        memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void bs_putc(bstr *b, char c) { bs_append(b, &c, 1); }

static void bs_clear(bstr *b)
{
    b->n = 0;
    if (b->p)
        b->p[0] = '\0';
}

static void bs_free(bstr *b)
{
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

static char *xstrndup(const char *s, size_t n)
{
    char *r = xrealloc(NULL, n + 1);
    memcpy(r, s, n);
    r[n] = '\0';
    return r;
}

/* ------------------------------------------------------------------ */
/* Options                                                             */

enum surrogate_mode { SURR_REPLACE, SURR_WTF8 };

static long opt_max_report = 200;
static enum surrogate_mode opt_surrogates = SURR_REPLACE;
static bool opt_verbose = false;
static long opt_allow_failures = 0;

static long reported = 0;

/* ------------------------------------------------------------------ */
/* Test file format                                                    */

typedef struct {
    char *name;       /* field name, e.g. "data", "canon8" */
    char **opts;      /* options after the name (without a final `escaped`) */
    size_t nopts;
    bool escaped;
    bool has_block;   /* whether any block line was seen */
    bstr block;       /* block lines joined with LF */
    bstr value;       /* the final value */
} field;

typedef struct {
    size_t line;      /* line number of the test's first line */
    field *fields;
    size_t nfields, cap;
} test_case;

static void test_clear(test_case *t)
{
    for (size_t i = 0; i < t->nfields; i++) {
        field *f = &t->fields[i];
        free(f->name);
        for (size_t j = 0; j < f->nopts; j++)
            free(f->opts[j]);
        free(f->opts);
        bs_free(&f->block);
        bs_free(&f->value);
    }
    t->nfields = 0;
}

static void put_utf8(bstr *out, uint32_t cp)
{
    char b[4];
    if (cp < 0x80) {
        b[0] = (char)cp;
        bs_append(out, b, 1);
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3F));
        bs_append(out, b, 2);
    } else if (cp < 0x10000) {
        b[0] = (char)(0xE0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        bs_append(out, b, 3);
    } else {
        b[0] = (char)(0xF0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (char)(0x80 | (cp & 0x3F));
        bs_append(out, b, 4);
    }
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Reads `n` hex digits at s; -1 when they are not all hex. */
static long read_hex(const char *s, size_t avail, size_t n)
{
    if (avail < n)
        return -1;
    long v = 0;
    for (size_t i = 0; i < n; i++) {
        int h = hexval(s[i]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* Writes code point `cp` of an escape as UTF-8 input. A UTF-8 string cannot
 * hold a surrogate or a value above U+10FFFF: see --surrogates. */
static void put_escaped_cp(bstr *out, uint32_t cp)
{
    bool scalar = cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    if (scalar) {
        put_utf8(out, cp);
    } else if (opt_surrogates == SURR_WTF8 && cp <= 0x10FFFF) {
        /* The 3-byte form of the surrogate (not UTF-8: invalid input). */
        char b[3] = {(char)(0xE0 | (cp >> 12)), (char)(0x80 | ((cp >> 6) & 0x3F)), (char)(0x80 | (cp & 0x3F))};
        bs_append(out, b, 3);
    } else {
        put_utf8(out, 0xFFFD);
    }
}

/* \uXXXX and \UXXXXXXXX escapes. */
static void unescape(const bstr *in, bstr *out)
{
    bs_clear(out);
    bs_reserve(out, in->n);
    for (size_t i = 0; i < in->n;) {
        if (in->p[i] == '\\' && i + 1 < in->n && (in->p[i + 1] == 'u' || in->p[i + 1] == 'U')) {
            size_t digits = in->p[i + 1] == 'u' ? 4 : 8;
            long v = read_hex(in->p + i + 2, in->n - i - 2, digits);
            if (v >= 0) {
                put_escaped_cp(out, (uint32_t)v);
                i += 2 + digits;
                continue;
            }
        }
        bs_putc(out, in->p[i]);
        i++;
    }
}

static bool name_is(const char *a, const char *b) { return strcmp(a, b) == 0; }

/* Whether `| ` prefixes are removed from the block lines of this field. */
static bool field_is_prefixed(const char *name)
{
    return name_is(name, "data") || name_is(name, "path") || name_is(name, "data8") || name_is(name, "path8");
}

/* Starts a field from a line `#NAME OPTION OPTION ...`. NAME is the run of
 * [A-Za-z0-9_-] after the `#`; the rest of the line, split on spaces, is the
 * options (so `#data:` is the field `data` with the option `:`, which
 * is what the original harness made of that one line of decomps.dat). */
static void field_start(test_case *t, const char *line, size_t len)
{
    if (t->nfields == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 16;
        t->fields = xrealloc(t->fields, t->cap * sizeof(field));
    }
    field *f = &t->fields[t->nfields++];
    memset(f, 0, sizeof *f);
    size_t i = 1;
    while (i < len && (line[i] == '_' || line[i] == '-' || (line[i] >= '0' && line[i] <= '9') ||
                       (line[i] >= 'a' && line[i] <= 'z') || (line[i] >= 'A' && line[i] <= 'Z')))
        i++;
    f->name = xstrndup(line + 1, i - 1);
    while (i < len) {
        while (i < len && line[i] == ' ')
            i++;
        size_t s = i;
        while (i < len && line[i] != ' ')
            i++;
        if (i > s) {
            f->opts = xrealloc(f->opts, (f->nopts + 1) * sizeof(char *));
            f->opts[f->nopts++] = xstrndup(line + s, i - s);
        }
    }
    if (f->nopts > 0 && name_is(f->opts[f->nopts - 1], "escaped")) {
        f->escaped = true;
        free(f->opts[--f->nopts]);
    }
}

static void field_add_line(field *f, const char *line, size_t len)
{
    if (field_is_prefixed(f->name) && len >= 2 && line[0] == '|' && line[1] == ' ') {
        line += 2;
        len -= 2;
    }
    if (f->has_block)
        bs_putc(&f->block, '\n');
    bs_append(&f->block, line, len);
    f->has_block = true;
}

static void test_finish_fields(test_case *t)
{
    for (size_t i = 0; i < t->nfields; i++) {
        field *f = &t->fields[i];
        bstr raw = {0};
        if (f->has_block && f->block.n > 0)
            bs_append(&raw, f->block.p, f->block.n);
        else if (f->nopts > 0)
            bs_append(&raw, f->opts[0], strlen(f->opts[0]));
        else
            bs_append(&raw, "", 0);
        if (f->escaped) {
            unescape(&raw, &f->value);
        } else {
            bs_clear(&f->value);
            bs_append(&f->value, raw.p, raw.n);
        }
        bs_free(&raw);
    }
}

/* The field `name`; its `name8` variant replaces it when present. NULL when
 * absent. The first of duplicate fields wins. */
static const field *get_field(const test_case *t, const char *name)
{
    char n8[64];
    snprintf(n8, sizeof n8, "%s8", name);
    for (size_t i = 0; i < t->nfields; i++)
        if (name_is(t->fields[i].name, n8))
            return &t->fields[i];
    for (size_t i = 0; i < t->nfields; i++)
        if (name_is(t->fields[i].name, name))
            return &t->fields[i];
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Reporting                                                           */

typedef struct {
    long passed, failed;
} counts;

static void print_bytes(FILE *o, const char *p, size_t n)
{
    fputc('"', o);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == '"' || c == '\\')
            fprintf(o, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", o);
        else if (c == '\t')
            fputs("\\t", o);
        else if (c < 0x20 || c == 0x7f)
            fprintf(o, "\\x%02X", c);
        else
            fputc(c, o); /* UTF-8 passes through */
    }
    fputc('"', o);
}

static void print_opt(FILE *o, const char *p, size_t n, bool present)
{
    if (!present)
        fputs("(absent)", o);
    else
        print_bytes(o, p, n);
}

/* One failing test: collects its messages, printed at the end of the test. */
typedef struct {
    const char *file;
    const test_case *t;
    int nproblems;
    bstr msg;
} verdict;

static void v_problem(verdict *v, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    bs_append(&v->msg, "    ", 4);
    bs_append(&v->msg, tmp, strlen(tmp));
    bs_putc(&v->msg, '\n');
    v->nproblems++;
}

/* Appends "label: expected X, got Y". */
static void v_mismatch(verdict *v, const char *label, const char *ep, size_t en, bool epresent, const char *ap,
                       size_t an, bool apresent)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    fprintf(m, "%s: expected ", label);
    print_opt(m, ep, en, epresent);
    fputs(", got ", m);
    print_opt(m, ap, an, apresent);
    fclose(m);
    bs_append(&v->msg, "    ", 4);
    bs_append(&v->msg, buf, len);
    bs_putc(&v->msg, '\n');
    free(buf);
    v->nproblems++;
}

static void v_report(verdict *v, const char *what)
{
    if (v->nproblems == 0)
        return;
    reported++;
    if (opt_max_report > 0 && reported > opt_max_report) {
        if (reported == opt_max_report + 1)
            fprintf(stdout, "  (more failures not shown; --max-report=0 shows all)\n");
        return;
    }
    const field *d = get_field(v->t, "data");
    const field *b = get_field(v->t, "base");
    const field *cs = get_field(v->t, "charset");
    fprintf(stdout, "FAIL %s:%zu: %s\n", v->file, v->t->line, what);
    fputs("    data: ", stdout);
    print_opt(stdout, d ? d->value.p : NULL, d ? d->value.n : 0, d != NULL);
    if (b) {
        fputs("  base: ", stdout);
        print_bytes(stdout, b->value.p, b->value.n);
    }
    if (cs) {
        fputs("  charset: ", stdout);
        print_bytes(stdout, cs->value.p, cs->value.n);
    }
    fputc('\n', stdout);
    fwrite(v->msg.p, 1, v->msg.n, stdout);
}

/* ------------------------------------------------------------------ */
/* Judging                                                             */

static const char *const COMPONENT_NAMES[8] = {"scheme", "user", "password", "host",
                                               "port",   "path", "query",    "fragment"};

/* Checks the view invariants of a handle: absent = (NULL, 0), present
 * views NUL-terminated, serialization exactly when valid. */
static void check_views(verdict *v, const wurl_url *u, const char *stage)
{
    for (wurl_component c = 0; c < 8; c++) {
        const char *p = (const char *)"?";
        size_t n = 99;
        bool present = wurl_get(u, c, &p, &n);
        if (!present && (p != NULL || n != 0))
            v_problem(v, "%s: absent %s is not (NULL, 0)", stage, COMPONENT_NAMES[c]);
        if (present && (p == NULL || p[n] != '\0'))
            v_problem(v, "%s: view of %s is not NUL-terminated", stage, COMPONENT_NAMES[c]);
    }
    const char *p = (const char *)"?";
    size_t n = 99;
    bool ser = wurl_serialize(u, &p, &n);
    bool invalid = wurl_is_invalid(u);
    if (ser == invalid)
        v_problem(v, "%s: wurl_serialize returned %s for a%s URL", stage, ser ? "true" : "false",
                  invalid ? "n invalid" : " valid");
    if (ser && (p == NULL || p[n] != '\0'))
        v_problem(v, "%s: serialization is not NUL-terminated", stage);
    if (!ser && (p != NULL || n != 0))
        v_problem(v, "%s: failed serialization is not (NULL, 0)", stage);
    const char *why = wurl_invalid_reason(u);
    if (invalid != (why != NULL))
        v_problem(v, "%s: wurl_invalid_reason is %s for a%s URL", stage, why ? "set" : "NULL",
                  invalid ? "n invalid" : " valid");
}

/* Compares every component of `u` with the test (absent when not listed). */
static void check_components(verdict *v, const wurl_url *u)
{
    for (wurl_component c = 0; c < 8; c++) {
        const field *f = get_field(v->t, COMPONENT_NAMES[c]);
        const char *p = NULL;
        size_t n = 0;
        bool present = wurl_get(u, c, &p, &n);
        /* The file: drive rule of the README ("compared with the drive inside
         * the path, /c:/foo") needs nothing here: wurl has no separate drive
         * component; its path already holds the drive as /c:/foo. */
        bool ok = (f == NULL) ? !present : (present && n == f->value.n && memcmp(p, f->value.p, n) == 0);
        if (!ok)
            v_mismatch(v, COMPONENT_NAMES[c], f ? f->value.p : NULL, f ? f->value.n : 0, f != NULL, p, n,
                       present);
    }
}

static void check_invalid_flag(verdict *v, const wurl_url *u, bool want_invalid)
{
    bool invalid = wurl_is_invalid(u);
    if (invalid != want_invalid) {
        const char *why = wurl_invalid_reason(u);
        v_problem(v, "invalid: expected %s, got %s%s%s%s", want_invalid ? "invalid" : "valid",
                  invalid ? "invalid" : "valid", why ? " (" : "", why ? why : "", why ? ")" : "");
    }
}

static bool status_ok(verdict *v, wurl_status st, const char *call)
{
    if (st == WURL_OK)
        return true;
    v_problem(v, "%s returned %d (%s)", call, (int)st, wurl_status_str(st));
    return false;
}

enum kind { KIND_PARSE, KIND_RESOLVE, KIND_CANON };

static const char *field_p(const field *f) { return f ? f->value.p : ""; }
static size_t field_n(const field *f) { return f ? f->value.n : 0; }

static void count(counts *c, bool ok)
{
    if (ok)
        c->passed++;
    else
        c->failed++;
}

static void run_parse_or_resolve(const char *file, const test_case *t, enum kind k, counts *c)
{
    verdict v = {file, t, 0, {0}};
    const field *data = get_field(t, "data");
    const field *base = get_field(t, "base");
    wurl_url *u = NULL;
    if (k == KIND_PARSE) {
        if (status_ok(&v, wurl_parse(field_p(data), field_n(data), 0, &u), "wurl_parse")) {
            check_views(&v, u, "parse");
            check_invalid_flag(&v, u, get_field(t, "invalid") != NULL);
            check_components(&v, u);
        }
    } else {
        wurl_url *b = NULL;
        if (status_ok(&v, wurl_parse(field_p(base), field_n(base), 0, &b), "wurl_parse(base)") &&
            status_ok(&v, wurl_resolve(b, field_p(data), field_n(data), 0, &u), "wurl_resolve")) {
            check_views(&v, u, "resolve");
            check_invalid_flag(&v, u, get_field(t, "invalid") != NULL);
            check_components(&v, u);
        }
        wurl_free(b);
    }
    wurl_free(u);
    count(c, v.nproblems == 0);
    v_report(&v, k == KIND_PARSE ? "parse" : "resolve");
    if (opt_verbose && v.nproblems == 0)
        printf("ok %s:%zu\n", file, t->line);
    bs_free(&v.msg);
}

/* parse base, resolve, canonicalize; NULL on a call error (reported). */
static wurl_url *canon_pipeline(verdict *v, const wurl_url *base, const char *in, size_t in_len,
                                const field *charset)
{
    wurl_url *r = NULL, *c = NULL;
    if (status_ok(v, wurl_resolve(base, in, in_len, 0, &r), "wurl_resolve")) {
        if (!status_ok(v, wurl_canonicalize(r, charset ? charset->value.p : NULL, field_n(charset), 0, &c),
                       "wurl_canonicalize"))
            c = NULL;
    }
    wurl_free(r);
    return c;
}

static void run_canon(const char *file, const test_case *t, counts *c)
{
    verdict v = {file, t, 0, {0}};
    verdict vi = {file, t, 0, {0}};
    const field *data = get_field(t, "data");
    const field *base = get_field(t, "base");
    const field *charset = get_field(t, "charset");
    const field *canon = get_field(t, "canon");
    bool want_invalid = get_field(t, "invalid") != NULL;
    /* 1. The base is #base; when missing or empty, data itself. */
    bool base_is_data = base == NULL || base->value.n == 0;
    const field *bf = base_is_data ? data : base;

    wurl_url *b = NULL, *u = NULL;
    const char *ser = NULL;
    size_t ser_n = 0;
    bool have_ser = false;
    /* 2. Parse the base, resolve, canonicalize, serialize. */
    if (status_ok(&v, wurl_parse(field_p(bf), field_n(bf), 0, &b), "wurl_parse(base)"))
        u = canon_pipeline(&v, b, field_p(data), field_n(data), charset);
    if (u != NULL) {
        check_views(&v, u, "canonicalize");
        have_ser = wurl_serialize(u, &ser, &ser_n);
        /* 3. */
        if (want_invalid) {
            check_invalid_flag(&v, u, true);
        } else {
            check_invalid_flag(&v, u, false);
            const field *want = canon ? canon : data;
            if (!(have_ser && ser_n == field_n(want) && memcmp(ser, field_p(want), ser_n) == 0))
                v_mismatch(&v, "canon", field_p(want), field_n(want), true, ser, ser_n, have_ser);
            check_components(&v, u);
        }
        /* The bulk path must agree (NULL base = the input itself). */
        {
            char small[512];
            char *buf = small;
            size_t n = 0, base_len = 0;
            const wurl_url *cb = base_is_data ? NULL : b;
            if (cb != NULL)
                (void)wurl_serialize(cb, NULL, &base_len);
            /* Sized once: a buffer of the bound holds every result. */
            size_t cap = wurl_output_bound(base_len, field_n(data), 0);
            if (cap > sizeof small)
                buf = xrealloc(NULL, cap);
            else
                cap = sizeof small;
            wurl_status st = wurl_canon_into(cb, field_p(data), field_n(data), charset ? charset->value.p : NULL,
                                             field_n(charset), 0, buf, cap, &n);
            /* Any other status, WURL_E_BUFFER_TOO_SMALL included, is a problem below. */
            if (st == WURL_INVALID_URL) {
                if (have_ser)
                    v_mismatch(&v, "wurl_canon_into", ser, ser_n, true, NULL, 0, false);
            } else if (st == WURL_OK) {
                if (!have_ser || n != ser_n || memcmp(buf, ser, n) != 0 || buf[n] != '\0')
                    v_mismatch(&v, "wurl_canon_into", ser, ser_n, have_ser, buf, n, true);
            } else {
                v_problem(&v, "wurl_canon_into returned %d (%s)", (int)st, wurl_status_str(st));
            }
            if (buf != small)
                free(buf);
        }
    }
    count(c, v.nproblems == 0);
    v_report(&v, "canonicalize");

    /* 4. Idempotency, for every test that expects a valid result. */
    if (!want_invalid) {
        if (!have_ser) {
            v_problem(&vi, "idempotency: no serialization to start from");
        } else {
            wurl_url *u2 = canon_pipeline(&vi, b, ser, ser_n, charset);
            if (u2 != NULL) {
                const char *s2 = NULL;
                size_t n2 = 0;
                bool ok2 = wurl_serialize(u2, &s2, &n2);
                if (!(ok2 && n2 == ser_n && memcmp(s2, ser, n2) == 0))
                    v_mismatch(&vi, "idempotency: second serialization", ser, ser_n, true, s2, n2, ok2);
                wurl_free(u2);
            }
        }
        count(c, vi.nproblems == 0);
        if (v.nproblems == 0) /* do not repeat a failure already shown */
            v_report(&vi, "idempotency");
    }
    if (opt_verbose && v.nproblems == 0 && vi.nproblems == 0)
        printf("ok %s:%zu\n", file, t->line);
    wurl_free(u);
    wurl_free(b);
    bs_free(&v.msg);
    bs_free(&vi.msg);
}

/* ------------------------------------------------------------------ */
/* Files                                                               */

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "test_conformance: cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    bstr b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        bs_append(&b, chunk, n);
    bool err = ferror(f);
    fclose(f);
    if (err) {
        fprintf(stderr, "test_conformance: cannot read %s\n", path);
        bs_free(&b);
        return NULL;
    }
    if (b.p == NULL)
        bs_append(&b, "", 0);
    *len = b.n;
    return b.p;
}

typedef struct {
    const char *s;
    size_t n;
} line_t;

/* Splits into lines at LF, dropping a CR before it. */
static line_t *split_lines(const char *buf, size_t len, size_t *nlines)
{
    size_t cap = 1024, n = 0;
    line_t *v = xrealloc(NULL, cap * sizeof *v);
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || buf[i] == '\n') {
            if (i == len && start == len)
                break; /* no line after a final LF */
            size_t e = i;
            if (e > start && buf[e - 1] == '\r')
                e--;
            if (n == cap) {
                cap *= 2;
                v = xrealloc(v, cap * sizeof *v);
            }
            v[n].s = buf + start;
            v[n].n = e - start;
            n++;
            start = i + 1;
        }
    }
    *nlines = n;
    return v;
}

static enum kind kind_of(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strcmp(base, "parsing.dat") == 0)
        return KIND_PARSE;
    if (strcmp(base, "resolving.dat") == 0)
        return KIND_RESOLVE;
    return KIND_CANON;
}

typedef struct {
    counts judged; /* failures here fail the run */
    long tests;
    int io_errors;
} totals;

static void run_test(const char *file, test_case *t, enum kind k, counts *c)
{
    test_finish_fields(t);
    if (k == KIND_CANON)
        run_canon(file, t, c);
    else
        run_parse_or_resolve(file, t, k, c);
}

static void run_dat(const char *path, totals *tot)
{
    size_t len;
    char *buf = read_file(path, &len);
    if (buf == NULL) {
        tot->io_errors++;
        return;
    }
    size_t nl;
    line_t *lines = split_lines(buf, len, &nl);
    enum kind k = kind_of(path);
    counts c = {0, 0};
    long ntests = 0;

    test_case t = {0};
    bool in_test = false;
    for (size_t i = 0; i < nl;) {
        const line_t *L = &lines[i];
        if (L->n == 0) {
            /* A blank line: the test ends when the next non-blank line starts
             * with `#` (or there is none); otherwise it belongs to the block. */
            size_t j = i;
            while (j < nl && lines[j].n == 0)
                j++;
            if (j == nl || lines[j].s[0] == '#') {
                if (in_test) {
                    run_test(path, &t, k, &c);
                    test_clear(&t);
                    ntests++;
                    in_test = false;
                }
            } else if (in_test && t.nfields > 0) {
                for (size_t b = i; b < j; b++)
                    field_add_line(&t.fields[t.nfields - 1], "", 0);
            }
            i = j;
            continue;
        }
        if (L->s[0] == '#') {
            if (!in_test) {
                in_test = true;
                t.line = i + 1;
            }
            field_start(&t, L->s, L->n);
        } else if (in_test && t.nfields > 0) {
            field_add_line(&t.fields[t.nfields - 1], L->s, L->n);
        } else {
            fprintf(stderr, "%s:%zu: text outside a test, ignored\n", path, i + 1);
        }
        i++;
    }
    if (in_test) {
        run_test(path, &t, k, &c);
        ntests++;
    }
    test_clear(&t);
    free(t.fields);
    free(lines);
    free(buf);

    printf("%s: %ld tests, %ld passed, %ld failed\n", path, ntests, c.passed, c.failed);
    fflush(stdout);
    if (ntests == 0) {
        fprintf(stderr, "%s: no tests found\n", path);
        tot->io_errors++;
    }
    tot->tests += ntests;
    tot->judged.passed += c.passed;
    tot->judged.failed += c.failed;
}

/* url_to_canon_url.tsv: input, base, charset, expected; \N = none. */
static bool tsv_field(const char *s, size_t n, bstr *out)
{
    bs_clear(out);
    if (n == 2 && s[0] == '\\' && s[1] == 'N')
        return false;
    for (size_t i = 0; i < n;) {
        if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\\') {
            bs_putc(out, '\\');
            i += 2;
        } else if (s[i] == '\\' && i + 1 < n && (s[i + 1] == 'u' || s[i + 1] == 'U')) {
            size_t digits = s[i + 1] == 'u' ? 4 : 8;
            long v = read_hex(s + i + 2, n - i - 2, digits);
            if (v >= 0) {
                put_escaped_cp(out, (uint32_t)v);
                i += 2 + digits;
            } else {
                bs_putc(out, s[i++]);
            }
        } else {
            bs_putc(out, s[i++]);
        }
    }
    return true;
}

static void run_tsv(const char *path, totals *tot)
{
    size_t len;
    char *buf = read_file(path, &len);
    if (buf == NULL) {
        tot->io_errors++;
        return;
    }
    size_t nl;
    line_t *lines = split_lines(buf, len, &nl);
    counts c = {0, 0};
    long ntests = 0;
    bstr f[4] = {{0}, {0}, {0}, {0}};
    for (size_t i = 0; i < nl; i++) {
        const line_t *L = &lines[i];
        if (L->n == 0 || L->s[0] == '#')
            continue;
        bool present[4] = {false, false, false, false};
        size_t start = 0, col = 0;
        for (size_t j = 0; j <= L->n && col < 4; j++) {
            if (j == L->n || L->s[j] == '\t') {
                present[col] = tsv_field(L->s + start, j - start, &f[col]);
                col++;
                start = j + 1;
            }
        }
        if (col != 4) {
            fprintf(stderr, "%s:%zu: expected 4 columns\n", path, i + 1);
            tot->io_errors++;
            continue;
        }
        ntests++;
        wurl_url *base = NULL;
        bool ok = true;
        char out[1024];
        size_t n = 0;
        if (present[1] && wurl_parse(f[1].p, f[1].n, 0, &base) != WURL_OK)
            ok = false;
        wurl_status st = wurl_canon_into(base, f[0].p, f[0].n, present[2] ? f[2].p : NULL, present[2] ? f[2].n : 0,
                                         0, out, sizeof out, &n);
        bool got = st == WURL_OK;
        if (st != WURL_OK && st != WURL_INVALID_URL)
            ok = false;
        if (got != present[3] || (got && (n != f[3].n || memcmp(out, f[3].p, n) != 0)))
            ok = false;
        count(&c, ok);
        if (!ok) {
            reported++;
            if (opt_max_report == 0 || reported <= opt_max_report) {
                printf("FAIL %s:%zu: url_to_canon_url(", path, i + 1);
                print_bytes(stdout, f[0].p, f[0].n);
                fputs(", ", stdout);
                print_opt(stdout, f[1].p, f[1].n, present[1]);
                fputs(", ", stdout);
                print_opt(stdout, f[2].p, f[2].n, present[2]);
                fputs("): expected ", stdout);
                print_opt(stdout, f[3].p, f[3].n, present[3]);
                printf(", got ");
                if (st == WURL_OK || st == WURL_INVALID_URL)
                    print_opt(stdout, out, n, got);
                else
                    printf("status %d (%s)", (int)st, wurl_status_str(st));
                fputc('\n', stdout);
            }
        }
        wurl_free(base);
    }
    for (int k = 0; k < 4; k++)
        bs_free(&f[k]);
    free(lines);
    free(buf);
    printf("%s: %ld tests, %ld passed, %ld failed\n", path, ntests, c.passed, c.failed);
    if (ntests == 0)
        tot->io_errors++;
    tot->tests += ntests;
    tot->judged.passed += c.passed;
    tot->judged.failed += c.failed;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void run_path(const char *path, totals *tot)
{
    DIR *d = opendir(path);
    if (d == NULL) {
        if (ends_with(path, ".tsv"))
            run_tsv(path, tot);
        else
            run_dat(path, tot);
        return;
    }
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!ends_with(e->d_name, ".dat"))
            continue;
        size_t l = strlen(path) + strlen(e->d_name) + 2;
        names = xrealloc(names, (n + 1) * sizeof *names);
        names[n] = xrealloc(NULL, l);
        snprintf(names[n], l, "%s/%s", path, e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    if (n == 0) {
        fprintf(stderr, "%s: no .dat files\n", path);
        tot->io_errors++;
    }
    for (size_t i = 0; i < n; i++) {
        run_dat(names[i], tot);
        free(names[i]);
    }
    free(names);
}

static void usage(void)
{
    fprintf(stderr, "usage: test_conformance [--max-report=N] [--surrogates=replace|wtf8] "
                    "[--allow-failures=N] [--verbose] FILE|DIR...\n");
}

int main(int argc, char **argv)
{
    const char *env = getenv("WURL_CONFORMANCE_MAX_REPORT");
    if (env != NULL && env[0] != '\0')
        opt_max_report = strtol(env, NULL, 10);

    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--max-report=", 13) == 0)
            opt_max_report = strtol(a + 13, NULL, 10);
        else if (strcmp(a, "--surrogates=replace") == 0)
            opt_surrogates = SURR_REPLACE;
        else if (strcmp(a, "--surrogates=wtf8") == 0)
            opt_surrogates = SURR_WTF8;
        else if (strcmp(a, "--verbose") == 0)
            opt_verbose = true;
        else if (strncmp(a, "--allow-failures=", 17) == 0)
            opt_allow_failures = strtol(a + 17, NULL, 10);
        else if (a[0] == '-' && a[1] == '-') {
            usage();
            return 2;
        } else
            nfiles++;
    }
    if (nfiles == 0) {
        usage();
        return 2;
    }

    totals tot;
    memset(&tot, 0, sizeof tot);
    for (int i = 1; i < argc; i++)
        if (!(argv[i][0] == '-' && argv[i][1] == '-'))
            run_path(argv[i], &tot);

    if (opt_allow_failures > 0)
        printf("(up to %ld failures allowed: %s)\n", opt_allow_failures,
               tot.judged.failed <= opt_allow_failures ? "within the allowance" : "MORE than allowed");
    printf("%ld passed, %ld failed\n", tot.judged.passed, tot.judged.failed);
    if (tot.io_errors)
        return 2;
    return tot.judged.failed <= opt_allow_failures ? 0 : 1;
}
