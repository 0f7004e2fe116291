#!/usr/bin/env bash
# Records from `axio selfplay` — every variant, player count and mode, random and greedy
# players, many seeds, with and without seats that leave (rules 6) — replay cleanly through
# `axio replay` and pass the independent referee (tests/checker/axio_check.py), event by event.
set -euo pipefail
: "${AXIO:?path of the axio command}" "${SRC:?source tree}"
PYTHON3=${PYTHON3:-python3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

play() { "$AXIO" selfplay "$@" --record "$dir" > /dev/null; }

for v in square hex rota; do
  play --variant $v --players 1 --ai random --games 20 --seed 100
  play --variant $v --players 1 --ai greedy --games 2 --seed 200
  for p in 2 3 4; do
    play --variant $v --players $p --ai random --games 20 --seed 300
    play --variant $v --players $p --ai greedy,random --games 1 --seed 400
  done
done
play --variant hex --players 4 --mode team --ai random --games 20 --seed 500
play --variant hex --players 4 --mode team --ai greedy --games 1 --seed 600

# seats leave at random moments: about one leave in 25 (random players) or 8 (greedy, whose
# bonus moves give leaves before a bonus move) decisions
for v in square hex rota; do
  for p in 1 2 3 4; do
    play --variant $v --players $p --ai random --games 12 --seed 700 --leaves 25
    play --variant $v --players $p --ai greedy,random --games 2 --seed 800 --leaves 8
  done
done
play --variant hex --players 4 --mode team --ai random --games 12 --seed 700 --leaves 25
play --variant hex --players 4 --mode team --ai greedy --games 2 --seed 800 --leaves 8

count=0
for f in "$dir"/*.jsonl; do
  "$AXIO" replay "$f" > /dev/null
  count=$((count + 1))
done
echo "replayed $count records"
[ "$count" -ge 450 ]

# the leave runs cover what rules 6 distinguishes
with_leave=$(grep -l '"ev":"leave"' "$dir"/*.jsonl | wc -l)
ended_left=$(grep -l '"reason":"left"' "$dir"/*.jsonl | wc -l)
played_on=$(grep -l '"ev":"leave"' "$dir"/*.jsonl | xargs grep -L '"reason":"left"' | wc -l)
echo "$with_leave records with leaves, $ended_left ended by leaving, $played_on played on to the end"
for mode in 1p-solo 2p-standard 3p-standard 4p-standard 4p-team; do
  for v in square hex rota; do
    [ $v != hex ] && [ $mode = 4p-team ] && continue
    grep -q '"reason":"left"' "$dir"/$v-$mode-7*.jsonl || { echo "FAIL: no $v $mode game ended by leaving"; exit 1; }
  done
done
for v in square hex rota; do
  for p in 3 4; do
    grep -l '"ev":"leave"' "$dir"/$v-${p}p-standard-*.jsonl | xargs grep -L '"reason":"left"' | grep -q . ||
      { echo "FAIL: no $v ${p}p game played on after a leave"; exit 1; }
  done
done

"$PYTHON3" "$SRC/tests/checker/axio_check.py" "$dir" > "$dir/check.log" || {
  grep -v '^ok ' "$dir/check.log" | head -20
  exit 1
}
echo "independent check: $(grep -c '^ok ' "$dir/check.log") records consistent"
