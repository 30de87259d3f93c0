#!/usr/bin/env bash
# bench/gpm_sm.sh - subgraph matching on three queries standing in for GAMMA's
# Fig. 21 (paper 003; its query drawings are not in the text): SM1 a tailed
# triangle (4 vertices), SM2 a house (5), SM3 a triangular prism (6), each
# labelled (query vertex v has label v mod 5) on R-MAT 18 with 5 random labels
# and unlabelled on facebook_combined. CUDA's count time from a prepared graph
# (the median of 3 runs, each its own process) beside one HOST run.
#
#   bench/gpm_sm.sh GPM RMAT_C FACEBOOK [OUTDIR]
#
# GPM: the gpm CLI built with CUDA; RMAT_C: ../shared/tools/rmat.c;
# FACEBOOK: facebook_combined.txt; OUTDIR (default /tmp/gpm_sm) keeps the
# graphs, the queries and every run's output (log.txt). HOST runs stop after
# HOST_LIMIT seconds (default 120): "-" then.
set -u
gpm=${1:?usage: gpm_sm.sh GPM RMAT_C FACEBOOK [OUTDIR]} rmat_c=${2:?} fb=${3:?} out=${4:-/tmp/gpm_sm}
limit=${HOST_LIMIT:-120}
mkdir -p "$out"
log=$out/log.txt
: > "$log"
cc -O2 -o "$out/rmat" "$rmat_c" -lm || exit 1
[ -s "$out/r18.txt" ] || "$out/rmat" 18 16 1 -e > "$out/r18.txt"
printf '0 1\n1 2\n2 0\n2 3\n' > "$out/q_sm1.txt"
printf '0 1\n1 2\n2 3\n3 0\n0 4\n1 4\n' > "$out/q_sm2.txt"
printf '0 1\n1 2\n2 0\n3 4\n4 5\n5 3\n0 3\n1 4\n2 5\n' > "$out/q_sm3.txt"
for q in sm1 sm2 sm3; do
  awk '{print $1, $1 % 5; print $2, $2 % 5}' "$out/q_$q.txt" | sort -u -n > "$out/ql_$q.txt"
done
. "$(dirname "$0")/gpm_runs.sh" # median, runs
echo "| graph | query | CUDA prepared (ms) | HOST (ms) | matches (CUDA) | matches (HOST) |"
echo "|---|---|---|---|---|---|"
for g in r18 facebook; do
  for q in sm1 sm2 sm3; do
    if [ $g = r18 ]; then set -- "$out/r18.txt" --random-labels 5 match "$out/q_$q.txt" --query-labels "$out/ql_$q.txt"
    else set -- "$fb" match "$out/q_$q.txt"; fi
    c=$(runs 3 600 "$@" --backend cuda --prepare)
    h=$(runs 1 "$limit" "$@" --backend host)
    hm=${h% *}
    [ "$hm" = nan ] && hm="> $((limit * 1000))"
    echo "| $g | $q | ${c% *} | $hm | ${c#* } | ${h#* } |"
  done
done
echo "(every run's output: $log)"
