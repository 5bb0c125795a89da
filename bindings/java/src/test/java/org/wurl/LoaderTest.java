package org.wurl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the native library is found: the jar's copy, wurl.lib, WURL_LIB, and a wrong library. */
class LoaderTest {
    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The jar or directory `c` was loaded from (the launcher's class path is its own). */
    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    /** Runs the example's main in a new JVM with `env` added and `props` as -D options. */
    private static String[] run(Map<String, String> env, List<String> props) throws Exception {
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add(javaBin());
        cmd.addAll(props);
        cmd.add("-cp");
        cmd.add(location(Wurl.class) + File.pathSeparator + location(org.wurl.examples.CrawlerUrlNormalizer.class));
        cmd.add("org.wurl.examples.CrawlerUrlNormalizer");
        cmd.add("HTTP://A/b");
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("WURL_LIB");
        pb.environment().putAll(env);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new String[] {String.valueOf(p.waitFor()), out};
    }

    @Test
    void theJarsCopyIsLoadedByDefault() throws Exception {
        String[] r = run(Map.of(), List.of());
        assertEquals("0", r[0], r[1]);
        assertEquals("http://a/b\n", r[1].replace(System.lineSeparator(), "\n"));
    }

    /** WURL_LIB naming the C library (as for Perl and Ruby) fails with a message that says so. */
    @Test
    void theCLibraryIsNotTakenForTheJniLibrary() throws Exception {
        String clib = System.getProperty("wurl.test.clib");
        assumeTrue(clib != null && new File(clib).isFile(), "wurl.test.clib names no libwurl.so");
        String[] r = run(Map.of("WURL_LIB", clib), List.of());
        assertTrue(!r[0].equals("0"), r[1]);
        assertTrue(r[1].contains("is not wurl's JNI library (libwurl_jni.so)"), r[1]);
        r = run(Map.of(), List.of("-Dwurl.lib=" + clib));
        assertTrue(r[1].contains("(system property wurl.lib) is not wurl's JNI library"), r[1]);
    }

    /** wurl.lib and WURL_LIB load the file they name (here: the jar's copy, extracted). */
    @Test
    void anOverrideLoadsTheFileItNames() throws Exception {
        Path tmp = Files.createTempFile("wurl-test-jni", ".so");
        try {
            try (java.io.InputStream in = Native.class.getResourceAsStream(Native.RESOURCE)) {
                assumeTrue(in != null, "no native library in the jar on the class path");
                Files.copy(in, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            String[] r = run(Map.of("WURL_LIB", tmp.toString()), List.of());
            assertEquals("0", r[0], r[1]);
            assertEquals("http://a/b\n", r[1].replace(System.lineSeparator(), "\n"));
            r = run(Map.of("WURL_LIB", "/nonexistent/libwurl_jni.so"), List.of("-Dwurl.lib=" + tmp));
            assertEquals("0", r[0], "wurl.lib comes first: " + r[1]);
            r = run(Map.of("WURL_LIB", "/nonexistent/libwurl_jni.so"), List.of());
            assertTrue(!r[0].equals("0") && r[1].contains("/nonexistent/libwurl_jni.so"), r[1]);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
