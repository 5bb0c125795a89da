#!/bin/sh
# wurl_pairs.sh WURL — the RDD.pipe side of spark_canon.py.
#
# Reads lines `PAGE<TAB>LINK` (PAGE `\N` = no page: the link is its own
# base) and writes, for each, the canonical URL of LINK resolved against PAGE
# as `wurl canon` prints it (an empty line when invalid), in input order.
# Links of one page are adjacent in a crawl, so each run of lines with the
# same page is one `wurl canon --base=PAGE -- LINK...` (at most 256 links a
# run). Links go as arguments, which `wurl canon` takes as they are.
# Uses only shell built-ins besides WURL (RDD.pipe gives it an empty
# environment).
wurl=$1
shift
tab=$(printf '\t')
cur=
n=0
flush() {
  [ "$n" -gt 0 ] || return 0
  if [ "$cur" = '\N' ]; then
    "$wurl" canon -q -- "$@"
  else
    "$wurl" canon -q --base="$cur" -- "$@"
  fi
  rc=$?
  # 1 = some URL was invalid (its line is empty); anything else is an error.
  [ "$rc" -le 1 ] || exit "$rc"
}
while IFS= read -r line; do
  p=${line%%"$tab"*}
  l=${line#*"$tab"}
  if [ "$n" -gt 0 ] && { [ "$p" != "$cur" ] || [ "$n" -ge 256 ]; }; then
    flush "$@"
    set --
    n=0
  fi
  cur=$p
  set -- "$@" "$l"
  n=$((n + 1))
done
flush "$@"
