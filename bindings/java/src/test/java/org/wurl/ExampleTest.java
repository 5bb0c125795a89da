package org.wurl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.wurl.examples.CrawlerUrlNormalizer;

/** The crawler normalizer example (bindings/java/examples, built against the jar alone). */
class ExampleTest {
    @Test
    void normalizerShapes() throws Exception {
        try (CrawlerUrlNormalizer n = new CrawlerUrlNormalizer()) {
            assertEquals(
                    "http://example.com/a?b=1",
                    n.filter(" HTTP://Example.com:80/x/../a;jsessionid=0123456789ABCDEF0123456789ABCDEF?utm_source=x&b=1#top "));
            assertNull(n.filter("foo"));
            assertNull(n.filter((String) null));
            assertEquals("http://example.com/a", n.normalize("http://EXAMPLE.com/a#f", "outlink"));
            MalformedURLException e =
                    assertThrows(MalformedURLException.class, () -> n.normalize("http://a:99999/", "outlink"));
            assertEquals("invalid URL: http://a:99999/", e.getMessage());
            URL page = new URL("http://www.example.com/dir/page.html");
            assertEquals("http://www.example.com/img/x.png", n.filter(page, Map.of(), "../img/./x.png?fbclid=1"));
            assertNull(n.filter(null, Map.of(), "../x"));
        }
        try (CrawlerUrlNormalizer sjis = new CrawlerUrlNormalizer("", "shift_jis")) {
            assertEquals("http://a.jp/?q=%93%FA#f", sjis.filter("http://a.jp/?q=\u65e5#f"));
        }
        assertThrows(IllegalArgumentException.class, () -> new CrawlerUrlNormalizer("no-such-rule", null));
    }

    @Test
    void mainPrintsOneLinePerUrl() throws Exception {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, "UTF-8"));
        try {
            CrawlerUrlNormalizer.main(new String[] {"--page", "http://h.example/a/b", "../c#x", "http://a:99999/"});
            CrawlerUrlNormalizer.main(new String[] {"HTTP://H.example/?utm_medium=m"});
        } finally {
            System.setOut(old);
        }
        assertEquals(
                "http://h.example/c\n-\nhttp://h.example/\n",
                buf.toString(StandardCharsets.UTF_8.name()).replace(System.lineSeparator(), "\n"));
    }
}
