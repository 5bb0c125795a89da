package org.wurl;

import java.nio.ByteBuffer;

/**
 * wurl from Java: URLs canonicalized exactly as the 2012 Web::URL::Canonicalize algorithm does,
 * the same key, byte for byte, as wurl's C, C++, Rust, Perl, Ruby, Python and command-line
 * interfaces give.
 *
 * <pre>{@code
 * Wurl.canonicalize("HTTP://Example.COM:80/a/./b/../c?q=é#f");   // http://example.com/a/c?q=%C3%A9#f
 * Wurl.canonicalize("../x", "http://example.com/a/b");           // http://example.com/x
 * Wurl.canonicalize("foo");                                      // null: invalid (no scheme)
 * }</pre>
 *
 * <p>Every method is static and thread-safe; options (charset, network-strict mode, the URL
 * Standard model, rules, SURT) are in {@link Canonicalizer}, parsed URLs in {@link WurlUrl}, dedup
 * rules in {@link Rules}.
 *
 * <p>The choices, as in wurl's other bindings: an invalid URL gives {@code null} (the reason:
 * {@link WurlUrl#canonical}); an input longer than {@link #MAX_INPUT_LEN} bytes in UTF-8 throws
 * {@link WurlException} (in the bulk calls its entry is {@code null} instead); a null URL throws
 * {@link NullPointerException}; a bad rules specification or charset label throws
 * {@link IllegalArgumentException}. A lone surrogate in a {@code String} is read as U+FFFD.
 */
public final class Wurl {
    private Wurl() {}

    /**
     * Inputs (URLs, bases, charset labels) longer than this many bytes in UTF-8 are refused: 16
     * MiB, the C ABI's {@code WURL_MAX_INPUT_LEN}.
     */
    public static final int MAX_INPUT_LEN = 16 * 1024 * 1024;

    private static final Canonicalizer STANDARD =
            Canonicalizer.builder().model(Model.URL_STANDARD).build();

    /** The wurl library version of the native library ({@code 0.1.0}). */
    public static String version() {
        return Native.version();
    }

    /**
     * The canonical URL of {@code url} (its own base: a relative reference is invalid).
     *
     * @return the canonical URL, or {@code null} when invalid
     * @throws WurlException {@code url} is longer than {@link #MAX_INPUT_LEN} bytes in UTF-8
     * @throws NullPointerException {@code url} is null
     */
    public static String canonicalize(String url) {
        return Canonicalizer.DEFAULT.canonicalize(url);
    }

    /**
     * {@code url} resolved against {@code base} (the page it was found on; {@code null}: none),
     * canonicalized and serialized.
     *
     * @return the canonical URL, or {@code null} when invalid (an invalid base makes every URL
     *     invalid)
     */
    public static String canonicalize(String url, String base) {
        return Canonicalizer.DEFAULT.canonicalize(url, base);
    }

    /**
     * {@code url} resolved against {@code base} ({@code null}: against itself), not
     * canonicalized: what {@code wurl resolve} prints, Python's {@code wurl.resolve} and the SQL
     * function {@code wurl_resolve(base, url)} give.
     *
     * @return the resolved URL's serialization, or {@code null} when invalid
     * @throws NullPointerException {@code url} is null
     * @throws WurlException {@code url} or {@code base} is longer than {@link #MAX_INPUT_LEN}
     *     bytes in UTF-8
     */
    public static String resolve(String base, String url) {
        java.util.Objects.requireNonNull(url, "url");
        try (WurlUrl b = WurlUrl.parse(base != null ? base : url);
                WurlUrl r = b.resolve(url)) {
            return r.serialize();
        }
    }

    /**
     * The message wurl shows for a charset label that names no encoding (the same text in every
     * binding, the CLI and the C ABI's {@code wurl_charset_message}), or {@code null} for a label
     * that names one.
     *
     * @throws NullPointerException {@code label} is null
     */
    public static String charsetMessage(String label) {
        java.util.Objects.requireNonNull(label, "label");
        try {
            Native.checkCharset(label);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /**
     * The SURT key of the canonical URL ({@code HTTP://www.Example.com/a?q} gives
     * {@code com,example,www)/a?q}), or {@code null} when invalid.
     */
    public static String surt(String url) {
        return Canonicalizer.DEFAULT.surt(url);
    }

    /**
     * The URL Standard model's serialization (WHATWG URL Standard, {@code http://faß.de/} gives
     * {@code http://xn--fa-hia.de/}), or {@code null} when it finds the URL invalid.
     */
    public static String standard(String url) {
        return STANDARD.canonicalize(url);
    }

    /** {@link #standard(String)} of {@code url} parsed against {@code base} ({@code null}: none). */
    public static String standard(String url, String base) {
        return STANDARD.canonicalize(url, base);
    }

    /**
     * The bulk call: see {@link Canonicalizer#canonicalizeAll}.
     *
     * @return one entry per URL: the canonical URL, or {@code null} for a null, invalid or too
     *     long URL
     */
    public static String[] canonicalizeAll(String[] urls, String base) {
        return Canonicalizer.DEFAULT.canonicalizeAll(urls, base);
    }

    /**
     * The bulk call over direct buffers of LF-separated URLs: see
     * {@link Canonicalizer#canonicalizeLines} for the contract.
     *
     * @return the number of lines done
     */
    public static int canonicalizeLines(ByteBuffer in, ByteBuffer out, String base) {
        return Canonicalizer.DEFAULT.canonicalizeLines(in, out, base);
    }
}
