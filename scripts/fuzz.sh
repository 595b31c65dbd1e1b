#!/usr/bin/env bash
# Fuzzes the server's message dispatch: builds the libFuzzer target fuzz_dispatch with clang in
# build/fuzz and runs it for CARC_FUZZ_SECONDS seconds (default 30) on build/fuzz/corpus, a copy
# of server/fuzz/corpus that keeps what earlier runs found (the repository is never written).
# Exits non-zero on a crash; the input that crashed is saved in build/fuzz/artifacts/. Replay it:
#   CARC_FUZZ_TRACE=1 build/fuzz/server/fuzz/fuzz_dispatch build/fuzz/artifacts/crash-...
#   ./scripts/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
carc_install_deps

seconds="${CARC_FUZZ_SECONDS:-30}"
echo "==> build fuzz_dispatch (clang, libFuzzer + AddressSanitizer + UBSan)"
cmake -S . -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCARC_BUILD_FUZZ=ON -DCARC_BUILD_TESTS=OFF -DCARC_BUILD_BENCH=OFF > /dev/null
cmake --build build/fuzz --target fuzz_dispatch

mkdir -p build/fuzz/corpus build/fuzz/artifacts
cp server/fuzz/corpus/* build/fuzz/corpus/

echo "==> fuzz_dispatch for ${seconds}s"
# The first directory is where libFuzzer adds new inputs: build/fuzz/corpus, never the repository.
./build/fuzz/server/fuzz/fuzz_dispatch -max_total_time="$seconds" -timeout=20 \
  -artifact_prefix=build/fuzz/artifacts/ -print_final_stats=1 build/fuzz/corpus
echo "==> fuzz_dispatch: no crash in ${seconds}s"
