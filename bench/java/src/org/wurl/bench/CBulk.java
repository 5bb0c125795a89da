package org.wurl.bench;

import java.nio.ByteBuffer;

/**
 * The C bulk call looped in native code (bench/java/native, libwurl_jni_bench.so): one JNI call
 * per sample, inside it {@code wurl_canon_into} for every line, as the {@code wurl-into} row of
 * wurl-bench. Loaded from the system property {@code wurl.bench.lib} or the environment variable
 * {@code WURL_BENCH_LIB}.
 */
final class CBulk {
    private CBulk() {}

    static {
        String lib = System.getProperty("wurl.bench.lib", System.getenv("WURL_BENCH_LIB"));
        if (lib == null) {
            throw new IllegalStateException(
                    "set -Dwurl.bench.lib=PATH (or WURL_BENCH_LIB) to libwurl_jni_bench.so");
        }
        System.load(java.nio.file.Path.of(lib).toAbsolutePath().toString());
    }

    /** Valid results in the high 24 bits, the sum of their lengths in the low 40. */
    static native long canon(ByteBuffer in, int len);

    /** The same for {@code page<TAB>link} lines, each page parsed once per run. */
    static native long links(ByteBuffer in, int len);

    /** The results, one line each (empty: invalid); the bytes written, -1 when out is full. */
    static native long canonOut(ByteBuffer in, int len, ByteBuffer out, int cap);

    /** The same for {@code page<TAB>link} lines. */
    static native long linksOut(ByteBuffer in, int len, ByteBuffer out, int cap);

    /** {@code x + 1} in native code: what one JNI call costs. */
    static native long nop(long x);

    /** A new string made in native code ({@code NewStringUTF}) and nothing else. */
    static native String newString();

    /** The same bytes as a new {@code byte[]} ({@code NewByteArray}), for Java to decode. */
    static native byte[] newBytes();

    static long valid(long summary) {
        return summary >>> 40;
    }

    static long bytes(long summary) {
        return summary & ((1L << 40) - 1);
    }
}
