#!/usr/bin/env bash
# What an explicit `--charset utf-8` costs against no charset, counted by
# callgrind (instructions, which load and code layout do not move):
#
# - the CLI: the whole `wurl canon` process (`target/release/wurl`, start-up
#   included) on the first 3,000 URLs of kasztp, one per line, and on the
#   20,000 of hrefs, NUL-separated (`-z`: its URLs hold LF), each without
#   and with `--charset utf-8`;
# - the C bulk call: `wurl_canon_into` without a charset (`wurl-into`) and
#   with the label "utf-8" (`wurl-into-utf8`), through bench/callgrind.sh.
#
# Both inputs are the URLs as the benchmark feeds them (`wurl-profile
# --print0`: kasztp without its BOM, hrefs with its escapes decoded).
# The target (issue's): with the label within 2 % of without.
#
# usage: bench/charset.sh [--cli-only]
#   --cli-only  only the CLI rows (bench/targets.sh counts the C rows with
#               the other rows)
# Environment: CHARSET_TSV: also write the CLI counts to this file, one
# line per run: input, charset (none or utf-8), instructions, URLs.
# WURL_BENCH_BIN: run the `wurl` and `wurl-profile` of this directory,
# build nothing (so does callgrind.sh then).
# Prints Markdown tables. About a minute.
set -euo pipefail

cd "$(dirname "$0")/.."
cli_only=false
[ "${1:-}" = --cli-only ] && cli_only=true
command -v valgrind >/dev/null || { echo "charset.sh: valgrind is not installed" >&2; exit 1; }
if [ -n "${WURL_BENCH_BIN:-}" ]; then
    bin=$WURL_BENCH_BIN
else
    # One package at a time, as callgrind.sh builds the benchmark (built
    # together, their dependencies' features would be unified).
    cargo build --release -q -p wurl-cli
    cargo build --release -q -p wurl-bench
    bin=${CARGO_TARGET_DIR:-target}/release
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$bin/wurl-profile" --dataset kasztp --print0 >"$dir/kasztp.nul"
head -z -n 3000 "$dir/kasztp.nul" | tr '\0' '\n' >"$dir/kasztp-3000.txt"
"$bin/wurl-profile" --dataset hrefs --print0 >"$dir/hrefs.nul"

# Instructions of one `wurl canon` process.
run() {
    valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" "$bin/wurl" canon \
        --invalid skip --allow-invalid "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
verdict() { awk -v r="$1" 'BEGIN { print (r <= 1.02 ? "met" : "**not met**") }'; }

[ -n "${CHARSET_TSV:-}" ] && : >"$CHARSET_TSV"
echo "CLI, instructions of the whole process (callgrind):"
echo
echo "| input | URLs | no charset | \`--charset utf-8\` | per URL, no charset | per URL, utf-8 | utf-8 / none | within 2 % |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for input in kasztp-3000 hrefs; do
    case $input in
    kasztp-3000) args=(-i "$dir/kasztp-3000.txt"); n=3000 ;;
    hrefs) args=(-z -i "$dir/hrefs.nul"); n=$(tr -cd '\0' <"$dir/hrefs.nul" | wc -c) ;;
    esac
    none=$(run "${args[@]}")
    utf8=$(run --charset utf-8 "${args[@]}")
    if [ -n "${CHARSET_TSV:-}" ]; then
        printf '%s\tnone\t%s\t%s\n%s\tutf-8\t%s\t%s\n' "$input" "$none" "$n" "$input" "$utf8" "$n" >>"$CHARSET_TSV"
    fi
    r=$(ratio "$utf8" "$none")
    printf '| %s | %s | %s | %s | %s | %s | %sx | %s |\n' "$input" "$n" "$none" "$utf8" \
        "$((none / n))" "$((utf8 / n))" "$r" "$(verdict "$r")"
done

$cli_only && exit 0
echo
echo "C bulk call, instructions per URL (per link) of the runner (callgrind):"
echo
CALLGRIND_TSV="$dir/c.tsv" bash bench/callgrind.sh "kasztp hrefs pagehard links_synth" "wurl-into wurl-into-utf8" >/dev/null 2>&1
echo "| dataset | wurl-into | wurl-into-utf8 | utf-8 / none | within 2 % |"
echo "|---|---:|---:|---:|---|"
awk -F'\t' '{ t[$1, $2] = $3; n[$1] = $4; if (!seen[$1]++) order[++k] = $1 }
    END { for (i = 1; i <= k; i++) { d = order[i]; a = t[d, "wurl-into"]; b = t[d, "wurl-into-utf8"]
        if (a == "?" || b == "?") { printf "| %s | ? | ? | ? | ? |\n", d; continue }
        r = b / a; printf "| %s | %d | %d | %.3fx | %s |\n", d, a / n[d], b / n[d], r, (r <= 1.02 ? "met" : "**not met**") } }' "$dir/c.tsv"
