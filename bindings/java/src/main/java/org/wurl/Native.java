package org.wurl;

import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The native library {@code libwurl_jni} (bindings/java/native) and its methods. Loaded when this
 * class is first used, from the first of:
 *
 * <ol>
 *   <li>the file named by the system property {@code wurl.lib};
 *   <li>the file named by the environment variable {@code WURL_LIB};
 *   <li>the copy inside the jar, {@code /native/linux-x86_64/libwurl_jni.so}, extracted to a
 *       temporary file (deleted once loaded);
 *   <li>{@code System.loadLibrary("wurl_jni")} ({@code java.library.path}).
 * </ol>
 *
 * Arguments are checked by the callers (non-null where required, handles acquired); the native
 * side reads strings, does the work and throws {@link WurlException} or
 * {@link IllegalArgumentException}.
 */
final class Native {
    private Native() {}

    /** The jar's copy of the library. */
    static final String RESOURCE = "/native/linux-x86_64/libwurl_jni.so";

    // The flags of the calls (the native library has the same values).
    static final int STRICT = 1;
    static final int STANDARD = 2;
    static final int SURT = 4;
    static final int SURT_SCHEME = 8;

    /** Frees the handles of unreachable objects that were not closed. */
    static final Cleaner CLEANER = Cleaner.create();

    /** Where the library was loaded from. */
    static final String LOADED_FROM;

    static {
        LOADED_FROM = load();
        try {
            version();
        } catch (UnsatisfiedLinkError e) {
            UnsatisfiedLinkError err =
                    new UnsatisfiedLinkError(
                            LOADED_FROM
                                    + " is not wurl's JNI library (libwurl_jni.so); for Java,"
                                    + " wurl.lib and WURL_LIB name libwurl_jni.so, not the C"
                                    + " library libwurl.so: "
                                    + e.getMessage());
            err.initCause(e);
            throw err;
        }
    }

    private static String load() {
        String prop = System.getProperty("wurl.lib");
        if (prop != null && !prop.isEmpty()) {
            System.load(Path.of(prop).toAbsolutePath().toString());
            return prop + " (system property wurl.lib)";
        }
        String env = System.getenv("WURL_LIB");
        if (env != null && !env.isEmpty()) {
            System.load(Path.of(env).toAbsolutePath().toString());
            return env + " (environment variable WURL_LIB)";
        }
        try (InputStream in = Native.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                Path tmp = Files.createTempFile("libwurl_jni", ".so");
                try {
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                    System.load(tmp.toAbsolutePath().toString());
                } finally {
                    // Loaded (or failed): the mapping stays valid without the file.
                    Files.deleteIfExists(tmp);
                }
                return "the jar's " + RESOURCE;
            }
        } catch (IOException e) {
            UnsatisfiedLinkError err =
                    new UnsatisfiedLinkError(
                            "cannot extract " + RESOURCE + " to a temporary file: " + e
                                    + " (set the system property wurl.lib to a libwurl_jni.so)");
            err.initCause(e);
            throw err;
        }
        System.loadLibrary("wurl_jni");
        return "java.library.path (wurl_jni)";
    }

    static native String version();

    static native long maxInputLen();

    static native int status(String name);

    static native void panicForTest();

    static native void checkCharset(String label);

    static native String canon(
            String url, String base, long baseUrl, String charset, int flags, long rules);

    static native String[] canonAll(
            String[] urls, String base, long baseUrl, String charset, int flags, long rules);

    static native void canonLines(
            ByteBuffer in,
            int inPos,
            int inLim,
            ByteBuffer out,
            int outPos,
            int outLim,
            String base,
            long baseUrl,
            String charset,
            int flags,
            long rules,
            int[] counts);

    static native long rulesCompile(String spec);

    static native String rulesSpec(long rules);

    static native void rulesFree(long rules);

    static native long urlParse(String url);

    static native long urlResolve(long base, String ref);

    static native long urlCanonicalize(long url, String charset, int flags);

    static native long urlCanonical(
            String url, String base, long baseUrl, String charset, int flags);

    static native String urlGet(long url, int component);

    static native String urlSerialize(long url);

    static native String urlReason(long url);

    static native int urlInfo(long url);

    static native boolean urlEquals(long a, long b);

    static native void urlFree(long url);

    static native byte[] urlExportState(long url);

    static native long urlImportState(byte[] state);
}
