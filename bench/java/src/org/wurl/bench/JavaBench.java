package org.wurl.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.wurl.Wurl;

/**
 * The Java benchmark: per URL (per link), from one run, the Java calls of wurl beside the C bulk
 * call and {@code java.net.URI}. A program, not a test: it asserts nothing about times.
 *
 * <pre>
 * java -Xms1g -Xmx1g -Dwurl.bench.lib=target/release/libwurl_jni_bench.so \
 *   -cp wurl-VERSION.jar:bench-classes org.wurl.bench.JavaBench [options]
 *
 *   --dataset D[,D..]   kasztp, links_synth (default both), or a file (.tsv: page TAB link)
 *   --data-dir DIR      where the named datasets are (default bench/data)
 *   --reps N            timed repetitions (default 11; the median is reported)
 *   --warmup N          untimed passes of every row first (default 5: the JIT compiles)
 *   --markdown          the tables in Markdown
 *   --check             time nothing: the four wurl rows give the same results on every line
 * </pre>
 *
 * <p>Rows, on a URL list (each URL its own base) and on a links file (each link against its page;
 * the lines of one page are adjacent):
 *
 * <ul>
 *   <li>{@code c-bulk}: {@code wurl_canon_into} looped in native code (CBulk: one JNI call per
 *       sample), into one reused 64 KiB buffer; on links the page parsed once per page run
 *       ({@code wurl_parse}) and each link against that handle. The {@code wurl-into} row of
 *       wurl-bench, in this process.
 *   <li>{@code ByteBuffer}: {@code Wurl.canonicalizeLines(in, out, base)} over direct buffers of
 *       LF-separated URLs, {@value #BATCH} lines per call (on links: one call per page run, the
 *       page as the base).
 *   <li>{@code String[]}: {@code Wurl.canonicalizeAll(urls, base)}, {@value #BATCH} URLs per call
 *       (on links: one call per page run).
 *   <li>{@code single}: {@code Wurl.canonicalize(url)} per URL ({@code canonicalize(link, page)}
 *       per link).
 *   <li>{@code java.net.URI}: {@code URI.create(u).normalize().toString()} per URL, an {@code
 *       IllegalArgumentException} counted as invalid (on links: {@code base.resolve(link)
 *       .normalize().toString()} with the page parsed once per page run).
 * </ul>
 *
 * <p>One sample is one row over every URL of the dataset, timed with {@code System.nanoTime}
 * (wall clock: the garbage collector's work on other threads counts), and with the benchmark
 * thread's CPU time beside it ({@code ThreadMXBean}: leaves out the time the thread was
 * descheduled by other jobs, and also the collector's threads, so it favours the rows that
 * allocate). Every repetition takes one
 * sample of each row, in an order that rotates from one repetition to the next. Each row keeps
 * what it produced alive until the sample ends (the results of a batch, the length of each
 * string), so that no work can be skipped.
 */
public final class JavaBench {
    private JavaBench() {}

    /** URLs per call of the bulk rows on a URL list. */
    static final int BATCH = 1024;

    static final String[] ROWS = {"c-bulk", "ByteBuffer", "String[]", "single", "java.net.URI"};

    /** What the rows' results add up to, read at the end so that nothing is dead code. */
    static long sink;

    /** A dataset loaded once, in every form a row reads. */
    static final class Data {
        final String name;
        final boolean links;
        final String[] urls; // canon: the URLs; links: the links
        final String[] runPage; // links: the page of each page run
        final int[] runStart; // links: the first link of each run, and the end
        final String[][] batches; // the String[] call's arrays (canon: BATCH each; links: runs)
        final ByteBuffer lines; // the URLs (links) LF-separated, for the ByteBuffer call
        final int[] lineBatch; // byte offsets of the ByteBuffer call's batches, and the end
        final ByteBuffer cIn; // the C bulk call's input: the URLs, or page TAB link lines
        final int cLen;
        final ByteBuffer out; // the ByteBuffer call's output
        final long inputBytes;

        Data(String name, boolean links, List<String> pages, List<String> urls) {
            this.name = name;
            this.links = links;
            this.urls = urls.toArray(new String[0]);
            List<String> rp = new ArrayList<>();
            List<Integer> rs = new ArrayList<>();
            if (links) {
                for (int i = 0; i < pages.size(); i++) {
                    if (i == 0 || !pages.get(i).equals(pages.get(i - 1))) {
                        rp.add(pages.get(i));
                        rs.add(i);
                    }
                }
            } else {
                for (int i = 0; i < urls.size(); i += BATCH) {
                    rs.add(i);
                }
            }
            rs.add(urls.size());
            runPage = rp.toArray(new String[0]);
            runStart = rs.stream().mapToInt(Integer::intValue).toArray();
            batches = new String[runStart.length - 1][];
            for (int b = 0; b < batches.length; b++) {
                batches[b] = Arrays.copyOfRange(this.urls, runStart[b], runStart[b + 1]);
            }
            byte[][] enc = new byte[this.urls.length][];
            long total = 0;
            for (int i = 0; i < enc.length; i++) {
                enc[i] = this.urls[i].getBytes(StandardCharsets.UTF_8);
                total += enc[i].length + 1;
            }
            lines = ByteBuffer.allocateDirect((int) total);
            lineBatch = new int[runStart.length];
            int b = 0;
            for (int i = 0; i < enc.length; i++) {
                while (b < runStart.length && runStart[b] == i) {
                    lineBatch[b++] = lines.position();
                }
                lines.put(enc[i]).put((byte) '\n');
            }
            while (b < runStart.length) {
                lineBatch[b++] = lines.position();
            }
            long bytes = 0;
            for (byte[] e : enc) {
                bytes += e.length;
            }
            if (links) {
                long c = 0;
                byte[][] pe = new byte[pages.size()][];
                for (int i = 0; i < pe.length; i++) {
                    pe[i] = pages.get(i).getBytes(StandardCharsets.UTF_8);
                    c += pe[i].length + 1 + enc[i].length + 1;
                }
                for (String p : runPage) {
                    bytes += p.getBytes(StandardCharsets.UTF_8).length;
                }
                cIn = ByteBuffer.allocateDirect((int) c);
                for (int i = 0; i < pe.length; i++) {
                    cIn.put(pe[i]).put((byte) '\t').put(enc[i]).put((byte) '\n');
                }
            } else {
                cIn = ByteBuffer.allocateDirect((int) total);
                for (byte[] e : enc) {
                    cIn.put(e).put((byte) '\n');
                }
            }
            cLen = cIn.position();
            inputBytes = bytes;
            // Keys are at most a few times their input; the check below says when this is short.
            out = ByteBuffer.allocateDirect((int) Math.max(1 << 20, total * 4));
        }

        int count() {
            return urls.length;
        }
    }

    static Data load(Path file) throws IOException {
        String name = file.getFileName().toString().replaceFirst("\\.(txt|tsv)$", "");
        boolean links = file.toString().endsWith(".tsv");
        String text = Files.readString(file, StandardCharsets.UTF_8);
        if (text.startsWith("\ufeff")) {
            text = text.substring(1);
        }
        List<String> pages = new ArrayList<>();
        List<String> urls = new ArrayList<>();
        for (String line : text.split("\n")) {
            line = line.replace("\r", "");
            if (line.isEmpty()) {
                continue;
            }
            if (links) {
                int tab = line.indexOf('\t');
                if (tab < 0) {
                    throw new IOException(file + ": a line without a TAB: " + line);
                }
                pages.add(line.substring(0, tab));
                urls.add(line.substring(tab + 1));
            } else {
                urls.add(line);
            }
        }
        return new Data(name, links, pages, urls);
    }

    // -------------------------------------------------------------------------------------------
    // The rows: each returns how many results were valid.

    static long cBulk(Data d) {
        long s = d.links ? CBulk.links(d.cIn, d.cLen) : CBulk.canon(d.cIn, d.cLen);
        if (s < 0) {
            throw new IllegalStateException("the C bulk call failed");
        }
        sink += CBulk.bytes(s);
        return CBulk.valid(s);
    }

    /**
     * With {@code countValid}, the valid lines (by a scan of the output, in Java); without, the
     * lines done, so that the timed samples pay for the call alone.
     */
    static long byteBuffer(Data d, boolean countValid) {
        ByteBuffer in = d.lines;
        ByteBuffer out = d.out;
        long valid = 0;
        for (int b = 0; b + 1 < d.lineBatch.length; b++) {
            in.limit(d.lineBatch[b + 1]).position(d.lineBatch[b]);
            out.clear();
            int n = Wurl.canonicalizeLines(in, out, d.links ? d.runPage[b] : null);
            if (in.hasRemaining()) {
                throw new IllegalStateException("the output buffer is too small");
            }
            // Valid lines: all but the empty ones.
            valid += countValid ? n - emptyLines(out) : n;
            sink += out.position();
        }
        return valid;
    }

    /** Empty lines in out[0, position): a line end at 0 or right after another. */
    private static int emptyLines(ByteBuffer out) {
        int n = 0;
        int end = out.position();
        byte prev = '\n';
        for (int i = 0; i < end; i++) {
            byte c = out.get(i);
            if (c == '\n' && prev == '\n') {
                n++;
            }
            prev = c;
        }
        return n;
    }

    static long stringArray(Data d) {
        long valid = 0;
        for (int b = 0; b < d.batches.length; b++) {
            String[] r = Wurl.canonicalizeAll(d.batches[b], d.links ? d.runPage[b] : null);
            for (String s : r) {
                if (s != null) {
                    valid++;
                    sink += s.length();
                }
            }
        }
        return valid;
    }

    static long single(Data d) {
        long valid = 0;
        if (d.links) {
            for (int r = 0; r < d.runPage.length; r++) {
                String page = d.runPage[r];
                for (int i = d.runStart[r]; i < d.runStart[r + 1]; i++) {
                    String s = Wurl.canonicalize(d.urls[i], page);
                    if (s != null) {
                        valid++;
                        sink += s.length();
                    }
                }
            }
            return valid;
        }
        for (String u : d.urls) {
            String s = Wurl.canonicalize(u);
            if (s != null) {
                valid++;
                sink += s.length();
            }
        }
        return valid;
    }

    static long javaNetUri(Data d) {
        long valid = 0;
        if (d.links) {
            for (int r = 0; r < d.runPage.length; r++) {
                URI base;
                try {
                    base = URI.create(d.runPage[r]);
                } catch (IllegalArgumentException e) {
                    continue;
                }
                for (int i = d.runStart[r]; i < d.runStart[r + 1]; i++) {
                    try {
                        String s = base.resolve(d.urls[i]).normalize().toString();
                        valid++;
                        sink += s.length();
                    } catch (IllegalArgumentException e) {
                        // invalid
                    }
                }
            }
            return valid;
        }
        for (String u : d.urls) {
            try {
                String s = URI.create(u).normalize().toString();
                valid++;
                sink += s.length();
            } catch (IllegalArgumentException e) {
                // invalid
            }
        }
        return valid;
    }

    static long run(int row, Data d, boolean warmup) {
        switch (row) {
            case 0:
                return cBulk(d);
            case 1:
                return byteBuffer(d, warmup);
            case 2:
                return stringArray(d);
            case 3:
                return single(d);
            default:
                return javaNetUri(d);
        }
    }

    // -------------------------------------------------------------------------------------------
    // --check: the four wurl rows give the same result for every line.

    /** The C bulk call's results, one per line (null: invalid). */
    static String[] cBulkResults(Data d) {
        ByteBuffer out = ByteBuffer.allocateDirect(d.out.capacity());
        long n =
                d.links
                        ? CBulk.linksOut(d.cIn, d.cLen, out, out.capacity())
                        : CBulk.canonOut(d.cIn, d.cLen, out, out.capacity());
        if (n < 0) {
            throw new IllegalStateException("the C bulk call's output does not fit");
        }
        return splitLines(out, (int) n, d.count());
    }

    static String[] byteBufferResults(Data d) {
        String[] res = new String[d.count()];
        int at = 0;
        for (int b = 0; b + 1 < d.lineBatch.length; b++) {
            d.lines.limit(d.lineBatch[b + 1]).position(d.lineBatch[b]);
            d.out.clear();
            int n = Wurl.canonicalizeLines(d.lines, d.out, d.links ? d.runPage[b] : null);
            String[] part = splitLines(d.out, d.out.position(), n);
            System.arraycopy(part, 0, res, at, n);
            at += n;
        }
        if (at != res.length) {
            throw new IllegalStateException("ByteBuffer: " + at + " lines of " + res.length);
        }
        return res;
    }

    static String[] splitLines(ByteBuffer out, int len, int count) {
        byte[] all = new byte[len];
        out.get(0, all);
        String[] res = new String[count];
        int start = 0;
        int k = 0;
        for (int i = 0; i < len; i++) {
            if (all[i] == '\n') {
                if (k == count) {
                    throw new IllegalStateException("more lines than " + count);
                }
                res[k++] = i == start ? null : new String(all, start, i - start, StandardCharsets.UTF_8);
                start = i + 1;
            }
        }
        if (k != count || start != len) {
            throw new IllegalStateException(k + " lines, expected " + count);
        }
        return res;
    }

    static String[] stringArrayResults(Data d) {
        String[] res = new String[d.count()];
        for (int b = 0; b < d.batches.length; b++) {
            String[] r = Wurl.canonicalizeAll(d.batches[b], d.links ? d.runPage[b] : null);
            System.arraycopy(r, 0, res, d.runStart[b], r.length);
        }
        return res;
    }

    static String[] singleResults(Data d) {
        String[] res = new String[d.count()];
        for (int r = 0; r + 1 < d.runStart.length; r++) {
            for (int i = d.runStart[r]; i < d.runStart[r + 1]; i++) {
                res[i] = d.links ? Wurl.canonicalize(d.urls[i], d.runPage[r]) : Wurl.canonicalize(d.urls[i]);
            }
        }
        return res;
    }

    static String[] uriResults(Data d) {
        String[] res = new String[d.count()];
        for (int r = 0; r + 1 < d.runStart.length; r++) {
            for (int i = d.runStart[r]; i < d.runStart[r + 1]; i++) {
                try {
                    res[i] =
                            d.links
                                    ? URI.create(d.runPage[r]).resolve(d.urls[i]).normalize().toString()
                                    : URI.create(d.urls[i]).normalize().toString();
                } catch (IllegalArgumentException e) {
                    res[i] = null;
                }
            }
        }
        return res;
    }

    static boolean check(Data d) {
        String[] c = cBulkResults(d);
        String[][] others = {byteBufferResults(d), stringArrayResults(d), singleResults(d)};
        boolean ok = true;
        long valid = Arrays.stream(c).filter(s -> s != null).count();
        for (int k = 0; k < others.length; k++) {
            int differ = 0;
            for (int i = 0; i < c.length; i++) {
                if (!java.util.Objects.equals(c[i], others[k][i])) {
                    if (differ++ < 3) {
                        System.out.printf("  %s line %d: %s: %s, c-bulk: %s%n", d.name, i + 1, ROWS[k + 1], others[k][i], c[i]);
                    }
                }
            }
            System.out.printf("%s: %s equals c-bulk on %d of %d lines%n", d.name, ROWS[k + 1], c.length - differ, c.length);
            ok &= differ == 0;
        }
        String[] u = uriResults(d);
        long uValid = Arrays.stream(u).filter(s -> s != null).count();
        long same = 0;
        for (int i = 0; i < c.length; i++) {
            if (c[i] != null && c[i].equals(u[i])) {
                same++;
            }
        }
        System.out.printf(
                "%s: wurl accepts %d of %d; java.net.URI accepts %d, %d of them identical to wurl's%n",
                d.name, valid, c.length, uValid, same);
        // A dataset where wurl accepts nothing would compare nulls only.
        ok &= valid > c.length / 2;
        return ok;
    }

    // -------------------------------------------------------------------------------------------

    static String loadavg() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    public static void main(String[] args) throws IOException {
        List<String> datasets = List.of("kasztp", "links_synth");
        Path dataDir = Path.of("bench/data");
        int reps = 11;
        int warmup = 5;
        boolean markdown = false;
        boolean checkOnly = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dataset":
                    datasets = List.of(args[++i].split(","));
                    break;
                case "--data-dir":
                    dataDir = Path.of(args[++i]);
                    break;
                case "--reps":
                    reps = Integer.parseInt(args[++i]);
                    break;
                case "--warmup":
                    warmup = Integer.parseInt(args[++i]);
                    break;
                case "--markdown":
                    markdown = true;
                    break;
                case "--check":
                    checkOnly = true;
                    break;
                default:
                    System.err.println("unknown option " + args[i] + " (see the class's Javadoc)");
                    System.exit(2);
            }
        }
        List<Data> data = new ArrayList<>();
        for (String ds : datasets) {
            Path p = Path.of(ds);
            if (!Files.exists(p)) {
                p = dataDir.resolve(ds + ("links_synth".equals(ds) ? ".tsv" : ".txt"));
            }
            data.add(load(p));
        }
        if (checkOnly) {
            boolean ok = true;
            for (Data d : data) {
                ok &= check(d);
            }
            System.out.println(ok ? "check: the wurl rows agree" : "check: FAILED");
            System.exit(ok ? 0 : 1);
        }
        System.out.printf(
                "JavaBench: %s %s, wurl %s; wall clock (System.nanoTime), median of %d samples"
                        + " after %d warm-up passes; load average at start %s%n",
                System.getProperty("java.vm.name"), System.getProperty("java.version"), Wurl.version(),
                reps, warmup, loadavg());
        System.out.printf(
                "JNI floor (CPU time): %.1f ns per call of an empty native method (CBulk.nop), %.1f ns per"
                        + " call returning a new String (CBulk.newString: NewStringUTF), %.1f ns per"
                        + " call returning a byte[] decoded in Java (CBulk.newBytes), %.1f ns per"
                        + " Wurl.version() (the binding's call returning a new String)%n",
                jniFloor(0), jniFloor(1), jniFloor(3), jniFloor(2));
        for (Data d : data) {
            long[] accepted = new long[ROWS.length];
            for (int w = 0; w < warmup; w++) {
                for (int r = 0; r < ROWS.length; r++) {
                    accepted[r] = run(r, d, true);
                }
            }
            long[][] t = new long[ROWS.length][reps];
            long[][] cpu = new long[ROWS.length][reps];
            java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
            for (int rep = 0; rep < reps; rep++) {
                for (int k = 0; k < ROWS.length; k++) {
                    int r = (k + rep) % ROWS.length;
                    long c0 = mx.getCurrentThreadCpuTime();
                    long t0 = System.nanoTime();
                    long a = run(r, d, false);
                    t[r][rep] = System.nanoTime() - t0;
                    cpu[r][rep] = mx.getCurrentThreadCpuTime() - c0;
                    if (r == 1) {
                        // The timed ByteBuffer samples count lines; the warm-up counted valid ones.
                        a = a == d.count() ? accepted[r] : -1;
                    }
                    if (a != accepted[r]) {
                        throw new IllegalStateException(ROWS[r] + ": accepted count changed");
                    }
                }
            }
            double n = d.count();
            double cMedian = median(t[0]) / n;
            String unit = d.links ? "link" : "URL";
            System.out.printf("%n%s: %d %ss, %d bytes%n", d.name, d.count(), unit, d.inputBytes);
            if (markdown) {
                System.out.printf(
                        "| row | ns/%s | min ns/%s | vs c-bulk | CPU ns/%s | CPU vs c-bulk | accepted |%n",
                        unit, unit, unit);
                System.out.println("|---|---:|---:|---:|---:|---:|---:|");
            } else {
                System.out.printf("%-14s %10s %10s %10s %10s %10s %10s%n",
                        "row", "ns/" + unit, "min", "vs c-bulk", "CPU ns", "CPU vs", "accepted");
            }
            double cCpu = median(cpu[0]) / n;
            for (int r = 0; r < ROWS.length; r++) {
                double med = median(t[r]) / n;
                double min = Arrays.stream(t[r]).min().getAsLong() / n;
                double c = median(cpu[r]) / n;
                String fmt = markdown
                        ? "| %s | %.1f | %.1f | %.2fx | %.1f | %.2fx | %d |%n"
                        : "%-14s %10.1f %10.1f %9.2fx %10.1f %9.2fx %10d%n";
                System.out.printf(fmt, ROWS[r], med, min, med / cMedian, c, c / cCpu, accepted[r]);
            }
        }
        System.out.printf("%nload average at end %s (sink %d)%n", loadavg(), sink);
    }

    /**
     * The median of 11 timings of a million calls, in ns of the thread's CPU time per call (after
     * a warm-up).
     */
    static double jniFloor(int what) {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long[] t = new long[11];
        long x = 0;
        for (int rep = -3; rep < t.length; rep++) {
            long t0 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < 1_000_000; i++) {
                switch (what) {
                    case 0:
                        x = CBulk.nop(x);
                        break;
                    case 1:
                        x += CBulk.newString().length();
                        break;
                    case 2:
                        x += Wurl.version().length();
                        break;
                    default:
                        x += new String(CBulk.newBytes(), StandardCharsets.UTF_8).length();
                        break;
                }
            }
            if (rep >= 0) {
                t[rep] = mx.getCurrentThreadCpuTime() - t0;
            }
        }
        sink += x;
        return median(t) / 1e6;
    }

    static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }
}
