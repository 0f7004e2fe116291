#!/usr/bin/env bash
# Installs the Debian packages axio needs that are missing, as root or through
# sudo. Prints nothing when everything is there.
set -euo pipefail

packages=(build-essential cmake pkg-config clang clang-format libclang-rt-14-dev python3
          libjansson-dev libcmocka-dev libwebsockets-dev libwebsockets-evlib-uv libuv1-dev
          libsqlite3-dev libpq-dev libssl-dev
          libunistring-dev libsodium-dev libicu-dev)
# The store's PostgreSQL backend is tested against a real server the tests start
# themselves (tests/server/pgcluster.py: initdb and postgres of Debian's postgresql).
# (On a machine that runs systemd, installing it also starts Debian's own cluster; the
# tests do not use it.)
packages+=(postgresql)
# `axio bot`, the bridge between an engine and a site's Bot API (docs/bot-api.md): libcurl
# for its HTTP(S) streams and requests.
packages+=(libcurl4-openssl-dev)
# docs/deploy.md and its test (tests/deploy): nginx in front, a certificate made by
# openssl, backups with sqlite3, the unit checked by systemd-analyze (package systemd).
# (On a machine that runs systemd, installing nginx also starts its default site.)
packages+=(nginx openssl sqlite3 systemd)
# The Python package (python/, docs/python.md): numpy, and what `pip install
# --no-build-isolation ./python` into a virtual environment needs without an index.
packages+=(python3-numpy python3-venv python3-setuptools python3-wheel)
# PettingZoo's and Gymnasium's released sources, which the Python package's tests run
# beside the repository (tests/python/farama.py), need these of Debian's.
packages+=(python3-cloudpickle python3-typing-extensions)
# tests/server/test_push.py's push service decrypts what the server sends (RFC 8291) and
# checks its VAPID signature with Debian's python3-cryptography.
packages+=(python3-cryptography)
[ "${AXIO_WEB_TESTS:-1}" = 1 ] && packages+=(chromium nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# nodejs may come from elsewhere than Debian; a working node and npm will do.
if command -v node >/dev/null && command -v npm >/dev/null; then
  filtered=()
  for p in "${missing[@]}"; do [[ $p == nodejs || $p == npm ]] || filtered+=("$p"); done
  missing=("${filtered[@]}")
fi
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
