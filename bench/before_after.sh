#!/usr/bin/env bash
# bench/before_after.sh OLD NEW - every module's benchmark rows from two builds in
# one call on one GPU, alternating old, new, old, new, so both see the same
# device, clocks and neighbours (METHOD.md); then bench/before_after.py pairs the
# rows and prints new / old per row, the best of each side's runs.
#
#   OLD, NEW: build folders holding bench_* (cmake --build <dir> --target <bench_*>)
#   BA_REPS   runs per side (default 2); BA_FILTER runs only the cases whose name
#             matches it (a bash regular expression: "sisi", "^(kcliques|maxclique)$");
#             logs and tables go to $OUT (or ./out)
#
# The cases: scan, radix sort, merge, QF lookup and build (with the Bloom
# filter's rows), SISI and MISI, k-cliques and maximum cliques; each is one
# benchmark program with a filter, its sizes and its environment.
set -uo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT/ba"
reps=${BA_REPS:-2}
cases=(
  "scan|bench_scan|scan_exclusive_sum_u32|--sizes=24,28|"
  "radix_keys|bench_radix_sort|radix_sort_keys_u32\$|--sizes=24,28|"
  "radix_pairs|bench_radix_sort|radix_sort_pairs_u64_u32\$|--sizes=24,28|"
  "merge|bench_merge|merge_keys|--sizes=24,28|"
  "qf_lookup|bench_qf|qf_lookup|--sizes=24|QF_BENCH_Q=23,28 QF_BENCH_FILLS=0.5,0.9"
  "qf_build|bench_qf|qf_build|--sizes=24|QF_BENCH_Q=23,28 QF_BENCH_FILLS=0.5,0.9"
  "sisi|bench_sets|sets\$|--sizes=24|SETS_SISI=10000000,100000000 SETS_RMAT=16"
  "misi|bench_sets|sets_all|--sizes=24|SETS_ALL_REPS=3"
  "kcliques|bench_kcliques|kcliques|--sizes=24|KC_REPS=3 KC_CAP_S=5 KC_GRAPHS=facebook_combined,ca-HepTh,rmat16 KC_K=4,6 KC_METHODS=pivot,bitset"
  "maxclique|bench_maxclique|maxclique\$|--sizes=24|MAXCLIQUE_RMAT=16,18 MAXCLIQUE_HOST_MAX=0 MAXCLIQUE_HEURISTICS=default"
)
for c in "${cases[@]}"; do
  IFS='|' read -r name prog filter sizes envs <<< "$c"
  [ -n "${BA_FILTER:-}" ] && [[ ! $name =~ $BA_FILTER ]] && continue
  for r in $(seq 1 "$reps"); do
    for side in old new; do
      dir=$old; [ $side = new ] && dir=$new
      start=$(date +%s%N)
      env $envs timeout 240 "$dir/$prog" --filter="$filter" $sizes --out="$OUT/ba/${name}_${side}_$r.md" \
        > "$OUT/ba/${name}_${side}_$r.log" 2>&1 || echo "$name $side run $r: exit $?" | tee -a "$OUT/ba/errors.txt"
      printf '%-12s %s run %d: %d ms\n' "$name" "$side" "$r" $(( ($(date +%s%N) - start) / 1000000 ))
    done
  done
done
python3 bench/before_after.py "$OUT/ba" | tee "$OUT/before_after.md"
# few files come back from a device call: the runs' logs and tables as one archive
tar -czf "$OUT/before_after_runs.tgz" -C "$OUT" ba && rm -rf "$OUT/ba"
