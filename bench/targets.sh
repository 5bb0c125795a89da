#!/usr/bin/env bash
# One run of everything the speed targets are read from, printed as
# Markdown ready to paste into bench/README.md:
#
# 1. instructions per URL (per link) of `floor`, `wurl-into`,
#    `wurl-into-utf8`, `wurl-handle` and `ada` on every dataset
#    (bench/callgrind.sh), with the ratios the targets are stated in;
# 2. the CLI with and without `--charset utf-8` (bench/charset.sh);
# 3. the timed benchmark, `wurl-bench --reps 11 --markdown`, every row and
#    dataset, and the same ratios from its medians.
#
# The targets: the handle path (`wurl-handle`) at most 0.85x ada and the
# bulk call (`wurl-into`) at most 0.40x ada on every dataset; the bulk call
# at most 2x the scan floor on kasztp; `--charset utf-8` within 2 % of no
# charset in the CLI and in the C bulk call. Each is marked met or not
# met, in instructions and in time (the times move with the machine's
# load; the counts do not).
#
# usage: bash bench/targets.sh
# Environment:
#   TARGETS_DIR     where the binaries, counts and outputs go (default
#                   target/bench-targets/<UTC time>); kept after the run
#   TARGETS_REPS    repetitions of the timed run (default 11)
#   CALLGRIND_JOBS  callgrind runs at a time (default 2)
#   CARGO_BUILD_JOBS  as for cargo
# Needs valgrind and awk. About 3 minutes on 2 cores besides the builds
# (the counts about 1.5, the timed run about 1); the builds of the CLI and
# the benchmark take 2-5 minutes each (the first one of the benchmark 3-4
# more: ada's C++), longer on a loaded machine. The timed run is alone,
# after the counts.
set -euo pipefail

cd "$(dirname "$0")/.."
out=${TARGETS_DIR:-target/bench-targets/$(date -u +%Y%m%dT%H%M%SZ)}
reps=${TARGETS_REPS:-11}
datasets="kasztp node_files idn_synth pagewritten pagehard hrefs links_synth"
rows="floor wurl-into wurl-into-utf8 wurl-handle ada"
mkdir -p "$out/bin"
command -v valgrind >/dev/null || { echo "targets.sh: valgrind is not installed" >&2; exit 1; }

# The binaries are built one package at a time (as callgrind.sh builds the
# benchmark) and copied: every part of the run uses the same files, and a
# copy sidesteps the page placement of one linked file (README.md).
t0=$(date +%s)
echo "targets.sh: building (release)" >&2
cargo build --release -q -p wurl-cli
cp "${CARGO_TARGET_DIR:-target}/release/wurl" "$out/bin/"
cargo build --release -q -p wurl-bench 2>/dev/null
for b in wurl-bench wurl-profile; do cp "${CARGO_TARGET_DIR:-target}/release/$b" "$out/bin/"; done
export WURL_BENCH_BIN=$out/bin

echo "targets.sh: callgrind, $(echo $datasets | wc -w) datasets x $(echo $rows | wc -w) rows" >&2
CALLGRIND_TSV="$out/instructions.tsv" CALLGRIND_DIR="$out/callgrind" \
    bash bench/callgrind.sh "$datasets" "$rows" >"$out/instructions.md"
echo "targets.sh: the CLI with and without --charset utf-8" >&2
CHARSET_TSV="$out/cli.tsv" bash bench/charset.sh --cli-only >"$out/cli.md"
echo "targets.sh: the timed run, --reps $reps" >&2
"$out/bin/wurl-bench" --reps "$reps" --markdown --data-dir bench/data >"$out/time.md"
t1=$(date +%s)

# The medians of the timed run as "dataset<TAB>row<TAB>ns" lines.
awk -F'|' '/^dataset / { d = $0; sub(/^dataset /, "", d); sub(/[: ].*/, "", d) }
    /^\| / && d != "" && $3 ~ /[0-9]/ { l = $2; gsub(/ /, "", l); ns = $3; gsub(/ /, "", ns); print d "\t" l "\t" ns }' \
    "$out/time.md" >"$out/time.tsv"

# The table of one measure: TSV lines "dataset row value [n]"; value/n is
# per URL (n absent: the value is already per URL).
table() {
    awk -F'\t' -v unit="$2" '
    function verdict(r, limit) { return sprintf("%.2fx %s", r, r <= limit ? "(met)" : "(**not met**)") }
    { v[$1, $2] = ($4 == "" ? $3 : $3 / $4); if ($3 == "?") v[$1, $2] = "?"; if (!seen[$1]++) order[++k] = $1 }
    END {
        printf "| dataset | floor | wurl-into | wurl-into-utf8 | wurl-handle | ada | handle / ada (≤ 0.85) | bulk / ada (≤ 0.40) | bulk / floor (≤ 2 on kasztp) | utf-8 / none (≤ 1.02) |\n"
        printf "|---|---:|---:|---:|---:|---:|---|---|---|---|\n"
        for (i = 1; i <= k; i++) {
            d = order[i]; f = v[d, "floor"]; b = v[d, "wurl-into"]; u = v[d, "wurl-into-utf8"]
            h = v[d, "wurl-handle"]; a = v[d, "ada"]
            if (f == "?" || b == "?" || u == "?" || h == "?" || a == "?" || a == 0 || f == 0 || b == 0) {
                printf "| %s | ? | ? | ? | ? | ? | ? | ? | ? | ? |\n", d; continue }
            fl = (d == "kasztp") ? verdict(b / f, 2) : sprintf("%.2fx", b / f)
            printf "| %s | " unit " | " unit " | " unit " | " unit " | " unit " | %s | %s | %s | %s |\n", d, f, b, u, h, a, \
                verdict(h / a, 0.85), verdict(b / a, 0.40), fl, verdict(u / b, 1.02)
        }
    }' "$1"
}

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git status --porcelain --untracked-files=no 2>/dev/null | head -c1)
{
    echo "### Targets: one run of \`bash bench/targets.sh\`"
    echo
    echo "Commit \`$commit\`${dirty:+ (with uncommitted changes)}, $(date -u '+%Y-%m-%d %H:%M UTC'), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(nproc) cores; $(((t1 - t0) / 60)) min $(((t1 - t0) % 60)) s. Files in \`$out\`."
    echo
    echo "Instructions per URL (per link on links_synth), callgrind, one pass (\`bench/callgrind.sh\`):"
    echo
    table "$out/instructions.tsv" "%d"
    echo
    echo "Time, median ns per URL (per link) of $reps repetitions (\`wurl-bench --reps $reps --markdown\`, $(sed -n 's/^load average (1 min) at start: /load average /p' "$out/time.md") at the start, $(sed -n 's/^load average (1 min) at the end: //p' "$out/time.md") at the end):"
    echo
    table "$out/time.tsv" "%.1f"
    echo
    echo "\`--charset utf-8\` in the CLI (\`bench/charset.sh\`):"
    echo
    sed -n '/^|/p' "$out/cli.md"
    echo
    # The verdicts in instructions, counted.
    verdicts=$({ table "$out/instructions.tsv" "%d"; sed -n '/^|/p' "$out/cli.md"; } | grep -o 'not met\|(met)\|| met |')
    echo "In instructions: $(grep -vc 'not' <<<"$verdicts") targets met, $(grep -c 'not' <<<"$verdicts") not met."
    echo
    echo "<details><summary>The timed run's full output</summary>"
    echo
    echo '```'
    cat "$out/time.md"
    echo '```'
    echo
    echo "</details>"
} | tee "$out/report.md"
