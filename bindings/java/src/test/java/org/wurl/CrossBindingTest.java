package org.wurl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The same bytes give the same results from Java as from C, C++, the CLI, Perl, Ruby and Python:
 * the rows of bindings/cross-binding-expected.tsv (written by bindings/tools/cross_check.c, with
 * every class of invalid UTF-8 in the host, path, query and fragment) recomputed here. A String
 * call gets the bytes decoded with one U+FFFD per maximal invalid subpart (as the C ABI reads
 * bytes); the ByteBuffer call gets the bytes themselves. Outputs are compared as UTF-8 bytes.
 */
class CrossBindingTest {
    private static final String BASE = "http://base.example/dir/file?q#f";

    /** A field: \N is null, \\ a backslash, \xHH a byte. */
    private static byte[] unescape(String s) {
        if (s.equals("\\N")) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && s.charAt(i + 1) == '\\') {
                out.write('\\');
                i++;
            } else if (c == '\\' && s.charAt(i + 1) == 'x') {
                out.write(Integer.parseInt(s.substring(i + 2, i + 4), 16));
                i += 3;
            } else {
                out.write(c);
            }
        }
        return out.toByteArray();
    }

    private static List<Object[]> rows() throws IOException {
        List<Object[]> rows = new ArrayList<>();
        String text =
                new String(
                        Files.readAllBytes(TestData.root().resolve("bindings/cross-binding-expected.tsv")),
                        StandardCharsets.US_ASCII);
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] cols = line.split("\t", -1);
            assertEquals(14, cols.length, line);
            rows.add(new Object[] {cols[0], unescape(cols[1]), unescape(cols[13])});
        }
        return rows;
    }

    private static String compute(String op, String text) {
        switch (op) {
            case "parse":
                try (WurlUrl u = WurlUrl.parse(text)) {
                    return u.serialize();
                }
            case "resolve":
                try (WurlUrl b = WurlUrl.parse(BASE);
                        WurlUrl u = b.resolve(text)) {
                    return u.serialize();
                }
            case "canon":
            case "canon_into":
                return Wurl.canonicalize(text);
            case "canon_1252":
                return Canonicalizer.builder().charset("windows-1252").build().canonicalize(text);
            case "key:surt":
                return Wurl.surt(text);
            default:
                if (op.startsWith("key:")) {
                    try (Rules r = Rules.compile(op.substring(4))) {
                        return r.key(text);
                    }
                }
                throw new AssertionError("unknown op " + op);
        }
    }

    @Test
    void sameBytesSameOutput() throws IOException {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        int invalidUtf8 = 0;
        for (Object[] r : rows()) {
            String op = (String) r[0];
            byte[] raw = (byte[]) r[1];
            byte[] want = (byte[]) r[2];
            String got = compute(op, TestData.decodeLossy(raw));
            byte[] gotBytes = got == null ? null : got.getBytes(StandardCharsets.UTF_8);
            if (!Arrays.equals(want, gotBytes)) {
                failures.add(op + " " + Arrays.toString(raw) + ": want " + (want == null ? null : new String(want, StandardCharsets.UTF_8)) + ", got " + got);
            }
            checked++;
            if (!Arrays.equals(raw, new String(raw, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8))) {
                invalidUtf8++;
            }
        }
        assertEquals(List.of(), failures);
        assertTrue(checked >= 900, checked + " rows");
        assertTrue(invalidUtf8 >= 600, invalidUtf8 + " rows of invalid UTF-8");
    }

    /** The canon rows through the ByteBuffer call: the bytes as they are, no Java decoding. */
    @Test
    void bytesThroughTheByteBufferCall() throws IOException {
        int checked = 0;
        for (Object[] r : rows()) {
            if (!r[0].equals("canon")) {
                continue;
            }
            byte[] raw = (byte[]) r[1];
            byte[] want = (byte[]) r[2];
            boolean hasLf = false;
            for (byte b : raw) {
                hasLf |= b == '\n';
            }
            if (hasLf) {
                continue;
            }
            ByteBuffer in = ByteBuffer.allocateDirect(raw.length + 1);
            in.put(raw).put((byte) '\n').flip();
            ByteBuffer out = ByteBuffer.allocateDirect(raw.length * 12 + 64);
            assertEquals(1, Wurl.canonicalizeLines(in, out, null));
            out.flip();
            byte[] got = new byte[out.remaining() - 1];
            out.get(got);
            assertEquals('\n', out.get());
            assertArrayEquals(want == null ? new byte[0] : want, got, Arrays.toString(raw));
            checked++;
        }
        assertTrue(checked >= 120, checked + " rows");
    }

    /** The maximal-subpart decoding the String rows use (as python/tests/test_cross_binding.py). */
    @Test
    void replacementIsOnePerMaximalSubpart() {
        assertEquals("\uFFFD\uFFFD\uFFFD", TestData.decodeLossy(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}));
        assertEquals("\uFFFD\uFFFD", TestData.decodeLossy(new byte[] {(byte) 0xC0, (byte) 0xAF}));
        assertEquals("\uFFFD\uFFFD\uFFFD\uFFFD", TestData.decodeLossy(new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}));
        assertEquals("\uFFFD", TestData.decodeLossy(new byte[] {(byte) 0xE2, (byte) 0x82}));
        assertEquals("a\u00E9\uD83D\uDE00", TestData.decodeLossy("a\u00E9\uD83D\uDE00".getBytes(StandardCharsets.UTF_8)));
    }
}
