package org.wurl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;

/** A WurlUrl through Java serialization: the library's state pair gives back the same value. */
class StateTest {
    private static byte[] write(Object o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    private static void assertSameValue(WurlUrl a, WurlUrl b) {
        assertNotSame(a, b);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(a.serialize(), b.serialize());
        assertEquals(a.isInvalid(), b.isInvalid());
        assertEquals(a.invalidReason(), b.invalidReason());
        assertEquals(a.isHierarchical(), b.isHierarchical());
        assertEquals(a.getScheme(), b.getScheme());
        assertEquals(a.getUser(), b.getUser());
        assertEquals(a.getPassword(), b.getPassword());
        assertEquals(a.getHost(), b.getHost());
        assertEquals(a.getPort(), b.getPort());
        assertEquals(a.getPath(), b.getPath());
        assertEquals(a.getQuery(), b.getQuery());
        assertEquals(a.getFragment(), b.getFragment());
    }

    @Test
    void everyKindOfHandleRoundTrips() throws Exception {
        String[] inputs = {
            "HTTP://u:p@Example.COM:80/a/./b/../c?q=é#f",
            "http://a/?",
            "http://a/#",
            "http://a/",
            "mailto:x@y?subject=1",
            "javascript:alert(1)",
            "file:///c|/x",
            "http://a:99999/",
            "http://%00/",
            "",
        };
        try (WurlUrl page = WurlUrl.parse("http://example.com/dir/page")) {
            for (String in : inputs) {
                try (WurlUrl parsed = WurlUrl.parse(in);
                        WurlUrl resolved = page.resolve(in);
                        WurlUrl canonical = resolved.canonicalize()) {
                    for (WurlUrl u : new WurlUrl[] {parsed, resolved, canonical}) {
                        Object back = HostileInputTest.readBack(write(u));
                        try (WurlUrl b = (WurlUrl) back) {
                            assertSameValue(u, b);
                        }
                    }
                }
            }
        }
    }

    @Test
    void absentAndEmptyStayApart() throws Exception {
        try (WurlUrl empty = WurlUrl.parse("http://a/?#");
                WurlUrl absent = WurlUrl.parse("http://a/");
                WurlUrl e2 = (WurlUrl) HostileInputTest.readBack(write(empty));
                WurlUrl a2 = (WurlUrl) HostileInputTest.readBack(write(absent))) {
            assertEquals("", e2.getQuery());
            assertEquals("", e2.getFragment());
            assertNull(a2.getQuery());
            assertNull(a2.getFragment());
        }
    }

    @Test
    void theStateIsTheLibrarys() {
        // The bytes are the library's own: exported twice, they are equal, and imported they
        // make a handle whose state is the same bytes again.
        try (WurlUrl u = WurlUrl.parse("http://a/b?c#d")) {
            byte[] s1 = u.run(Native::urlExportState);
            byte[] s2 = u.run(Native::urlExportState);
            assertArrayEquals(s1, s2);
            try (WurlUrl v = new WurlUrl(Native.urlImportState(s1))) {
                assertArrayEquals(s1, v.run(Native::urlExportState));
            }
        }
    }
}
