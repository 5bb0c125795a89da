package org.wurl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The constants the Java classes state are those of the C ABI: read from include/wurl.h and from
 * the native library; the pom's version is the crate's.
 */
class ConstantsTest {
    private static Map<String, String> header() throws Exception {
        String h = new String(Files.readAllBytes(TestData.root().resolve("include/wurl.h")), StandardCharsets.UTF_8);
        Map<String, String> defs = new HashMap<>();
        Matcher m = Pattern.compile("(?m)^#define (WURL_[A-Z0-9_]+) (.+)$").matcher(h);
        while (m.find()) {
            defs.put(m.group(1), m.group(2).trim());
        }
        assertTrue(defs.size() > 20, defs.toString());
        return defs;
    }

    @Test
    void statusesAreTheHeaders() throws Exception {
        Map<String, String> h = header();
        Object[][] pairs = {
            {"WURL_E_NULL_ARG", WurlException.NULL_ARG},
            {"WURL_E_BAD_ARG", WurlException.BAD_ARG},
            {"WURL_E_TOO_LONG", WurlException.TOO_LONG},
            {"WURL_E_PANIC", WurlException.PANIC},
            {"WURL_INVALID_URL", WurlException.INVALID_URL},
            {"WURL_E_BAD_STATE", WurlException.BAD_STATE},
        };
        for (Object[] p : pairs) {
            String name = (String) p[0];
            assertEquals(Integer.parseInt(h.get(name)), (int) (Integer) p[1], name);
            assertEquals(Native.status(name), (int) (Integer) p[1], name);
        }
        assertEquals(-1, Native.status("WURL_NO_SUCH"));
    }

    @Test
    void maxInputLenIsTheHeaders() throws Exception {
        String v = header().get("WURL_MAX_INPUT_LEN");
        assertEquals("((16 * 1024) * 1024)", v);
        assertEquals(16 * 1024 * 1024, Wurl.MAX_INPUT_LEN);
        assertEquals(Native.maxInputLen(), Wurl.MAX_INPUT_LEN);
    }

    @Test
    void hostKindsAreTheHeaders() throws Exception {
        Map<String, String> h = header();
        for (WurlUrl.HostKind k : WurlUrl.HostKind.values()) {
            assertEquals(Integer.parseInt(h.get("WURL_HOST_" + k.name())), k.ordinal(), k.name());
        }
    }

    @Test
    void versionsAgree() throws Exception {
        String cargo = new String(Files.readAllBytes(TestData.root().resolve("Cargo.toml")), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("(?m)^version = \"([^\"]+)\"").matcher(cargo);
        assertTrue(m.find());
        String version = m.group(1);
        assertEquals(version, Wurl.version());
        assertEquals("\"" + version + "\"", header().get("WURL_VERSION"));
        String pom = new String(Files.readAllBytes(TestData.root().resolve("bindings/java/pom.xml")), StandardCharsets.UTF_8);
        Matcher p = Pattern.compile("<artifactId>wurl</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertTrue(p.find(), "pom.xml: no version after the artifactId");
        assertEquals(version, p.group(1));
    }
}
