#!/usr/bin/env bash
# OS packages (Debian/Ubuntu) that `npm start` and `npm test` need; both run this script when one is
# missing, and so does CI (.ci/run).
#   bash .ci/e2e-deps.sh          everything `npm test` needs
#   bash .ci/e2e-deps.sh start    what `npm start` needs
# `start`: the Kerberos headers that code-server's `kerberos` module compiles against, and the
# compiler, make and Python that node-gyp builds its native modules (kerberos, node-pty) with.
# `npm test` adds, for the real-editor (e2e) tests, Debian's Chromium (driven by playwright-core,
# never a downloaded browser); for the package tests, git, the real pre-commit, and what builds
# and installs the Python wheel offline; Neovim, for the test of docs/editors.md's Neovim setup.
# Idempotent (nothing to do: exits 0 at once). Installs as root, or through sudo when it asks no
# password; otherwise prints the apt-get line to run and exits 1.
set -euo pipefail

start_packages=(libkrb5-dev python3 make g++)
packages=("${start_packages[@]}" chromium git pre-commit python3-build python3-setuptools python3-wheel python3-venv neovim)
case "${1:-}" in
  start) packages=("${start_packages[@]}") ;;
  '') ;;
  *) echo "usage: bash .ci/e2e-deps.sh [start]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "e2e-deps: already installed: ${packages[*]}"
  exit 0
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO=(sudo -n); else
    echo "e2e-deps: missing OS packages: ${missing[*]}; install them as root:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
fi

echo "e2e-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"

if [ "${1:-}" != start ]; then
  test -x /usr/bin/chromium || { echo "e2e-deps: /usr/bin/chromium missing after install" >&2; exit 1; }
  command -v nvim >/dev/null || { echo "e2e-deps: nvim missing after install" >&2; exit 1; }
  echo "e2e-deps: done ($(/usr/bin/chromium --version 2>/dev/null || echo chromium))"
else
  echo "e2e-deps: done"
fi
