package org.wurl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The API's behaviour: results, options, absent and empty, the ByteBuffer contract. */
class ApiTest {
    @Test
    void canonicalize() {
        assertEquals("http://example.com/a/c?q=%C3%A9#f", Wurl.canonicalize("HTTP://Example.COM:80/a/./b/../c?q=\u00e9#f"));
        assertEquals("http://example.com/a/b", Wurl.canonicalize("../a/./b", "http://EXAMPLE.com:80/x/y"));
        // Resolution alone, as `wurl resolve --base http://EXAMPLE.com:80/x/y ../a/./b` prints.
        assertEquals("http://EXAMPLE.com:80/a/b", Wurl.resolve("http://EXAMPLE.com:80/x/y", "../a/./b"));
        assertEquals("HTTP://A/c", Wurl.resolve(null, "HTTP://A/b/../c"));
        assertNull(Wurl.resolve("mailto:a@b", "x"), "a relative reference against mailto:");
        assertNull(Wurl.canonicalize("foo"));
        assertNull(Wurl.canonicalize("../a", null));
        assertNull(Wurl.canonicalize("x", "foo"));
        assertNull(Wurl.canonicalize("http://a:99999/"));
        assertEquals("com,example,www)/a?q", Wurl.surt("HTTP://www.Example.com/a?q"));
        assertNull(Wurl.surt("foo"));
        assertEquals("http://xn--fa-hia.de/a/c", Wurl.standard("http://fa\u00df.de/a\\b/../c"));
        assertEquals("http://fass.de/a/c", Wurl.canonicalize("http://fa\u00df.de/a\\b/../c"));
        assertEquals("http://a/d?x%20y", Wurl.standard("../d?x y", "http://a/b/c"));
        assertNull(Wurl.standard("x"));
        assertEquals("0.1.0", Wurl.version());
    }

    @Test
    void canonicalizer() {
        Canonicalizer sjis = Canonicalizer.builder().charset("shift_jis").build();
        assertEquals("http://example.jp/a/b?q=%93%FA", sjis.canonicalize("../a/./b?q=\u65e5", "http://example.jp/dir/index.html"));
        assertEquals("http://example.jp/dir/?q=%93%FA", sjis.canonicalize("?q=\u65e5", "http://example.jp/dir/"));
        assertEquals("shift_jis", sjis.charset());
        assertEquals(Model.CANON_2012, sjis.model());
        assertFalse(sjis.networkStrict());
        Canonicalizer strict = Canonicalizer.builder().networkStrict(true).build();
        assertTrue(strict.networkStrict());
        // No host: a WHATWG parser or curl would take x as the host.
        String odd = "http:///x";
        assertTrue(Wurl.canonicalize(odd) != null);
        assertNull(strict.canonicalize(odd));
        try (Rules rules = Rules.compile("drop-fragment,strip-www,sort-query,strip-session-ids,drop-params=utm_*")) {
            Canonicalizer keyed = Canonicalizer.builder().rules(rules).build();
            assertSame(rules, keyed.rules());
            String in = "http://www.Example.com/x;jsessionid=ABC?b=2&utm_source=x&a=1#f";
            assertEquals("http://example.com/x?a=1&b=2", keyed.canonicalize(in));
            assertEquals("http://example.com/x?a=1&b=2", rules.key(in));
            assertEquals("com,example)/x?a=1&b=2", rules.surtKey(in));
            assertEquals("com,example)/x?a=1&b=2", keyed.surt(in));
            assertEquals("http://example.com/x?a=1&b=2", rules.key("x;jsessionid=ABC?b=2&a=1", "http://www.example.com/"));
        }
        try (Rules rules = Rules.compile("strip-www,drop-fragment")) {
            assertEquals("com,example:8443)/a?b", rules.surtKey("HTTPS://WWW.Example.COM:8443/a?b#c"));
        }
        Canonicalizer surtScheme = Canonicalizer.builder().surtWithScheme(true).build();
        assertTrue(surtScheme.surt() && surtScheme.surtWithScheme());
        assertEquals("http://(com,example)/a", surtScheme.canonicalize("http://example.com/a"));
        Canonicalizer std = Canonicalizer.builder().model("url-standard").build();
        assertEquals(Model.URL_STANDARD, std.model());
        assertEquals("http://xn--fa-hia.de/", std.canonicalize("http://fa\u00df.de/"));
        assertThrows(IllegalStateException.class, () -> std.canonicalUrl("http://a/", null));
        assertThrows(IllegalArgumentException.class, () -> strict.standard("http://a/"));
        // toBuilder keeps every option.
        Canonicalizer again = sjis.toBuilder().networkStrict(true).build();
        assertEquals("shift_jis", again.charset());
        assertTrue(again.networkStrict());
        assertTrue(again.toString().contains("charset=shift_jis"));
    }

    @Test
    void absentAndEmptyStayApart() {
        try (WurlUrl empty = WurlUrl.parse("http://user:@host/p?#");
                WurlUrl absent = WurlUrl.parse("http://host/p")) {
            assertEquals("", empty.getQuery());
            assertEquals("", empty.getFragment());
            assertEquals("", empty.getPassword());
            assertEquals("user", empty.getUser());
            assertNull(absent.getQuery());
            assertNull(absent.getFragment());
            assertNull(absent.getPassword());
            assertNull(absent.getUser());
            assertNull(absent.getPort());
            assertNotEquals(empty, absent);
        }
        assertEquals("http://h/p?", Wurl.canonicalize("http://h/p?"));
        assertEquals("http://h/p", Wurl.canonicalize("http://h/p"));
        assertArrayEquals(new String[] {"http://h/?", "http://h/"}, Wurl.canonicalizeAll(new String[] {"http://h/?", "http://h/"}, null));
    }

    @Test
    void records() {
        try (WurlUrl page = WurlUrl.parse("http://EXAMPLE.com:80/x/y");
                WurlUrl link = page.resolve("../a/./b?q");
                WurlUrl canon = link.canonicalize()) {
            assertEquals("http", page.getScheme());
            assertEquals("EXAMPLE.com", page.getHost());
            assertEquals("80", page.getPort());
            assertEquals(WurlUrl.HostKind.DOMAIN, page.hostKind());
            assertTrue(page.isHierarchical());
            assertEquals("/a/b", link.getPath());
            assertEquals("EXAMPLE.com", link.getHost());
            assertEquals("http://example.com/a/b?q", canon.serialize());
            assertEquals("http://example.com/a/b?q", canon.toString());
            assertNull(canon.getPort());
            assertEquals("http://example.com/a/b?q", page.canonicalizeLink("../a/./b?q"));
            assertArrayEquals(
                    new String[] {"http://example.com/x/z", null, "http://example.com/x/y#t"},
                    Canonicalizer.builder().build().canonicalizeLinks(page, new String[] {"z", "http://a:99999/", "#t"}));
        }
        try (WurlUrl bad = WurlUrl.parse("foo")) {
            assertTrue(bad.isInvalid());
            assertTrue(bad.invalidReason().startsWith("no scheme"), bad.invalidReason());
            assertNull(bad.serialize());
            assertEquals("invalid URL (" + bad.invalidReason() + ")", bad.toString());
            assertEquals("foo", bad.getPath());
        }
        try (WurlUrl v4 = WurlUrl.parse("http://1.2.3.4/").canonicalize();
                WurlUrl v6 = WurlUrl.parse("http://[::1]/").canonicalize();
                WurlUrl file = WurlUrl.parse("file:///p").canonicalize();
                WurlUrl none = WurlUrl.parse("mailto:a@b")) {
            assertEquals(WurlUrl.HostKind.IPV4, v4.hostKind());
            assertEquals(WurlUrl.HostKind.IPV6, v6.hostKind());
            assertEquals(WurlUrl.HostKind.EMPTY, file.hostKind());
            assertEquals(WurlUrl.HostKind.NONE, none.hostKind());
            assertFalse(none.isHierarchical());
            assertTrue(file.isHierarchical());
        }
        try (WurlUrl a = WurlUrl.canonical("x", "http://A/");
                WurlUrl p = WurlUrl.parse("http://A/");
                WurlUrl r = p.resolve("x");
                WurlUrl b = r.canonicalize();
                WurlUrl other = WurlUrl.canonical("y", "http://A/")) {
            assertEquals(a, b);
            assertEquals(a.hashCode(), b.hashCode());
            assertNotEquals(a, other);
            assertNotEquals(a, r);
        }
        // canonical(): without a base, an input that does not parse keeps its parse's reason.
        try (WurlUrl r = WurlUrl.canonical("a b", null); WurlUrl p = WurlUrl.parse("a b")) {
            assertEquals(p.invalidReason(), r.invalidReason());
        }
        // A record with a charset.
        try (WurlUrl u = WurlUrl.parse("http://a/?\u65e5"); WurlUrl c = u.canonicalize("euc-jp", false)) {
            assertEquals("http://a/?%C6%FC", c.serialize());
        }
    }

    private static String drain(ByteBuffer out) {
        out.flip();
        String s = StandardCharsets.UTF_8.decode(out).toString();
        out.clear();
        return s;
    }

    private static ByteBuffer direct(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocateDirect(b.length).put(b).flip();
    }

    @Test
    void canonicalizeLinesContract() {
        ByteBuffer out = ByteBuffer.allocateDirect(256);
        // LF-separated; the last line needs no LF; invalid lines are empty lines.
        ByteBuffer in = direct("HTTP://A/x\nfoo\n\nhttp://b/?\u00e9\r\nhttp://c");
        assertEquals(5, Wurl.canonicalizeLines(in, out, null));
        assertFalse(in.hasRemaining());
        assertEquals("http://a/x\n\n\nhttp://b/?%C3%A9\nhttp://c/\n", drain(out));
        // A final LF adds no line.
        in = direct("http://a/\n");
        assertEquals(1, Wurl.canonicalizeLines(in, out, null));
        assertEquals("http://a/\n", drain(out));
        // Nothing in, nothing out.
        assertEquals(0, Wurl.canonicalizeLines(direct(""), out, null));
        assertEquals(0, out.position());
        // A base for every line.
        in = direct("a\n../b\n#f");
        assertEquals(3, Wurl.canonicalizeLines(in, out, "http://h/d/p"));
        assertEquals("http://h/d/a\nhttp://h/b\nhttp://h/d/p#f\n", drain(out));
        // Out full: stops before the line that does not fit, positions say where.
        ByteBuffer small = ByteBuffer.allocateDirect(15);
        in = direct("http://a/\nhttp://b/\nhttp://c/\n");
        assertEquals(1, Wurl.canonicalizeLines(in, small, null));
        assertEquals(10, in.position());
        assertEquals(10, small.position());
        assertEquals("http://a/\n", drain(small));
        assertEquals(1, Wurl.canonicalizeLines(in, small, null));
        assertEquals("http://b/\n", drain(small));
        assertEquals(1, Wurl.canonicalizeLines(in, small, null));
        assertFalse(in.hasRemaining());
        // 0 when the next key alone does not fit.
        ByteBuffer tiny = ByteBuffer.allocateDirect(4);
        in = direct("http://a/\n");
        assertEquals(0, Wurl.canonicalizeLines(in, tiny, null));
        assertEquals(0, in.position());
        assertEquals(0, tiny.position());
        // Positions other than 0 are respected, the bytes outside untouched.
        ByteBuffer big = ByteBuffer.allocateDirect(64);
        big.put(0, (byte) '!');
        big.position(1);
        ByteBuffer src = ByteBuffer.allocateDirect(32);
        src.put("xxxxHTTP://Q/\nyyy".getBytes(StandardCharsets.US_ASCII));
        src.position(4).limit(14);
        assertEquals(1, Wurl.canonicalizeLines(src, big, null));
        assertEquals(14, src.position());
        assertEquals(11, big.position());
        assertEquals('!', big.get(0));
        byte[] got = new byte[10];
        for (int i = 0; i < got.length; i++) {
            got[i] = big.get(1 + i);
        }
        assertEquals("http://q/\n", new String(got, StandardCharsets.US_ASCII));
        // Invalid UTF-8 is U+FFFD.
        ByteBuffer raw = ByteBuffer.allocateDirect(16).put(new byte[] {'h', 't', 't', 'p', ':', '/', '/', 'a', '/', (byte) 0xFF}).flip();
        assertEquals(1, Wurl.canonicalizeLines(raw, out, null));
        assertEquals("http://a/%EF%BF%BD\n", drain(out));
        // With options.
        try (Rules r = Rules.compile("strip-www")) {
            Canonicalizer c = Canonicalizer.builder().rules(r).surt(true).build();
            assertEquals(1, c.canonicalizeLines(direct("http://www.a.com/x"), out, null));
            assertEquals("com,a)/x\n", drain(out));
        }
    }

    @Test
    void rulesObject() {
        try (Rules a = Rules.compile("strip-www,sort-query"); Rules b = Rules.compile("strip-www,sort-query")) {
            assertEquals(a, b);
            assertEquals(a.hashCode(), b.hashCode());
            assertEquals("strip-www,sort-query", a.toString());
            assertEquals("strip-www,sort-query", a.spec());
        }
        try (Rules none = Rules.compile("")) {
            assertEquals("http://www.a.com/?b&a", none.key("http://www.a.com/?b&a"));
        }
    }

    @Test
    void modelNames() {
        assertEquals(Model.CANON_2012, Model.fromName("2012"));
        assertEquals(Model.URL_STANDARD, Model.fromName("URL-Standard"));
        assertEquals("url-standard", Model.URL_STANDARD.label());
    }
}
