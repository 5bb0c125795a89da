package org.wurl.spark;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.wurl.Rules;
import org.wurl.Wurl;
import org.wurl.WurlException;
import scala.Function1;
import scala.jdk.javaapi.CollectionConverters;
import scala.collection.immutable.Seq;

/**
 * wurl as Spark SQL functions.
 *
 * <p>{@link #register(SparkSession)} registers, as temporary functions of the session:
 *
 * <ul>
 *   <li>{@code wurl_canon(url)} and {@code wurl_canon(url, base)}: the canonical URL of {@code url}
 *       resolved against {@code base} ({@link Wurl#canonicalize(String, String)}); a null base, or
 *       no base, means the URL is its own base;
 *   <li>{@code wurl_resolve(base, url)}: {@code url} resolved against {@code base}, not
 *       canonicalized ({@link Wurl#resolve(String, String)}; what {@code wurl resolve} prints and
 *       Python's {@code wurl.spark.resolve} gives; a null base: the URL is its own base);
 *   <li>{@code wurl_key(url, rules)}: the canonical URL with the dedup rules of the specification
 *       {@code rules} applied ({@link Rules#key(String)}; docs/keys.md);
 *   <li>{@code wurl_surt(url)}: the SURT form of the canonical URL ({@link Wurl#surt(String)});
 *   <li>{@code wurl_standard(url)} and {@code wurl_standard(url, base)}: the URL Standard model
 *       ({@link Wurl#standard(String, String)}).
 * </ul>
 *
 * <p>Every function returns a string: null when any argument is null (SQL's rule for a missing
 * value; a null base is the exception above: no base), null when the URL is invalid, and null when
 * the URL or the base is longer than {@link Wurl#MAX_INPUT_LEN} bytes in UTF-8 (as in the Python
 * {@code wurl.spark} functions: one such row does not fail the job). An empty string is a value,
 * not a missing one: {@code wurl_canon('', page)} is the page's canonical URL and {@code
 * wurl_key(url, '')} applies no rule.
 *
 * <p>A rules specification is compiled once per distinct string in each JVM (driver and
 * executors) and the compiled {@link Rules} is shared by the tasks of that JVM ({@code Rules} is
 * thread-safe). When the specification is a literal, it is compiled when the query is analysed, so
 * a bad one fails the query on the driver with an {@link IllegalArgumentException} before any task
 * runs; a bad one in a column fails the task that meets it with that exception.
 *
 * <p>Spark's UDF registration keeps one function per name: registering a second arity replaces the
 * first. The functions with two arities are registered through the session's function registry
 * with one builder that picks the UDF by the number of arguments, which the classic (non-Connect)
 * {@code SparkSession} allows.
 *
 * <p>The executors need both jars on their class path (the wurl jar, with its native library, and
 * this one): {@code spark-submit --jars wurl-VERSION.jar,wurl-spark-VERSION.jar}.
 */
public final class WurlFunctions {
    private WurlFunctions() {}

    /** The name of {@code wurl_canon(url[, base])}. */
    public static final String CANON = "wurl_canon";

    /** The name of {@code wurl_resolve(base, url)}. */
    public static final String RESOLVE = "wurl_resolve";

    /** The name of {@code wurl_key(url, rules)}. */
    public static final String KEY = "wurl_key";

    /** The name of {@code wurl_surt(url)}. */
    public static final String SURT = "wurl_surt";

    /** The name of {@code wurl_standard(url[, base])}. */
    public static final String STANDARD = "wurl_standard";

    /**
     * Registers the functions on {@code spark} (as temporary functions: for this session, until it
     * ends or they are replaced). Registering again replaces them with equal ones.
     *
     * @param spark a classic {@code SparkSession}
     * @throws NullPointerException when {@code spark} is null
     */
    public static void register(SparkSession spark) {
        Objects.requireNonNull(spark, "spark");
        FunctionRegistry registry = spark.sessionState().functionRegistry();
        registerArities(spark, registry, CANON,
                "_FUNC_(url[, base]) - The canonical URL of url resolved against base (a null"
                        + " base, or none: url is its own base); null when url is null or invalid.",
                url -> url == null ? null : orNull(() -> Wurl.canonicalize(url)),
                (url, base) -> url == null ? null : orNull(() -> Wurl.canonicalize(url, base)));
        registerArities(spark, registry, STANDARD,
                "_FUNC_(url[, base]) - The URL Standard model's serialization of url resolved"
                        + " against base (a null base, or none: no base); null when url is null or"
                        + " invalid.",
                url -> url == null ? null : orNull(() -> Wurl.standard(url)),
                (url, base) -> url == null ? null : orNull(() -> Wurl.standard(url, base)));
        UDF2<String, String, String> resolve =
                (base, url) -> url == null ? null : orNull(() -> Wurl.resolve(base, url));
        spark.udf().register(RESOLVE, resolve, DataTypes.StringType);
        UDF1<String, String> surt = url -> url == null ? null : orNull(() -> Wurl.surt(url));
        spark.udf().register(SURT, surt, DataTypes.StringType);
        UDF2<String, String, String> rulesKey = (url, spec) -> url == null || spec == null
                ? null
                : orNull(() -> RulesCache.get(spec).key(url));
        spark.udf().register(KEY, rulesKey, DataTypes.StringType);
        // A literal specification is compiled now, on the driver: a bad one fails the query here.
        FunctionIdentifier key = registered(registry, KEY);
        Function1<Seq<Expression>, Expression> keyBuilder = builder(registry, key);
        registry.registerFunction(key,
                info(KEY,
                        "_FUNC_(url, rules) - The canonical URL of url with the dedup rules of the"
                                + " specification rules applied (docs/keys.md); null when an"
                                + " argument is null or url is invalid."),
                children -> {
                    if (children.size() == 2 && children.apply(1) instanceof Literal) {
                        Object spec = ((Literal) children.apply(1)).value();
                        if (spec != null) {
                            RulesCache.get(spec.toString());
                        }
                    }
                    return keyBuilder.apply(children);
                });
    }

    /** {@code wurl_canon(url)} as a column; needs {@link #register} first. */
    public static Column canon(Column url) {
        return functions.call_udf(CANON, url);
    }

    /** {@code wurl_canon(url, base)} as a column; needs {@link #register} first. */
    public static Column canon(Column url, Column base) {
        return functions.call_udf(CANON, url, base);
    }

    /** {@code wurl_resolve(base, url)} as a column; needs {@link #register} first. */
    public static Column resolve(Column base, Column url) {
        return functions.call_udf(RESOLVE, base, url);
    }

    /** {@code wurl_key(url, rules)} as a column; needs {@link #register} first. */
    public static Column key(Column url, Column rules) {
        return functions.call_udf(KEY, url, rules);
    }

    /**
     * {@code wurl_key(url, 'rules')} with a literal specification as a column; needs {@link
     * #register} first.
     */
    public static Column key(Column url, String rules) {
        return functions.call_udf(KEY, url, functions.lit(Objects.requireNonNull(rules, "rules")));
    }

    /** {@code wurl_surt(url)} as a column; needs {@link #register} first. */
    public static Column surt(Column url) {
        return functions.call_udf(SURT, url);
    }

    /** {@code wurl_standard(url)} as a column; needs {@link #register} first. */
    public static Column standard(Column url) {
        return functions.call_udf(STANDARD, url);
    }

    /** {@code wurl_standard(url, base)} as a column; needs {@link #register} first. */
    public static Column standard(Column url, Column base) {
        return functions.call_udf(STANDARD, url, base);
    }

    /**
     * Registers {@code one} and {@code two} under {@code name}: each through {@code spark.udf()},
     * which builds Spark's own UDF expression for it, then one builder that hands the arguments to
     * the one of their number.
     */
    private static void registerArities(
            SparkSession spark,
            FunctionRegistry registry,
            String name,
            String usage,
            UDF1<String, String> one,
            UDF2<String, String, String> two) {
        spark.udf().register(name, one, DataTypes.StringType);
        FunctionIdentifier id = registered(registry, name);
        Function1<Seq<Expression>, Expression> b1 = builder(registry, id);
        spark.udf().register(name, two, DataTypes.StringType);
        Function1<Seq<Expression>, Expression> b2 = builder(registry, id);
        registry.registerFunction(
                id,
                info(name, usage),
                children -> {
                    switch (children.size()) {
                        case 1:
                            return b1.apply(children);
                        case 2:
                            return b2.apply(children);
                        default:
                            throw WurlFunctions.<RuntimeException>unchecked(
                                    wrongNumberOfArguments(name, children.size()));
                    }
                });
    }

    /**
     * Spark's error for a call with a wrong number of arguments, saying "[1, 2]" as Spark does for
     * a function of two arities (the UDF's own builder would say 2).
     */
    private static AnalysisException wrongNumberOfArguments(String name, int actual) {
        java.util.Map<String, String> params = new java.util.LinkedHashMap<>();
        params.put("functionName", "`" + name + "`");
        params.put("expectedNum", "[1, 2]");
        params.put("actualNum", Integer.toString(actual));
        params.put("docroot", "https://spark.apache.org/docs/latest");
        return new AnalysisException(
                "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(params)));
    }

    /**
     * Throws {@code e}, a checked exception, from a Scala function (which declares none): the
     * analyzer expects Spark's own {@code AnalysisException}, a checked one in Java.
     */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E unchecked(Throwable e) throws E {
        throw (E) e;
    }

    /**
     * {@code call}'s result, or null when an input is longer than {@link Wurl#MAX_INPUT_LEN} bytes:
     * such a row is null, as in the Python {@code wurl.spark} functions, rather than one row
     * failing the whole job. Any other failure (an internal error) fails the task.
     */
    private static String orNull(Supplier<String> call) {
        try {
            return call.get();
        } catch (WurlException e) {
            if (e.status() == WurlException.TOO_LONG) {
                return null;
            }
            throw e;
        }
    }

    /**
     * The identifier under which {@code spark.udf()} registered the temporary function {@code
     * name}: taken from the registry rather than made here, because its form changes between Spark
     * versions (a bare name in Spark 3; in Spark 4.3, qualified with the session namespace and the
     * system catalog).
     */
    private static FunctionIdentifier registered(FunctionRegistry registry, String name) {
        FunctionIdentifier found = null;
        scala.collection.Iterator<FunctionIdentifier> it = registry.listFunction().iterator();
        while (it.hasNext()) {
            FunctionIdentifier f = it.next();
            if (f.funcName().equalsIgnoreCase(name) && (found == null || f.catalog().isDefined())) {
                found = f;
            }
        }
        if (found == null) {
            throw new IllegalStateException("the function " + name + " is not in the registry");
        }
        return found;
    }

    private static Function1<Seq<Expression>, Expression> builder(
            FunctionRegistry registry, FunctionIdentifier id) {
        scala.Option<Function1<Seq<Expression>, Expression>> b = registry.lookupFunctionBuilder(id);
        if (b.isEmpty()) {
            throw new IllegalStateException("the function " + id + " is not in the registry");
        }
        return b.get();
    }

    /** What {@code DESCRIBE FUNCTION name} shows. */
    private static ExpressionInfo info(String name, String usage) {
        return new ExpressionInfo(
                WurlFunctions.class.getName(), null, name, usage, "", "", "", "", "", "",
                "java_udf");
    }

    /**
     * Compiled rules by specification, shared by the tasks of this JVM. Bounded: past {@link #MAX}
     * distinct specifications (a column of them), a new one is compiled for its call and not kept,
     * so that memory stays bounded whatever the data.
     */
    static final class RulesCache {
        private RulesCache() {}

        static final int MAX = 256;

        private static final ConcurrentHashMap<String, Rules> CACHE = new ConcurrentHashMap<>();

        /** The compiled rules of {@code spec}; IllegalArgumentException for a bad one. */
        static Rules get(String spec) {
            Rules r = CACHE.get(spec);
            if (r != null) {
                return r;
            }
            Rules compiled = Rules.compile(spec);
            if (CACHE.size() >= MAX) {
                // Not kept: the Cleaner frees it once the caller is done with it.
                return compiled;
            }
            Rules prev = CACHE.putIfAbsent(spec, compiled);
            if (prev != null) {
                compiled.close();
                return prev;
            }
            return compiled;
        }
    }
}
