package org.wurl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Hostile input gives a clear exception or result, never a crash of the JVM. */
class HostileInputTest {
    private static final String BIG = "http://a/" + "b".repeat(Wurl.MAX_INPUT_LEN - 9 + 1);

    @Test
    void nullArgumentsThrowNullPointerException() {
        assertThrows(NullPointerException.class, () -> Wurl.canonicalize(null));
        assertThrows(NullPointerException.class, () -> Wurl.canonicalize(null, "http://a/"));
        assertThrows(NullPointerException.class, () -> Wurl.resolve("http://a/", null));
        assertThrows(NullPointerException.class, () -> Wurl.surt(null));
        assertThrows(NullPointerException.class, () -> Wurl.standard(null));
        assertThrows(NullPointerException.class, () -> Wurl.canonicalizeAll(null, null));
        assertThrows(NullPointerException.class, () -> Wurl.canonicalizeLines(null, ByteBuffer.allocateDirect(1), null));
        assertThrows(NullPointerException.class, () -> Rules.compile(null));
        assertThrows(NullPointerException.class, () -> WurlUrl.parse(null));
        assertThrows(NullPointerException.class, () -> WurlUrl.canonical(null, null));
        try (WurlUrl u = WurlUrl.parse("http://a/"); Rules r = Rules.compile("")) {
            assertThrows(NullPointerException.class, () -> u.resolve(null));
            assertThrows(NullPointerException.class, () -> u.canonicalizeLink(null));
            assertThrows(NullPointerException.class, () -> r.key(null));
            assertThrows(NullPointerException.class, () -> r.surtKey(null));
        }
        // A null base or charset is none, not an error.
        assertEquals("http://a/", Wurl.canonicalize("http://a/", null));
        assertEquals("http://a/", Canonicalizer.builder().charset(null).build().canonicalize("http://a/"));
        // Null entries of a bulk call give null entries.
        assertArrayEquals(
                new String[] {null, "http://a/"}, Wurl.canonicalizeAll(new String[] {null, "http://A/"}, null));
    }

    @Test
    void loneSurrogatesAreReplacementCharacters() {
        String[] lone = {"\uD800", "\uDFFF", "\uDBFF", "\uDC00"};
        for (String s : lone) {
            for (String tmpl : new String[] {"http://a/%s?q", "http://a/?%s", "http://a/#%s", "http://%s.com/", "%s"}) {
                String in = String.format(tmpl, s);
                String want = String.format(tmpl, "\uFFFD");
                assertEquals(Wurl.canonicalize(want), Wurl.canonicalize(in), in);
                try (WurlUrl a = WurlUrl.parse(in);
                        WurlUrl b = WurlUrl.parse(want)) {
                    assertEquals(b, a);
                    assertEquals(b.getPath(), a.getPath());
                }
            }
        }
        // A high surrogate then a low one is a pair (one character); reversed, two lone ones.
        assertEquals("http://a/%F0%9F%98%80", Wurl.canonicalize("http://a/\uD83D\uDE00"));
        assertEquals("http://a/%EF%BF%BD%EF%BF%BD", Wurl.canonicalize("http://a/\uDE00\uD83D"));
        assertEquals("http://a/%EF%BF%BD", Wurl.canonicalize("http://a/\uD800"));
        // In a base, a charset label, a rules specification and a bulk call too.
        assertEquals(Wurl.canonicalize("x", "http://a/\uFFFD/"), Wurl.canonicalize("x", "http://a/\uD800/"));
        assertThrows(IllegalArgumentException.class, () -> Canonicalizer.builder().charset("utf-8\uD800"));
        assertThrows(IllegalArgumentException.class, () -> Rules.compile("strip-www\uD800"));
        assertArrayEquals(
                new String[] {"http://a/%EF%BF%BD"}, Wurl.canonicalizeAll(new String[] {"http://a/\uDFFF"}, null));
        // Output with characters outside the BMP, NUL and U+FFFD comes back intact.
        try (WurlUrl u = WurlUrl.parse("http://a/\uD83D\uDE00\u0000\uFFFD#\uD83D\uDE00")) {
            assertEquals("/\uD83D\uDE00\u0000\uFFFD", u.getPath());
            assertEquals("\uD83D\uDE00", u.getFragment());
        }
    }

    @Test
    void inputsOverTheLimitThrowWurlException() {
        assertEquals(Wurl.MAX_INPUT_LEN + 1, BIG.getBytes(StandardCharsets.UTF_8).length);
        WurlException e = assertThrows(WurlException.class, () -> Wurl.canonicalize(BIG));
        assertEquals(WurlException.TOO_LONG, e.status());
        assertTrue(e.reason().contains("url is longer than 16777216 bytes"), e.reason());
        e = assertThrows(WurlException.class, () -> Wurl.canonicalize("x", BIG));
        assertTrue(e.reason().startsWith("base is longer"), e.reason());
        assertEquals(WurlException.TOO_LONG, assertThrows(WurlException.class, () -> WurlUrl.parse(BIG)).status());
        assertEquals(WurlException.TOO_LONG, assertThrows(WurlException.class, () -> Rules.compile(BIG)).status());
        assertEquals(
                WurlException.TOO_LONG,
                assertThrows(WurlException.class, () -> Canonicalizer.builder().charset(BIG)).status());
        try (WurlUrl u = WurlUrl.parse("http://a/")) {
            assertEquals(WurlException.TOO_LONG, assertThrows(WurlException.class, () -> u.resolve(BIG)).status());
        }
        // Three UTF-8 bytes per character: a third of the limit in characters is over it.
        String wide = "http://a/" + "\u65e5".repeat(Wurl.MAX_INPUT_LEN / 3);
        assertEquals(WurlException.TOO_LONG, assertThrows(WurlException.class, () -> Wurl.canonicalize(wide)).status());
        // At the limit, the URL is read.
        String at = "http://a/" + "b".repeat(Wurl.MAX_INPUT_LEN - 9);
        assertEquals(at, Wurl.canonicalize(at));
        // In the bulk calls, the entry is null (an empty line).
        assertArrayEquals(new String[] {null, "http://a/"}, Wurl.canonicalizeAll(new String[] {BIG, "http://a/"}, null));
        ByteBuffer in = ByteBuffer.allocateDirect(Wurl.MAX_INPUT_LEN + 16);
        in.put(BIG.getBytes(StandardCharsets.US_ASCII)).put("\nhttp://a/\n".getBytes(StandardCharsets.US_ASCII)).flip();
        ByteBuffer out = ByteBuffer.allocateDirect(64);
        assertEquals(2, Wurl.canonicalizeLines(in, out, null));
        out.flip();
        assertEquals("\nhttp://a/\n", StandardCharsets.UTF_8.decode(out).toString());
    }

    @Test
    void badRulesAndCharsetsThrowIllegalArgumentException() {
        for (String spec : new String[] {"no-such-rule", "strip-www,strip-www", "drop-params=", ",", "sort-query,"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Rules.compile(spec));
            assertTrue(!e.getMessage().isEmpty());
        }
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Canonicalizer.builder().charset("shiftjis"));
        // The library's one message for the label, as every binding shows it.
        assertEquals(Wurl.charsetMessage("shiftjis"), e.getMessage());
        assertTrue(e.getMessage().startsWith("unknown charset label \"shiftjis\""), e.getMessage());
        assertNull(Wurl.charsetMessage("Shift_JIS"));
        assertThrows(IllegalArgumentException.class, () -> Canonicalizer.builder().charset(""));
        try (WurlUrl u = WurlUrl.parse("http://a/?\u00e9")) {
            assertThrows(IllegalArgumentException.class, () -> u.canonicalize("latin-1", false));
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> Canonicalizer.builder().networkStrict(true).model(Model.URL_STANDARD).build());
        assertThrows(IllegalArgumentException.class, () -> Model.fromName("whatwg"));
    }

    @Test
    void aPanicBecomesWurlException() {
        WurlException e = assertThrows(WurlException.class, Native::panicForTest);
        assertEquals(WurlException.PANIC, e.status());
        assertTrue(e.reason().contains("a test of the panic boundary"), e.reason());
        // The library still works afterwards.
        assertEquals("http://a/", Wurl.canonicalize("http://A/"));
    }

    @Test
    void closedHandlesThrowIllegalStateException() {
        WurlUrl u = WurlUrl.parse("http://a/");
        Rules r = Rules.compile("strip-www");
        u.close();
        r.close();
        u.close();
        r.close();
        assertThrows(IllegalStateException.class, u::getHost);
        assertThrows(IllegalStateException.class, u::serialize);
        assertThrows(IllegalStateException.class, () -> u.resolve("x"));
        assertThrows(IllegalStateException.class, () -> u.canonicalizeLink("x"));
        assertThrows(IllegalStateException.class, () -> r.key("http://a/"));
        Canonicalizer c = Canonicalizer.builder().rules(r).build();
        assertThrows(IllegalStateException.class, () -> c.canonicalize("http://a/"));
        // The spec was read when compiled.
        assertEquals("strip-www", r.spec());
    }

    @Test
    void badBuffers() {
        ByteBuffer heap = ByteBuffer.allocate(16);
        ByteBuffer direct = ByteBuffer.allocateDirect(16);
        assertThrows(IllegalArgumentException.class, () -> Wurl.canonicalizeLines(heap, direct, null));
        assertThrows(IllegalArgumentException.class, () -> Wurl.canonicalizeLines(direct, heap, null));
        assertThrows(ReadOnlyBufferException.class, () -> Wurl.canonicalizeLines(direct, direct.asReadOnlyBuffer(), null));
        // The same buffer for both, overlapping ranges: refused.
        direct.put("http://a/\n".getBytes(StandardCharsets.US_ASCII)).flip();
        assertThrows(IllegalArgumentException.class, () -> Wurl.canonicalizeLines(direct, direct, null));
        // Disjoint ranges of one buffer: fine.
        ByteBuffer whole = ByteBuffer.allocateDirect(64);
        whole.put("http://A/\n".getBytes(StandardCharsets.US_ASCII));
        ByteBuffer in = whole.duplicate().flip();
        ByteBuffer out = whole.duplicate().position(32);
        assertEquals(1, Wurl.canonicalizeLines(in, out, null));
        assertEquals(42, out.position());
        // A read-only input is fine.
        ByteBuffer ro = ByteBuffer.allocateDirect(16).put("http://B/".getBytes(StandardCharsets.US_ASCII)).flip().asReadOnlyBuffer();
        ByteBuffer o2 = ByteBuffer.allocateDirect(16);
        assertEquals(1, Wurl.canonicalizeLines(ro, o2, null));
        assertEquals(10, o2.position());
    }

    @Test
    void malformedStatesAreRefused() throws Exception {
        byte[][] states = {new byte[0], {1, 2, 3}, "http://a/".getBytes(StandardCharsets.US_ASCII), new byte[4096]};
        for (byte[] s : states) {
            WurlException e = assertThrows(WurlException.class, () -> Native.urlImportState(s));
            assertEquals(WurlException.BAD_STATE, e.status(), e.reason());
        }
        // Java serialization: a stream whose state is altered is refused with InvalidObjectException.
        assertThrows(InvalidObjectException.class, () -> readBack(forgedStream()));
    }

    /** A serialized WurlUrl.State with a byte array no library made. */
    private static byte[] forgedStream() throws Exception {
        java.lang.reflect.Constructor<?> c =
                Class.forName("org.wurl.WurlUrl$State").getDeclaredConstructor(byte[].class);
        c.setAccessible(true);
        Object state = c.newInstance((Object) new byte[] {0x7f, 1, 2, 3, 4});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream o = new ObjectOutputStream(bytes)) {
            o.writeObject(state);
        }
        return bytes.toByteArray();
    }

    static Object readBack(byte[] b) throws Exception {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            return in.readObject();
        }
    }

    @Test
    void controlCharactersAndOddInput() {
        for (String s : new String[] {"", " ", "\u0000", "\t\n\r", "http://", "http://[", "http://[::1", "http://a:/", "http://a:65536/", "%", "http://%zz/", "a".repeat(100000)}) {
            Wurl.canonicalize(s);
            Wurl.surt(s);
            Wurl.standard(s);
            try (WurlUrl u = WurlUrl.parse(s)) {
                u.toString();
                u.hashCode();
            }
        }
        assertNull(Wurl.canonicalize(""));
    }
}
