#!/usr/bin/env bash
# Installs the Debian 12 packages the project builds and tests with (Chromium and a font for the
# web client's end-to-end tests among them; nginx for the test of shards behind a proxy; yamllint
# and Python's YAML parser for the files of docker/ and deploy/k8s/), if any is missing. Sourced by
# run.sh and test.sh; safe to run again (it only calls apt-get when something is missing).
set -euo pipefail

CARC_PACKAGES=(
  g++ cmake ninja-build pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev
  libprotobuf-dev protobuf-compiler
  libboost-dev libboost-system-dev libspdlog-dev
  libsqlite3-dev libssl-dev
  clang clang-tidy clang-format
  chromium fonts-dejavu-core
  nginx-light yamllint python3-yaml
)

carc_missing_packages() {
  local missing=()
  for p in "${CARC_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  echo "${missing[@]:-}"
}

carc_install_deps() {
  local missing
  missing=$(carc_missing_packages)
  # The web client (web/) is built with Node.js and npm. A machine that has them already (from
  # any source) keeps them; otherwise Debian's packages are installed.
  if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
    missing="${missing:+$missing }nodejs npm"
  fi
  if [ -z "$missing" ]; then
    carc_check_node
    return 0
  fi
  echo "==> installing Debian packages: $missing"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
  carc_check_node
}

# Vite 7 and Vitest 4 need Node.js 20.19 or later; Debian 12's own package is older. Says so
# plainly rather than letting npm fail later with a less clear message.
carc_check_node() {
  local version
  version=$(node -p 'process.versions.node' 2> /dev/null || echo 0.0.0)
  if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' 2> /dev/null; then
    echo "error: the web client needs Node.js 20.19 or later (found $version): install it," >&2
    echo "       e.g. from NodeSource or nvm, and run this command again" >&2
    return 1
  fi
}
