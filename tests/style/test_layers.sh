#!/usr/bin/env bash
# test_layers.sh - the server's layers include each other in one direction only
# (docs/server.md, "Layers"):
#
#   src/server/transport/  libwebsockets, HTTP, cookies, addresses, limits; may include game/
#   src/server/game/       games, decisions, accounts, computer players; may include store/
#   src/server/store/      one interface, SQLite and PostgreSQL backends; includes neither
#   src/server/base/       what every layer uses (message texts, token buckets); includes no layer
#
# and only the layer that owns a library includes its header: libwebsockets.h and uv.h
# only in transport/, sqlite3.h only in the store's SQLite backend (sql_sqlite.c),
# libpq-fe.h only in its PostgreSQL backend (sql_pg.c). Everything else in src/ (the engine, the players, the cli) includes
# none of them; src/cli/cmd_serve.c, which puts the layers together, may include all three
# layers' headers. A wrong #include fails here with its file and line.
set -euo pipefail
cd "${SRC:-$(dirname "$0")/../..}"

fail=0
complain() {
  echo "FAIL: $1" >&2
  fail=1
}

# "file:line:header" for every #include "..." or <...> of the C files under a folder.
includes() {
  grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' -r --include='*.c' --include='*.h' "$@" |
    sed -E 's/^([^:]+):([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^>"]+)[>"].*/\1:\2:\3/'
}

[ -d src/server/transport ] && [ -d src/server/game ] && [ -d src/server/store ] ||
  complain "src/server is not in its three layers (transport/, game/, store/)"
for d in src/server/*/; do
  case "$d" in src/server/transport/ | src/server/game/ | src/server/store/ | src/server/base/) ;;
    *) complain "a folder of src/server that is neither a layer nor base/: $d" ;; esac
done
extra=$(find src/server -maxdepth 1 -name '*.[ch]' | sort)
[ -z "$extra" ] || complain "files of src/server outside its layers: $extra"

# Upward includes: a layer reaching one above it.
while IFS=: read -r file line header; do
  case "$header" in
    *transport/*) complain "$file:$line includes $header: the game service is below the transport" ;;
  esac
done < <(includes src/server/game)
while IFS=: read -r file line header; do
  case "$header" in
    *transport/* | *game/*) complain "$file:$line includes $header: the store is the lowest layer" ;;
  esac
done < <(includes src/server/store)
while IFS=: read -r file line header; do
  case "$header" in
    *transport/* | *game/* | *store/*) complain "$file:$line includes $header: base/ is below every layer" ;;
  esac
done < <(includes src/server/base)
# Within a layer, a relative "../" include names another layer: only downward is allowed.
while IFS=: read -r file line header; do
  case "$header" in
    ../store/* | ../game/* | ../base/* | ../../engine/* | ../../ai/* | ../../rating/*) ;;
    ../*) complain "$file:$line includes $header: not a layer below" ;;
  esac
done < <(includes src/server/transport)

# Libraries: each header in its own layer only.
while IFS=: read -r file line header; do
  case "$header" in
    libwebsockets.h | uv.h)
      case "$file" in src/server/transport/*) ;; *) complain "$file:$line includes $header (transport only)" ;; esac ;;
    sqlite3.h)
      case "$file" in src/server/store/sql_sqlite.c) ;; *) complain "$file:$line includes $header (the SQLite backend only)" ;; esac ;;
    libpq-fe.h)
      case "$file" in src/server/store/sql_pg.c) ;; *) complain "$file:$line includes $header (the PostgreSQL backend only)" ;; esac ;;
  esac
done < <(includes src)

# The engine, the players and the ratings know nothing of the server.
while IFS=: read -r file line header; do
  case "$header" in
    *server/*) complain "$file:$line includes $header: the engine, players and ratings are below the server" ;;
  esac
done < <(includes src/engine src/ai src/rating)

# The cli reaches the server only through cmd_serve.c and cmd_db.c (which put it together).
while IFS=: read -r file line header; do
  case "$file" in src/cli/cmd_serve.c | src/cli/cmd_db.c) continue ;; esac
  case "$header" in
    *server/*) complain "$file:$line includes $header: only cmd_serve.c and cmd_db.c start the server's parts" ;;
  esac
done < <(includes src/cli)

[ "$fail" = 0 ] || exit 1
echo "ok: transport -> game -> store, each library's header in its own layer"
