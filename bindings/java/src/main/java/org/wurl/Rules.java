package org.wurl;

import java.lang.ref.Cleaner;
import java.util.Objects;

/**
 * A compiled rules specification: opt-in dedup rules applied to the canonical URL (docs/keys.md),
 * the same rules string meaning the same in every wurl interface. Compile it once and share it:
 * a {@code Rules} is immutable and any number of threads may use it at once.
 *
 * <pre>{@code
 * try (Rules rules = Rules.compile("drop-fragment,strip-www,sort-query")) {
 *     rules.key("http://www.Example.com/x?b=2&a=1#f");   // http://example.com/x?a=1&b=2
 * }
 * }</pre>
 *
 * <p>{@link #close()} frees the native rules at once (calls after it throw
 * {@link IllegalStateException}); a {@code Rules} that is never closed is freed by a
 * {@link Cleaner} once unreachable.
 */
public final class Rules implements AutoCloseable {
    private final NativeHandle handle;
    private final Cleaner.Cleanable cleanable;
    private final String spec;

    private Rules(long ptr) {
        handle = new NativeHandle(ptr, Native::rulesFree, "Rules");
        cleanable = Native.CLEANER.register(this, handle);
        spec = run(Native::rulesSpec);
    }

    /**
     * Compiles a rules specification: comma-separated rules, each at most once:
     * {@code drop-fragment}, {@code strip-www}, {@code sort-query}, {@code drop-params=GLOB|GLOB...},
     * {@code strip-session-ids}, {@code drop-userinfo}, {@code normalize-escapes}; e.g.
     * {@code "drop-fragment,strip-www,sort-query,drop-params=utm_*|fbclid"}. The empty string is
     * no rule.
     *
     * @throws IllegalArgumentException a bad specification (the message names the bad part)
     * @throws NullPointerException {@code spec} is null
     */
    public static Rules compile(String spec) {
        Objects.requireNonNull(spec, "spec");
        return new Rules(Native.rulesCompile(spec));
    }

    /** The specification, as given. */
    public String spec() {
        return spec;
    }

    /**
     * {@code url} (its own base) canonicalized, then these rules applied.
     *
     * @return the key, or {@code null} when the URL is invalid
     * @throws WurlException {@code url} is longer than {@link Wurl#MAX_INPUT_LEN} bytes in UTF-8
     */
    public String key(String url) {
        return Canonicalizer.DEFAULT.key(url, null, this, 0);
    }

    /** {@link #key(String)} of {@code url} resolved against {@code base} (null: none). */
    public String key(String url, String base) {
        return Canonicalizer.DEFAULT.key(url, base, this, 0);
    }

    /**
     * The SURT form of {@link #key(String)}: {@code com,example)/a?q}.
     *
     * @return the SURT key, or {@code null} when the URL is invalid
     */
    public String surtKey(String url) {
        return Canonicalizer.DEFAULT.key(url, null, this, Native.SURT);
    }

    /** {@link #surtKey(String)} of {@code url} resolved against {@code base} (null: none). */
    public String surtKey(String url, String base) {
        return Canonicalizer.DEFAULT.key(url, base, this, Native.SURT);
    }

    /** Frees the native rules (idempotent); later calls throw {@link IllegalStateException}. */
    @Override
    public void close() {
        cleanable.clean();
    }

    NativeHandle handle() {
        return handle;
    }

    private <T> T run(java.util.function.LongFunction<T> f) {
        long p = handle.acquire();
        try {
            return f.apply(p);
        } finally {
            handle.release();
        }
    }

    /** Equal when the specifications are equal. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Rules && ((Rules) o).spec.equals(spec);
    }

    @Override
    public int hashCode() {
        return spec.hashCode();
    }

    /** The specification. */
    @Override
    public String toString() {
        return spec;
    }
}
