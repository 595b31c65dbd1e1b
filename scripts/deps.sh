#!/usr/bin/env bash
# Installs the Debian 12 packages the project builds and tests with (Chromium and a font for the
# web client's end-to-end tests among them), if any is missing. Sourced by run.sh and test.sh;
# safe to run again (it only calls apt-get when something is missing).
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
}
