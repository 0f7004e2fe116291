#!/usr/bin/env bash
# `axio replay` rejects tampered records, naming the line (exit 1), and unreadable ones
# (missing, empty, truncated, malformed: exit 2), always with a one-line message.
set -euo pipefail
: "${AXIO:?path of the axio command}"
PYTHON3=${PYTHON3:-python3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$AXIO" selfplay --variant square --players 2 --ai greedy --seed 7 --record "$dir" > /dev/null
"$AXIO" selfplay --variant rota --players 2 --ai greedy --seed 7 --record "$dir" > /dev/null
good="$dir/square-2p-standard-7.jsonl"
rota="$dir/rota-2p-standard-7.jsonl"
"$AXIO" replay "$good" > /dev/null

# expect CODE PATTERN FILE: replay fails with CODE and one line of stderr matching PATTERN
expect() {
  local code=$1 pattern=$2 file=$3 rc=0
  "$AXIO" replay "$file" > /dev/null 2> "$dir/err" || rc=$?
  if [ "$rc" != "$code" ]; then echo "FAIL: $file exit $rc, want $code: $(cat "$dir/err")"; exit 1; fi
  if [ "$(wc -l < "$dir/err")" != 1 ]; then echo "FAIL: not one line: $(cat "$dir/err")"; exit 1; fi
  grep -q -- "$pattern" "$dir/err" || { echo "FAIL: '$(cat "$dir/err")' lacks '$pattern'"; exit 1; }
  echo "ok: $(cat "$dir/err")"
}

# tamper LINE-PREDICATE EDIT: writes a copy of $good with the first line matching edited
tamper() {
  "$PYTHON3" - "$1" "$2" "$3" "$4" <<'PY'
import json, sys
src, out, match, edit = sys.argv[1:5]
lines = open(src).read().splitlines()
for i, line in enumerate(lines):
    ev = json.loads(line)
    if eval(match):
        exec(edit)
        lines[i] = json.dumps(ev, separators=(",", ":"))
        print(i + 1)
        break
open(out, "w").write("\n".join(lines) + "\n")
PY
}

n=$(tamper "$good" "$dir/points.jsonl" "ev['ev']=='place' and sum(ev['points'].values())>0" \
  "c=[k for k,v in ev['points'].items() if v][0]; ev['points'][c]+=1")
expect 1 "line $n: place: \"points\"" "$dir/points.jsonl"

n=$(tamper "$good" "$dir/score.jsonl" "ev['ev']=='place' and ev['player']==1" "ev['score']['red']+=3")
expect 1 "line $n: place: \"score\"" "$dir/score.jsonl"

# an occupied cell: the 3rd placement goes where the 1st went
first=$("$PYTHON3" -c "import json,sys;print(json.dumps([json.loads(l) for l in open('$good') if '\"place\"' in l][0]['cells']))")
n=$(tamper "$good" "$dir/occupied.jsonl" "ev['ev']=='place' and ev.get('_n',0)==0 and globals().setdefault('k',[0]).__setitem__(0,globals()['k'][0]+1) is None and globals()['k'][0]==3" \
  "ev['cells']=json.loads('$first')")
expect 1 "line $n: illegal place" "$dir/occupied.jsonl"

# a missing pyramid
if grep -q '"ev":"pyramid"' "$good"; then
  "$PYTHON3" -c "
import sys
lines=open('$good').read().splitlines()
i=[k for k,l in enumerate(lines) if '\"ev\":\"pyramid\"' in l][0]
print(i+1)
del lines[i]
open('$dir/nopyramid.jsonl','w').write('\n'.join(lines)+'\n')" > "$dir/n"
  expect 1 "line $(cat "$dir/n"):" "$dir/nopyramid.jsonl"
else
  echo "FAIL: the sample game has no pyramid"; exit 1
fi

# a drawn tile changed (the shuffle is the seed's)
n=$(tamper "$good" "$dir/draw.jsonl" "ev['ev']=='draw' and ev['player']==1" "ev['tiles'][0]=['red','red'] if ev['tiles'][0]!=['red','red'] else ['blue','blue']")
expect 1 "line $n: draw: \"tiles\"" "$dir/draw.jsonl"

# a wrong ranking in the end line
n=$(tamper "$good" "$dir/ranking.jsonl" "ev['ev']=='end'" "ev['ranking']=ev['ranking'][::-1] if len(ev['ranking'])>1 else [[1],[0]]")
expect 1 "line $n: end: \"ranking\"" "$dir/ranking.jsonl"

# ROTA: a changed wild colour, and a tile turned differently
n=$(tamper "$rota" "$dir/rota.jsonl" "ev['ev']=='place'" "ev['tile']=ev['tile'][1:]+ev['tile'][:1]")
expect 1 "line $n:" "$dir/rota.jsonl"

# leaves (rules 6): a 3-player record where seat 1 resigns before the first placement; then
# twice, an unknown seat or reason, the ranking as if it had stayed, a leave inside a unit
"$AXIO" selfplay --variant hex --players 3 --ai greedy --seed 7 --record "$dir" > /dev/null
"$PYTHON3" - "$dir/hex-3p-standard-7.jsonl" "$dir" <<'PY'
import json, sys
src, out = sys.argv[1:3]
lines = open(src).read().splitlines()
first = next(i for i, l in enumerate(lines) if json.loads(l)["ev"] == "place")
leave = '{"ev":"leave","player":1,"why":"resign"}'
def write(name, ls):
    open("%s/%s" % (out, name), "w").write("\n".join(ls) + "\n")
# the game goes on: only the end's ranking changes (seat 1 last)
end = json.loads(lines[-1])
others = [[s for s in g if s != 1] for g in end["ranking"]]
end["ranking"] = [g for g in others if g] + [[1]]
write("leave.jsonl", lines[:first] + [leave] + lines[first:-1] + [json.dumps(end, separators=(",", ":"))])
end["ranking"] = [[1]] + [g for g in others if g]   # as if seat 1 had stayed and won
write("leave-unranked.jsonl", lines[:first] + [leave] + lines[first:-1] + [json.dumps(end, separators=(",", ":"))])
write("leave-twice.jsonl", lines[:first] + [leave, leave] + lines[first:])
write("leave-seat.jsonl", lines[:first] + [leave.replace('"player":1', '"player":3')] + lines[first:])
write("leave-why.jsonl", lines[:first] + [leave.replace("resign", "bored")] + lines[first:])
write("leave-unit.jsonl", lines[:first + 1] + [leave] + lines[first + 1:])
PY
"$AXIO" replay "$dir/leave.jsonl" > /dev/null
n=$(( $(grep -n '"ev":"leave"' "$dir/leave-twice.jsonl" | head -1 | cut -d: -f1) ))
expect 1 "line $((n + 1)): illegal leave: the seat has left" "$dir/leave-twice.jsonl"
expect 1 "line $n: leave of seat 3: no such seat" "$dir/leave-seat.jsonl"
expect 2 "line $n: leave needs \"why\"" "$dir/leave-why.jsonl"
expect 1 "line $(wc -l < "$dir/leave-unranked.jsonl"): end: \"ranking\"" "$dir/leave-unranked.jsonl"
expect 1 "line $((n + 1)):" "$dir/leave-unit.jsonl"

# unreadable records: exit 2
expect 2 "No such file" "$dir/missing.jsonl"
: > "$dir/empty.jsonl"
expect 2 "empty record" "$dir/empty.jsonl"
head -n 20 "$good" > "$dir/truncated.jsonl"
expect 2 "stops before the game is over" "$dir/truncated.jsonl"
head -c 900 "$good" > "$dir/cut.jsonl"
expect 2 "not a JSON object" "$dir/cut.jsonl"
printf '{"ev":"start","format":"axio-record/1","variant":"square","players":9,"mode":"standard","seed":"1"}\n' > "$dir/players.jsonl"
expect 2 "line 1: no game" "$dir/players.jsonl"
printf '{"ev":"start","format":"axio-record/1","variant":"square","players":2,"mode":"standard","seed":-4}\n' > "$dir/seed.jsonl"
expect 2 "line 1: start needs the seed" "$dir/seed.jsonl"
printf '[1,2,3]\n' > "$dir/array.jsonl"
expect 2 "line 1: not a JSON object" "$dir/array.jsonl"
head -c 3000 /dev/urandom > "$dir/noise.jsonl"
expect 2 "" "$dir/noise.jsonl"
n=$(tamper "$good" "$dir/types.jsonl" "ev['ev']=='place'" "ev['cells'][0]=['a',1]")
expect 2 "line $n: place needs \"cells\"" "$dir/types.jsonl"
n=$(tamper "$good" "$dir/huge.jsonl" "ev['ev']=='place'" "ev['cells'][0]=[10**30,1]")
expect 2 "line $n:" "$dir/huge.jsonl"

# random corruption never crashes (the sanitizer build runs this too)
for seed in $(seq 1 40); do
  "$PYTHON3" -c "
import random
random.seed($seed)
data=bytearray(open('$good','rb').read())
for _ in range(random.randint(1,6)):
    i=random.randrange(len(data)); data[i]=random.choice(b'{}[]\",:0123456789abcnull \n')
open('$dir/fuzz.jsonl','wb').write(bytes(data))"
  rc=0; "$AXIO" replay "$dir/fuzz.jsonl" > /dev/null 2>&1 || rc=$?
  case $rc in 0|1|2) ;; *) echo "FAIL: corrupted record, exit $rc (seed $seed)"; exit 1;; esac
done
echo "all tampered and malformed records rejected"
