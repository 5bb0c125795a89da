/* The C side of the cross-binding check: the same bytes must give the same
 * results from C, C++, the CLI, Perl, Ruby and Python.
 *
 *   cross_check --generate > bindings/cross-binding-expected.tsv
 *   cross_check --check bindings/cross-binding-expected.tsv
 *
 * The library is loaded with dlopen() from $WURL_LIB (or --lib PATH), the
 * way the bindings load it, so this program needs no link-time dependency
 * on libwurl and runs against exactly the library the bindings test. It is
 * compiled against include/wurl.h: every function pointer has the type the
 * header declares.
 *
 * The file: a line per (operation, input), TAB-separated:
 *   op  input  invalid  reason  host_kind  scheme user password host port
 *   path query fragment  serialization
 * A value is `\N` when absent; otherwise printable ASCII (0x21-0x7E) stands
 * for itself, a backslash is `\\`, and any other byte is `\xHH`.
 * Operations, each on the raw input bytes:
 *   parse        wurl_parse(input)
 *   resolve      wurl_resolve(parse(BASE), input)
 *   canon        wurl_canonicalize(wurl_resolve(parse(input), input), no charset)
 *   canon_1252   the same with charset "windows-1252"
 *   canon_into   wurl_canon_into(NULL, input, no charset): only invalid and
 *                the serialization; the other columns are \N
 *   key:RULES    wurl_canon_key_into(NULL, input, no charset, the rules
 *                RULES), as canon_into; key:surt is the SURT form instead
 * The inputs: a list of cases, then the sample of invalid UTF-8 (every
 * class of it, in the host, path, query and fragment, mid-string and at
 * the end) among lines of bench data (kasztp.txt), which the CLI, C++ and
 * Python tests read from this file too.
 * (WURL_FLAG_NETWORK_STRICT is left out on purpose: what it rejects is still
 * being settled, and this file is about the bindings passing bytes through.)
 *
 * When the library's behaviour changes on purpose, regenerate the file with
 * --generate and commit it with the change.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wurl.h"

#define BASE "http://base.example/dir/file?q#f"

/* Function pointers with the header's types. */
#define FN(name) static __typeof__(name) *p_##name
FN(wurl_parse);
FN(wurl_resolve);
FN(wurl_canonicalize);
FN(wurl_canon_into);
FN(wurl_serialize);
FN(wurl_get);
FN(wurl_is_invalid);
FN(wurl_invalid_reason);
FN(wurl_host_kind);
FN(wurl_free);
FN(wurl_status_str);
FN(wurl_rules_compile);
FN(wurl_rules_free);
FN(wurl_canon_key_into);
FN(wurl_output_bound);

/* The inputs, as bytes (with their lengths: some hold NUL). */
struct input {
    const char *bytes;
    size_t len;
};
#define IN(s) {s, sizeof(s) - 1}

static const struct input INPUTS[] = {
    IN("http://a\xC0\xAF/"),                        /* overlong '/' */
    IN("http://\xED\xA0\x80.com/"),                 /* a surrogate, as Perl encodes "\x{D800}" */
    IN("http://a/\xFF\xFE?\x80#\xC3"),              /* bytes that are never UTF-8; truncated */
    IN("http://a/\x00" "b"),                        /* NUL in the path */
    IN("http://a/\xFD\xBF\xBF\xBF\xBF\xBF"),        /* a 6-byte form */
    IN("http://a/\xF4\x90\x80\x80"),                /* above U+10FFFF (Perl's "\x{110000}") */
    IN("http://a/\xED\xBF\xBF\xED\xA0\x80x"),       /* a low and a high surrogate */
    IN("http://\xC3\xA9xample.com/\xE2\x82\xAC?\xE2\x82\xAC#\xE2\x82\xAC"),
    IN("http://a/\xF0\x9F\x98\x80?\xC3\xA9"),
    IN("http://a/\xEF\xB7\x90\xEF\xBF\xBF"),        /* noncharacters U+FDD0, U+FFFF */
    IN("http://\xE2\x80\x8B" "a.com/"),             /* ZWSP, mapped to nothing */
    IN("http://a%C0%AF/%ZZ%e2%82%ac"),
    IN("\x00http://test"),
    IN(" \thttp://EXAMPLE.com:80/a/../b\n "),
    IN("HTTP://us\x00" "er:pa:ss@[::1]:8080/p?q#f"),
    IN("http://0x7f.1/"),
    IN("http://[0:0::1.2.3.4]/"),
    IN("http://a.b:65536/"),
    IN("http://exa mple.com/"),
    IN("mailto:a@b?subject=\xE3\x81\x82"),
    IN("javascript:alert(1)#\x01"),
    IN("data:text/plain,a?b#c\xFF"),
    IN("file:///c|/x\xC2"),
    IN("\\\\server\\share\\f\xC3\xA9"),
    IN("c:\\dir\\f"),
    IN("?\xE5\x81\x90"),
    IN("../x/./y\xE2"),
    IN("#frag\x00"),
    IN(""),
    IN("http://a/\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"
       "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"
       "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"
       "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"
       "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"
       "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"),
};
#define N_INPUTS (sizeof INPUTS / sizeof INPUTS[0])

/* The sample: every class of invalid UTF-8 ... */
static const struct input INVALID[] = {
    IN("\xED\xA0\x80"),     /* a high surrogate */
    IN("\xED\xBF\xBF"),     /* a low surrogate */
    IN("\xF4\x90\x80\x80"), /* above U+10FFFF */
    IN("\xF5\x80\x80\x80"), /* a lead byte that is never UTF-8 */
    IN("\xC0\xAF"),         /* overlong '/' */
    IN("\xE0\x80\xAF"),     /* overlong '/', 3 bytes */
    IN("\xF0\x80\x80\xAF"), /* overlong '/', 4 bytes */
    IN("\xE2\x82"),         /* truncated U+20AC */
    IN("\xF0\x9F\x98"),     /* truncated U+1F600 */
    IN("\x80"),             /* lone continuation bytes */
    IN("\xBF"),
    IN("\xFE"),
    IN("\xFF"),
};
#define N_INVALID (sizeof INVALID / sizeof INVALID[0])

/* ... in each place: the text before and after it. */
static const struct {
    const char *before, *after;
} PLACES[] = {
    {"http://a", ".example/p"},                 /* host */
    {"http://www.example.com/p", "q/r"},        /* path */
    {"http://example.com/p?b=2&a=", "&c"},      /* query */
    {"http://example.com/p?q#f", "g"},          /* fragment */
    {"http://www.example.com/p", ""},           /* at the end: path */
    {"http://example.com/p?a=", ""},            /* query */
    {"http://example.com/p#f", ""},             /* fragment */
};
#define N_PLACES (sizeof PLACES / sizeof PLACES[0])

/* ... among real lines (bench data, kasztp.txt). */
static const char *const REAL[] = {
    "https://www.taxsites.com/associations2.html",
    "https://www.npr.org/templates/story/story.php?storyId=5291579",
    "https://www.elsevier.com/wps/find/journaldescription.cws_home/503302/description#description",
    "https://www.fao.org/DOCREP/FIELD/006/AD742E/AD742E00.HTM",
    "https://www.alliancepastorale.fr/#Introduction",
    "https://alchemyacres.tripod.com/INDEX.HTML",
    "https://www.countrysidemag.com/issues/3_1998.htm#Swiss Goats",
    "https://www.schauer.co.at/index.php?id=14&amp;L=1",
    "https://www.spacestationz.com/New\\%20Pages/New\\%2021.html",
    "https://www.basell.com/portal/site/basell/?epi_menuItemID=b60a367d18b6a60e34a34813a0f034a0"
    "&amp;VCMChannelID=6f8669fe7e26af00vcm100000000c53f3cc3____",
    "https://msewww.engin.umich.edu:81/people/milty/research/electrospinning/literature/"
    "1999_Reneker_Fong_Elastomeric\\%20nanofibers\\%20of\\%20SBS\\%20triblock\\%20copolymer.pdf",
    "https://www.stardeveloper.com/articles/display.html?article=2000030902&amp;page=1",
};
#define N_REAL (sizeof REAL / sizeof REAL[0])

/* The key operations: (op, rules specification or NULL, key flags). */
static const struct {
    const char *op, *rules;
    uint32_t flags;
} KEYS[] = {
    {"key:strip-www,sort-query", "strip-www,sort-query", 0},
    {"key:surt", NULL, WURL_KEY_SURT},
};
#define N_KEYS (sizeof KEYS / sizeof KEYS[0])
static wurl_rules *key_rules[N_KEYS];

/* A growing output string. */
struct out {
    char *s;
    size_t len, cap;
};

static void out_putn(struct out *o, const char *s, size_t n)
{
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->len + n + 1)
            cap *= 2;
        o->s = realloc(o->s, cap);
        if (!o->s) {
            perror("realloc");
            exit(2);
        }
        o->cap = cap;
    }
    memcpy(o->s + o->len, s, n);
    o->len += n;
    o->s[o->len] = '\0';
}

static void out_puts(struct out *o, const char *s) { out_putn(o, s, strlen(s)); }

static void out_printf(struct out *o, const char *fmt, ...)
{
    char buf[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    out_putn(o, buf, (size_t)n);
}

/* One value in the file's escaped form; NULL is absent. */
static void out_value(struct out *o, const char *p, size_t n, int present)
{
    out_putn(o, "\t", 1);
    if (!present) {
        out_puts(o, "\\N");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == '\\')
            out_puts(o, "\\\\");
        else if (c >= 0x21 && c <= 0x7e)
            out_putn(o, (const char *)&c, 1);
        else
            out_printf(o, "\\x%02X", c);
    }
}

static void die_status(const char *what, wurl_status st)
{
    fprintf(stderr, "cross_check: %s: %s (%d)\n", what, p_wurl_status_str(st), st);
    exit(2);
}

static wurl_url *parse(const char *s, size_t n)
{
    wurl_url *u = NULL;
    wurl_status st = p_wurl_parse(s, n, 0, &u);
    if (st != WURL_OK)
        die_status("wurl_parse", st);
    return u;
}

static wurl_url *resolve(const wurl_url *base, const char *s, size_t n)
{
    wurl_url *u = NULL;
    wurl_status st = p_wurl_resolve(base, s, n, 0, &u);
    if (st != WURL_OK)
        die_status("wurl_resolve", st);
    return u;
}

static wurl_url *canonicalize(const wurl_url *url, const char *charset, uint32_t flags)
{
    wurl_url *u = NULL;
    wurl_status st =
        p_wurl_canonicalize(url, charset, charset ? strlen(charset) : 0, flags, &u);
    if (st != WURL_OK)
        die_status("wurl_canonicalize", st);
    return u;
}

/* The line of a handle. */
static void out_handle(struct out *o, const char *op, const struct input *in, const wurl_url *u)
{
    out_puts(o, op);
    out_value(o, in->bytes, in->len, 1);
    out_printf(o, "\t%d", p_wurl_is_invalid(u) ? 1 : 0);
    const char *reason = p_wurl_invalid_reason(u);
    out_value(o, reason, reason ? strlen(reason) : 0, reason != NULL);
    out_printf(o, "\t%u", (unsigned)p_wurl_host_kind(u));
    for (wurl_component c = WURL_COMPONENT_SCHEME; c <= WURL_COMPONENT_FRAGMENT; c++) {
        const char *p = NULL;
        size_t n = 0;
        bool present = p_wurl_get(u, c, &p, &n);
        out_value(o, p, n, present);
    }
    const char *p = NULL;
    size_t n = 0;
    bool ok = p_wurl_serialize(u, &p, &n);
    out_value(o, p, n, ok);
    out_puts(o, "\n");
}

/* A key operation's line: as canon_into's. */
static void out_key(struct out *o, size_t k, const struct input *in)
{
    /* Sized once: a buffer of the bound holds every key. */
    size_t cap = p_wurl_output_bound(0, in->len, 0), len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        perror("malloc");
        exit(2);
    }
    wurl_status st = p_wurl_canon_key_into(NULL, in->bytes, in->len, NULL, 0, 0, key_rules[k], KEYS[k].flags,
                                           buf, cap, &len);
    if (st != WURL_OK && st != WURL_INVALID_URL)
        die_status("wurl_canon_key_into", st);
    out_puts(o, KEYS[k].op);
    out_value(o, in->bytes, in->len, 1);
    out_printf(o, "\t%d", st == WURL_INVALID_URL ? 1 : 0);
    for (int i = 0; i < 10; i++)
        out_value(o, NULL, 0, 0);
    out_value(o, buf, len, st == WURL_OK);
    out_puts(o, "\n");
    free(buf);
}

/* The lines of one input. */
static void out_input(struct out *o, const wurl_url *base, const struct input *in)
{
    wurl_url *u = parse(in->bytes, in->len);
    out_handle(o, "parse", in, u);

    wurl_url *r = resolve(base, in->bytes, in->len);
    out_handle(o, "resolve", in, r);
    p_wurl_free(r);

    r = resolve(u, in->bytes, in->len);
    static const struct {
        const char *op, *charset;
        uint32_t flags;
    } canons[] = {
        {"canon", NULL, 0},
        {"canon_1252", "windows-1252", 0},
    };
    for (size_t k = 0; k < sizeof canons / sizeof canons[0]; k++) {
        wurl_url *c = canonicalize(r, canons[k].charset, canons[k].flags);
        out_handle(o, canons[k].op, in, c);
        p_wurl_free(c);
    }
    p_wurl_free(r);
    p_wurl_free(u);

    /* canon_into, sized once by the bound. */
    size_t cap = p_wurl_output_bound(0, in->len, 0), len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        perror("malloc");
        exit(2);
    }
    wurl_status st = p_wurl_canon_into(NULL, in->bytes, in->len, NULL, 0, 0, buf, cap, &len);
    if (st != WURL_OK && st != WURL_INVALID_URL)
        die_status("wurl_canon_into", st);
    out_puts(o, "canon_into");
    out_value(o, in->bytes, in->len, 1);
    out_printf(o, "\t%d", st == WURL_INVALID_URL ? 1 : 0);
    for (int k = 0; k < 10; k++)
        out_value(o, NULL, 0, 0);
    out_value(o, buf, len, st == WURL_OK);
    out_puts(o, "\n");
    free(buf);

    for (size_t k = 0; k < N_KEYS; k++)
        out_key(o, k, in);
}

static void generate(struct out *o)
{
    out_puts(o, "# Generated by bindings/tools/cross_check.c --generate; checked by it, by\n"
                "# bindings/perl/t/04-cross-binding.t, bindings/ruby/test/cross_binding_test.rb,\n"
                "# c-tests/test_cross_binding.cpp (C++), cli/tests/cross_binding.rs (the CLI)\n"
                "# and python/tests/test_cross_binding.py.\n"
                "# op\tinput\tinvalid\treason\thost_kind\tscheme\tuser\tpassword\thost\tport\tpath"
                "\tquery\tfragment\tserialization\n");
    for (size_t k = 0; k < N_KEYS; k++) {
        if (!KEYS[k].rules)
            continue;
        char msg[256];
        wurl_status st = p_wurl_rules_compile(KEYS[k].rules, strlen(KEYS[k].rules), &key_rules[k],
                                              msg, sizeof msg);
        if (st != WURL_OK) {
            fprintf(stderr, "cross_check: rules %s: %s\n", KEYS[k].rules, msg);
            exit(2);
        }
    }
    wurl_url *base = parse(BASE, strlen(BASE));
    for (size_t i = 0; i < N_INPUTS; i++)
        out_input(o, base, &INPUTS[i]);

    /* The sample: each class in each place, a real line after every
     * eighth input. */
    size_t n = 0, next_real = 0;
    for (size_t p = 0; p < N_PLACES; p++) {
        for (size_t k = 0; k < N_INVALID; k++) {
            char buf[256];
            size_t lb = strlen(PLACES[p].before), la = strlen(PLACES[p].after);
            memcpy(buf, PLACES[p].before, lb);
            memcpy(buf + lb, INVALID[k].bytes, INVALID[k].len);
            memcpy(buf + lb + INVALID[k].len, PLACES[p].after, la);
            struct input in = {buf, lb + INVALID[k].len + la};
            out_input(o, base, &in);
            if (++n % 8 == 0 && next_real < N_REAL) {
                struct input real = {REAL[next_real], strlen(REAL[next_real])};
                out_input(o, base, &real);
                next_real++;
            }
        }
    }
    for (; next_real < N_REAL; next_real++) {
        struct input real = {REAL[next_real], strlen(REAL[next_real])};
        out_input(o, base, &real);
    }
    p_wurl_free(base);
    for (size_t k = 0; k < N_KEYS; k++)
        if (key_rules[k])
            p_wurl_rules_free(key_rules[k]);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    struct out o = {0};
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        out_putn(&o, buf, n);
    fclose(f);
    if (!o.s)
        out_putn(&o, "", 0);
    *len = o.len;
    return o.s;
}

/* Compares line by line; prints the differing lines and the counts. */
static int check(const char *path, const struct out *got)
{
    size_t want_len;
    char *want = read_file(path, &want_len);
    size_t passed = 0, failed = 0;
    const char *w = want, *g = got->s;
    const char *we = want + want_len, *ge = got->s + got->len;
    while (w < we || g < ge) {
        const char *wn = memchr(w, '\n', (size_t)(we - w));
        const char *gn = memchr(g, '\n', (size_t)(ge - g));
        size_t wl = wn ? (size_t)(wn - w) : (size_t)(we - w);
        size_t gl = gn ? (size_t)(gn - g) : (size_t)(ge - g);
        int comment = (wl > 0 && w[0] == '#');
        if (wl == gl && memcmp(w, g, wl) == 0) {
            if (!comment && wl > 0)
                passed++;
        } else {
            failed++;
            fprintf(stderr, "expected: %.*s\n     got: %.*s\n", (int)wl, w, (int)gl, g);
        }
        w = wn ? wn + 1 : we;
        g = gn ? gn + 1 : ge;
    }
    free(want);
    printf("%zu passed, %zu failed\n", passed, failed);
    return failed ? 1 : 0;
}

static void *load(void *lib, const char *name)
{
    void *p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "cross_check: %s: %s\n", name, dlerror());
        exit(2);
    }
    return p;
}

int main(int argc, char **argv)
{
    const char *lib_path = getenv("WURL_LIB");
    const char *mode = NULL, *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--lib") == 0 && i + 1 < argc)
            lib_path = argv[++i];
        else if (strcmp(argv[i], "--generate") == 0)
            mode = "generate";
        else if (strcmp(argv[i], "--check") == 0 && i + 1 < argc) {
            mode = "check";
            file = argv[++i];
        } else {
            mode = NULL;
            break;
        }
    }
    if (!mode) {
        fprintf(stderr, "usage: %s [--lib PATH] (--generate | --check FILE)\n"
                        "  (the library is $WURL_LIB unless --lib is given; default libwurl.so.0)\n",
                argv[0]);
        return 2;
    }
    if (!lib_path || !*lib_path)
        lib_path = "libwurl.so.0";
    void *lib = dlopen(lib_path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "cross_check: %s\n", dlerror());
        return 2;
    }
/* POSIX: a function pointer is stored through a void * (dlsym). */
#define LOAD(name) (*(void **)&p_##name = load(lib, #name))
    LOAD(wurl_parse);
    LOAD(wurl_resolve);
    LOAD(wurl_canonicalize);
    LOAD(wurl_canon_into);
    LOAD(wurl_serialize);
    LOAD(wurl_get);
    LOAD(wurl_is_invalid);
    LOAD(wurl_invalid_reason);
    LOAD(wurl_host_kind);
    LOAD(wurl_free);
    LOAD(wurl_status_str);
    LOAD(wurl_rules_compile);
    LOAD(wurl_rules_free);
    LOAD(wurl_canon_key_into);
    LOAD(wurl_output_bound);

    struct out o = {0};
    generate(&o);
    if (strcmp(mode, "generate") == 0) {
        fwrite(o.s, 1, o.len, stdout);
        return 0;
    }
    int rc = check(file, &o);
    free(o.s);
    return rc;
}
