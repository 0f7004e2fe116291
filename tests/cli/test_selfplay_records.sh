#!/usr/bin/env bash
# Records from `axio selfplay` — every variant, player count and mode, random and greedy
# players, many seeds — replay cleanly through `axio replay` and pass the independent
# referee (tests/checker/axio_check.py), event by event.
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

count=0
for f in "$dir"/*.jsonl; do
  "$AXIO" replay "$f" > /dev/null
  count=$((count + 1))
done
echo "replayed $count records"
[ "$count" -ge 270 ]

"$PYTHON3" "$SRC/tests/checker/axio_check.py" "$dir" > "$dir/check.log" || {
  grep -v '^ok ' "$dir/check.log" | head -20
  exit 1
}
echo "independent check: $(grep -c '^ok ' "$dir/check.log") records consistent"
