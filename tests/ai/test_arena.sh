#!/usr/bin/env bash
# `axio arena`: bad usage exits 2 with one line; duplicate sets rotate the seats (so two
# copies of one player share the wins evenly on every deal); solo and team runs report what
# they should; a run with a fixed playout count is reproducible.
set -euo pipefail
: "${AXIO:?path of the axio command}"

bad() {
  local rc=0 err
  err=$("$AXIO" arena "$@" 2>&1 >/dev/null) || rc=$?
  if [ "$rc" != 2 ]; then echo "FAIL: axio arena $* exit $rc, want 2"; exit 1; fi
  if [ "$(printf '%s\n' "$err" | wc -l)" != 1 ] || [ -z "$err" ]; then
    echo "FAIL: axio arena $*: not one line: $err"; exit 1
  fi
  echo "ok: axio arena $* -> $err"
}

ok=(--variant square --players 2 --ai greedy,random --games 2 --seed 1)
bad
bad --variant square --ai greedy --games 2        # no seed
bad "${ok[@]}" --ai greedy,deep-blue
bad "${ok[@]}" --ai a,b,c
bad "${ok[@]}" --variant chess
bad "${ok[@]}" --games 0
bad "${ok[@]}" --movetime -5
bad "${ok[@]}" --movetime 0
bad "${ok[@]}" --mode team
bad "${ok[@]}" --players 5
bad "${ok[@]}" extra
"$AXIO" arena --help | grep -q "usage: axio arena"

out=$("$AXIO" arena --variant rota --players 2 --ai greedy,random --games 5 --seed 3 2>/dev/null)
echo "$out"
echo "$out" | grep -q "6 games (3 deals x 2 seatings)"
echo "$out" | awk '/win rate/ { sum += $6 } END { exit !(sum > 0.999 && sum < 1.001) }'
echo "$out" | grep -q "^player 0 greedy   by seat: [0-9.]* at seat 0 (3 games), [0-9.]* at seat 1 (3 games)$"
# By seat: player 0 at seat 0 and player 1 at seat 1 played the same games, so their shares
# of first place add up to one, and so do the other seating's (in ROTA the second seat wins
# more of them).
out=$("$AXIO" arena --variant rota --players 2 --ai greedy,greedy --games 40 --seed 3 2>/dev/null)
echo "$out" | awk '/by seat/ { p = $2; s0[p] = $6; s1[p] = $12 }
  END { exit !(s0[0] + s1[1] > 0.999 && s0[0] + s1[1] < 1.001 && s1[0] + s0[1] > 0.999 &&
               s1[0] + s0[1] < 1.001) }'

out=$("$AXIO" arena --variant square --players 3 --ai greedy,random --games 4 --seed 1 2>/dev/null)
echo "$out" | grep -q "6 games (2 deals x 3 seatings)"
[ "$(echo "$out" | grep -c '^player [012] .* win rate ')" = 3 ]
[ "$(echo "$out" | grep -c '^player [012] .* by seat: .* at seat 2 ')" = 3 ]

out=$("$AXIO" arena --variant hex --players 1 --ai greedy,random --games 3 --seed 5 2>/dev/null)
echo "$out"
echo "$out" | grep -q "player 0 greedy   mean result"
echo "$out" | grep -q "paired difference greedy - random"

out=$("$AXIO" arena --variant hex --players 4 --mode team --ai greedy,random --games 4 --seed 2 \
  2>/dev/null)
echo "$out" | grep -q "hex 4p team: 4 games (1 deals x 4 seatings)"

run() {
  "$AXIO" arena --variant square --players 2 --ai strong,greedy --games 2 --seed 4 \
    --movetime 0 --playouts 40 2>/dev/null | grep -v 'time per decision'
}
first=$(run)
echo "$first"
[ "$first" = "$(run)" ]

# SIGINT ends a long run after the deal in progress and still reports what was played.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$AXIO" arena --variant square --players 2 --ai strong,greedy --games 400 --seed 1 \
  --movetime 20 > "$tmp/out" 2> "$tmp/err" &
pid=$!
for _ in $(seq 600); do grep -q "deal 1/200" "$tmp/err" && break; sleep 0.1; done
grep -q "deal 1/200" "$tmp/err" || { echo "FAIL: no deal finished"; kill -9 $pid; exit 1; }
kill -INT $pid
rc=0; wait $pid || rc=$?
cat "$tmp/out"
[ "$rc" = 130 ] || { echo "FAIL: interrupted arena exit $rc, want 130"; exit 1; }
grep -q "interrupted after [0-9]* of 200 deals" "$tmp/out"
grep -q "^player 0 strong   win rate" "$tmp/out"
grep -q "strong   time per decision" "$tmp/out"
played=$(grep -c "^arena: deal" "$tmp/err")
grep -q "square 2p standard: $((played * 2)) games ($played deals" "$tmp/out"
