# bench/gpm_runs.sh - sourced by bench/gpm_g2miner.sh and bench/gpm_sm.sh:
# the median of a few runs of the gpm CLI ($gpm), every run's output in $log.

# The median of the numbers on stdin.
median() { sort -g | awk '{a[NR] = $1} END {if (NR) print a[int((NR + 1) / 2)]; else print "-"}'; }

# runs N LIMIT ARGS...: N runs of gpm ARGS, each stopped after LIMIT seconds;
# prints "MEDIAN_COUNT_MS COUNT" (nan for a run that printed no time).
runs() {
  local n=$1 lim=$2 i o ms count=- times=
  shift 2
  for i in $(seq "$n"); do
    o=$(timeout "$lim" "$gpm" "$@" --quiet 2>&1)
    echo "gpm $* :: $o" >> "$log"
    ms=$(printf '%s\n' "$o" | sed -nE 's/.*count ([0-9.]+) ms.*/\1/p' | tail -1)
    count=$(printf '%s\n' "$o" | sed -nE 's/^(cliques|matches|subgraphs) ([0-9]+).*/\2/p' | tail -1)
    times="$times ${ms:-nan}"
  done
  echo "$(printf '%s\n' $times | median) ${count:--}"
}
