#!/usr/bin/env bash
# Bad usage of every command: exit code 2 and a one-line reason on stderr; --help works.
set -euo pipefail
: "${AXIO:?path of the axio command}"

bad() {
  local rc=0 err
  err=$("$AXIO" "$@" 2>&1 >/dev/null) || rc=$?
  if [ "$rc" != 2 ]; then echo "FAIL: axio $* exit $rc, want 2"; exit 1; fi
  if [ "$(printf '%s\n' "$err" | wc -l)" != 1 ] || [ -z "$err" ]; then
    echo "FAIL: axio $*: not one line: $err"; exit 1
  fi
  echo "ok: axio $* -> $err"
}

bad
bad frobnicate
bad selfplay --players 5
bad selfplay --players two
bad selfplay --variant chess
bad selfplay --mode team --players 2
bad selfplay --mode solo --players 3
bad selfplay --ai deep-blue
bad selfplay --ai ,
bad selfplay --games 0
bad selfplay --seed -3
bad selfplay --seed
bad selfplay extra
bad selfplay --record
bad selfplay --leaves
bad selfplay --leaves 0
bad selfplay --leaves often
bad replay
bad replay a b
bad replay --bogus
bad bench --games x
bad bench --variant chess
bad analyse
bad analyse --seat 0
bad analyse --seat 9 record.jsonl
bad analyse record.jsonl
bad db
bad db move a b
bad db copy
bad db copy a.db
bad db copy a.db b.db c.db
bad db copy a.db a.db
bad db copy --force a.db b.db
bad db copy sqlite: b.db
bad bot
bad bot --url http://127.0.0.1:9 --engine x
bad bot --url http://127.0.0.1:9 --token-file /nonexistent --engine x
bad bot --url http://127.0.0.1:9 --token-file /nonexistent --engine x --max-games 0
bad bot --url http://127.0.0.1:9 --token-file /nonexistent --engine x extra
bad serve --db sqlite:
bad train --variant hex --players 2 --seed 1
bad train --variant nope --players 2 --seed 1 --games 3
bad train --epochs 0
bad bench --only both
bad bench --repeat 102
bad bench --only tournament --entrants 1
bad bench --only tournament --waiting 5000
bad bench --only tournament --rounds -1
bad arena --jobs 65
bad engine --movetime -1
bad engine --player
bad serve --sync sometimes
bad serve --msg-rate 0.5
bad serve --public-url ftp://example.org
bad serve --trusted-proxy proxy.example.org
bad serve --port 65536
bad serve extra

# A refused value is named with the option and what it must be (src/cli/options.c).
reason() {
  local want=$1 err
  shift
  err=$("$AXIO" "$@" 2>&1 >/dev/null) && { echo "FAIL: axio $* succeeded"; exit 1; }
  case "$err" in *"$want"*) echo "ok: axio $* -> $err" ;; *) echo "FAIL: axio $*: '$err' lacks '$want'"; exit 1 ;; esac
}
reason "--players must be 1 to 4, not '5'" selfplay --players 5
reason "--movetime must be 1 to 3600000 ms, not 'x'" selfplay --movetime x
reason "--only must be engine, ai or tournament, not 'both'" bench --only both
reason "--sync must be normal or full, not 'x'" serve --sync=x
reason "--trusted-proxy must be an IP address, not 'x'" serve --trusted-proxy x
reason "--seed must be a number, not '-3'" selfplay --seed -3
reason "unknown or incomplete option '--players'" selfplay --players
# the same options as --name=VALUE and as a unique prefix; --help anywhere
"$AXIO" selfplay --pl=1 --gam 2 --seed=4 > /dev/null
"$AXIO" selfplay --games 0 2>/dev/null && { echo "FAIL: --games 0 accepted"; exit 1; }
"$AXIO" selfplay --players 2 --help | grep -q "usage: axio selfplay"
for cmd in selfplay replay bench analyse db train; do
  "$AXIO" $cmd --help | grep -q "usage: axio $cmd"
done
"$AXIO" --help | grep -q selfplay
rc=0; "$AXIO" selfplay --record /proc/nope/x > /dev/null 2>&1 || rc=$?
[ "$rc" = 1 ] || { echo "FAIL: unwritable record dir exit $rc"; exit 1; }
# the tournament benchmark runs on a small field (its figures: docs/measurements/tournaments.md)
out=$("$AXIO" bench --only tournament --entrants 40 --rounds 3 --waiting 20 --repeat 1)
for want in "swiss  2 seats 40 players" "swiss  4 seats 40 players" "arena  3 seats 20 waiting"; do
  case "$out" in *"$want"*) ;; *) echo "FAIL: axio bench --only tournament lacks '$want': $out"; exit 1 ;; esac
done
echo "usage errors ok"
