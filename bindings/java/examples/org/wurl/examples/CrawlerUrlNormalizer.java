package org.wurl.examples;

import java.net.MalformedURLException;
import java.net.URL;
import java.util.Map;
import org.wurl.Canonicalizer;
import org.wurl.Rules;

/**
 * A crawler's URL normalizer on wurl, in the shapes Java crawlers plug normalizers in (no crawler
 * library is needed to compile it; an adapter class in the crawler's plugin calls these methods):
 *
 * <ul>
 *   <li>crawler-commons {@code URLFilter.filter(String)} (as {@code BasicURLNormalizer}): the
 *       normalized URL, or {@code null} to drop it;
 *   <li>Apache Nutch {@code URLNormalizer.normalize(String urlString, String scope)}: the
 *       normalized URL, or {@link MalformedURLException} for one that cannot be normalized;
 *   <li>StormCrawler {@code URLFilter.filter(URL sourceUrl, Metadata sourceMetadata, String
 *       urlToFilter)}: an outlink resolved against its page and normalized, or {@code null}.
 * </ul>
 *
 * <p>The result is wurl's canonical URL with the dedup rules given (the same key wurl gives from
 * C, Python, the command line or Spark), so URLs seen by different tools deduplicate together.
 * One instance serves every thread.
 */
public final class CrawlerUrlNormalizer implements AutoCloseable {
    /** Rules a crawler commonly wants: no fragment, no session ids, no tracking parameters. */
    public static final String DEFAULT_RULES =
            "drop-fragment,strip-session-ids,drop-params=utm_*|fbclid|gclid";

    private final Rules rules;
    private final Canonicalizer canonicalizer;

    /** A normalizer with {@link #DEFAULT_RULES}, the query read as UTF-8. */
    public CrawlerUrlNormalizer() {
        this(DEFAULT_RULES, null);
    }

    /**
     * @param rules a wurl rules specification (docs/keys.md; "" for none)
     * @param charset the documents' charset label, or null for UTF-8
     * @throws IllegalArgumentException a bad rules specification or charset label
     */
    public CrawlerUrlNormalizer(String rules, String charset) {
        this.rules = Rules.compile(rules);
        this.canonicalizer = Canonicalizer.builder().rules(this.rules).charset(charset).build();
    }

    /** crawler-commons style: the normalized URL, or null to drop it (invalid). */
    public String filter(String urlString) {
        if (urlString == null) {
            return null;
        }
        return canonicalizer.canonicalize(urlString.trim());
    }

    /**
     * Nutch style: the normalized URL. The scope (a Nutch normalizer scope such as
     * {@code "outlink"}) changes nothing here.
     *
     * @throws MalformedURLException the URL is invalid (the message says why)
     */
    public String normalize(String urlString, String scope) throws MalformedURLException {
        String key = filter(urlString);
        if (key == null) {
            throw new MalformedURLException("invalid URL: " + urlString);
        }
        return key;
    }

    /**
     * StormCrawler style: {@code urlToFilter} (an outlink, maybe relative) resolved against its
     * page {@code sourceUrl} (null: none) and normalized; null to drop it.
     */
    public String filter(URL sourceUrl, Map<String, String[]> sourceMetadata, String urlToFilter) {
        if (urlToFilter == null) {
            return null;
        }
        return canonicalizer.canonicalize(
                urlToFilter, sourceUrl == null ? null : sourceUrl.toExternalForm());
    }

    @Override
    public void close() {
        rules.close();
    }

    /**
     * Prints the normalization of each argument: {@code PAGE LINK...} with {@code --page} first,
     * else each argument alone; {@code -} for a dropped URL.
     */
    public static void main(String[] args) throws MalformedURLException {
        try (CrawlerUrlNormalizer n = new CrawlerUrlNormalizer()) {
            if (args.length > 1 && args[0].equals("--page")) {
                URL page = new URL(args[1]);
                for (int i = 2; i < args.length; i++) {
                    String r = n.filter(page, Map.of(), args[i]);
                    System.out.println(r == null ? "-" : r);
                }
                return;
            }
            for (String a : args) {
                String r = n.filter(a);
                System.out.println(r == null ? "-" : r);
            }
        }
    }
}
