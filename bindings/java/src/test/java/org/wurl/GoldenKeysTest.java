package org.wurl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every row of tests/data/golden-keys.tsv.xz (311,196 keys, recorded from the Rust bulk call and
 * checked through the C ABI by tests/golden_keys.rs) through the Java API: the single call, the
 * record path, the String[] call and the ByteBuffer call give the recorded key, or null (an empty
 * line) for an invalid URL with the recorded reason.
 */
class GoldenKeysTest {
    private static List<TestData.GoldenRow> rows;
    /** One canonicalizer per charset label of the file (labels that name no encoding: none). */
    private static final Map<String, Canonicalizer> BY_CHARSET = new HashMap<>();

    @BeforeAll
    static void load() throws Exception {
        rows = TestData.goldenRows();
    }

    /**
     * The canonicalizer of a row's charset. A label that names no WHATWG encoding is refused
     * (IllegalArgumentException, checked here), and its row then has the key of UTF-8, as the
     * library reads such a label.
     */
    private static Canonicalizer of(String charset) {
        if (charset == null) {
            return Canonicalizer.DEFAULT;
        }
        return BY_CHARSET.computeIfAbsent(
                charset,
                cs -> {
                    try {
                        return Canonicalizer.builder().charset(cs).build();
                    } catch (IllegalArgumentException e) {
                        assertTrue(e.getMessage().startsWith("unknown charset label"), e.getMessage());
                        return Canonicalizer.DEFAULT;
                    }
                });
    }

    private static String show(TestData.GoldenRow r) {
        return "input " + r.input + " base " + r.base + " charset " + r.charset;
    }

    @Test
    void rowCount() {
        assertEquals(311196, rows.size());
    }

    @Test
    void singleCall() {
        List<String> failures = new ArrayList<>();
        int valid = 0;
        for (TestData.GoldenRow r : rows) {
            String got = of(r.charset).canonicalize(r.input, r.base);
            String want = r.ok ? r.value : null;
            if (!Objects.equals(got, want)) {
                failures.add(show(r) + ": want " + want + ", got " + got);
            }
            if (r.ok) {
                valid++;
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " rows differ, e.g. " + failures.subList(0, Math.min(10, failures.size())));
        }
        assertTrue(valid > 200000, valid + " valid rows");
    }

    /** The record: canonicalUrl's serialization is the key, its reason the recorded one. */
    @Test
    void recordPath() {
        List<String> failures = new ArrayList<>();
        for (TestData.GoldenRow r : rows) {
            try (WurlUrl u = of(r.charset).canonicalUrl(r.input, r.base)) {
                String got = r.ok ? u.serialize() : u.invalidReason();
                if (!Objects.equals(got, r.value) || u.isInvalid() == r.ok) {
                    failures.add(show(r) + ": want " + r.value + ", got " + got);
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " rows differ, e.g. " + failures.subList(0, Math.min(10, failures.size())));
        }
    }

    /** The rows grouped by (base, charset), each group through the two bulk calls. */
    @Test
    void bulkCalls() {
        Map<List<String>, List<TestData.GoldenRow>> groups = new LinkedHashMap<>();
        for (TestData.GoldenRow r : rows) {
            groups.computeIfAbsent(java.util.Arrays.asList(r.base, r.charset), k -> new ArrayList<>())
                    .add(r);
        }
        assertTrue(groups.size() > 1000, groups.size() + " groups");
        List<String> failures = new ArrayList<>();
        int viaLines = 0;
        ByteBuffer in = ByteBuffer.allocateDirect(1 << 16);
        ByteBuffer out = ByteBuffer.allocateDirect(1 << 20);
        for (List<TestData.GoldenRow> g : groups.values()) {
            TestData.GoldenRow first = g.get(0);
            Canonicalizer c = of(first.charset);
            String[] inputs = g.stream().map(r -> r.input).toArray(String[]::new);
            String[] got = c.canonicalizeAll(inputs, first.base);
            assertEquals(inputs.length, got.length);
            for (int i = 0; i < inputs.length; i++) {
                String want = g.get(i).ok ? g.get(i).value : null;
                if (!Objects.equals(got[i], want)) {
                    failures.add("String[]: " + show(g.get(i)) + ": want " + want + ", got " + got[i]);
                }
            }
            // The ByteBuffer call: the rows whose input is one line, in chunks that fit.
            List<TestData.GoldenRow> one = new ArrayList<>();
            for (TestData.GoldenRow r : g) {
                if (r.input.indexOf('\n') < 0 && r.input.length() < 8000) {
                    one.add(r);
                }
            }
            int i = 0;
            while (i < one.size()) {
                in.clear();
                int start = i;
                while (i < one.size()) {
                    byte[] b = (one.get(i).input + "\n").getBytes(StandardCharsets.UTF_8);
                    if (b.length > in.remaining()) {
                        break;
                    }
                    in.put(b);
                    i++;
                }
                in.flip();
                out.clear();
                int n = c.canonicalizeLines(in, out, first.base);
                assertEquals(i - start, n);
                assertTrue(!in.hasRemaining());
                out.flip();
                byte[] res = new byte[out.remaining()];
                out.get(res);
                String[] lines = new String(res, StandardCharsets.UTF_8).split("\n", -1);
                assertEquals(n + 1, lines.length);
                for (int k = 0; k < n; k++) {
                    TestData.GoldenRow r = one.get(start + k);
                    String want = r.ok ? r.value : "";
                    if (!lines[k].equals(want)) {
                        failures.add("ByteBuffer: " + show(r) + ": want " + want + ", got " + lines[k]);
                    }
                    viaLines++;
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " rows differ, e.g. " + failures.subList(0, Math.min(10, failures.size())));
        }
        assertTrue(viaLines > 250000, viaLines + " rows through the ByteBuffer call");
    }

    /** The labels of the file that name no encoding are refused, not read as UTF-8 silently. */
    @Test
    void unknownLabelsAreRefused() {
        int unknown = 0;
        for (TestData.GoldenRow r : rows) {
            if (r.charset != null && of(r.charset) == Canonicalizer.DEFAULT) {
                assertThrows(
                        IllegalArgumentException.class,
                        () -> Canonicalizer.builder().charset(r.charset));
                unknown++;
            }
        }
        assertTrue(unknown > 0, "no row with an unknown label");
    }
}
