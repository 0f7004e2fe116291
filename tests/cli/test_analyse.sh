#!/usr/bin/env bash
# `axio analyse`: one judgement per decision of the seat (placements, bonus placements, swap
# answers), in text and as JSON lines whose `played` is the record's own decision; the best
# never below the played; reproducible with --playouts and --seed; records of every variant and
# solo; bad usage and records that `axio replay` rejects exit 2 with one line.
set -euo pipefail
: "${AXIO:?path of the axio command}"
PYTHON3=${PYTHON3:-python3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$AXIO" selfplay --variant hex --players 2 --ai greedy --seed 7 --record "$dir" > /dev/null
"$AXIO" selfplay --variant rota --players 2 --ai greedy --seed 4 --record "$dir" > /dev/null
"$AXIO" selfplay --variant square --players 1 --ai greedy --seed 5 --record "$dir" > /dev/null
hex="$dir/hex-2p-standard-7.jsonl"
rota="$dir/rota-2p-standard-4.jsonl"
solo="$dir/square-1p-solo-5.jsonl"

# check RECORD SEAT JSONFILE: the JSON lines against the record's decisions of SEAT
check() {
  "$PYTHON3" - "$@" <<'PY'
import json, sys
record, seat, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
events = [json.loads(l) for l in open(record)]
solo = events[0]["mode"] == "solo"
# the seat's decisions in order: place (bonus or not) and swap lines of that player
decisions = [e for e in events if e["ev"] in ("place", "swap") and e.get("player") == seat]
lines = [json.loads(l) for l in open(out)]
assert len(lines) == len(decisions), (len(lines), len(decisions))
keys = {"ply", "kind", "played", "best", "value_played", "value_best"}
kinds = set()
for line, ev in zip(lines, decisions):
    assert keys <= set(line), line
    kind = "swap" if ev["ev"] == "swap" else "bonus" if ev["bonus"] else "place"
    assert line["kind"] == kind, (line, ev)
    kinds.add(kind)
    played = line["played"]
    assert played["ev"] == ev["ev"] and played["player"] == seat, (played, ev)
    for k in ("tile", "cells", "cell", "accepted"):
        if k in played:
            assert played[k] == ev[k], (k, played, ev)
    if ev["ev"] == "place" and "wild" in played:
        assert played["wild"] == ev["wild"], (played, ev)
    assert line["best"]["ev"] in ("place", "swap") and line["best"]["player"] == seat
    assert line["value_best"] >= line["value_played"] >= 0, line
    if not solo:
        assert line["value_best"] <= 1, line
    if line["played"] == line["best"]:
        assert line["value_best"] == line["value_played"], line
plies = [l["ply"] for l in lines]
assert plies == sorted(set(plies)), plies
print(f"ok: {out}: {len(lines)} decisions of seat {seat}, kinds {sorted(kinds)}")
PY
}

"$AXIO" analyse "$hex" --seat 0 --playouts 150 --json > "$dir/hex0.json"
check "$hex" 0 "$dir/hex0.json"
grep -q '"kind":"swap"' "$dir/hex0.json" && grep -q '"kind":"bonus"' "$dir/hex0.json"
"$AXIO" analyse "$hex" --seat 1 --playouts 150 --json --seed 2 > "$dir/hex1.json"
check "$hex" 1 "$dir/hex1.json"
"$AXIO" analyse "$rota" --seat 1 --playouts 150 --json > "$dir/rota1.json"
check "$rota" 1 "$dir/rota1.json"
"$AXIO" analyse "$solo" --seat 0 --playouts 100 --json > "$dir/solo.json"
check "$solo" 0 "$dir/solo.json"

# reproducible: the same seed and playouts give the same lines, another seed others
"$AXIO" analyse "$hex" --seat 0 --playouts 150 --json > "$dir/again.json"
cmp "$dir/hex0.json" "$dir/again.json"
"$AXIO" analyse "$hex" --seat 0 --playouts 150 --json --seed 9 > "$dir/other.json"
if cmp -s "$dir/hex0.json" "$dir/other.json"; then echo "FAIL: --seed changes nothing"; exit 1; fi

# text: a header, one line per decision, the summary
"$AXIO" analyse "$hex" --seat 0 --playouts 150 > "$dir/hex0.txt"
n=$(wc -l < "$dir/hex0.json")
[ "$(grep -c '^ply ' "$dir/hex0.txt")" = "$n" ] || { echo "FAIL: text lines"; cat "$dir/hex0.txt"; exit 1; }
head -1 "$dir/hex0.txt" | grep -q "seat 0 of hex 2p standard; value: the chance to finish first"
tail -1 "$dir/hex0.txt" | grep -q "^seat 0: $n decisions, loss per decision .* mean [0-9.]*, median"
"$AXIO" analyse "$solo" --seat 0 --playouts 50 > "$dir/solo.txt"
head -1 "$dir/solo.txt" | grep -q "value: the expected solo result"
# a movetime alone bounds each decision by time
"$AXIO" analyse "$rota" --seat 0 --movetime 5 --json > "$dir/timed.json"
check "$rota" 0 "$dir/timed.json"
echo "ok: text output, reproducibility"

# usage and bad records: exit 2, one line on stderr naming the problem
bad() {
  local pattern=$1 rc=0
  shift
  "$AXIO" analyse "$@" > /dev/null 2> "$dir/err" || rc=$?
  if [ "$rc" != 2 ]; then echo "FAIL: analyse $* exit $rc, want 2"; exit 1; fi
  if [ "$(wc -l < "$dir/err")" != 1 ]; then echo "FAIL: not one line: $(cat "$dir/err")"; exit 1; fi
  grep -q -- "$pattern" "$dir/err" || { echo "FAIL: '$(cat "$dir/err")' lacks '$pattern'"; exit 1; }
  echo "ok: $(cat "$dir/err")"
}
bad "needs --seat" "$hex"
bad "the game has seats 0 to 1" "$hex" --seat 2
bad "seat number 0 to 3" "$hex" --seat -1
bad "seat number 0 to 3" "$hex" --seat one
bad "needs a record file" --seat 0
bad "not also" "$hex" "$rota" --seat 0
bad "unknown or incomplete option" "$hex" --seat 0 --fast
bad "playouts must be" "$hex" --seat 0 --playouts 0
bad "movetime must be" "$hex" --seat 0 --movetime x
bad "No such file" "$dir/none.jsonl" --seat 0
head -5 "$hex" > "$dir/short.jsonl"
bad "stops before the game is over" "$dir/short.jsonl" --seat 0
"$PYTHON3" - "$hex" "$dir/tampered.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
for ev in lines:
    if ev["ev"] == "place" and ev["player"] == 1:
        ev["score"]["red"] += 3
        break
open(sys.argv[2], "w").write("".join(json.dumps(e) + "\n" for e in lines))
PY
bad 'place: "score"' "$dir/tampered.jsonl" --seat 0
"$AXIO" analyse --help | grep -q "usage: axio analyse RECORD --seat S"
echo "analyse ok"
