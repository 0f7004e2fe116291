#!/usr/bin/env bash
# compare_engine.sh - `axio bench --only engine` of two builds side by side, in one sitting,
# on one core: the runs of the two builds alternate, so that whatever else the machine is
# doing falls on both alike.
#
#   bench/compare_engine.sh OLD_AXIO NEW_AXIO [RUNS] [GAMES] [CORE]
#
# For each variant (VARIANTS in the environment, default "square rota hex") and build: RUNS
# runs (default 5) of GAMES random two-player games
# (default 100000) on core CORE (default 1, with taskset). Prints the median over the runs
# of the speed `axio bench` reports (plies per second of the wall clock) and of plies per
# second of the process's CPU time (user + system: on a machine shared with others the
# wall clock also counts the time the benchmark waited for a core). Each `axio bench` run
# is itself the median of one repetition, so the medians here are over RUNS runs.
set -euo pipefail
old=${1:?usage: compare_engine.sh OLD_AXIO NEW_AXIO [RUNS] [GAMES] [CORE]}
new=${2:?usage: compare_engine.sh OLD_AXIO NEW_AXIO [RUNS] [GAMES] [CORE]}
runs=${3:-5}
games=${4:-100000}
core=${5:-1}
tmp=$(mktemp -d)
declare -A wall cpu
trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

one_run() { # binary variant -> "wall_speed cpu_speed plies checksum"
  local out plies wall cpu sum
  # bash's own `time` (getrusage): milliseconds, where /usr/bin/time prints hundredths, too
  # coarse for a run of a fraction of a second
  out=$({ TIMEFORMAT="TIME %3U %3S"; time taskset -c "$core" "$1" bench --only engine \
    --variant "$2" --games "$games" --repeat 1; } 2>&1)
  plies=$(sed -n 's/.* \([0-9]*\) plies,.*/\1/p' <<<"$out")
  sum=$(sed -n 's/.*checksum \([0-9a-f]*\),.*/\1/p' <<<"$out")
  wall=$(sed -n 's/.*median \([0-9]*\) plies\/s.*/\1/p' <<<"$out")
  cpu=$(awk -v p="$plies" '/^TIME/ {t = $2 + $3; printf "%.0f", (t > 0 ? p / t : 0)}' <<<"$out")
  echo "$wall $cpu $plies $sum"
}

echo "engine: $games random 2-player games a run, $runs runs a build, alternating, core $core"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for v in ${VARIANTS:-square rota hex}; do
  for r in $(seq "$runs"); do
    one_run "$old" "$v" >>"$tmp/old-$v"
    one_run "$new" "$v" >>"$tmp/new-$v"
  done
  for b in old new; do
    wall[$b]=$(cut -d' ' -f1 "$tmp/$b-$v" | median)
    cpu[$b]=$(cut -d' ' -f2 "$tmp/$b-$v" | median)
    sums=$(cut -d' ' -f3,4 "$tmp/$b-$v" | sort -u | tr '\n' ' ')
    printf '%-6s %s  wall median %10.0f plies/s  cpu median %10.0f plies/s  (plies, checksum: %s)\n' \
      "$v" "$b" "${wall[$b]}" "${cpu[$b]}" "$sums"
  done
  awk -v v="$v" -v wo="${wall[old]}" -v wn="${wall[new]}" -v co="${cpu[old]}" -v cn="${cpu[new]}" \
    'BEGIN {printf "%-6s new/old  wall %.2fx  cpu %.2fx\n", v, wn / wo, cn / co}'
done
echo "machine after: load average $(cut -d' ' -f1-3 /proc/loadavg)"
