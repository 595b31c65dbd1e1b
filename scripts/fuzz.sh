#!/usr/bin/env bash
# Fuzzes the server's message dispatch and its sessions: builds the libFuzzer targets
# fuzz_dispatch and fuzz_session with clang in build/fuzz and runs each for CARC_FUZZ_SECONDS
# seconds (default 30); fuzz_dispatch on build/fuzz/corpus, a copy of server/fuzz/corpus that
# keeps what earlier runs found (the repository is never written), fuzz_session on
# build/fuzz/session-corpus. With CARC_FUZZ_BUILD=DIR, a clang tree already configured with
# -DCARC_BUILD_FUZZ=ON is used instead of build/fuzz (scripts/test.sh passes its sanitizer tree).
# Exits non-zero on a crash; the input that crashed is saved in DIR/artifacts/. Replay it:
#   CARC_FUZZ_TRACE=1 build/fuzz/server/fuzz/fuzz_dispatch build/fuzz/artifacts/crash-...
#   ./scripts/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
carc_install_deps

seconds="${CARC_FUZZ_SECONDS:-30}"
build="${CARC_FUZZ_BUILD:-build/fuzz}"
echo "==> build fuzz_dispatch and fuzz_session in $build (clang, libFuzzer + AddressSanitizer + UBSan)"
if [ -z "${CARC_FUZZ_BUILD:-}" ]; then
  cmake -S . -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCARC_BUILD_FUZZ=ON -DCARC_BUILD_TESTS=OFF -DCARC_BUILD_BENCH=OFF > /dev/null
fi
cmake --build "$build" --target fuzz_dispatch fuzz_session

mkdir -p "$build/corpus" "$build/session-corpus" "$build/artifacts"
cp server/fuzz/corpus/* "$build/corpus/"

echo "==> fuzz_dispatch for ${seconds}s"
# The first directory is where libFuzzer adds new inputs: $build/corpus, never the repository.
"$build/server/fuzz/fuzz_dispatch" -max_total_time="$seconds" -timeout=20 \
  -artifact_prefix="$build/artifacts/" -print_final_stats=1 "$build/corpus"
echo "==> fuzz_dispatch: no crash in ${seconds}s"

echo "==> fuzz_session for ${seconds}s"
"$build/server/fuzz/fuzz_session" -max_total_time="$seconds" -timeout=20 \
  -artifact_prefix="$build/artifacts/" -print_final_stats=1 "$build/session-corpus"
echo "==> fuzz_session: no crash in ${seconds}s"
