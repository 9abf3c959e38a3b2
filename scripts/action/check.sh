#!/usr/bin/env bash
# The Action's check step: `shardwise check` on SHARDWISE_PATHS with SHARDWISE_ARGS, once as
# GitHub workflow commands (an annotation per finding; the step fails when an error is found) and,
# with SHARDWISE_SARIF, once more as SARIF for code scanning.
set -uo pipefail

bin="${SHARDWISE_BIN:?the install step sets SHARDWISE_BIN}"
read -r -d '' -a paths <<< "${SHARDWISE_PATHS:-.}"
read -r -d '' -a args <<< "${SHARDWISE_ARGS:-}"
[ "${#paths[@]}" -gt 0 ] || paths=(.)

if [ -n "${SHARDWISE_SARIF:-}" ]; then
  # The level the annotations default to (errors and warnings), unless the args say otherwise (--show-info).
  "$bin" check "${paths[@]}" --min-severity warning "${args[@]}" --output-format sarif > "$SHARDWISE_SARIF"
  status=$?
  # 1 is "an error was found", which the annotations below report; 2 is a failure of the run.
  [ "$status" -le 1 ] || exit "$status"
  echo "sarif-file=$SHARDWISE_SARIF" >> "${GITHUB_OUTPUT:-/dev/null}"
fi
"$bin" check "${paths[@]}" "${args[@]}" --output-format github
