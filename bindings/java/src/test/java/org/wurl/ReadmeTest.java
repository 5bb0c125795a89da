package org.wurl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The results bindings/java/README.md shows for its Java examples. */
class ReadmeTest {
    @Test
    void useItFromJava() {
        assertEquals("http://example.com/a/c?q=%C3%A9#f", Wurl.canonicalize("HTTP://Example.COM:80/a/./b/../c?q=\u00e9#f"));
        assertEquals("http://example.com/a/b", Wurl.canonicalize("../a/./b", "http://EXAMPLE.com:80/x/y"));
        assertNull(Wurl.canonicalize("foo"));
        assertEquals("com,example,www)/a?q", Wurl.surt("HTTP://www.Example.com/a?q"));
        assertEquals("http://xn--fa-hia.de/a/c", Wurl.standard("http://fa\u00df.de/a\\b/../c"));
        Canonicalizer sjis = Canonicalizer.builder().charset("shift_jis").build();
        assertEquals("http://example.jp/dir/?q=%93%FA", sjis.canonicalize("?q=\u65e5", "http://example.jp/dir/"));
        try (Rules rules = Rules.compile("drop-fragment,strip-www,sort-query,strip-session-ids,drop-params=utm_*")) {
            assertEquals("http://example.com/x?a=1&b=2", rules.key("http://www.Example.com/x;jsessionid=ABC?b=2&utm_source=x&a=1#f"));
            assertEquals("com,example)/x?a=1&b=2", rules.surtKey("http://www.Example.com/x?b=2&a=1"));
        }
        try (WurlUrl page = WurlUrl.parse("http://user:@host/p?#")) {
            assertEquals("", page.getPassword());
            assertNull(page.getPort());
            assertEquals("http://user@host/x", page.canonicalizeLink("../x"));
        }
        assertArrayEquals(
                new String[] {"http://h/a", "http://h/x/b?q#f", null},
                Wurl.canonicalizeAll(new String[] {"/a", "b?q#f", "http://a:99999/"}, "http://h/x/"));
        ByteBuffer in = ByteBuffer.allocateDirect(1 << 20);
        ByteBuffer out = ByteBuffer.allocateDirect(1 << 22);
        in.put("HTTP://A/x\nhttp://a:99999/\n../y\n".getBytes(StandardCharsets.UTF_8)).flip();
        assertEquals(3, Wurl.canonicalizeLines(in, out, "http://h/d/"));
        out.flip();
        assertEquals("http://a/x\n\nhttp://h/y\n", StandardCharsets.UTF_8.decode(out).toString());
    }

    @Test
    void useItFromScala() {
        assertEquals("http://example.com/a/b", Wurl.canonicalize("../a/./b", "http://EXAMPLE.com:80/x/y"));
        try (Rules rules = Rules.compile("strip-www,drop-fragment")) {
            assertEquals("com,example:8443)/a?b", rules.surtKey("HTTPS://WWW.Example.COM:8443/a?b#c"));
        }
    }
}
