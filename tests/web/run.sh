#!/usr/bin/env bash
# Browser tests of the web client (tests/web/*.test.mjs, node's test runner):
# playwright-core drives Debian's chromium against the real `axio serve` on a free
# port with a temporary database. Run by ctest with AXIO=<built axio>, SRC=<repo>.
# Screenshots go to tests/web/screenshots/ (git-ignored).
# Arguments: the test files to run (default: all), e.g. tests/web/accounts.test.mjs;
# --setup only installs playwright-core (ctest's web/setup, before the files run at once).
set -euo pipefail
SRC=${SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
AXIO=${AXIO:-$SRC/build/axio}

if [ ! -x /usr/bin/chromium ]; then
  echo "FAIL: /usr/bin/chromium is missing; the browser tests need Debian's chromium package (make deps installs it)." >&2
  exit 1
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "FAIL: node and npm are needed for the browser tests." >&2
  exit 1
fi
if [ ! -x "$AXIO" ]; then
  echo "FAIL: no axio binary at $AXIO" >&2
  exit 1
fi
cd "$SRC"
if [ ! -f node_modules/playwright-core/package.json ]; then
  # Only the npm package: it never downloads a browser (we use /usr/bin/chromium).
  npm ci --no-audit --no-fund --loglevel=error || npm install --no-save --no-audit --no-fund --loglevel=error playwright-core
fi
if [ "${1:-}" = "--setup" ]; then exit 0; fi

TMP=$(mktemp -d /tmp/axio-web.XXXXXX)
PORT=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
# The whole suite creates more games and accounts, and asks more of the API, from one address
# (127.0.0.1) than the default limits (30 games, 5 accounts an hour, 20 API requests a second)
# allow a person; the limits themselves are tested in tests/server.
# The judge behind hints and analyses searches AXIO_JUDGE_PLAYOUTS (default 300) per decision,
# not the server's 6,000: the suite asks for hundreds of hints, and the sanitizer build's are
# slow. The guided games then follow the lines of that budget; to play those of a default
# server: AXIO_JUDGE_PLAYOUTS=6000 tests/web/run.sh tests/web/guide.test.mjs.
"$AXIO" serve --port "$PORT" --bind 127.0.0.1 --db "$TMP/web.db" --web "$SRC/web" \
  --max-games-per-ip 1000 --max-signups-per-ip 1000 --request-rate 1000 \
  --max-waiting-per-ip 1000 --max-strong-games-per-ip 1000 --max-hints-per-ip 100000 \
  --max-analyses-per-ip 1000 \
  --judge-playouts "${AXIO_JUDGE_PLAYOUTS:-300}" >"$TMP/server.log" 2>&1 &
SERVER=$!
cleanup() {
  kill "$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

healthy() { node -e 'fetch(process.argv[1]).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))' "http://127.0.0.1:$PORT/api/health"; }
for _ in $(seq 1 100); do
  if healthy; then break; fi
  if ! kill -0 "$SERVER" 2>/dev/null; then echo "FAIL: axio serve exited:" >&2; cat "$TMP/server.log" >&2; exit 1; fi
  sleep 0.2
done
healthy || { echo "FAIL: axio serve did not answer" >&2; cat "$TMP/server.log" >&2; exit 1; }

export AXIO_URL="http://127.0.0.1:$PORT"
export AXIO_SHOTS="$SRC/tests/web/screenshots"
status=0
if [ "$#" -gt 0 ]; then TESTS=("$@"); else TESTS=(tests/web/*.test.mjs); fi
node --test --test-concurrency=1 --test-reporter=spec ${AXIO_TEST_PATTERN:+--test-name-pattern="$AXIO_TEST_PATTERN"} "${TESTS[@]}" || status=$?
if [ "$status" -ne 0 ]; then
  echo "--- axio serve log (last 60 lines) ---" >&2
  tail -n 60 "$TMP/server.log" >&2 || true
fi
exit "$status"
