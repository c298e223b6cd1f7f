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
# `boardkit fuzz` runs Schemathesis from this project-local virtual environment (git-ignored).
readonly FUZZ_VENV=".venv"
readonly FUZZ_REQUIREMENTS="conformance/schemathesis/requirements.txt"
# The client generators and validators the contract is tested with (test/generators/), in the same .venv.
readonly GENERATOR_REQUIREMENTS="conformance/schemathesis/generators-requirements.txt"
readonly REQUIRED_PYTHON="3.11"

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

# Runs a command as root: directly when we are root, else through passwordless sudo.
as_root() {
  if ((EUID == 0)); then
    "$@"
  elif sudo -n true 2>/dev/null; then
    sudo -n "$@"
  else
    echo "Run as root (or with passwordless sudo): $*" >&2
    return 1
  fi
}

# The version pinned in the requirements file (`schemathesis==X.Y.Z`).
pinned_schemathesis() {
  sed -n 's/^schemathesis==\([0-9.]*\).*$/\1/p' "$FUZZ_REQUIREMENTS"
}

# Schemathesis needs Python 3.11 or later; prefer the newest interpreter found on PATH.
find_python() {
  local candidate
  for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      command -v "$candidate"
      return
    fi
  done
  return 1
}

# Whether every `name==version` of the generators' requirements is what the .venv has.
generators_installed() {
  local frozen
  frozen="$("$FUZZ_VENV/bin/python" -m pip freeze --disable-pip-version-check 2>/dev/null)" || return 1
  grep -E '^[a-z].*==' "$GENERATOR_REQUIREMENTS" | while read -r pin; do
    grep -qixF "$pin" <<<"$frozen" || return 1
  done
}

install_fuzzer() {
  local want have python
  want="$(pinned_schemathesis)"
  have="$("$FUZZ_VENV/bin/schemathesis" --version 2>/dev/null | sed -n 's/^schemathesis, version //p' || true)"
  if [[ -n "$want" && "$have" == "$want" ]] && generators_installed; then
    log "schemathesis $have and the generators already in $FUZZ_VENV; skipping pip install"
    return
  fi
  if ! python="$(find_python)"; then
    echo "Python ${REQUIRED_PYTHON} or later is required for boardkit fuzz (Schemathesis ${want})." >&2
    exit 1
  fi
  log "schemathesis ${want} into ${FUZZ_VENV} ($("$python" --version))"
  # Debian splits venv and ensurepip out of python3 into the python3-venv package.
  if ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then
    log "apt-get install python3-venv"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
  fi
  if [[ ! -x "$FUZZ_VENV/bin/python" ]]; then
    "$python" -m venv "$FUZZ_VENV"
  fi
  "$FUZZ_VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$FUZZ_REQUIREMENTS" \
    -r "$GENERATOR_REQUIREMENTS"
}

# The API reference test opens the built page in headless Chromium: Debian's `chromium` package.
install_chromium() {
  if command -v chromium >/dev/null 2>&1; then
    log "chromium already installed; skipping apt-get"
    return
  fi
  local -a as_root=()
  if ((EUID != 0)); then
    if ! sudo -n true 2>/dev/null; then
      echo "Chromium is missing; install it as root: apt-get install chromium" >&2
      return 1
    fi
    as_root=(sudo -n)
  fi
  log "apt-get install chromium"
  ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
    ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
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

check_docs_pages() {
  node bin/boardkit.js docs --check
}

check_breaking_changes() {
  node bin/boardkit.js diff
}

# The reference is built, not committed (docs/site/ is git-ignored): one HTML file that renders offline.
build_reference() {
  node bin/boardkit.js docs --site-only
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
  install_fuzzer
  build_library
  check "artefacts are fresh (boardkit bundle --check)" check_artefacts
  check "contract lints clean (boardkit lint)" lint_contract
  check "chromium is installed (the API reference test needs it)" install_chromium
  check "generated docs pages are fresh (boardkit docs --check)" check_docs_pages
  check "no undeclared breaking change to /v1 (boardkit diff)" check_breaking_changes
  check "API reference built into docs/site/ (boardkit docs --site-only)" build_reference
  summary
}

main "$@"
