#!/usr/bin/env bash
# The release build: carc-server, carc-client, carc and carc-db in build/release, and the web
# client in web/dist. What run.sh starts and the container image (docker/Dockerfile) ships, built
# by the same lines. Expects what scripts/deps.sh installs.
#   ./scripts/build-release.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DCARC_BUILD_TESTS=OFF \
  -DCARC_BUILD_BENCH=OFF > /dev/null
cmake --build build/release --target carc-server carc-client carc carc-db
echo "==> web client (npm ci, build)"
(cd web && npm ci --no-audit --no-fund --loglevel=error && npm run build --silent) > /dev/null
