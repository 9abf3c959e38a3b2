#!/usr/bin/env bash
# The Action's first step: puts a `shardwise` command where the next step finds it ($SHARDWISE_BIN,
# through $GITHUB_ENV). With SHARDWISE_VERSION, that release from the npm registry. Without, the
# Action's own version: at its release tag (SHARDWISE_ACTION_REF, the ref of `uses:`, is v<the
# version of its package.json>), the npm package that .github/workflows/release.yml published from
# that tag, installed in seconds; at any other ref (a branch, a commit), its own source, packed as
# `npm pack` packs it (the build runs in prepack) and installed from the tarball, so the Action runs
# exactly what the npm package holds. Needs Node 20 or later.
set -euo pipefail

die() { echo "::error title=shardwise::$1"; exit 2; }
command -v node >/dev/null || die "Node.js is not on PATH: add actions/setup-node (Node 20 or later) before this step."
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || die "Node.js $(node --version) is too old: shardwise needs Node 20 or later (actions/setup-node with node-version: 20)."

prefix="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/shardwise-action"
rm -rf "$prefix"
mkdir -p "$prefix"
own=$(node -p 'require(process.argv[1]).version' "$GITHUB_ACTION_PATH/package.json")
if [ -z "${SHARDWISE_VERSION:-}" ] && [ "${SHARDWISE_ACTION_REF:-}" = "v$own" ]; then
  echo "shardwise: the Action at its release tag ${SHARDWISE_ACTION_REF}: installing shardwise@$own from the npm registry"
  SHARDWISE_VERSION="$own"
fi
if [ -n "${SHARDWISE_VERSION:-}" ]; then
  [[ "$SHARDWISE_VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] || die "version must be a release number such as 0.1.0, not '$SHARDWISE_VERSION'."
  npm install --global --prefix "$prefix" --no-audit --no-fund "shardwise@$SHARDWISE_VERSION"
else
  src="$GITHUB_ACTION_PATH"
  # The build needs the development dependencies; their install scripts are not needed.
  (cd "$src" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  tarball=$(cd "$src" && npm pack --silent --pack-destination "$prefix")
  npm install --global --prefix "$prefix" --offline --no-audit --no-fund "$prefix/$tarball"
fi
echo "SHARDWISE_BIN=$prefix/bin/shardwise" >> "$GITHUB_ENV"
"$prefix/bin/shardwise" --version
