package org.wurl;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.Objects;

/**
 * Canonicalization with options: the document's charset, network-strict mode, the model, rules
 * and SURT. Immutable and thread-safe; made by {@link #builder()}:
 *
 * <pre>{@code
 * Canonicalizer sjis = Canonicalizer.builder().charset("shift_jis").build();
 * sjis.canonicalize("?q=\u65e5", "http://example.jp/dir/");   // http://example.jp/dir/?q=%93%FA
 * }</pre>
 *
 * <p>The methods are those of {@link Wurl}, with these options. An invalid URL gives
 * {@code null}; an input longer than {@link Wurl#MAX_INPUT_LEN} bytes in UTF-8 throws
 * {@link WurlException} (in the bulk calls its entry is {@code null} or an empty line instead); a
 * null URL throws {@link NullPointerException}.
 */
public final class Canonicalizer {
    /** The defaults: UTF-8, not strict, the 2012 model, no rules, no SURT. */
    static final Canonicalizer DEFAULT = new Canonicalizer(null, 0, null);

    private final String charset;
    private final int flags;
    private final Rules rules;

    private Canonicalizer(String charset, int flags, Rules rules) {
        this.charset = charset;
        this.flags = flags;
        this.rules = rules;
    }

    /** A builder with the defaults (UTF-8, not strict, the 2012 model, no rules, no SURT). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder with this canonicalizer's options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.charset = charset;
        b.flags = flags;
        b.rules = rules;
        return b;
    }

    /** The charset label of the query ({@code null}: UTF-8). */
    public String charset() {
        return charset;
    }

    /** Whether network-strict mode is on. */
    public boolean networkStrict() {
        return (flags & Native.STRICT) != 0;
    }

    /** The model. */
    public Model model() {
        return (flags & Native.STANDARD) != 0 ? Model.URL_STANDARD : Model.CANON_2012;
    }

    /** The rules applied after canonicalization ({@code null}: none). */
    public Rules rules() {
        return rules;
    }

    /** Whether results are in SURT form. */
    public boolean surt() {
        return (flags & (Native.SURT | Native.SURT_SCHEME)) != 0;
    }

    /** Whether results are in SURT form with the scheme kept. */
    public boolean surtWithScheme() {
        return (flags & Native.SURT_SCHEME) != 0;
    }

    /**
     * The canonical URL of {@code url}, its own base (so a relative reference is invalid), as a
     * crawler stores it for deduplication.
     *
     * @return the canonical URL (its key with rules or SURT), or {@code null} when invalid
     * @throws WurlException {@code url} is longer than {@link Wurl#MAX_INPUT_LEN} bytes in UTF-8
     */
    public String canonicalize(String url) {
        return key(url, null, rules, 0);
    }

    /**
     * {@code url} resolved against {@code base} (the page it was found on; {@code null}: none),
     * canonicalized and serialized.
     *
     * @return the canonical URL, or {@code null} when invalid (an invalid base makes every URL
     *     invalid)
     * @throws WurlException {@code url} or {@code base} is longer than {@link Wurl#MAX_INPUT_LEN}
     *     bytes in UTF-8
     */
    public String canonicalize(String url, String base) {
        return key(url, base, rules, 0);
    }

    /**
     * The SURT form of the canonical URL ({@code HTTP://www.Example.com/a} gives
     * {@code com,example,www)/a}), after this canonicalizer's rules.
     *
     * @return the SURT key, or {@code null} when invalid
     */
    public String surt(String url) {
        return key(url, null, rules, Native.SURT);
    }

    /** {@link #surt(String)} of {@code url} resolved against {@code base}. */
    public String surt(String url, String base) {
        return key(url, base, rules, Native.SURT);
    }

    /**
     * The URL Standard model's serialization of {@code url} (the WHATWG URL Standard, not the 2012
     * algorithm: {@code http://faß.de/} gives {@code http://xn--fa-hia.de/}), with this
     * canonicalizer's charset, rules and SURT.
     *
     * @return the URL, or {@code null} when the URL Standard finds it invalid
     * @throws IllegalArgumentException network-strict mode is on (it tests the 2012 result)
     */
    public String standard(String url) {
        return key(url, null, rules, Native.STANDARD);
    }

    /** {@link #standard(String)} of {@code url} parsed against {@code base}. */
    public String standard(String url, String base) {
        return key(url, base, rules, Native.STANDARD);
    }

    /**
     * {@code link} canonicalized against the parsed URL {@code page}: the same result as
     * {@code canonicalize(link, page's string)}, without parsing the page again for each link.
     * In the URL Standard model the page counts by its serialization.
     *
     * @return the canonical URL, or {@code null} when invalid
     */
    public String canonicalizeLink(WurlUrl page, String link) {
        Objects.requireNonNull(page, "page");
        Objects.requireNonNull(link, "link");
        return with(page, rules, (b, r) -> Native.canon(link, null, b, charset, flags, r));
    }

    /** {@link #canonicalizeLink} of each link; {@code null} entries for null or invalid links. */
    public String[] canonicalizeLinks(WurlUrl page, String[] links) {
        Objects.requireNonNull(page, "page");
        Objects.requireNonNull(links, "links");
        return with(page, rules, (b, r) -> Native.canonAll(links, null, b, charset, flags, r));
    }

    /**
     * The bulk call: each URL resolved against {@code base} ({@code null}: each is its own base),
     * canonicalized, in one native call (the base parsed once).
     *
     * @return one entry per URL, in order: the canonical URL, or {@code null} when the URL is
     *     null, invalid or longer than {@link Wurl#MAX_INPUT_LEN} bytes in UTF-8
     * @throws WurlException {@code base} is longer than {@link Wurl#MAX_INPUT_LEN} bytes
     */
    public String[] canonicalizeAll(String[] urls, String base) {
        Objects.requireNonNull(urls, "urls");
        return with(null, rules, (b, r) -> Native.canonAll(urls, base, 0, charset, flags, r));
    }

    /**
     * The bulk call over bytes: LF-separated UTF-8 URLs in {@code in}, their keys written to
     * {@code out}, in one native call without a copy or a Java string per URL (for Hadoop
     * {@code Text} and Arrow buffers).
     *
     * <ul>
     *   <li>{@code in} and {@code out} are direct buffers; their ranges from position to limit
     *       must not overlap, and no other thread may change either during the call.
     *   <li>Each line of {@code in} (from its position to its limit, ended by LF) is a URL; the
     *       bytes after the last LF are a last line when there are any (so the last LF is
     *       optional: hand the call complete lines only). Invalid UTF-8 is read as U+FFFD; a CR
     *       before the LF is removed, like every CR, by the algorithm's preprocessing.
     *   <li>For each line, its key and an LF are written to {@code out} at its position; an
     *       invalid URL (or a line longer than {@link Wurl#MAX_INPUT_LEN} bytes) writes an empty
     *       line (a valid key is never empty), so line <i>n</i> of the output is the key of line
     *       <i>n</i> of the input.
     *   <li>The call stops before the first line whose key and LF do not fit in
     *       {@code out.remaining()}. Both positions are advanced past what was read and written.
     * </ul>
     *
     * @param base the base of every URL ({@code null}: each is its own base), parsed once
     * @return the number of lines done: all of {@code in} when {@code in.hasRemaining()} is false
     *     afterwards; otherwise {@code out} is full (0: the next key alone does not fit; drain or
     *     grow {@code out} and call again)
     * @throws IllegalArgumentException a buffer is not direct, or the ranges overlap
     * @throws ReadOnlyBufferException {@code out} is read-only
     */
    public int canonicalizeLines(ByteBuffer in, ByteBuffer out, String base) {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
        if (!in.isDirect() || !out.isDirect()) {
            throw new IllegalArgumentException("in and out must be direct ByteBuffers");
        }
        if (out.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        int[] counts = new int[3];
        int inPos = in.position();
        int outPos = out.position();
        with(
                null,
                rules,
                (b, r) -> {
                    Native.canonLines(
                            in,
                            inPos,
                            in.limit(),
                            out,
                            outPos,
                            out.limit(),
                            base,
                            0,
                            charset,
                            flags,
                            r,
                            counts);
                    return null;
                });
        in.position(inPos + counts[0]);
        out.position(outPos + counts[1]);
        return counts[2];
    }

    /**
     * The canonical URL record of {@code url} against {@code base} ({@code null}: itself), with
     * its components, or an invalid record whose {@link WurlUrl#invalidReason()} says which rule
     * failed (without a base, an input that does not parse is returned as parsed, with its parse
     * failure as the reason). Records follow the 2012 model, without rules or SURT.
     *
     * @throws IllegalStateException this canonicalizer is of the URL Standard model
     */
    public WurlUrl canonicalUrl(String url, String base) {
        Objects.requireNonNull(url, "url");
        if ((flags & Native.STANDARD) != 0) {
            throw new IllegalStateException("URL records follow the 2012 model");
        }
        return new WurlUrl(Native.urlCanonical(url, base, 0, charset, flags & Native.STRICT));
    }

    /** The key of {@code url}, with {@code extra} flags added. */
    String key(String url, String base, Rules r, int extra) {
        Objects.requireNonNull(url, "url");
        int f = flags | extra;
        return with(null, r, (b, rp) -> Native.canon(url, base, 0, charset, f, rp));
    }

    /** A call with the handles of {@code page} and {@code r} (either may be null) held. */
    interface Call<T> {
        T run(long page, long rules);
    }

    static <T> T with(WurlUrl page, Rules r, Call<T> call) {
        NativeHandle ph = page == null ? null : page.handle();
        NativeHandle rh = r == null ? null : r.handle();
        long pp = ph == null ? 0 : ph.acquire();
        try {
            long rp = rh == null ? 0 : rh.acquire();
            try {
                return call.run(pp, rp);
            } finally {
                if (rh != null) {
                    rh.release();
                }
            }
        } finally {
            if (ph != null) {
                ph.release();
            }
        }
    }

    @Override
    public String toString() {
        return "Canonicalizer[charset="
                + charset
                + ", networkStrict="
                + networkStrict()
                + ", model="
                + model().label()
                + ", rules="
                + (rules == null ? null : "\"" + rules.spec() + "\"")
                + ", surt="
                + (surtWithScheme() ? "with-scheme" : String.valueOf(surt()))
                + "]";
    }

    /** Builds a {@link Canonicalizer}; not thread-safe (the canonicalizer is). */
    public static final class Builder {
        private String charset;
        private int flags;
        private Rules rules;

        private Builder() {}

        /**
         * The document's charset, the encoding of the query: a WHATWG Encoding Standard label
         * ({@code utf-8}, {@code shift_jis}, {@code windows-1252}, ...); {@code null}: UTF-8, as
         * does a label whose encoding is not ASCII-compatible (UTF-16).
         *
         * @throws IllegalArgumentException the label names no encoding (a misspelt label would
         *     otherwise silently mean UTF-8)
         */
        public Builder charset(String label) {
            if (label != null) {
                Native.checkCharset(label);
            }
            charset = label;
            return this;
        }

        /**
         * Network-strict mode: also mark invalid the URLs that curl or a WHATWG parser reads
         * differently (2012 model only).
         */
        public Builder networkStrict(boolean on) {
            flags = on ? flags | Native.STRICT : flags & ~Native.STRICT;
            return this;
        }

        /** The model ({@link Model#CANON_2012} by default). */
        public Builder model(Model model) {
            Objects.requireNonNull(model, "model");
            flags =
                    model == Model.URL_STANDARD
                            ? flags | Native.STANDARD
                            : flags & ~Native.STANDARD;
            return this;
        }

        /** The model by name: {@code 2012} or {@code url-standard}. */
        public Builder model(String name) {
            return model(Model.fromName(name));
        }

        /** Rules applied after canonicalization ({@code null}: none); the canonicalizer uses them. */
        public Builder rules(Rules rules) {
            this.rules = rules;
            return this;
        }

        /** SURT form ({@code com,example)/a}) of the (ruled) canonical URL. */
        public Builder surt(boolean on) {
            flags = on ? flags | Native.SURT : flags & ~(Native.SURT | Native.SURT_SCHEME);
            return this;
        }

        /** SURT form keeping the scheme ({@code http://(com,example)/a}). */
        public Builder surtWithScheme(boolean on) {
            flags =
                    on
                            ? flags | Native.SURT | Native.SURT_SCHEME
                            : flags & ~Native.SURT_SCHEME;
            return this;
        }

        /**
         * The canonicalizer.
         *
         * @throws IllegalArgumentException network-strict mode with the URL Standard model (it
         *     tests the 2012 result)
         */
        public Canonicalizer build() {
            if ((flags & Native.STRICT) != 0 && (flags & Native.STANDARD) != 0) {
                throw new IllegalArgumentException(
                        "network-strict mode tests the 2012 result; it cannot be used with the URL"
                                + " Standard model");
            }
            return new Canonicalizer(charset, flags, rules);
        }
    }
}
