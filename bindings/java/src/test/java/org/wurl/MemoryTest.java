package org.wurl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Ten million calls of every kind (single, bulk, records opened and closed or left to the
 * Cleaner, rules, errors) with flat resident memory: native memory that leaked per call would
 * grow the RSS by hundreds of MB. The RSS (VmRSS of /proc/self/status) after the whole run may
 * exceed the RSS after the first tenth by at most 64 MiB. The heap is sized and touched up front
 * (CTest runs the JVM with -Xms256m -Xmx256m -XX:+AlwaysPreTouch), so its growth is not counted.
 */
class MemoryTest {
    private static final long CALLS = 10_000_000L;

    static long rssKiB() throws IOException {
        for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (l.startsWith("VmRSS:")) {
                return Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS in /proc/self/status");
    }

    @Test
    void tenMillionCallsWithFlatRss() throws Exception {
        String[] links = {
            "../a/./b?q=\u65e5#f", "HTTP://WWW.Example.COM:80/x", "foo", "http://a:99999/",
            "?q", "#top", "//other.example/p", "http://\uD800.com/"
        };
        String[] batch = new String[100];
        for (int i = 0; i < batch.length; i++) {
            batch[i] = links[i % links.length] + i;
        }
        ByteBuffer in = ByteBuffer.allocateDirect(8192);
        ByteBuffer out = ByteBuffer.allocateDirect(65536);
        byte[] lines = String.join("\n", batch).getBytes(StandardCharsets.UTF_8);
        String big = "http://a/" + "x".repeat(Wurl.MAX_INPUT_LEN);
        Canonicalizer sjis = Canonicalizer.builder().charset("shift_jis").networkStrict(true).build();
        long calls = 0;
        long rssAfterTenth = -1;
        try (Rules rules = Rules.compile("drop-fragment,strip-www,sort-query");
                WurlUrl page = WurlUrl.parse("http://www.example.com/dir/page.html")) {
            for (long i = 0; calls < CALLS; i++) {
                String l = links[(int) (i % links.length)];
                Wurl.canonicalize(l, "http://example.com/d/p");
                Wurl.canonicalize(l);
                rules.key(l, "http://www.example.com/");
                Wurl.surt(l);
                page.canonicalizeLink(l);
                sjis.canonicalize(l, "http://example.jp/");
                calls += 6;
                if (i % 16 == 0) {
                    Wurl.standard(l, "http://example.com/");
                    try (WurlUrl u = page.resolve(l);
                            WurlUrl c = u.canonicalize()) {
                        c.getHost();
                        c.serialize();
                        c.invalidReason();
                    }
                    // Left to the Cleaner.
                    WurlUrl.parse(l).getPath();
                    calls += 7;
                }
                if (i % 256 == 0) {
                    calls += Wurl.canonicalizeAll(batch, "http://example.com/").length;
                    in.clear();
                    in.put(lines).flip();
                    out.clear();
                    calls += Wurl.canonicalizeLines(in, out, "http://example.com/");
                    assertThrows(IllegalArgumentException.class, () -> Rules.compile("no-such-rule"));
                    calls += 1;
                }
                if (i % 100_000 == 0) {
                    // An input over the limit: refused before it is copied.
                    WurlException e = assertThrows(WurlException.class, () -> Wurl.canonicalize(big));
                    assertEquals(WurlException.TOO_LONG, e.status());
                    calls += 1;
                }
                if (rssAfterTenth < 0 && calls >= CALLS / 10) {
                    System.gc();
                    rssAfterTenth = rssKiB();
                }
            }
            assertNull(Wurl.canonicalize("foo"));
        }
        System.gc();
        Thread.sleep(200);
        long end = rssKiB();
        System.out.printf(
                "MemoryTest: %d calls, VmRSS %d KiB after the first tenth, %d KiB at the end%n",
                calls, rssAfterTenth, end);
        assertTrue(calls >= CALLS);
        assertTrue(
                end - rssAfterTenth < 64 * 1024,
                "VmRSS grew from " + rssAfterTenth + " KiB to " + end + " KiB");
    }
}
