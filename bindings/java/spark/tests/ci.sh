#!/usr/bin/env bash
# The Spark part of CI's java step (.ci/run: java_spark_part), after the
# JUnit part; it installs what it needs itself:
#
#   - a JDK >= 17 (Spark 4 needs Java 17; Debian: openjdk-17-jdk-headless);
#   - target/python-venv (reused when there, else made with the pins of the
#     python step) with pyspark, pyarrow and the wurl-canon wheel built from
#     this tree (python/build-dev.sh);
#   - the wurl_spark and wurl_spark_tests jars in BUILD_DIR (CMake, the Spark
#     jars from that venv's pyspark);
#
# then the Spark test (tests/run.sh: two spark-submit runs, local[2]) and the
# Java benchmark's check (bench/java/run.sh --check: its wurl rows agree;
# nothing is timed).
#
#   bash bindings/java/spark/tests/ci.sh BUILD_DIR
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
build="${1:?usage: ci.sh BUILD_DIR}"
cd "$root"
export DEBIAN_FRONTEND=noninteractive

javac_major() {
  javac -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p' | head -1
}
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo -n)
apt=()
if [ "$(javac_major 2>/dev/null || true)" -lt 17 ] 2>/dev/null || ! command -v javac >/dev/null 2>&1; then
  [ -x /usr/lib/jvm/java-17-openjdk-amd64/bin/javac ] || apt+=(openjdk-17-jdk-headless)
  export JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
  export PATH="$JAVA_HOME/bin:$PATH"
fi
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || apt+=(python3-venv)
if ((${#apt[@]})); then
  echo "==> apt-get install ${apt[*]}"
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" apt-get install -y -q "${apt[@]}" </dev/null
fi
javac -version

venv="$root/target/python-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
# The python step's pins (.ci/run, step_python).
"$venv/bin/pip" install -q --disable-pip-version-check \
  'maturin==1.16.0' 'pytest==9.2.0' 'pyarrow==26.0.1' 'pandas==2.3.3' 'pyspark==4.3.0'
bash python/build-dev.sh "$venv"

cmake -S . -B "$build" -DWURL_SPARK_PYTHON="$venv/bin/python" >/dev/null
cmake --build "$build" -j"${WURL_CI_JOBS:-2}" --target wurl_spark wurl_spark_tests
bash "$here/run.sh" "$build" "$venv/bin/python"
bash bench/java/run.sh "$build" --check
