#!/usr/bin/env bash
# Fuzzes the record reader with libFuzzer (clang, ASan + UBSan) for a bounded time, starting
# from real records of every variant. Any crash fails the test.
set -euo pipefail
: "${AXIO:?path of the axio command}" "${SRC:?source tree}"
SECONDS_TO_FUZZ=${AXIO_FUZZ_SECONDS:-15}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

mkdir -p "$dir/corpus"
for v in square rota hex; do
  "$AXIO" selfplay --variant $v --players 2 --games 3 --record "$dir/records" > /dev/null
done
"$AXIO" selfplay --variant hex --players 4 --mode team --games 1 --record "$dir/records" > /dev/null
"$AXIO" selfplay --variant square --players 1 --games 1 --record "$dir/records" > /dev/null
"$AXIO" selfplay --variant hex --players 3 --games 2 --seed 50 --leaves 15 --record "$dir/records" > /dev/null
cp "$dir"/records/*.jsonl "$dir/corpus/"

clang -std=c17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -D_GNU_SOURCE -I"$SRC/src/engine" "$SRC/tests/fuzz/fuzz_replay.c" "$SRC"/src/engine/*.c \
  $(pkg-config --cflags --libs jansson) -o "$dir/fuzz_replay"
"$dir/fuzz_replay" -max_total_time="$SECONDS_TO_FUZZ" -max_len=65536 -timeout=10 \
  -print_final_stats=1 "$dir/corpus" 2> "$dir/log" || { tail -40 "$dir/log"; exit 1; }
grep -E "stat::number_of_executed_units" "$dir/log"
