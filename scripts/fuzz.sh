#!/usr/bin/env bash
# Fuzzes the server's message dispatch and its sessions: builds the libFuzzer targets
# fuzz_dispatch and fuzz_session with clang in build/fuzz and runs each for CARC_FUZZ_SECONDS
# seconds (default 30); fuzz_dispatch on build/fuzz/corpus, a copy of server/fuzz/corpus that
# keeps what earlier runs found (the repository is never written), fuzz_session on
# build/fuzz/session-corpus.
# Exits non-zero on a crash; the input that crashed is saved in build/fuzz/artifacts/. Replay it:
#   CARC_FUZZ_TRACE=1 build/fuzz/server/fuzz/fuzz_dispatch build/fuzz/artifacts/crash-...
#   ./scripts/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
carc_install_deps

seconds="${CARC_FUZZ_SECONDS:-30}"
echo "==> build fuzz_dispatch and fuzz_session (clang, libFuzzer + AddressSanitizer + UBSan)"
cmake -S . -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCARC_BUILD_FUZZ=ON -DCARC_BUILD_TESTS=OFF -DCARC_BUILD_BENCH=OFF > /dev/null
cmake --build build/fuzz --target fuzz_dispatch fuzz_session

mkdir -p build/fuzz/corpus build/fuzz/session-corpus build/fuzz/artifacts
cp server/fuzz/corpus/* build/fuzz/corpus/

echo "==> fuzz_dispatch for ${seconds}s"
# The first directory is where libFuzzer adds new inputs: build/fuzz/corpus, never the repository.
./build/fuzz/server/fuzz/fuzz_dispatch -max_total_time="$seconds" -timeout=20 \
  -artifact_prefix=build/fuzz/artifacts/ -print_final_stats=1 build/fuzz/corpus
echo "==> fuzz_dispatch: no crash in ${seconds}s"

echo "==> fuzz_session for ${seconds}s"
./build/fuzz/server/fuzz/fuzz_session -max_total_time="$seconds" -timeout=20 \
  -artifact_prefix=build/fuzz/artifacts/ -print_final_stats=1 build/fuzz/session-corpus
echo "==> fuzz_session: no crash in ${seconds}s"
