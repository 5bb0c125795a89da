/* Compile-only: include/wurl.h on its own, as strict C99
 * (-std=c99 -Wall -Wextra -Wpedantic -Werror). Not linked. */
#include "wurl.h"
#include "wurl.h" /* the include guard works */

/* Every declaration is usable with the types the header promises. */
typedef wurl_status (*parse_fn)(const char *, size_t, uint32_t, wurl_url **);
typedef wurl_status (*resolve_fn)(const wurl_url *, const char *, size_t, uint32_t, wurl_url **);
typedef wurl_status (*canonicalize_fn)(const wurl_url *, const char *, size_t, uint32_t, wurl_url **);
typedef wurl_status (*canon_into_fn)(const wurl_url *, const char *, size_t, const char *, size_t, uint32_t,
                                     char *, size_t, size_t *);
typedef bool (*serialize_fn)(const wurl_url *, const char **, size_t *);
typedef bool (*get_fn)(const wurl_url *, wurl_component, const char **, size_t *);
typedef bool (*is_invalid_fn)(const wurl_url *);
typedef const char *(*invalid_reason_fn)(const wurl_url *);
typedef uint32_t (*host_kind_fn)(const wurl_url *);
typedef void (*free_fn)(wurl_url *);
typedef const char *(*status_str_fn)(wurl_status);
typedef const char *(*version_fn)(void);

int wurl_header_c99_check(void);
int wurl_header_c99_check(void)
{
    parse_fn a = wurl_parse;
    resolve_fn b = wurl_resolve;
    canonicalize_fn c = wurl_canonicalize;
    canon_into_fn d = wurl_canon_into;
    serialize_fn e = wurl_serialize;
    get_fn f = wurl_get;
    is_invalid_fn g = wurl_is_invalid;
    invalid_reason_fn h = wurl_invalid_reason;
    host_kind_fn i = wurl_host_kind;
    free_fn j = wurl_free;
    status_str_fn k = wurl_status_str;
    version_fn l = wurl_version;
    wurl_status codes[] = {WURL_OK,      WURL_E_NULL_ARG,         WURL_E_BAD_ARG,  WURL_E_TOO_LONG,
                           WURL_E_PANIC, WURL_E_BUFFER_TOO_SMALL, WURL_INVALID_URL};
    wurl_component comps[] = {WURL_COMPONENT_SCHEME, WURL_COMPONENT_USER, WURL_COMPONENT_PASSWORD,
                              WURL_COMPONENT_HOST,   WURL_COMPONENT_PORT, WURL_COMPONENT_PATH,
                              WURL_COMPONENT_QUERY,  WURL_COMPONENT_FRAGMENT};
    uint32_t kinds[] = {WURL_HOST_NONE, WURL_HOST_EMPTY, WURL_HOST_DOMAIN, WURL_HOST_IPV4, WURL_HOST_IPV6};
    uint32_t flags = WURL_FLAG_NETWORK_STRICT;
    size_t max = WURL_MAX_INPUT_LEN;
    const char *v = WURL_VERSION;
    return (a != 0) + (b != 0) + (c != 0) + (d != 0) + (e != 0) + (f != 0) + (g != 0) + (h != 0) + (i != 0) +
           (j != 0) + (k != 0) + (l != 0) + (int)sizeof codes + (int)sizeof comps + (int)sizeof kinds +
           (int)flags + (max > 0) + (v[0] != 0);
}
