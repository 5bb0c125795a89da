#!/usr/bin/env bash
# The Spark test of the wurl Spark functions, on a real local Spark
# (local[2]), with two Spark startups:
#
#   1. make_rows.py writes rows.parquet: (i, page, link) rows from
#      bench/data/links_synth.tsv and hostile rows;
#   2. spark-submit --class org.wurl.spark.SparkCheck (Java only, the two
#      jars on --jars): the functions through spark.sql, expr, call_udf,
#      callUDF and the example on those rows, the SQL result written to
#      java.parquet;
#   3. spark-submit check_python.py: the Python wurl.spark functions on the
#      same rows, compared row by row with java.parquet.
#
#   bash bindings/java/spark/tests/run.sh BUILD_DIR [PYTHON]
#
# BUILD_DIR is a CMake build with the wurl_java, wurl_spark and
# wurl_spark_tests jars built. PYTHON (default target/python-venv/bin/python)
# must have pyspark, pyarrow and the wurl-canon wheel (python/build-dev.sh),
# and a Java >= 17 must be on PATH (or JAVA_HOME).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
build="$(cd "${1:?usage: run.sh BUILD_DIR [PYTHON]}" && pwd)"
python="${2:-$root/target/python-venv/bin/python}"

jar() {
  local f
  f="$(ls "$build"/bindings/java/$1 2>/dev/null | head -1)"
  [ -n "$f" ] || { echo "run.sh: no $1 in $build/bindings/java (build the jars first)" >&2; exit 1; }
  printf '%s\n' "$f"
}
wurl_jar="$(jar 'wurl-[0-9]*.jar')"
spark_jar="$(jar 'spark/wurl-spark-[0-9]*.jar')"
tests_jar="$(jar 'spark/wurl-spark-tests.jar')"

"$python" -c 'import pyspark, pyarrow, wurl, wurl.spark' || {
  echo "run.sh: $python needs pyspark, pyarrow and wurl-canon (python/build-dev.sh)" >&2
  exit 1
}
SPARK_HOME="$("$python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')"
export SPARK_HOME
# The executors' Python is the driver's (the wurl.spark functions run there).
export PYSPARK_PYTHON="$python" PYSPARK_DRIVER_PYTHON="$python"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" "$here/make_rows.py" "$root/bench/data/links_synth.tsv" "$work/rows.parquet"

# Spark's INFO lines go to the log; the checks' own lines are shown, and the
# whole log when a run fails.
submit() {
  local log="$1"
  shift
  if ! "$SPARK_HOME/bin/spark-submit" --master 'local[2]' \
    --conf spark.ui.enabled=false --driver-memory 1g "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "run.sh: FAILED: spark-submit $*" >&2
    return 1
  fi
  grep -E '^(ok: |canon|resolved|key|surt|standard|check_python|SparkCheck)' "$log"
}

submit "$work/java.log" --jars "$wurl_jar,$spark_jar" \
  --class org.wurl.spark.SparkCheck "$tests_jar" "$work/rows.parquet" "$work/java.parquet"
submit "$work/python.log" "$here/check_python.py" "$work/rows.parquet" "$work/java.parquet"
echo "run.sh: the Spark functions on the JVM give the keys of wurl.spark"
