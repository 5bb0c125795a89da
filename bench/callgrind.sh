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
#             "kasztp node_files idn_synth pagewritten pagehard links_synth"
#   LIBS      space-separated rows of `wurl-bench --list`, default
#             "wurl-into wurl-handle wurl-rust ada url"
# Needs valgrind. Prints a Markdown table; the callgrind files stay in
# $CALLGRIND_DIR (default: a new temporary directory).
set -euo pipefail

cd "$(dirname "$0")/.."
datasets=${1:-"kasztp node_files idn_synth pagewritten pagehard links_synth"}
libs=${2:-"wurl-into wurl-handle wurl-rust ada url"}
dir=${CALLGRIND_DIR:-$(mktemp -d)}

command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 1; }
cargo build --release -q -p wurl-bench
profile=${CARGO_TARGET_DIR:-target}/release/wurl-profile

# The runner function of a row: `url` is rust-url's.
runner() {
    local name=${1//-/_}
    [ "$name" = url ] && name=rust_url
    echo "$name"
}

printf '| dataset |'
for l in $libs; do printf ' %s |' "$l"; done
printf '\n|---|'
for l in $libs; do printf -- '---:|'; done
printf '\n'
for d in $datasets; do
    printf '| %s |' "$d"
    for l in $libs; do
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
            printf ' ? |'
        else
            printf ' %d |' $((total / n))
        fi
    done
    printf '\n'
done
echo "(callgrind files in $dir)" >&2
