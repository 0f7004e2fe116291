#!/usr/bin/env bash
# Games of the `strong` player — every variant, standard, solo and team — written by
# `axio selfplay --record` with a short --movetime, replay cleanly through `axio replay`
# (and, when it is there, pass the independent referee tests/checker/axio_check.py).
set -euo pipefail
: "${AXIO:?path of the axio command}"
PYTHON3=${PYTHON3:-python3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

play() { "$AXIO" selfplay --movetime 15 --record "$dir" "$@" > /dev/null; }

for v in square hex rota; do
  play --variant $v --players 2 --ai strong,greedy --seed 7
  play --variant $v --players 1 --ai strong --seed 8
done
play --variant square --players 3 --ai strong --seed 9
play --variant hex --players 4 --mode team --ai strong,greedy --seed 10

count=0
for f in "$dir"/*.jsonl; do
  "$AXIO" replay "$f" > /dev/null
  count=$((count + 1))
done
echo "replayed $count records of strong games"
[ "$count" -eq 8 ]

if [ -n "${SRC:-}" ] && [ -f "$SRC/tests/checker/axio_check.py" ]; then
  "$PYTHON3" "$SRC/tests/checker/axio_check.py" "$dir" > "$dir/check.log" || {
    grep -v '^ok ' "$dir/check.log" | head -20
    exit 1
  }
  echo "independent check: $(grep -c '^ok ' "$dir/check.log") records consistent"
fi
