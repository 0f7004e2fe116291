#!/usr/bin/env bash
# test_format.sh - every C file of the repository is as clang-format (.clang-format) writes
# it, so a change never mixes reformatting with meaning. `make format` fixes it.
set -euo pipefail
cd "${SRC:-$(dirname "$0")/../..}"
if ! command -v clang-format >/dev/null; then
  echo "FAIL: clang-format is missing (make deps installs it)" >&2
  exit 1
fi
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find src tests bench -name '*.[ch]')
if ! clang-format --dry-run --Werror $files; then
  echo "FAIL: the files above are not clang-formatted; run 'make format'" >&2
  exit 1
fi
echo "ok: $(echo "$files" | wc -w) C files formatted"
