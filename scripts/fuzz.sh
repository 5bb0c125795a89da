#!/usr/bin/env bash
# The CI fuzz step.
#
#   bash scripts/fuzz.sh            # 90 s per target
#   FUZZ_SECONDS=15 bash scripts/fuzz.sh
#   FUZZ_SECONDS=0 bash scripts/fuzz.sh   # seed and replay only
#   FUZZ_NO_NIGHTLY=1 bash scripts/fuzz.sh # the stable path even with nightly
#
# 1. Writes every input of the conformance suite into fuzz/corpus/<target>/
#    as seeds and replays the conformance inputs and the fuzz corpus
#    (fuzz/corpus/*, fuzz/seeds, fuzz/regressions) through every invariant:
#    `cargo test --test invariants corpus_replay`, on the stable toolchain.
# 2. Installs cargo-fuzz when it is missing.
# 3. Fuzzes each target (parse, resolve, canonicalize, c_abi, differential,
#    rules, recognize) for
#    FUZZ_SECONDS, two at a time (one per core): with AddressSanitizer when a
#    nightly toolchain is installed, otherwise on stable without a sanitizer
#    (`cargo fuzz run -s none` builds on stable). `-len_control=0` lets
#    libFuzzer try long inputs from the start (its default length growth
#    stayed near 300 bytes in a 90 s run), up to `-max_len` (16 KiB); the
#    input format (tests/common/invariants.rs, `FuzzCase`) lets every byte
#    value appear in the input, the base and the charset; `rules` reads a
#    rules specification, a newline and a URL (fuzz/fuzz_targets/rules.rs);
#    `recognize` reads a URL's octets as they are and compares the
#    recognizer's block runs with its octet loops, seeded also from
#    fuzz/seeds-recognize (dataset lines, runs ending at block edges).
#
# Exits non-zero when the replay fails or any target finds a crash, a leak,
# a timeout or an invariant violation; the failing input is printed (and left
# in fuzz/artifacts/<target>/). Turn each into a regression: copy it to
# fuzz/regressions/ and add a test to tests/adversarial.rs.
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZ_SECONDS="${FUZZ_SECONDS:-90}"
TARGETS=(parse resolve canonicalize c_abi differential rules recognize)

LOGS=fuzz/artifacts/logs
mkdir -p "$LOGS" fuzz/seeds fuzz/regressions

echo "== fuzz: seed corpus and replay (conformance inputs + fuzz corpus)"
if ! WURL_FUZZ_SEEDS=1 cargo test --test invariants corpus_replay -- --nocapture \
    >"$LOGS/replay.log" 2>&1; then
    tail -80 "$LOGS/replay.log"
    echo "fuzz: corpus replay FAILED"
    exit 1
fi
grep -E "corpus replay|test result" "$LOGS/replay.log"

if [ "$FUZZ_SECONDS" = "0" ]; then
    echo "fuzz: FUZZ_SECONDS=0, no fuzzing"
    exit 0
fi

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== fuzz: installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi

if [ -z "${FUZZ_NO_NIGHTLY:-}" ] && rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    TOOLCHAIN=(+nightly)
    SANITIZER=(--sanitizer address)
    echo "== fuzz: nightly toolchain found: AddressSanitizer"
else
    TOOLCHAIN=()
    SANITIZER=(--sanitizer none)
    echo "== fuzz: no nightly toolchain: stable, no sanitizer"
fi
FLAGS=(--debug-assertions "${SANITIZER[@]}")

echo "== fuzz: building ${TARGETS[*]}"
cargo "${TOOLCHAIN[@]}" fuzz build "${FLAGS[@]}"

run_target() {
    local t=$1
    mkdir -p "fuzz/corpus/$t"
    local extra=()
    [ -d "fuzz/seeds-$t" ] && extra=("fuzz/seeds-$t")
    cargo "${TOOLCHAIN[@]}" fuzz run "${FLAGS[@]}" "$t" \
        "fuzz/corpus/$t" fuzz/seeds fuzz/regressions "${extra[@]}" -- \
        -max_total_time="$FUZZ_SECONDS" \
        -dict=fuzz/url.dict \
        -max_len=16384 \
        -len_control=0 \
        -timeout=25 \
        -rss_limit_mb=4096 \
        -print_final_stats=1 \
        >"$LOGS/$t.log" 2>&1
}

failed=()
for ((i = 0; i < ${#TARGETS[@]}; i += 2)); do
    pids=()
    names=()
    for t in "${TARGETS[@]:i:2}"; do
        echo "== fuzz: $t for ${FUZZ_SECONDS}s"
        run_target "$t" &
        pids+=($!)
        names+=("$t")
    done
    for k in "${!pids[@]}"; do
        if ! wait "${pids[$k]}"; then
            failed+=("${names[$k]}")
        fi
    done
done

for t in "${TARGETS[@]}"; do
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$LOGS/$t.log" | grep -Eo '[0-9]+$' || echo '?')
    rate=$(grep -Eo 'exec/s: *[0-9]+' "$LOGS/$t.log" | tail -1 | grep -Eo '[0-9]+$' || echo '?')
    echo "fuzz: $t: $runs runs, $rate exec/s, corpus $(find "fuzz/corpus/$t" -type f | wc -l) files"
done

if [ ${#failed[@]} -gt 0 ]; then
    for t in "${failed[@]}"; do
        echo "================ fuzz: $t FAILED ================"
        grep -E -A12 "panicked|ERROR: |==[0-9]+==|invariant violated" "$LOGS/$t.log" | head -60 || true
        grep -E "^(Base64|artifact_prefix|Test unit written)" "$LOGS/$t.log" || true
        tail -5 "$LOGS/$t.log"
    done
    echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}"
    exit 1
fi
echo "fuzz: all ${#TARGETS[@]} targets passed (${FUZZ_SECONDS}s each)"
