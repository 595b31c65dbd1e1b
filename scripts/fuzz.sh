#!/usr/bin/env bash
# Fuzzes the server's message dispatch and its sessions: builds the libFuzzer targets
# fuzz_dispatch and fuzz_session with clang in build/fuzz and runs both at the same time for
# CARC_FUZZ_SECONDS seconds (default 30); fuzz_dispatch on build/fuzz/corpus, a copy of
# server/fuzz/corpus that keeps what earlier runs found (the repository is never written),
# fuzz_session on build/fuzz/session-corpus. With CARC_FUZZ_BUILD=DIR, a clang tree already configured with
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

# The two fuzzers run at the same time, one core each (each is single-threaded); their output
# goes to $build/fuzz_dispatch.log and $build/fuzz_session.log, and a crash shows its log's end.
fuzz() {
  local name=$1 corpus=$2
  "$build/server/fuzz/$name" -max_total_time="$seconds" -timeout=20 \
    -artifact_prefix="$build/artifacts/" -print_final_stats=1 "$corpus" > "$build/$name.log" 2>&1
}
echo "==> fuzz_dispatch and fuzz_session for ${seconds}s, side by side"
# The first directory is where libFuzzer adds new inputs: $build/corpus, never the repository.
fuzz fuzz_dispatch "$build/corpus" &
dispatch=$!
fuzz fuzz_session "$build/session-corpus" &
session=$!
trap 'kill "$dispatch" "$session" 2> /dev/null || true' EXIT
failed=0
# Waits for one fuzzer (name, process id) and says how it ended.
report() {
  if wait "$2"; then
    echo "==> $1: no crash in ${seconds}s"
    grep '^stat::' "$build/$1.log" | sed 's/^/    /'
  else
    tail -n 60 "$build/$1.log"
    echo "$1 failed: $build/$1.log (the input that crashed is in $build/artifacts/)" >&2
    failed=1
  fi
}
report fuzz_dispatch "$dispatch"
report fuzz_session "$session"
exit "$failed"
