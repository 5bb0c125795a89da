package org.wurl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Eight threads share one Rules, one parsed base and one Canonicalizer, and each gets, for every
 * link of the conformance suite, exactly what one thread alone gets.
 */
class ThreadsTest {
    private static final int THREADS = 8;

    private static List<String> links() {
        List<String> out = new ArrayList<>();
        for (String f : TestData.canonFiles()) {
            for (TestData.DatTest t : TestData.loadDat(f)) {
                out.add(t.get("data") == null ? "" : t.get("data"));
            }
        }
        return out;
    }

    /** Every result of one round for `links`: 4 per link. */
    private static String[] round(List<String> links, Rules rules, WurlUrl base, Canonicalizer c, String baseS) {
        String[] out = new String[links.size() * 4];
        for (int i = 0; i < links.size(); i++) {
            String l = links.get(i);
            out[4 * i] = rules.key(l, baseS);
            out[4 * i + 1] = c.canonicalizeLink(base, l);
            out[4 * i + 2] = rules.surtKey(l, baseS);
            out[4 * i + 3] = Wurl.canonicalize(l, baseS);
        }
        return out;
    }

    @Test
    void eightThreadsShareOneRulesAndOneBase() throws Exception {
        List<String> links = links();
        String baseS = "http://www.Example.com:80/dir/page.html?x=1#top";
        try (Rules rules = Rules.compile("drop-fragment,strip-www,sort-query,strip-session-ids");
                WurlUrl base = WurlUrl.parse(baseS)) {
            Canonicalizer c = Canonicalizer.builder().rules(rules).build();
            String[] alone = round(links, rules, base, c, baseS);
            String[] bulkAlone = c.canonicalizeLinks(base, links.toArray(new String[0]));
            int valid = 0;
            for (String s : alone) {
                valid += s == null ? 0 : 1;
            }
            assertTrue(valid > links.size() * 3, valid + " valid results");
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            CountDownLatch start = new CountDownLatch(1);
            try {
                List<Future<String[][]>> futures = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    futures.add(
                            pool.submit(
                                    () -> {
                                        start.await();
                                        String[][] r = new String[6][];
                                        for (int k = 0; k < 3; k++) {
                                            r[2 * k] = round(links, rules, base, c, baseS);
                                            r[2 * k + 1] = c.canonicalizeLinks(base, links.toArray(new String[0]));
                                        }
                                        return r;
                                    }));
                }
                start.countDown();
                for (Future<String[][]> f : futures) {
                    String[][] r = f.get();
                    for (int k = 0; k < 3; k++) {
                        assertArrayEquals(alone, r[2 * k]);
                        assertArrayEquals(bulkAlone, r[2 * k + 1]);
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** Closing a handle while other threads use it: they finish or get IllegalStateException. */
    @Test
    void closeWhileInUse() throws Exception {
        for (int round = 0; round < 20; round++) {
            Rules rules = Rules.compile("strip-www");
            WurlUrl base = WurlUrl.parse("http://www.example.com/a/");
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<Integer>> futures = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    futures.add(
                            pool.submit(
                                    () -> {
                                        int ok = 0;
                                        for (int i = 0; i < 2000; i++) {
                                            try {
                                                assertEquals("http://example.com/a/x" + i, rules.key("x" + i, "http://www.example.com/a/"));
                                                assertEquals("http://www.example.com/a/y", base.canonicalizeLink("y"));
                                                ok++;
                                            } catch (IllegalStateException e) {
                                                assertTrue(e.getMessage().endsWith("is closed"), e.getMessage());
                                            }
                                        }
                                        return ok;
                                    }));
                }
                Thread.sleep(round % 5);
                rules.close();
                base.close();
                for (Future<Integer> f : futures) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
