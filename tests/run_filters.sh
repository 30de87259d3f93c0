#!/usr/bin/env bash
# tests/run_filters.sh - build gpuamq_tests (unless --bin=DIR) and run a list
# of test jobs in parallel on the GPU, each in its own process with a timeout:
#   tests/run_filters.sh [--bin=DIR] [--timeout=S] [--max-log2=N] JOB...
# A JOB is FILTER or FILTER@METHODS (METHODS goes to $GPUAMQ_KC_METHODS, e.g.
# kcliques.cuda_data_graphs_match_reference@bitset). Logs: $OUT/jobs.log (all
# of them, one after another); a line per job last.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
bin= tmo=240 maxlog=20
jobs=()
for a in "$@"; do
  case $a in
    --bin=*) bin=${a#*=} ;;
    --timeout=*) tmo=${a#*=} ;;
    --max-log2=*) maxlog=${a#*=} ;;
    *) jobs+=("$a") ;;
  esac
done
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/device.txt"
if [ -z "$bin" ]; then
  export PATH=/usr/local/cuda/bin:$PATH
  t0=$(date +%s)
  { cmake --preset default -DGPUAMQ_BUILD_BENCH=OFF && cmake --build build -j "$(nproc)" --target gpuamq_tests; } \
    > "$OUT/build.log" 2>&1 || { tail -n 40 "$OUT/build.log"; exit 1; }
  echo "build: $(( $(date +%s) - t0 )) s"
  bin=build
fi
export GPUAMQ_DATA_DIR=${GPUAMQ_DATA_DIR:-$PWD/.data}
mkdir -p "$OUT/jobs"
i=0
for j in "${jobs[@]}"; do
  i=$((i + 1))
  f=${j%%@*} m=
  [ "$f" != "$j" ] && m=${j#*@}
  ( t0=$(date +%s)
    GPUAMQ_KC_METHODS=$m timeout "$tmo" "$bin/gpuamq_tests" --filter="$f" --max-log2="$maxlog" > "$OUT/jobs/$i.log" 2>&1
    rc=$?
    echo "$rc $(( $(date +%s) - t0 ))" > "$OUT/jobs/$i.rc" ) &
done
wait
: > "$OUT/jobs.log"
i=0
for j in "${jobs[@]}"; do
  i=$((i + 1))
  { echo "===== $j (rc, s: $(cat "$OUT/jobs/$i.rc"))"; cat "$OUT/jobs/$i.log"; } >> "$OUT/jobs.log"
done
echo "== failures"
grep -hE "FAIL|CHECK|want|error" "$OUT"/jobs/*.log | head -n 60
echo "== jobs (rc, seconds, last line)"
i=0
for j in "${jobs[@]}"; do
  i=$((i + 1))
  printf '%-70s %s  %s\n' "$j" "$(cat "$OUT/jobs/$i.rc")" "$(tail -n 1 "$OUT/jobs/$i.log")"
done
rm -rf "$OUT/jobs"
