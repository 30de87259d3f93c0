#!/usr/bin/env bash
# session 18, call 6: the bitmaps' and HASH's ends by half warps for pairs of 16384+ elements (old slice semantics),
# loads ahead in the count pass (bits, HASH), write passes at 32 registers: SISI and R-MAT rows, tests, sanitizers
set -u
cd "$(dirname "$0")/.."
t0=$(date +%s)
rm -rf .bin/x; mkdir -p .bin/x && tar -C .bin/x -xzf .bin/bin.tgz
export GPUAMQ_DATA_DIR=$PWD/.data
B=.bin/x L=$OUT/l
mkdir -p $L
el() { echo "$(( $(date +%s) - t0 ))"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for v in old new; do
  b=$B/bench_sets; [ $v != new ] && b=$B/bench_sets_$v
  SETS_SISI=10000000,100000000 SETS_RMAT=0 SETS_METHODS=bitmap-dynamic,hash,auto timeout 45 $b --filter='sets$' > $L/sisi_$v.log 2>&1; echo "$v rc $? at $(el) s"
  grep -E "^\| sets dev " $L/sisi_$v.log | sed 's/  */ /g' | cut -d'|' -f3,5,9 | sort -u | tr '\n' ';'; echo
done
SETS_SISI=0 SETS_METHODS=bitmap-dynamic,hash,ip-obs,auto timeout 70 $B/bench_sets --filter='sets$' > $L/rmat_new.log 2>&1; echo "rmat new rc $? at $(el) s"
grep -E "^\| sets dev " $L/rmat_new.log | grep R-MAT | sed 's/  */ /g' | cut -d'|' -f3,5 | sort -u | tr '\n' ';'; echo
grep -c DIFFERENT $L/rmat_new.log $L/sisi_new.log
OUT=$L tests/run_filters.sh --bin=$B --timeout=100 --max-log2=22 sets.cuda > $L/tests.txt 2>&1
grep -E "FAIL|passed" $L/tests.txt | tail -n 4; echo "tests done at $(el) s"
S="compute-sanitizer --report-api-errors no --error-exitcode 1"
( timeout 100 $S --tool memcheck $B/gpuamq_tests --max-log2=16 --filter=sets.cuda_table_cuts_equal_the_host_searches > $L/mem_cuts.log 2>&1; echo "rc $?" >> $L/mem_cuts.log ) &
( timeout 100 $S --tool memcheck $B/gpuamq_tests --max-log2=13 --filter=sets.cuda_pairs_equal_host_on_every_shape > $L/mem_shapes.log 2>&1; echo "rc $?" >> $L/mem_shapes.log ) &
( timeout 100 $S --tool racecheck $B/gpuamq_tests --max-log2=11 --filter=sets.cuda_pairs_equal_host_on_every_shape > $L/race_shapes.log 2>&1; echo "rc $?" >> $L/race_shapes.log ) &
wait
for f in mem_cuts mem_shapes race_shapes; do echo "$f: $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' $L/$f.log | tail -n 1) $(tail -n 1 $L/$f.log)"; done
echo "sanitizers done at $(el) s"
cd $OUT && tar -czf logs.tgz l && rm -rf l
