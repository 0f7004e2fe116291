#!/usr/bin/env bash
# test_layers.sh - the parts of src/ include each other in one direction only
# (docs/server.md, "Layers"). Each part may include the parts listed after it:
#
#   src/engine/            the rules                                  nothing
#   src/rating/            ratings                                    engine
#   src/tournament/        tournament pairing, points, standings      engine
#   src/ai/                the computer players and their levels      engine
#   src/capi/              the C ABI, libaxio.so                      engine, ai
#   src/cli/               the axio command                           engine, ai, rating, tournament
#   src/server/base/       what every layer of the server uses        nothing
#   src/server/store/      one interface, SQLite and PostgreSQL       base, engine, rating
#   src/server/game/       games, decisions, accounts, players        store, base, engine, ai, rating,
#                                                                     tournament
#   src/server/transport/  libwebsockets, HTTP, cookies, limits       game, store, base, engine, ai, rating,
#                                                                     tournament
#
# The cli puts the server together in two files only: cmd_serve.c may include the
# transport (which brings the rest), cmd_db.c the store. An include is followed to the
# file it names: a relative path ("../ai/player.h"), or a bare name the compiler finds
# through an include directory ("axio.h" is src/engine/axio.h), so that no part reaches
# another through its build's include path unseen.
#
# And only the layer that owns a library includes its header: libwebsockets.h and uv.h
# only in transport/, sqlite3.h only in the store's SQLite backend (sql_sqlite.c),
# libpq-fe.h only in its PostgreSQL backend (sql_pg.c). A wrong #include fails here
# with its file and line.
set -euo pipefail
cd "${SRC:-$(dirname "$0")/../..}"

fail=0
complain() {
  echo "FAIL: $1" >&2
  fail=1
}

# What each part may include, besides itself.
declare -A may=(
  [engine]=""
  [rating]="engine"
  [tournament]="engine"
  [ai]="engine"
  [capi]="engine ai"
  [cli]="engine ai rating tournament"
  [server/base]=""
  [server/store]="server/base engine rating"
  [server/game]="server/store server/base engine ai rating tournament"
  [server/transport]="server/game server/store server/base engine ai rating tournament"
)
parts="engine rating tournament ai capi cli server/base server/store server/game server/transport"

# "file:line:header" for every #include "..." or <...> of the C files under a folder.
includes() {
  grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' -r --include='*.c' --include='*.h' "$@" |
    sed -E 's/^([^:]+):([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*([<"])([^>"]+)[>"].*/\1:\2:\3\4/'
}

# The part of a path below src/ ("src/server/game/lobby.c" -> server/game).
part_of() {
  local p=${1#src/}
  case "$p" in server/*) p=${p#server/}; echo "server/${p%%/*}" ;; *) echo "${p%%/*}" ;; esac
}

# A path with its "." and ".." steps taken (no file system calls: fast).
normalize() {
  local IFS=/ step out=()
  for step in $1; do
    case "$step" in
      "" | .) ;;
      ..) [ ${#out[@]} -gt 0 ] && unset 'out[${#out[@]}-1]' ;;
      *) out+=("$step") ;;
    esac
  done
  echo "${out[*]}"
}

# The file of src/ an #include "header" of `file` names, or nothing.
resolve() {
  local file=$1 header=$2 dir part
  dir=$(dirname "$file")
  if [ -f "$dir/$header" ]; then
    normalize "$dir/$header"
    return
  fi
  for part in $parts; do
    if [ -f "src/$part/$header" ]; then
      echo "src/$part/$header"
      return
    fi
  done
}

[ -d src/server/transport ] && [ -d src/server/game ] && [ -d src/server/store ] ||
  complain "src/server is not in its three layers (transport/, game/, store/)"
for d in src/server/*/; do
  case "$d" in src/server/transport/ | src/server/game/ | src/server/store/ | src/server/base/) ;;
    *) complain "a folder of src/server that is neither a layer nor base/: $d" ;; esac
done
extra=$(find src/server -maxdepth 1 -name '*.[ch]' | sort)
[ -z "$extra" ] || complain "files of src/server outside its layers: $extra"
for d in src/*/; do
  d=${d#src/}
  d=${d%/}
  [ "$d" = server ] || [ -n "${may[$d]+set}" ] || complain "src/$d is no part this test knows: add it to the table"
done

# Every quoted include, followed to its file: downward only.
while IFS=: read -r file line header; do
  case "$header" in \"*) header=${header#\"} ;; *) continue ;; esac
  target=$(resolve "$file" "$header")
  [ -n "$target" ] || continue
  from=$(part_of "$file")
  to=$(part_of "$target")
  [ "$from" != "$to" ] || continue
  case " ${may[$from]} " in *" $to "*) continue ;; esac
  case "$file:$to" in src/cli/cmd_serve.c:server/transport | src/cli/cmd_db.c:server/store) continue ;; esac
  case "$from:$to" in
    cli:server/*) why="only cmd_serve.c (the transport) and cmd_db.c (the store) put the server together" ;;
    *) why="src/$from may include ${may[$from]:-nothing of another part}" ;;
  esac
  complain "$file:$line includes $header ($target): $why"
done < <(includes src)

# Libraries: each header in its own layer only.
while IFS=: read -r file line header; do
  header=${header#[<\"]}
  case "$header" in
    libwebsockets.h | uv.h)
      case "$file" in src/server/transport/*) ;; *) complain "$file:$line includes $header (transport only)" ;; esac ;;
    sqlite3.h)
      case "$file" in src/server/store/sql_sqlite.c) ;; *) complain "$file:$line includes $header (the SQLite backend only)" ;; esac ;;
    libpq-fe.h)
      case "$file" in src/server/store/sql_pg.c) ;; *) complain "$file:$line includes $header (the PostgreSQL backend only)" ;; esac ;;
  esac
done < <(includes src)

[ "$fail" = 0 ] || exit 1
echo "ok: engine <- rating, ai <- capi, cli; transport -> game -> store -> base; each library's header in its own layer"
