#!/usr/bin/env bash
# Instructions per URL (per link on links_synth) of each wurl path and of
# the peers, counted by callgrind: the inclusive cost of the runner
# function of `wurl-profile` (`run_*`, `links_*` in src/lib.rs) for one
# pass over the dataset, divided by the number of URLs.
#
# A count, not a time: it does not move with code layout, load or the
# other core, which makes it the way to see a change of a few per cent
# (two builds of the same code differ by up to 8 % in time). It says
# nothing of cache misses, mispredicted branches or stalls, so a change is
# judged by `wurl-bench` too (see README.md).
#
# usage: bench/callgrind.sh [DATASETS] [LIBS]
#   DATASETS  space-separated names or paths of files, default
#             "kasztp node_files idn_synth pagewritten pagehard hrefs links_synth"
#   LIBS      space-separated rows of `wurl-bench --list`, default
#             "floor wurl-into wurl-handle wurl-rust ada url"
# Needs valgrind. Prints a Markdown table: the count of each cell, and,
# when the row `ada` is counted, each wurl row's ratio to it in brackets;
# when `floor` and `wurl-into` are, a last column with wurl-into's ratio
# to the floor. The callgrind files stay in $CALLGRIND_DIR (default: a
# new temporary directory).
#
# Environment:
#   CALLGRIND_JOBS  how many callgrind runs at a time (default 2; each is
#                   one thread, and a count does not depend on the others)
#   CALLGRIND_TSV   also write the raw counts to this file, one line per
#                   cell: dataset, row, instructions, URLs (links)
#   WURL_BENCH_BIN  run the wurl-profile of this directory, built nothing
set -euo pipefail

cd "$(dirname "$0")/.."
datasets=${1:-"kasztp node_files idn_synth pagewritten pagehard hrefs links_synth"}
libs=${2:-"floor wurl-into wurl-handle wurl-rust ada url"}
dir=${CALLGRIND_DIR:-$(mktemp -d)}
jobs=${CALLGRIND_JOBS:-2}
mkdir -p "$dir"

command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 1; }
if [ -n "${WURL_BENCH_BIN:-}" ]; then
    profile=$WURL_BENCH_BIN/wurl-profile
else
    cargo build --release -q -p wurl-bench
    profile=${CARGO_TARGET_DIR:-target}/release/wurl-profile
fi

# The runner function of a row: `url` is rust-url's.
runner() {
    local name=${1//-/_}
    [ "$name" = url ] && name=rust_url
    echo "$name"
}

# One cell: writes "INSTRUCTIONS URLS" (or "? ?") to $dir/<dataset>.<row>.count.
cell() {
    local d=$1 l=$2 out n fn total
    # A dataset may be a path: its file name names the output.
    out="$dir/callgrind.${d##*/}.$l"
    # The URL count as wurl-profile reads the dataset.
    n=$(valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$profile" --lib "$l" --dataset "$d" --iters 1 2>/dev/null |
        sed -n 's/^[^:]*: 1 x \([0-9]*\) URLs.*/\1/p')
    case $d in *links*|*.tsv) fn=links_$(runner "$l") ;; *) fn=run_$(runner "$l") ;; esac
    total=$(callgrind_annotate --inclusive=yes "$out" 2>/dev/null |
        awk -v f="wurl_bench::$fn " '!done && index($0, f) && /\[/ { gsub(",", "", $1); print $1; done = 1 }')
    if [ -z "$n" ] || [ -z "$total" ] || [ "$n" -eq 0 ]; then
        echo "? ?" >"$dir/${d##*/}.$l.count"
    else
        echo "$total $n" >"$dir/${d##*/}.$l.count"
    fi
}

running=0
for d in $datasets; do
    for l in $libs; do
        cell "$d" "$l" &
        running=$((running + 1))
        if [ "$running" -ge "$jobs" ]; then
            wait -n || true
            running=$((running - 1))
        fi
    done
done
wait

# "TOTAL URLS" of a cell.
count() { cat "$dir/${1##*/}.$2.count"; }

has() { case " $libs " in *" $1 "*) return 0 ;; esac; return 1; }

# A / B to two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

[ -n "${CALLGRIND_TSV:-}" ] && : >"$CALLGRIND_TSV"
printf '| dataset |'
for l in $libs; do printf ' %s |' "$l"; done
has floor && has wurl-into && printf ' wurl-into / floor |'
printf '\n|---|'
for l in $libs; do printf -- '---:|'; done
has floor && has wurl-into && printf -- '---:|'
printf '\n'
for d in $datasets; do
    printf '| %s |' "${d##*/}"
    ada=""
    has ada && read -r ada_t ada_n < <(count "$d" ada) && [ "$ada_t" != "?" ] && ada=$ada_t
    for l in $libs; do
        read -r t n < <(count "$d" "$l")
        [ -n "${CALLGRIND_TSV:-}" ] && printf '%s\t%s\t%s\t%s\n' "${d##*/}" "$l" "$t" "$n" >>"$CALLGRIND_TSV"
        if [ "$t" = "?" ]; then
            printf ' ? |'
        elif [ -n "$ada" ] && [ "$l" != ada ] && [ "${l#wurl}" != "$l" ]; then
            printf ' %s (%sx) |' "$((t / n))" "$(ratio "$t" "$ada")"
        else
            printf ' %s |' "$((t / n))"
        fi
    done
    if has floor && has wurl-into; then
        read -r ft fn_ < <(count "$d" floor)
        read -r it in_ < <(count "$d" wurl-into)
        if [ "$ft" = "?" ] || [ "$it" = "?" ]; then printf ' ? |'; else
            printf ' %sx |' "$(ratio "$it" "$ft")"
        fi
    fi
    printf '\n'
done
echo "(callgrind files in $dir)" >&2
