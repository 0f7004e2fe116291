#!/usr/bin/env bash
# `axio arena`: bad usage exits 2 with one line; duplicate sets rotate the seats (so two
# copies of one player share the wins evenly on every deal); solo and team runs report what
# they should; a run with a fixed playout count is reproducible, and the same with --jobs
# (deals played by worker processes); a stop signal or a failing worker ends a run as it
# should.
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

# Waits (90 s of the clock at most, not a count of naps: a loaded machine's naps may be
# short or long) until a line appears in a file.
wait_for_line() {
  local end=$((SECONDS + 90))
  while [ "$SECONDS" -lt "$end" ]; do
    grep -q "$1" "$2" && return 0
    sleep 0.2
  done
  grep -q "$1" "$2"
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
bad "${ok[@]}" --jobs 0
bad "${ok[@]}" --jobs 65
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

# The heading tells the run's think time only when a player uses it.
out=$("$AXIO" arena --variant square --players 2 --ai strong:playouts=20,strong:playouts=30 \
  --games 2 --seed 1 2>/dev/null)
echo "$out" | grep -q "^square 2p standard: 2 games (1 deals x 2 seatings) from seed 1$"
out=$("$AXIO" arena --variant square --players 2 --ai strong:playouts=20,strong --games 2 \
  --seed 1 --movetime 50 2>/dev/null)
echo "$out" | grep -q "^square 2p standard: 2 games (1 deals x 2 seatings) from seed 1, movetime 50 ms$"

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

# Worker processes: the same report, the same records under the same names, in one
# process or three (deals 0, 3, 6 in the first worker, ...); solo as well.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
jobs_run() {
  "$AXIO" arena --variant square --players 2 --ai strong,greedy --games 14 --seed 4 \
    --movetime 0 --playouts 40 --record "$tmp/rec$1" --jobs "$1" 2>/dev/null |
    grep -v 'time per decision'
}
one=$(jobs_run 1)
[ "$one" = "$(jobs_run 3)" ] || { echo "FAIL: --jobs 3 reports otherwise"; jobs_run 3; exit 1; }
echo "$one" | grep -q "14 games (7 deals x 2 seatings)"
[ "$(ls "$tmp/rec1" | wc -l)" = 14 ]
diff -r "$tmp/rec1" "$tmp/rec3"
solo() {
  "$AXIO" arena --variant hex --players 1 --ai greedy,random --games 5 --seed 5 --jobs "$1" \
    2>/dev/null | grep -v 'time per decision'
}
[ "$(solo 1)" = "$(solo 2)" ] || { echo "FAIL: solo with --jobs 2 reports otherwise"; exit 1; }
# A worker that cannot write its record fails the run (exit 1) and stops the others.
mkdir -p "$tmp/blocked/square-2p-standard-3-game5.jsonl.tmp"
rc=0
"$AXIO" arena --variant square --players 2 --ai greedy,random --games 400 --seed 1 \
  --record "$tmp/blocked" --jobs 3 > /dev/null 2> "$tmp/err" || rc=$?
[ "$rc" = 1 ] || { echo "FAIL: a failing worker: exit $rc, want 1"; exit 1; }
grep -q "worker 2 failed" "$tmp/err"

# SIGINT ends a long run after the deal in progress and still reports what was played.
rm -f "$tmp/out" "$tmp/err" # the last run's lines are not this one's (the job truncates late)
"$AXIO" arena --variant square --players 2 --ai strong,greedy --games 400 --seed 1 \
  --movetime 20 > "$tmp/out" 2> "$tmp/err" &
pid=$!
wait_for_line "deal 1/200" "$tmp/err" || { echo "FAIL: no deal finished"; cat "$tmp/err"; kill -9 $pid; exit 1; }
kill -INT $pid
rc=0; wait $pid || rc=$?
cat "$tmp/out"
[ "$rc" = 130 ] || { echo "FAIL: interrupted arena exit $rc, want 130"; exit 1; }
grep -q "interrupted after [0-9]* of 200 deals" "$tmp/out"
grep -q "^player 0 strong   win rate" "$tmp/out"
grep -q "strong   time per decision" "$tmp/out"
played=$(grep -c "^arena: deal" "$tmp/err")
grep -q "square 2p standard: $((played * 2)) games ($played deals" "$tmp/out"

# The same with workers: the signal (to this process only) is passed on to them, each ends
# its deal, and none is left running.
rm -f "$tmp/out" "$tmp/err" # the last run's lines are not this one's (the job truncates late)
"$AXIO" arena --variant square --players 2 --ai strong,greedy --games 400 --seed 1 \
  --movetime 20 --jobs 2 > "$tmp/out" 2> "$tmp/err" &
pid=$!
wait_for_line "deal 2/200" "$tmp/err" || { echo "FAIL: no deals finished"; cat "$tmp/err"; kill -9 $pid; exit 1; }
kill -INT $pid
rc=0; wait $pid || rc=$?
cat "$tmp/out"
[ "$rc" = 130 ] || { echo "FAIL: interrupted arena with workers exit $rc, want 130"; exit 1; }
played=$(grep -c "^arena: deal" "$tmp/err")
grep -q "square 2p standard: $((played * 2)) games ($played deals x 2 seatings), interrupted after $played of 200" "$tmp/out"
workers_left() {
  for f in /proc/[0-9]*/cmdline; do
    if { tr '\0' ' ' < "$f"; } 2>/dev/null | grep -q -- "--movetime 20 --jobs 2"; then
      echo "FAIL: a worker is left: $f"; exit 1
    fi
  done
}
workers_left
# SIGTERM to the whole process group (as pkill or a service manager sends it): each worker
# has it once, and the one passed on does not count as a second; the run still reports.
# (a group of its own whose id is the arena's pid: setsid(1) forks when the shell already made
# the job a group, as a shell with job control does, and $! would then be the wrong process)
rm -f "$tmp/out" "$tmp/err" # the last run's lines are not this one's (the job truncates late)
python3 -c 'import os, sys; os.setpgid(0, 0); os.execvp(sys.argv[1], sys.argv[1:])' \
  "$AXIO" arena --variant square --players 2 --ai strong,greedy --games 400 --seed 2 \
  --movetime 20 --jobs 2 > "$tmp/out" 2> "$tmp/err" &
pid=$!
wait_for_line "deal 2/200" "$tmp/err" || { echo "FAIL: no deals finished"; cat "$tmp/err"; kill -9 -- -$pid; exit 1; }
kill -TERM -- -$pid
rc=0; wait $pid || rc=$?
cat "$tmp/err" | grep -v "^arena: deal" || true
[ "$rc" = 130 ] || { echo "FAIL: arena with workers, SIGTERM to the group: exit $rc, want 130"; exit 1; }
played=$(grep -c "^arena: deal" "$tmp/err")
grep -q "interrupted after $played of 200" "$tmp/out"
workers_left
