package org.wurl.spark.examples;

import static org.apache.spark.sql.functions.call_udf;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.wurl.spark.WurlFunctions;

/**
 * The links of pages as canonical URLs, from Java (no Scala): the wurl functions through {@code
 * expr} and {@code call_udf} on a Parquet file of (page, link) rows.
 *
 * <pre>
 * spark-submit --master local[2] --jars wurl-VERSION.jar,wurl-spark-VERSION.jar \
 *   --class org.wurl.spark.examples.CanonLinks wurl-spark-examples.jar links.parquet
 * </pre>
 */
public final class CanonLinks {
    private CanonLinks() {}

    /** The rows of {@code links} (columns page, link) with their keys added. */
    public static Dataset<Row> withKeys(Dataset<Row> links) {
        return links
                .withColumn("canon", expr("wurl_canon(link, page)"))
                .withColumn("canon_udf", call_udf("wurl_canon", col("link"), col("page")))
                .withColumn("surt", call_udf("wurl_surt", col("canon")))
                .withColumn("key", expr("wurl_key(link, 'drop-fragment,strip-www,sort-query')"));
    }

    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().appName("wurl CanonLinks").getOrCreate();
        WurlFunctions.register(spark);
        Dataset<Row> keys = withKeys(spark.read().parquet(args[0]));
        keys.select("page", "link", "canon", "surt", "key").show(5, false);
        long distinct = keys.where(col("canon").isNotNull()).select("canon").distinct().count();
        System.out.println("distinct canonical links: " + distinct);
        spark.stop();
    }
}
