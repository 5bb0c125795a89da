package org.wurl;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamException;
import java.io.Serializable;
import java.lang.ref.Cleaner;
import java.util.Objects;
import java.util.function.LongFunction;

/**
 * A parsed, resolved or canonicalized URL: immutable, thread-safe. Made by {@link #parse},
 * {@link #resolve}, {@link #canonicalize()} and {@link Canonicalizer#canonicalUrl}.
 *
 * <pre>{@code
 * try (WurlUrl page = WurlUrl.parse("http://EXAMPLE.com:80/x/y");
 *      WurlUrl link = page.resolve("../a/./b?q");
 *      WurlUrl canon = link.canonicalize()) {
 *     link.getHost();      // "EXAMPLE.com": resolution keeps the raw components
 *     canon.serialize();   // "http://example.com/a/b?q"
 * }
 * }</pre>
 *
 * <p>A component is {@code null} when absent and {@code ""} when present and empty:
 * {@code parse("http://h/p?")} has the query {@code ""}, {@code parse("http://h/p")} none. An
 * invalid URL keeps the components the algorithm had found; {@link #invalidReason()} says which
 * rule failed, and {@link #serialize()} is {@code null}.
 *
 * <p>{@link #close()} frees the native record at once (calls after it throw
 * {@link IllegalStateException}); an unclosed one is freed by a {@link Cleaner} once
 * unreachable. A {@code WurlUrl} is {@link Serializable}: its form is the library's record state,
 * checked when read back (a malformed state throws {@link InvalidObjectException}).
 *
 * <p>Equal ({@link #equals}) when every component (absent or empty), the authority as recorded,
 * the hierarchical flag and the invalid reason are equal.
 */
public final class WurlUrl implements AutoCloseable, Serializable {
    private static final long serialVersionUID = 1L;

    /** How the URL's host reads (the C ABI's {@code WURL_HOST_*}). */
    public enum HostKind {
        /** No host. */
        NONE,
        /** A present, empty host ({@code file:///p}). */
        EMPTY,
        /** A domain name. */
        DOMAIN,
        /** An IPv4 address. */
        IPV4,
        /** An IPv6 address (in brackets). */
        IPV6
    }

    // Component indexes of the native library (scheme, user, password, host, port, path, query,
    // fragment: wurl::Component::ALL).
    private static final int SCHEME = 0;
    private static final int USER = 1;
    private static final int PASSWORD = 2;
    private static final int HOST = 3;
    private static final int PORT = 4;
    private static final int PATH = 5;
    private static final int QUERY = 6;
    private static final int FRAGMENT = 7;

    private final transient NativeHandle handle;
    private final transient Cleaner.Cleanable cleanable;

    WurlUrl(long ptr) {
        handle = new NativeHandle(ptr, Native::urlFree, "WurlUrl");
        cleanable = Native.CLEANER.register(this, handle);
    }

    /**
     * Parses {@code url} into its raw components (no resolution, no canonicalization). TAB, LF
     * and CR are removed and leading and trailing C0 controls and spaces trimmed first, as the
     * algorithm says; a lone surrogate is read as U+FFFD.
     *
     * @return the parsed URL; invalid (with its reason) when it does not parse, e.g. a relative
     *     reference ({@code "no scheme ..."})
     * @throws WurlException {@code url} is longer than {@link Wurl#MAX_INPUT_LEN} bytes in UTF-8
     */
    public static WurlUrl parse(String url) {
        Objects.requireNonNull(url, "url");
        return new WurlUrl(Native.urlParse(url));
    }

    /**
     * The canonical URL record of {@code url} against {@code base} ({@code null}: itself): see
     * {@link Canonicalizer#canonicalUrl}, with the default options.
     */
    public static WurlUrl canonical(String url, String base) {
        return Canonicalizer.DEFAULT.canonicalUrl(url, base);
    }

    /**
     * The reference {@code ref} ({@code "../x"}, {@code "?q"}, {@code "//host/p"} or an absolute
     * URL) resolved against this URL, not canonicalized.
     *
     * @return the resolved URL; invalid when this URL is invalid or {@code ref} cannot be
     *     resolved against it
     */
    public WurlUrl resolve(String ref) {
        Objects.requireNonNull(ref, "ref");
        return new WurlUrl(run(p -> Native.urlResolve(p, ref)));
    }

    /** This URL canonicalized with UTF-8 as the query's encoding, not strict. */
    public WurlUrl canonicalize() {
        return canonicalize(null, false);
    }

    /**
     * This URL canonicalized (no resolution).
     *
     * @param charset the encoding label of the query ({@code null}: UTF-8), as for
     *     {@link Canonicalizer.Builder#charset}
     * @param networkStrict network-strict mode
     * @return the canonical URL; invalid (with its reason) when a rule fails or this URL is
     *     invalid
     * @throws IllegalArgumentException {@code charset} names no encoding
     */
    public WurlUrl canonicalize(String charset, boolean networkStrict) {
        int flags = networkStrict ? Native.STRICT : 0;
        return new WurlUrl(run(p -> Native.urlCanonicalize(p, charset, flags)));
    }

    /**
     * {@code link} canonicalized against this URL (its page) with the default options: the
     * result of {@code Wurl.canonicalize(link, page)}, without parsing the page again.
     *
     * @return the canonical URL, or {@code null} when invalid
     */
    public String canonicalizeLink(String link) {
        return Canonicalizer.DEFAULT.canonicalizeLink(this, link);
    }

    /** The serialization, or {@code null} when the URL is invalid. */
    public String serialize() {
        return run(Native::urlSerialize);
    }

    /** The scheme (as written before canonicalization, lowercase after), or null when absent. */
    public String getScheme() {
        return get(SCHEME);
    }

    /** The user, or null when absent ({@code ""}: present and empty, {@code http://@h/}). */
    public String getUser() {
        return get(USER);
    }

    /** The password, or null when absent. */
    public String getPassword() {
        return get(PASSWORD);
    }

    /** The host, or null when absent. */
    public String getHost() {
        return get(HOST);
    }

    /** The port as text, or null when absent (or, after canonicalization, the default port). */
    public String getPort() {
        return get(PORT);
    }

    /** The path, or null when absent. */
    public String getPath() {
        return get(PATH);
    }

    /** The query (without {@code ?}), or null when absent ({@code ""}: {@code http://h/?}). */
    public String getQuery() {
        return get(QUERY);
    }

    /** The fragment (without {@code #}), or null when absent. */
    public String getFragment() {
        return get(FRAGMENT);
    }

    /** Whether the URL is invalid. */
    public boolean isInvalid() {
        return (info() & 1) != 0;
    }

    /** Why the URL is invalid (an English description of the rule), or null when it is valid. */
    public String invalidReason() {
        return run(Native::urlReason);
    }

    /** The algorithm's hierarchical flag. */
    public boolean isHierarchical() {
        return (info() & 2) != 0;
    }

    /** How the host reads. */
    public HostKind hostKind() {
        return HostKind.values()[(info() >> 4) & 0xF];
    }

    /** Frees the native record (idempotent); later calls throw {@link IllegalStateException}. */
    @Override
    public void close() {
        cleanable.clean();
    }

    NativeHandle handle() {
        return handle;
    }

    private int info() {
        long p = handle.acquire();
        try {
            return Native.urlInfo(p);
        } finally {
            handle.release();
        }
    }

    private String get(int component) {
        long p = handle.acquire();
        try {
            return Native.urlGet(p, component);
        } finally {
            handle.release();
        }
    }

    <T> T run(LongFunction<T> f) {
        long p = handle.acquire();
        try {
            return f.apply(p);
        } finally {
            handle.release();
        }
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof WurlUrl)) {
            return false;
        }
        WurlUrl other = (WurlUrl) o;
        long a = handle.acquire();
        try {
            long b = other.handle.acquire();
            try {
                return Native.urlEquals(a, b);
            } finally {
                other.handle.release();
            }
        } finally {
            handle.release();
        }
    }

    /** From fields {@link #equals} compares, so equal URLs hash alike. */
    @Override
    public int hashCode() {
        return Objects.hash(
                invalidReason(),
                isHierarchical(),
                getScheme(),
                getUser(),
                getPassword(),
                getHost(),
                getPort(),
                getPath(),
                getQuery(),
                getFragment());
    }

    /** The serialization; for an invalid URL, {@code invalid URL (REASON)}. */
    @Override
    public String toString() {
        String s = serialize();
        return s != null ? s : "invalid URL (" + invalidReason() + ")";
    }

    // Serialization: the record's state bytes, through a proxy (the handle is not serializable).

    private Object writeReplace() throws ObjectStreamException {
        byte[] state;
        try {
            state = run(Native::urlExportState);
        } catch (WurlException e) {
            java.io.NotSerializableException ex =
                    new java.io.NotSerializableException("org.wurl.WurlUrl: " + e.reason());
            ex.initCause(e);
            throw ex;
        }
        return new State(state);
    }

    private void readObject(ObjectInputStream in) throws InvalidObjectException {
        throw new InvalidObjectException("a WurlUrl is serialized as its state (WurlUrl.State)");
    }

    /** The serialized form of a {@link WurlUrl}: the library's record state. */
    private static final class State implements Serializable {
        private static final long serialVersionUID = 1L;
        private final byte[] state;

        State(byte[] state) {
            this.state = state;
        }

        private Object readResolve() throws ObjectStreamException {
            if (state == null) {
                throw new InvalidObjectException("no WurlUrl state");
            }
            try {
                return new WurlUrl(Native.urlImportState(state));
            } catch (WurlException e) {
                InvalidObjectException ex =
                        new InvalidObjectException("not a WurlUrl state: " + e.reason());
                ex.initCause(e);
                throw ex;
            }
        }
    }
}
