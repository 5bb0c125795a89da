package org.wurl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The repository's test data: the conformance suite, the golden keys, the cross-binding table. */
final class TestData {
    private TestData() {}

    /** The repository root: the system property wurl.source.dir (set by CTest), or found upward. */
    static Path root() {
        String p = System.getProperty("wurl.source.dir");
        if (p != null && !p.isEmpty()) {
            return Path.of(p);
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("tests/data/golden-keys.tsv.xz"))) {
                return d;
            }
        }
        throw new IllegalStateException("the repository root is unknown: set -Dwurl.source.dir");
    }

    static Path data() {
        return root().resolve("tests/data");
    }

    // --- the conformance suite's .dat files (tests/common/dat.rs, python/tests/datfile.py) ---

    /** One test: its fields (NAME8 fields replacing NAME) and the line where it starts. */
    static final class DatTest {
        final int line;
        final Map<String, String> fields;

        DatTest(int line, Map<String, String> fields) {
            this.line = line;
            this.fields = fields;
        }

        String get(String name) {
            return fields.get(name);
        }
    }

    /**
     * Replaces {@code \\uXXXX} and {@code \\UXXXXXXXX} by their code points. A surrogate escape
     * stays a lone surrogate in the Java string, which the binding must read as U+FFFD (what the
     * suite's NAME8 fields expect); an escaped pair, which Java would join into one character,
     * becomes two U+FFFD, as the suite means it.
     */
    static String unescape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            int cp = escapeAt(s, i);
            if (cp < 0) {
                out.append(s.charAt(i));
                i++;
                continue;
            }
            int len = s.charAt(i + 1) == 'u' ? 6 : 10;
            if (cp > 0x10FFFF) {
                out.append('\uFFFD');
            } else if (Character.isHighSurrogate((char) cp)
                    && cp <= 0xFFFF
                    && i + len < s.length()
                    && escapeAt(s, i + len) >= 0xDC00
                    && escapeAt(s, i + len) <= 0xDFFF) {
                out.append('\uFFFD');
            } else if (cp >= 0xDC00
                    && cp <= 0xDFFF
                    && out.length() > 0
                    && Character.isHighSurrogate(out.charAt(out.length() - 1))) {
                // After a lone high surrogate made by an escape (a literal one cannot be in
                // UTF-8 text): the two would make a pair.
                out.append('\uFFFD');
            } else {
                out.appendCodePoint(cp);
            }
            i += len;
        }
        return out.toString();
    }

    private static int escapeAt(String s, int i) {
        if (s.charAt(i) != '\\' || i + 1 >= s.length()) {
            return -1;
        }
        char k = s.charAt(i + 1);
        int n = k == 'u' ? 4 : k == 'U' ? 8 : 0;
        if (n == 0 || i + 2 + n > s.length()) {
            return -1;
        }
        String hex = s.substring(i + 2, i + 2 + n);
        for (int j = 0; j < hex.length(); j++) {
            if (Character.digit(hex.charAt(j), 16) < 0) {
                return -1;
            }
        }
        long v = Long.parseLong(hex, 16);
        return v > 0x10FFFF ? 0x110000 : (int) v;
    }

    private static final class Field {
        final String name;
        final List<String> options;
        final List<String> lines = new ArrayList<>();

        Field(String name, List<String> options) {
            this.name = name;
            this.options = options;
        }
    }

    private static void finishField(Field f, List<String[]> raw) {
        List<String> options = new ArrayList<>(f.options);
        boolean escaped = !options.isEmpty() && options.get(options.size() - 1).equals("escaped");
        if (escaped) {
            options.remove(options.size() - 1);
        }
        List<String> lines = f.lines;
        if (f.name.equals("data") || f.name.equals("path") || f.name.equals("path8")) {
            lines =
                    lines.stream()
                            .map(l -> l.startsWith("| ") ? l.substring(2) : l)
                            .collect(Collectors.toList());
        }
        String value;
        if (lines.isEmpty()) {
            value = options.isEmpty() ? "" : options.get(0);
        } else {
            value = String.join("\n", lines);
        }
        if (escaped) {
            value = unescape(value);
        }
        raw.add(new String[] {f.name, value});
    }

    private static void finishTest(int line, List<String[]> raw, List<DatTest> out) {
        if (raw.isEmpty()) {
            return;
        }
        Map<String, String> fields = new HashMap<>();
        for (String[] kv : raw) {
            fields.put(kv[0], kv[1]);
        }
        for (String[] kv : raw) {
            if (kv[0].endsWith("8")) {
                fields.put(kv[0].substring(0, kv[0].length() - 1), kv[1]);
            }
        }
        out.add(new DatTest(line, fields));
    }

    static List<DatTest> parseDat(String text) {
        List<DatTest> tests = new ArrayList<>();
        List<String[]> raw = new ArrayList<>();
        Field field = null;
        int testLine = 0;
        boolean prevBlank = true;
        int pendingBlank = 0;
        String[] lines = text.split("\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n];
            if (line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            if (line.startsWith("#")) {
                String body = line.substring(1);
                if (field != null) {
                    finishField(field, raw);
                    field = null;
                }
                if (prevBlank) {
                    finishTest(testLine, raw, tests);
                    raw = new ArrayList<>();
                    testLine = n + 1;
                }
                int end = 0;
                while (end < body.length()) {
                    char c = body.charAt(end);
                    if (Character.isLetterOrDigit(c) && c < 128 || c == '_' || c == '-') {
                        end++;
                    } else {
                        break;
                    }
                }
                String name = body.substring(0, end);
                List<String> options = new ArrayList<>();
                for (String w : body.substring(end).split(" ", -1)) {
                    if (!w.isEmpty() && !w.equals(":")) {
                        options.add(w);
                    }
                }
                field = new Field(name, options);
                pendingBlank = 0;
                prevBlank = false;
            } else if (line.isEmpty()) {
                pendingBlank++;
                prevBlank = true;
            } else {
                if (field != null) {
                    for (int k = 0; k < pendingBlank; k++) {
                        field.lines.add("");
                    }
                    field.lines.add(line);
                }
                pendingBlank = 0;
                prevBlank = false;
            }
        }
        if (field != null) {
            finishField(field, raw);
        }
        finishTest(testLine, raw, tests);
        return tests;
    }

    static List<DatTest> loadDat(String rel) {
        try {
            // Bytes, then UTF-8: no newline translation (a lone CR stays in the data).
            return parseDat(
                    new String(Files.readAllBytes(data().resolve(rel)), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** decomps*.dat, then generated/*.dat, each sorted by name. */
    static List<String> canonFiles() {
        List<String> out = new ArrayList<>();
        for (String d : new String[] {"", "generated/"}) {
            try (Stream<Path> s = Files.list(data().resolve(d.isEmpty() ? "." : d))) {
                s.map(p -> p.getFileName().toString())
                        .filter(n -> n.endsWith(".dat") && (n.startsWith("decomps") || !d.isEmpty()))
                        .sorted()
                        .forEach(n -> out.add(d + n));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return out;
    }

    // --- the golden keys (tests/common/golden.rs) ---

    /** One golden row: input, base and charset (null: absent), and the key or the reason. */
    static final class GoldenRow {
        final String input;
        final String base;
        final String charset;
        final boolean ok;
        final String value;

        GoldenRow(String input, String base, String charset, boolean ok, String value) {
            this.input = input;
            this.base = base;
            this.charset = charset;
            this.ok = ok;
            this.value = value;
        }
    }

    static String goldenField(String s) {
        if (s.equals("\\N")) {
            return null;
        }
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = s.charAt(++i);
            switch (e) {
                case '\\':
                    out.append('\\');
                    break;
                case 't':
                    out.append('\t');
                    break;
                case 'n':
                    out.append('\n');
                    break;
                case 'r':
                    out.append('\r');
                    break;
                case 'x':
                    out.append((char) Integer.parseInt(s.substring(i + 1, i + 3), 16));
                    i += 2;
                    break;
                default:
                    throw new IllegalArgumentException("bad escape in " + s);
            }
        }
        return out.toString();
    }

    /** Every row of tests/data/golden-keys.tsv.xz (unpacked by the xz command). */
    static List<GoldenRow> goldenRows() throws IOException, InterruptedException {
        Path file = data().resolve("golden-keys.tsv.xz");
        Process p = new ProcessBuilder("xz", "-dc", file.toString()).start();
        byte[] bytes;
        try (InputStream in = p.getInputStream()) {
            bytes = in.readAllBytes();
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        p.getErrorStream().transferTo(err);
        assertEquals(0, p.waitFor(), "xz -dc " + file + ": " + err);
        String text = new String(bytes, StandardCharsets.UTF_8);
        String[] lines = text.split("\n", -1);
        assertEquals("input\tbase\tcharset\tstatus\tkey or reason", lines[0]);
        List<GoldenRow> rows = new ArrayList<>(lines.length);
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isEmpty()) {
                continue;
            }
            String[] c = lines[i].split("\t", -1);
            assertEquals(5, c.length, "row " + i);
            assertTrue(c[3].equals("ok") || c[3].equals("invalid"), "row " + i);
            rows.add(
                    new GoldenRow(
                            goldenField(c[0]),
                            goldenField(c[1]),
                            goldenField(c[2]),
                            c[3].equals("ok"),
                            goldenField(c[4])));
        }
        return rows;
    }

    // --- bytes ---

    /**
     * Bytes decoded as UTF-8 with one U+FFFD per maximal subpart of an invalid sequence (the
     * Unicode and WHATWG practice, and how wurl's C ABI reads bytes; Java's own decoder joins
     * some subparts into one U+FFFD).
     */
    static String decodeLossy(byte[] b) {
        StringBuilder out = new StringBuilder(b.length);
        int i = 0;
        while (i < b.length) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                out.append((char) c);
                i++;
                continue;
            }
            int need;
            int lo = 0x80;
            int hi = 0xBF;
            int cp;
            if (c >= 0xC2 && c <= 0xDF) {
                need = 1;
                cp = c & 0x1F;
            } else if (c >= 0xE0 && c <= 0xEF) {
                need = 2;
                cp = c & 0x0F;
                if (c == 0xE0) {
                    lo = 0xA0;
                } else if (c == 0xED) {
                    hi = 0x9F;
                }
            } else if (c >= 0xF0 && c <= 0xF4) {
                need = 3;
                cp = c & 0x07;
                if (c == 0xF0) {
                    lo = 0x90;
                } else if (c == 0xF4) {
                    hi = 0x8F;
                }
            } else {
                out.append('\uFFFD');
                i++;
                continue;
            }
            int j = i + 1;
            boolean bad = false;
            for (int k = 0; k < need; k++, j++) {
                if (j >= b.length) {
                    bad = true;
                    break;
                }
                int d = b[j] & 0xFF;
                if (d < lo || d > hi) {
                    bad = true;
                    break;
                }
                lo = 0x80;
                hi = 0xBF;
                cp = (cp << 6) | (d & 0x3F);
            }
            if (bad) {
                out.append('\uFFFD');
                i = j;
            } else {
                out.appendCodePoint(cp);
                i = j;
            }
        }
        return out.toString();
    }
}
