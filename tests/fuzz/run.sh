#!/bin/sh
# tests/fuzz/run.sh TARGET SECONDS [DIR] - build one libFuzzer harness of this
# folder (TARGET: graph_load, sets_load, csr, qf_load) under ASan + UBSan and
# run it for SECONDS, one process, with its corpus in DIR/corpus/TARGET
# (seeded from seeds/TARGET when that exists) and findings in
# DIR/artifacts/TARGET. DIR defaults to /tmp/gclq_fuzz. Prints the number of
# executions and any finding; exits 1 on a finding, 2 on a build error.
# CC (default clang, 14 or newer) and FUZZ_FLAGS (more libFuzzer options) may
# be set. Reproduce a finding: DIR/fuzz_TARGET DIR/artifacts/TARGET/crash-...
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 TARGET SECONDS [DIR]   (TARGET: graph_load, sets_load, csr, qf_load)" >&2
  exit 2
fi
target=$1
seconds=$2
dir=${3:-/tmp/gclq_fuzz}
here=$(cd "$(dirname "$0")" && pwd)
src="$here/fuzz_$target.c"
if [ ! -f "$src" ]; then
  echo "run.sh: no harness $src" >&2
  exit 2
fi
mkdir -p "$dir/corpus/$target" "$dir/artifacts/$target" || exit 2
bin="$dir/fuzz_$target"
${CC:-clang} -g -O1 -Wall -Wextra -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -o "$bin" "$src" -lm || exit 2
seeds=
[ -d "$here/seeds/$target" ] && seeds="$here/seeds/$target"
log="$dir/$target.log"
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$bin" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$dir/artifacts/$target/" ${FUZZ_FLAGS:-} "$dir/corpus/$target" $seeds >"$log" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
echo "$target: ${execs:-?} executions, limit ${seconds} s (corpus $(ls "$dir/corpus/$target" | wc -l) files; log $log)"
found=$(ls "$dir/artifacts/$target" 2>/dev/null)
if [ $rc -ne 0 ] || [ -n "$found" ]; then
  echo "$target: FINDING (libFuzzer exit $rc):"
  grep -E 'ERROR: |runtime error|FUZZ_CHECK|SUMMARY|Test unit written' "$log" | head -n 20
  exit 1
fi
echo "$target: no finding"
