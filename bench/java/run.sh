#!/usr/bin/env bash
# Builds and runs the Java benchmark (bench/java/src, org.wurl.bench.JavaBench):
# the bench-only native library (bench/java/native, cargo --release), the
# benchmark's classes (javac --release 17) against the wurl jar of a CMake
# build, then `java ... JavaBench ARGS`.
#
#   bash bench/java/run.sh BUILD_DIR [JavaBench options]
#   bash bench/java/run.sh build --check           the wurl rows agree; times nothing
#   bash bench/java/run.sh build --reps 21 --markdown
#
# JAVA (default: java on PATH) is the JVM that runs it; JAVA_OPTS its
# options (default -Xms1g -Xmx1g, so that the heap does not grow during
# the samples).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$(cd "${1:?usage: run.sh BUILD_DIR [options]}" && pwd)"
shift
wurl_jar="$(ls "$build"/bindings/java/wurl-[0-9]*.jar 2>/dev/null | head -1)"
[ -n "$wurl_jar" ] || { echo "bench/java/run.sh: build the wurl_java target in $build first" >&2; exit 1; }
target="${CARGO_TARGET_DIR:-$root/target}"
(cd "$root" && cargo build --release -q -p wurl-jni-bench)
classes="$build/bench-java-classes"
rm -rf "$classes"
mkdir -p "$classes"
javac --release 17 -encoding UTF-8 -Xlint:all -Werror -cp "$wurl_jar" -d "$classes" "$here"/src/org/wurl/bench/*.java
# shellcheck disable=SC2086
exec "${JAVA:-java}" ${JAVA_OPTS:--Xms1g -Xmx1g} -Dwurl.bench.lib="$target/release/libwurl_jni_bench.so" \
  -cp "$wurl_jar:$classes" org.wurl.bench.JavaBench --data-dir "$root/bench/data" "$@"
