#!/usr/bin/env bash
# Prepares a machine to work on boardkit and runs the main job (`npm run setup`).
#
# Each step is one function, run in order by main(). Steps are idempotent: a second run changes nothing
# and skips work that is already done. Install steps stop the run when they fail; check steps all run,
# and the summary at the end names the ones that failed (exit status 1).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

readonly REQUIRED_NODE="20.19.0"
# Records which lockfile node_modules was installed from, so a rerun skips an identical `npm ci`.
readonly INSTALL_STAMP="node_modules/.boardkit-install-stamp"

declare -a RESULTS=()

log() { printf '==> %s\n' "$*"; }

# A check step: run it, record pass or fail, never stop the run.
check() {
  local name="$1"
  shift
  log "$name"
  if "$@"; then
    RESULTS+=("ok    $name")
  else
    RESULTS+=("FAIL  $name")
  fi
}

require_node() {
  if ! command -v node >/dev/null 2>&1; then
    echo "Node.js ${REQUIRED_NODE} or later is required (package.json engines)." >&2
    exit 1
  fi
  if ! node -e '
    const [want, have] = process.argv.slice(1).map((v) => v.replace(/^v/, "").split(".").map(Number));
    process.exit(have[0] > want[0] || (have[0] === want[0] && (have[1] > want[1] ||
      (have[1] === want[1] && have[2] >= want[2]))) ? 0 : 1);
  ' "$REQUIRED_NODE" "$(node --version)"; then
    echo "Node.js ${REQUIRED_NODE} or later is required; found $(node --version)." >&2
    exit 1
  fi
  log "node $(node --version), npm $(npm --version)"
}

lockfile_digest() {
  cat package.json package-lock.json | sha256sum | cut -d' ' -f1
}

install_node_dependencies() {
  if [[ ! -f package-lock.json ]]; then
    log "npm install (no lockfile yet)"
    npm install --no-audit --no-fund
    return
  fi
  if [[ -f "$INSTALL_STAMP" && "$(cat "$INSTALL_STAMP")" == "$(lockfile_digest)" ]]; then
    log "node_modules matches package-lock.json; skipping npm ci"
    return
  fi
  log "npm ci"
  npm ci --no-audit --no-fund
  lockfile_digest >"$INSTALL_STAMP"
}

# `prepare` builds on install, but a skipped install or edited sources need a fresh lib/ all the same.
build_library() {
  log "build lib/"
  npm run --silent build
}

check_artefacts() {
  node bin/boardkit.js bundle --check
}

lint_contract() {
  node bin/boardkit.js lint
}

summary() {
  local failed=0
  printf '\nboardkit setup summary\n'
  for line in "${RESULTS[@]}"; do
    printf '  %s\n' "$line"
    if [[ "$line" == FAIL* ]]; then
      failed=1
    fi
  done
  if ((failed)); then
    printf 'Some checks failed; see their output above.\n'
    return 1
  fi
  printf 'Ready: run `npm test` for the full suite.\n'
}

main() {
  require_node
  install_node_dependencies
  build_library
  check "artefacts are fresh (boardkit bundle --check)" check_artefacts
  check "contract lints clean (boardkit lint)" lint_contract
  summary
}

main "$@"
