#!/usr/bin/env bash
# `axio train`: the shipped weights files read as the build reads them (version, checksum)
# and value their stored positions as stored; a damaged copy is refused; the same options
# give the same file, whatever the jobs playing the games; bad usage exits 2 with one line.
set -euo pipefail
: "${AXIO:?path of the axio command}"
: "${SRC:?the source tree}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

for f in "$SRC"/src/ai/weights/*.txt; do
  "$AXIO" train --check "$f" > /dev/null
done

# one weight's digit changed: the checksum no longer fits
sed '/^hidden 7 /s/1/2/' "$SRC/src/ai/weights/hex-2p.txt" > "$dir/bad.txt"
cmp -s "$SRC/src/ai/weights/hex-2p.txt" "$dir/bad.txt" && { echo "nothing was changed"; exit 1; }
if "$AXIO" train --check "$dir/bad.txt" 2> "$dir/err"; then
  echo "a damaged file was accepted"; exit 1
fi
grep -q "bad checksum" "$dir/err"

"$AXIO" train --variant rota --players 2 --seed 3 --games 20 --epochs 3 --out "$dir/a.txt" 2> /dev/null
"$AXIO" train --variant rota --players 2 --seed 3 --games 20 --epochs 3 --out "$dir/b.txt" 2> /dev/null
cmp "$dir/a.txt" "$dir/b.txt"
"$AXIO" train --check "$dir/a.txt" > /dev/null

# games played on three threads, across more than one block of 256 games: the same file
"$AXIO" train --variant rota --players 2 --seed 3 --games 300 --test-games 20 --epochs 1 --out "$dir/one.txt" 2> /dev/null
"$AXIO" train --variant rota --players 2 --seed 3 --games 300 --test-games 20 --epochs 1 --jobs 3 --out "$dir/three.txt" 2> /dev/null
cmp "$dir/one.txt" "$dir/three.txt"

usage() {
  set +e
  "$AXIO" train "$@" > /dev/null 2> "$dir/err"
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || { echo "axio train $*: exit $rc, expected 2"; exit 1; }
  [ "$(wc -l < "$dir/err")" -eq 1 ] || { echo "axio train $*: not one line"; exit 1; }
}
usage --variant nope --players 2 --seed 1 --games 5
usage --variant hex --players 2 --seed 1
usage --variant hex --players 7 --seed 1 --games 5
usage --variant hex --players 2 --seed 1 --games 5 --bogus
usage --variant hex --players 2 --seed 1 --games 5 --jobs 0
"$AXIO" train --help | grep -q "usage: axio train"
echo ok
