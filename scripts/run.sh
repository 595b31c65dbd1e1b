#!/usr/bin/env bash
# The main job: installs what is missing, builds, and plays one self-play game of The City
# between four random players, drawn in the terminal with its final scores.
#   ./scripts/run.sh [seed]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
carc_install_deps

seed="${1:-$(date +%s)}"
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DCARC_BUILD_TESTS=OFF \
  -DCARC_BUILD_BENCH=OFF > /dev/null
cmake --build build/release --target carc

echo "==> a random 4-player game of Carcassonne: The City, seed $seed"
./build/release/tools/carc/carc show --seed "$seed" --players 4
./build/release/tools/carc/carc selfplay --seed "$seed" --players 4
echo "==> replay it move by move: ./build/release/tools/carc/carc selfplay --seed $seed --trace"
