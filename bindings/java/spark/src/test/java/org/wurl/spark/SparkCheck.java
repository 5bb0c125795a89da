package org.wurl.spark;

import static org.apache.spark.sql.functions.call_udf;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;

import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.wurl.spark.examples.CanonLinks;

/**
 * The Java side of the Spark test, run by spark-submit (tests/run.sh): the wurl functions through
 * spark.sql on the Parquet rows, written to Parquet for tests/check_python.py to compare with
 * wurl.spark; the same functions through expr, call_udf, callUDF, the WurlFunctions columns and
 * the example, each equal to spark.sql's result; nulls, empty strings, the arities, bad rules and
 * DESCRIBE FUNCTION.
 *
 * <pre>
 * spark-submit --master local[2] --jars WURL_JAR,WURL_SPARK_JAR --class org.wurl.spark.SparkCheck \
 *   TEST_JAR ROWS_PARQUET OUT_PARQUET
 * </pre>
 */
public final class SparkCheck {
    private SparkCheck() {}

    /** The rules of the benchmark's wurl-rules row. */
    static final String RULES =
            "drop-fragment,strip-www,sort-query,strip-session-ids,drop-params=utm_*|fbclid|gclid";

    /** Other rules, for the rows whose i is odd in key_mixed. */
    static final String RULES2 = "drop-userinfo,normalize-escapes";

    /** The query whose result check_python.py compares with wurl.spark, column by column. */
    static final String QUERY =
            "SELECT i,"
                    + " wurl_canon(link, page) AS canon,"
                    + " wurl_canon(link) AS canon_self,"
                    + " wurl_resolve(page, link) AS resolved,"
                    + " wurl_key(link, '" + RULES + "') AS key,"
                    + " wurl_key(link,"
                    + " CASE WHEN i % 2 = 0 THEN '" + RULES + "' ELSE '" + RULES2 + "' END)"
                    + " AS key_mixed,"
                    + " wurl_key(link, '') AS key_empty,"
                    + " wurl_surt(link) AS surt,"
                    + " wurl_standard(link) AS standard,"
                    + " wurl_standard(link, page) AS standard_base"
                    + " FROM rows";

    public static void main(String[] args) {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: SparkCheck ROWS_PARQUET OUT_PARQUET");
        }
        SparkSession spark = SparkSession.builder().appName("wurl SparkCheck").getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        try {
            run(spark, args[0], args[1]);
        } finally {
            spark.stop();
        }
        System.out.println("SparkCheck: all checks passed");
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
        System.out.println("ok: " + what);
    }

    /** {@code SELECT expr} gives {@code want} (null: SQL's NULL). */
    static void expect(SparkSession spark, String expr, String want) {
        List<Row> rows = spark.sql("SELECT " + expr).collectAsList();
        Object got = rows.size() == 1 ? rows.get(0).get(0) : rows;
        check(java.util.Objects.equals(got, want), expr + " is " + want + " (got " + got + ")");
    }

    /** Whether {@code t} or one of its causes is an instance of {@code c} with {@code part}. */
    static boolean causedBy(Throwable t, Class<?> c, String part) {
        for (Throwable e = t; e != null; e = e.getCause()) {
            if (c.isInstance(e) && String.valueOf(e.getMessage()).contains(part)) {
                return true;
            }
        }
        return false;
    }

    static void run(SparkSession spark, String rowsPath, String outPath) {
        WurlFunctions.register(spark);
        // Registering again replaces the functions with equal ones.
        WurlFunctions.register(spark);

        // The README's example, through SQL.
        expect(spark, "wurl_canon('HTTP://Example.COM:80/a/./b/../c?q=\u00e9#f')",
                "http://example.com/a/c?q=%C3%A9#f");
        expect(spark, "wurl_canon('../c', 'http://Example.com:80/a/b/x')", "http://example.com/a/c");
        // Resolution alone, as `wurl resolve` prints it.
        expect(spark, "wurl_resolve('http://Example.com:80/a/b/x', '../c')",
                "http://Example.com:80/a/c");
        expect(spark, "wurl_surt('http://www.example.com/a')", "com,example,www)/a");
        // The docs/keys.md example.
        expect(spark, "wurl_key('http://www.Example.com/x;jsessionid=ABC?b=2&utm_source=x&a=1#f',"
                        + " 'drop-fragment,strip-www,sort-query,strip-session-ids,drop-params=utm_*')",
                "http://example.com/x?a=1&b=2");
        expect(spark, "wurl_standard('HTTP://Example.COM:80/a/./b/../c')", "http://example.com/a/c");
        // Null in, null out; empty is a value; invalid is null.
        expect(spark, "wurl_canon(NULL)", null);
        expect(spark, "wurl_canon('http://a/b', NULL)", "http://a/b"); // its own base
        expect(spark, "wurl_canon('', 'http://a/b')", "http://a/b");
        expect(spark, "wurl_canon('')", null); // its own base: invalid
        expect(spark, "wurl_canon('http://a:99999/')", null);
        expect(spark, "wurl_key('http://a/', NULL)", null);
        expect(spark, "wurl_key('http://a/#f', '')", "http://a/#f"); // no rule
        expect(spark, "wurl_surt(NULL)", null);
        expect(spark, "wurl_standard(NULL, 'http://a/')", null);
        expect(spark, "wurl_resolve('http://a/', NULL)", null);

        // The arities.
        try {
            spark.sql("SELECT wurl_canon('a', 'b', 'c')").collectAsList();
            check(false, "wurl_canon with three arguments fails");
        } catch (Exception e) {
            check(
                    String.valueOf(e.getMessage()).contains("wurl_canon"),
                    "wurl_canon with three arguments fails naming it: "
                            + e.getMessage().split("\n")[0]);
        }
        try {
            spark.sql("SELECT wurl_surt('a', 'b')").collectAsList();
            check(false, "wurl_surt with two arguments fails");
        } catch (Exception e) {
            check(String.valueOf(e.getMessage()).contains("wurl_surt"),
                    "wurl_surt with two arguments fails");
        }
        // A bad literal specification fails on the driver, when the query is analysed.
        try {
            spark.sql("SELECT wurl_key('http://a/', 'no-such-rule')");
            check(false, "a bad literal rules specification fails the analysis");
        } catch (Exception e) {
            check(
                    causedBy(e, IllegalArgumentException.class, "no-such-rule"),
                    "a bad literal rules specification fails the analysis: " + e);
        }
        // A bad one in a column fails the task that meets it.
        try {
            spark
                    .range(4)
                    .select(call_udf("wurl_key", lit("http://a/"),
                            expr("IF(id = 3, 'no-such-rule', '')")))
                    .collectAsList();
            check(false, "a bad rules specification in a column fails the job");
        } catch (Exception e) {
            check(
                    causedBy(e, IllegalArgumentException.class, "no-such-rule")
                            || String.valueOf(e.getMessage()).contains("no-such-rule"),
                    "a bad rules specification in a column fails the job naming it");
        }
        List<Row> described = spark.sql("DESCRIBE FUNCTION wurl_canon").collectAsList();
        check(
                described.toString().contains("The canonical URL of url resolved against base"),
                "DESCRIBE FUNCTION wurl_canon shows its usage");

        // The rows: four partitions, so that both task threads share the compiled rules.
        Dataset<Row> rows = spark.read().parquet(rowsPath).repartition(4);
        rows.createOrReplaceTempView("rows");
        long n = rows.count();
        check(n > 3000, n + " rows");
        Dataset<Row> sql = spark.sql(QUERY);
        sql.write().mode("overwrite").parquet(outPath);
        Dataset<Row> out = spark.read().parquet(outPath);
        out.cache();
        check(out.count() == n, "the query kept every row");
        long valid = out.where(col("canon").isNotNull()).count();
        long invalid = out.where(col("canon").isNull()).count();
        check(valid > 2900 && invalid > 10,
                valid + " valid, " + invalid + " null (invalid or null) rows");
        check(
                out.where(col("key").isNotNull().and(col("key").notEqual(col("canon")))).count()
                        > 100,
                "the rules change some keys");
        check(
                out.where(functions.not(col("key_empty").eqNullSafe(col("canon_self")))).count()
                        == 0,
                "wurl_key(link, '') is wurl_canon(link) on every row");

        // The other ways of calling them give what spark.sql gives.
        @SuppressWarnings("deprecation")
        Column callUdfOld = functions.callUDF("wurl_canon", col("link"), col("page"));
        Dataset<Row> api =
                CanonLinks.withKeys(rows)
                        .select(
                                col("i"),
                                col("link"),
                                col("canon").as("ex_canon"),
                                col("canon_udf").as("ex_canon_udf"),
                                col("key").as("ex_key"),
                                callUdfOld.as("callUDF"),
                                WurlFunctions.canon(col("link"), col("page")).as("f_canon"),
                                WurlFunctions.canon(col("link")).as("f_canon_self"),
                                WurlFunctions.resolve(col("page"), col("link")).as("f_resolved"),
                                WurlFunctions.key(col("link"), RULES).as("f_key"),
                                WurlFunctions.key(col("link"), lit("")).as("f_key_empty"),
                                WurlFunctions.surt(col("link")).as("f_surt"),
                                WurlFunctions.standard(col("link")).as("f_standard"),
                                WurlFunctions.standard(col("link"), col("page"))
                                        .as("f_standard_base"),
                                expr("wurl_canon(link)").as("e_canon_self"),
                                expr("wurl_standard(link, page)").as("e_standard_base"));
        Dataset<Row> both = out.join(api, "i");
        check(both.count() == n, "the API rows join the query's");
        String[][] same = {
            {"ex_canon", "canon"},
            {"ex_canon_udf", "canon"},
            {"callUDF", "canon"},
            {"f_canon", "canon"},
            {"f_canon_self", "canon_self"},
            {"e_canon_self", "canon_self"},
            {"f_resolved", "resolved"},
            {"f_key", "key"},
            {"f_key_empty", "key_empty"},
            {"f_surt", "surt"},
            {"f_standard", "standard"},
            {"f_standard_base", "standard_base"},
            {"e_standard_base", "standard_base"},
        };
        for (String[] p : same) {
            long differ = both.where(functions.not(col(p[0]).eqNullSafe(col(p[1])))).count();
            check(differ == 0, p[0] + " equals the query's " + p[1] + " on every row");
        }
        long exKey =
                both.where(
                                functions.not(
                                        col("ex_key")
                                                .eqNullSafe(
                                                        WurlFunctions.key(col("link"),
                                                                "drop-fragment,strip-www,sort-query"))))
                        .count();
        check(exKey == 0, "the example's key column is wurl_key with its rules");
        out.unpersist();
    }
}
