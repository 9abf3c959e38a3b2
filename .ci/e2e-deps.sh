#!/usr/bin/env bash
# OS packages the tests need: for the real-editor (e2e) tests, Debian's Chromium
# (driven by playwright-core, never a downloaded browser) and the Kerberos headers
# that code-server's `kerberos` dependency builds against; for the package tests,
# git, the real pre-commit, and what builds and installs the Python wheel offline;
# Neovim, for the test of docs/editors.md's Neovim setup. Idempotent; runs as root
# in CI (uses sudo when not root and sudo exists).
set -euo pipefail

packages=(chromium libkrb5-dev python3 make g++ git pre-commit python3-build python3-setuptools python3-wheel python3-venv neovim)

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
  if command -v sudo >/dev/null 2>&1; then SUDO=(sudo); else
    echo "e2e-deps: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "e2e-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"

test -x /usr/bin/chromium || { echo "e2e-deps: /usr/bin/chromium missing after install" >&2; exit 1; }
command -v nvim >/dev/null || { echo "e2e-deps: nvim missing after install" >&2; exit 1; }
echo "e2e-deps: done ($(/usr/bin/chromium --version 2>/dev/null || echo chromium))"
