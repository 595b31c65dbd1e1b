#!/usr/bin/env bash
# Every test: installs what is missing, checks formatting, builds with warnings as errors and
# runs all tests (the kill -9 test of the server included), the web client's unit tests and its
# end-to-end tests in headless Chromium (while clang-tidy and a clang AddressSanitizer + UBSan
# build run beside them), then the engine, persistence and server tests under the sanitizers,
# the fuzzers for a while, and a smoke run of the benchmarks.
#   ./scripts/test.sh   (CARC_SKIP_TIDY=1 skips clang-tidy, CARC_SKIP_ASAN=1 the sanitizers,
#                        CARC_SKIP_FUZZ=1 the fuzzer; CARC_FUZZ_SECONDS sets its time, 30)
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's header says how long the run has taken so far (SECONDS: bash's own count).
step() { echo "==> $* [at ${SECONDS}s]"; }

source scripts/deps.sh
carc_install_deps

jobs=$(nproc)
sources=$(git ls-files '*.cc' '*.h' 2>/dev/null || find engine tools tests bench -name '*.cc' -o -name '*.h')

step "clang-format"
# shellcheck disable=SC2086
clang-format --dry-run --Werror $sources

# Warnings are errors; assertions on (no NDEBUG). The engine and its tests are compiled
# optimised (-O2), everything else at -O0 with line tables (-g1): the server's Boost.Beast
# templates compile two to three times faster that way, and a backtrace still names file and line.
step "build (warnings are errors)"
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -g1" -DCARC_ENGINE_FLAGS="-O2" -DCARC_WERROR=ON > /dev/null
cmake --build build/test -j "$jobs"

step "tests"
ctest --test-dir build/test --output-on-failure -j "$jobs"

step "web client (npm ci, unit tests, type check and build)"
(cd web && npm ci --no-audit --no-fund && npm test && npm run build)

# The sanitizer tree, built with clang: the golden transcripts then also show that a seed gives
# the same game with a second compiler (R4). The same tree builds the fuzz targets
# (scripts/fuzz.sh), so the libraries are compiled once for both. The engine at -O1, the rest at
# -O0: instrumented Beast code compiles three times faster unoptimised.
sanitizer_build() {
  cmake -S . -B build/asan -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -gline-tables-only" -DCARC_ENGINE_FLAGS="-O1" \
    -DCARC_WERROR=ON -DCARC_SANITIZE=ON -DCARC_BUILD_BENCH=OFF -DCARC_BUILD_FUZZ=ON > /dev/null
  cmake --build build/asan -j "$jobs" --target engine_tests server_tests river_codec_tests net_tests \
    persistence_tests fuzz_dispatch fuzz_session
}

# .clang-tidy: warnings are errors. The whole report is kept in build/test/clang-tidy.log.
clang_tidy() {
  run-clang-tidy -p build/test -j "$jobs" -quiet "$(pwd)/(engine|persistence|server|tools|bench)/.*\.cc$" \
    > build/test/clang-tidy.log 2>&1 || { grep -E "error|warning" build/test/clang-tidy.log; return 1; }
}

# The end-to-end tests mostly wait (on the browser, on bots, on clocks that must run out): about a
# third of one core. So the sanitizer build and clang-tidy, which only need CPU, run beside them
# at the lowest priority, and the end-to-end tests keep the machine's attention.
background_checks() {
  if [ "${CARC_SKIP_ASAN:-0}" != "1" ]; then sanitizer_build; fi
  if [ "${CARC_SKIP_TIDY:-0}" != "1" ]; then echo "==> clang-tidy"; clang_tidy; fi
}
# Stops a background job and everything it started.
kill_tree() {
  local child
  for child in $(pgrep -P "$1"); do kill_tree "$child"; done
  kill "$1" 2> /dev/null || true
}
step "web client end to end (headless Chromium against carc-server), beside the sanitizer build and clang-tidy"
(renice -n 19 -p "$BASHPID" > /dev/null && background_checks) > build/test/background.log 2>&1 &
background=$!
trap 'kill_tree $background' EXIT
(cd web && CARC_SERVER="$(pwd)/../build/test/server/carc-server" npm run e2e)
step "waiting for the sanitizer build and clang-tidy"
if ! wait "$background"; then
  tail -n 60 build/test/background.log
  echo "the sanitizer build or clang-tidy failed: build/test/background.log" >&2
  exit 1
fi
trap - EXIT

if [ "${CARC_SKIP_ASAN:-0}" != "1" ]; then
  step "engine, server and persistence tests under AddressSanitizer + UndefinedBehaviorSanitizer (clang)"
  ctest --test-dir build/asan --output-on-failure -j "$jobs" -L "engine|server|persistence"
fi

if [ "${CARC_SKIP_FUZZ:-0}" != "1" ]; then
  if [ "${CARC_SKIP_ASAN:-0}" != "1" ]; then
    CARC_FUZZ_BUILD=build/asan CARC_FUZZ_SECONDS="${CARC_FUZZ_SECONDS:-30}" ./scripts/fuzz.sh
  else
    CARC_FUZZ_SECONDS="${CARC_FUZZ_SECONDS:-30}" ./scripts/fuzz.sh
  fi
fi

step "benchmarks (smoke run)"
./build/test/bench/engine_bench --benchmark_min_time=0.05 > /dev/null
./build/test/bench/store_bench --benchmark_min_time=0.05 > /dev/null
step "all tests passed"
