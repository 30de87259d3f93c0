#!/usr/bin/env bash
# tests/run_gpu.sh - everything the GPU machine does, in one call:
#   build (unless binaries are given), the whole test suite at large sizes,
#   compute-sanitizer memcheck + racecheck, the benchmarks; a short table last.
#
#   tests/run_gpu.sh [--bin=DIR] [--max-log2=28] [--no-sanitize] [--no-bench]
#                    [--bench-sizes=20,24,28] [--filter=SUBSTR] [--bench-filter=SUBSTR]
#                    [--commit=SHA] [--no-tests] [--no-memcheck]
#                    [--repeat=N [--jobs=J] [--deadline=S] [--exclude=SUBSTR] [--gpus=G]
#                     [--alone-mode=after|beside|none]]
#                    [--before=SRC.tgz] [--build-only] [--shards=S] [--cli]
# Environment: race_suites="scan merge" limits racecheck to those suites;
# REPEAT_TEST_TIMEOUT (s, default 400) bounds each test process of --repeat;
# MEMCHECK_LOG2 / RACECHECK_LOG2 set their largest sizes (16 / 11), and
# MEMCHECK_TIMEOUT / RACECHECK_TIMEOUT (s) bound each sanitizer run.
#
# --repeat=N runs every GPU test (gpuamq_tests --gpu-only; host tests belong in CI)
# N more times, each test in a process of its own with a fresh seed, J at once
# (default 8), and counts the runs in which any test failed; no new run starts after
# S seconds (--deadline, default 480), so that the call ends inside the device's limit;
# the logs of the tests that failed or did not finish stay in $OUT/failed;
# --exclude leaves out the tests whose names contain SUBSTR. The tests named in
# tests/gpu_alone.txt (launch-bound: slowed most by sharing the GPU, see there) run
# one at a time: after the others (--alone-mode=after, the default), beside them as
# one more lane (beside), or among them (none). --gpus=G (with --bin and
# --repeat, nothing else) runs G such loops at once, one a GPU (CUDA_VISIBLE_DEVICES),
# each N runs, logs under $OUT/gpuK; the summary adds them up.
#
# --before=SRC.tgz builds the benchmarks of an older tree (git archive of it)
# beside this one, in /tmp/before, and then runs bench/before_after.sh over the
# two builds instead of the benchmark table below (BA_REPS, BA_FILTER apply).
# A build left by an earlier call on the same warm machine is reused.
# --build-only stops after the builds (a later call on the warm machine runs).
#
# --shards=S runs the test suite (host and GPU tests, the host tests' GPU
# branches included) as S processes at once (--shard=K/S), logs tests_K.log.
# --cli runs each tests/cli_NAME.py on DIR/NAME_host and DIR/NAME (the CLIs
# built with CUDA, on a machine with a GPU: their device branches), beside
# the tests, logs cli_NAME.log; a failure fails the call.
#
# --bin=DIR runs gpuamq_tests and gpuamq_bench from DIR (built elsewhere, e.g.
# on a machine without a GPU, and carried along) instead of building here.
# Logs go to $OUT (the device tool's folder) or ./out.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
bin= maxlog=28 sanitize=1 bench=1 tests=1 memcheck=1 sizes=20,24,28 filter= bfilter= commit=unknown
repeat=0 jobs=8 deadline=480 alone_mode=after exclude= before= build_only=0 gpus=1 shards=1 cli=0
for a in "$@"; do
  case $a in
    --bin=*) bin=${a#*=} ;;
    --max-log2=*) maxlog=${a#*=} ;;
    --no-sanitize) sanitize=0 ;;
    --no-bench) bench=0 ;;
    --no-tests) tests=0 ;;
    --no-memcheck) memcheck=0 ;;
    --bench-sizes=*) sizes=${a#*=} ;;
    --filter=*) filter=${a#*=} ;;
    --bench-filter=*) bfilter=${a#*=} ;;
    --commit=*) commit=${a#*=} ;;
    --repeat=*) repeat=${a#*=} ;;
    --jobs=*) jobs=${a#*=} ;;
    --deadline=*) deadline=${a#*=} ;;
    --exclude=*) exclude=${a#*=} ;;
    --alone-mode=*) alone_mode=${a#*=} ;;
    --before=*) before=${a#*=} ;;
    --build-only) build_only=1 ;;
    --gpus=*) gpus=${a#*=} ;;
    --shards=*) shards=${a#*=} ;;
    --cli) cli=1 ;;
    *) echo "unknown option $a" >&2; exit 2 ;;
  esac
done
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/device.txt"

if [ "$gpus" -gt 1 ]; then
  # one repeat loop a GPU, the same options less --gpus; then their runs added up
  [ -n "$bin" ] && [ "$repeat" -gt 0 ] || { echo "--gpus needs --bin and --repeat" >&2; exit 2; }
  args=()
  for a in "$@"; do [[ $a == --gpus=* ]] || args+=("$a"); done
  for g in $(seq 0 $((gpus - 1))); do
    CUDA_VISIBLE_DEVICES=$g OUT="$OUT/gpu$g" "$0" "${args[@]}" > "$OUT/gpu$g.txt" 2>&1 &
  done
  wait
  runs=0 bad=0
  for g in $(seq 0 $((gpus - 1))); do
    line=$(sed -n 's/^repeat: *//p' "$OUT/gpu$g.txt")
    echo "GPU $g: $line"
    grep -E "^run [0-9]+ " "$OUT/gpu$g/repeat.log" 2>/dev/null | sed "s/^/  GPU $g /"
    r=$(echo "$line" | sed -nE 's/^([0-9]+) runs, ([0-9]+) failed.*/\1/p') f=$(echo "$line" | sed -nE 's/^([0-9]+) runs, ([0-9]+) failed.*/\2/p')
    runs=$((runs + ${r:-0})) bad=$((bad + ${f:-1}))
  done
  echo "repeat:    $runs runs on $gpus GPUs, $bad failed"
  [ $bad = 0 ]
  exit
fi

export PATH=/usr/local/cuda/bin:$PATH
if [ -n "$before" ] && [ ! -x /tmp/before/build/bench_sets ]; then
  # the older tree's benchmarks, built beside this tree's (half the cores each)
  { rm -rf /tmp/before && mkdir -p /tmp/before/src && tar -xzf "$before" -C /tmp/before/src &&
    cmake -S /tmp/before/src -B /tmp/before/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUAMQ_BUILD_TESTS=OFF \
          -DGPUAMQ_BUILD_EXAMPLES=OFF -DGPUAMQ_BUILD_BENCH=ON -DGPUAMQ_INSTALL=OFF &&
    cmake --build /tmp/before/build -j "$(( $(nproc) / 2 ))"; } > "$OUT/build_before.log" 2>&1 &
  before_pid=$!
fi
if [ -z "$bin" ]; then
  { cmake --preset default -DGPUAMQ_BUILD_BENCH=$([ $bench = 1 ] && echo ON || echo OFF) &&
    cmake --build build -j "$(nproc)"; } > "$OUT/build.log" 2>&1 || { tail -n 40 "$OUT/build.log"; exit 1; }
  bin=build
fi
if [ -n "${before_pid:-}" ]; then
  wait "$before_pid" || { tail -n 40 "$OUT/build_before.log"; exit 1; }
fi
[ $build_only = 1 ] && { echo "built: $bin${before:+ and /tmp/before/build}"; exit 0; }

tf=${filter:+--filter=$filter}
test_rc=0 tests_line="not run" cli_line="not run" cli_pid=
if [ $cli = 1 ]; then # the CLIs' tests, in the background beside the suite
  ( line=
    command -v python3 > /dev/null || line=" python3 missing"
    for py in tests/cli_*.py; do
      name=$(basename "$py" .py) && name=${name#cli_}
      [ -x "$bin/${name}_host" ] && [ -x "$bin/$name" ] && command -v python3 > /dev/null || continue
      timeout 900 python3 "$py" "$bin/${name}_host" "$bin/$name" > "$OUT/cli_$name.log" 2>&1
      rc=$?
      line="$line
  $name: $(tail -n 1 "$OUT/cli_$name.log") (exit $rc)"
    done
    echo "${line:- no CLI pairs in $bin}" > "$OUT/cli_summary.txt" ) &
  cli_pid=$!
fi
if [ $tests = 1 ]; then
  echo "== tests (sizes up to 2^$maxlog, $shards process(es))"
  if [ "$shards" -gt 1 ]; then
    pids=()
    for k in $(seq 0 $((shards - 1))); do
      timeout 420 "$bin/gpuamq_tests" --max-log2="$maxlog" $tf --shard=$k/$shards > "$OUT/tests_$k.log" 2>&1 &
      pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || test_rc=1; done
    cat "$OUT"/tests_*.log > "$OUT/tests.log"
    tests_line=$(tail -q -n 1 "$OUT"/tests_*.log | awk '/ passed, / {p += $1; f += $3; n++} END {printf "%d passed, %d failed (%d of '"$shards"' shards reported)", p, f, n}')
  else
    timeout 420 "$bin/gpuamq_tests" --max-log2="$maxlog" $tf > "$OUT/tests.log" 2>&1
    test_rc=$?
    tests_line=$(tail -n 1 "$OUT/tests.log")
  fi
  grep -E "FAIL|^seed|^device|mismatch|differs" "$OUT/tests.log" | head -n 40
fi
if [ -n "$cli_pid" ]; then
  wait "$cli_pid"
  cli_line=$(cat "$OUT/cli_summary.txt")
  echo "$cli_line" | grep -qE "exit [1-9]|python3 missing" && test_rc=1
fi

if [ $bench = 1 ] && [ -n "$before" ]; then
  echo "== benchmarks, before ($before) and after (this tree), alternating"
  bench/before_after.sh /tmp/before/build "$bin" > "$OUT/before_after.log" 2>&1
  tail -n 40 "$OUT/before_after.log"
elif [ $bench = 1 ]; then
  echo "== benchmarks (one program per bench/bench_*.cu)"
  : > "$OUT/bench.md"
  : > "$OUT/bench.log"
  for b in "$bin"/bench_*; do
    [ -x "$b" ] || continue
    timeout 200 "$b" --sizes="$sizes" --commit="$commit" --out="$OUT/bench.part" ${bfilter:+--filter=$bfilter} \
      >> "$OUT/bench.log" 2>&1 || { echo "benchmark $b failed:"; tail -n 20 "$OUT/bench.log"; }
    [ -f "$OUT/bench.part" ] && cat "$OUT/bench.part" >> "$OUT/bench.md" && rm -f "$OUT/bench.part"
  done
fi

repeat_line="not run"
if [ "$repeat" -gt 0 ]; then
  echo "== GPU tests, $repeat runs, each test its own process, $jobs at once (sizes up to 2^$maxlog)"
  "$bin/gpuamq_tests" --list --gpu-only $tf | sed -n 's/ \[gpu\]$//p' |
    { if [ -n "$exclude" ]; then grep -vF -- "$exclude"; else cat; fi; } > "$OUT/repeat_tests.txt"
  case $alone_mode in after|beside|none) ;; *) echo "--alone-mode: after, beside or none" >&2; exit 2 ;; esac
  grep -vE '^#|^$' tests/gpu_alone.txt > "$OUT/repeat_alone.txt"
  # repeat_lane LIST J: the tests of LIST, J at once, each its own process and seed
  repeat_lane() {
    [ -s "$1" ] || return 0
    xargs -P "$2" -I{} sh -c 'timeout ${REPEAT_TEST_TIMEOUT:-400} stdbuf -oL -eL "$0" --filter="={}" --seed=0x$(od -An -N8 -tx8 /dev/urandom | tr -d " ") \
           --max-log2="$1" > "$2/rep/{}.log" 2>&1' "$bin/gpuamq_tests" "$maxlog" "$OUT" < "$1"
  }
  start=$(date +%s) runs=0 bad=0
  : > "$OUT/repeat.log"
  mkdir -p "$OUT/rep"
  while [ $runs -lt "$repeat" ] && [ $(( $(date +%s) - start )) -lt "$deadline" ]; do
    runs=$((runs + 1))
    rm -f "$OUT"/rep/*.log
    # longest first (times from the runs so far), each with a fresh seed; the
    # launch-bound tests of tests/gpu_alone.txt in a lane of their own
    { sort -k2 -nr "$OUT/repeat_times.txt" 2>/dev/null | awk '{print $1}'; cat "$OUT/repeat_tests.txt"; } |
      awk '!seen[$0]++' > "$OUT/repeat_order.txt"
    if [ "$alone_mode" = none ]; then
      repeat_lane "$OUT/repeat_order.txt" "$jobs"
    else
      grep -vxF -f "$OUT/repeat_alone.txt" "$OUT/repeat_order.txt" > "$OUT/repeat_many.txt"
      grep -xF -f "$OUT/repeat_alone.txt" "$OUT/repeat_order.txt" > "$OUT/repeat_one.txt"
      if [ "$alone_mode" = beside ]; then
        repeat_lane "$OUT/repeat_one.txt" 1 & repeat_lane "$OUT/repeat_many.txt" "$jobs"; wait
      else
        repeat_lane "$OUT/repeat_many.txt" "$jobs"; repeat_lane "$OUT/repeat_one.txt" 1
      fi
    fi
    cat "$OUT"/rep/*.log | sed -nE 's/^\[  OK  \] ([^ ]+) \(([0-9]+) ms\)$/\1 \2/p' > "$OUT/repeat_times.txt"
    summary=$(tail -q -n 2 "$OUT"/rep/*.log | awk '/ skipped$/ {s += $1} / passed, / {p += $1; f += $3} END {printf "%d passed, %d failed, %d skipped", p, f, s}')
    echo "run $runs ($(( $(date +%s) - start )) s): $summary" | tee -a "$OUT/repeat.log"
    # a run is good when every test's log ends "N passed, 0 failed" (a test may skip
    # itself at small --max-log2) and none has a FAIL line
    finished=$(tail -q -n 1 "$OUT"/rep/*.log | grep -cE '^[0-9]+ passed, 0 failed$')
    if [ "$finished" != "$(wc -l < "$OUT/repeat_tests.txt")" ] || grep -qE "FAIL" "$OUT"/rep/*.log; then
      bad=$((bad + 1))
      # the logs of the tests that failed or did not finish (killed by the timeout) stay
      mkdir -p "$OUT/failed"
      for f in "$OUT"/rep/*.log; do
        if grep -qE "FAIL|pending CUDA error" "$f" || ! tail -n 1 "$f" | grep -qE '^[0-9]+ passed, 0 failed$'; then
          cp "$f" "$OUT/failed/run${runs}_$(basename "$f")"
          echo "  $(basename "$f" .log): $(grep -m1 '^seed' "$f")"
          grep -hE "FAIL|CHECK|mismatch|differs|error" "$f" | head -n 8
          tail -n 2 "$f"
        fi
      done | tee -a "$OUT/repeat.log" | head -n 40
    fi
  done
  rm -rf "$OUT/rep"
  repeat_line="$runs runs, $bad failed ($(( $(date +%s) - start )) s, $jobs tests at once, alone: $alone_mode, sizes up to 2^$maxlog)"
  [ $bad = 0 ] || test_rc=1
fi

mem_line="not run" race_line="not run"
if [ $sanitize = 1 ]; then
  echo "== compute-sanitizer (memcheck up to 2^${MEMCHECK_LOG2:-16}, racecheck per suite up to 2^${RACECHECK_LOG2:-11})"
  # API errors are not reported: a test provokes an allocation failure on purpose
  # and checks the status itself; memcheck is here for memory accesses.
  if [ $memcheck = 1 ]; then
    timeout ${MEMCHECK_TIMEOUT:-280} compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 1 "$bin/gpuamq_tests" --gpu-only --max-log2=${MEMCHECK_LOG2:-16} $tf > "$OUT/memcheck.log" 2>&1
    mem_line="$(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -n 1); tests: $(grep -E 'passed, .* failed' "$OUT/memcheck.log" | tail -n 1)"
  fi
  race_line=""
  for suite in ${race_suites:-api merge radix_sort scan segmented_sort}; do
    [ -n "$filter" ] && [ "$suite" != "$filter" ] && continue
    timeout ${RACECHECK_TIMEOUT:-200} compute-sanitizer --tool racecheck --error-exitcode 1 "$bin/gpuamq_tests" --gpu-only --max-log2=${RACECHECK_LOG2:-11} --filter="$suite" \
      > "$OUT/racecheck_$suite.log" 2>&1
    race_line="$race_line
  $suite: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/racecheck_$suite.log" | tail -n 1) tests: $(grep -E 'passed, .* failed' "$OUT/racecheck_$suite.log" | tail -n 1)"
  done
fi


echo
echo "== summary"
echo "device:    $(cat "$OUT/device.txt")"
echo "tests:     $tests_line (exit $test_rc)"
echo "cli:       $cli_line"
echo "repeat:    $repeat_line"
echo "memcheck:  $mem_line"
echo "racecheck: $race_line"
# the largest size of each benchmark row (all sizes are in $OUT/bench.md)
[ -s "$OUT/bench.md" ] && grep -E "^## |^\| primitive|2\^${sizes##*,}" "$OUT/bench.md"
exit $test_rc
