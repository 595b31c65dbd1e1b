#!/usr/bin/env bash
# Every test: installs what is missing, checks formatting, builds with warnings as errors and
# runs all tests (the kill -9 test of the server included), the web client's unit tests and its
# end-to-end tests in headless Chromium, then runs the engine, persistence and server tests
# again under AddressSanitizer + UBSan, runs clang-tidy, and smoke-runs the benchmarks.
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

# Optimised, with assertions on (no NDEBUG), warnings as errors. Line tables only (-g1): it
# compiles in about 80 % of the time full debug information takes, and a backtrace still names
# file and line.
step "build (warnings are errors)"
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1" -DCARC_WERROR=ON > /dev/null
cmake --build build/test -j "$jobs"

step "tests"
ctest --test-dir build/test --output-on-failure -j "$jobs"

step "web client (npm ci, unit tests, type check and build)"
(cd web && npm ci --no-audit --no-fund && npm test && npm run build)

step "web client end to end (headless Chromium against carc-server)"
(cd web && CARC_SERVER="$(pwd)/../build/test/server/carc-server" npm run e2e)

if [ "${CARC_SKIP_ASAN:-0}" != "1" ]; then
  # Built with clang: the golden transcripts then also show that a seed gives the same game
  # with a second compiler (R4). The same tree builds the fuzz targets (scripts/fuzz.sh), so
  # the libraries are compiled once for both.
  step "engine tests under AddressSanitizer + UndefinedBehaviorSanitizer (clang)"
  cmake -S . -B build/asan -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCARC_WERROR=ON -DCARC_SANITIZE=ON \
    -DCARC_BUILD_BENCH=OFF -DCARC_BUILD_FUZZ=ON > /dev/null
  cmake --build build/asan -j "$jobs" --target engine_tests server_tests river_codec_tests net_tests \
    persistence_tests fuzz_dispatch fuzz_session
  ctest --test-dir build/asan --output-on-failure -j "$jobs" -L "engine|server|persistence"
fi

if [ "${CARC_SKIP_TIDY:-0}" != "1" ]; then
  step "clang-tidy (.clang-tidy: warnings are errors)"
  run-clang-tidy -p build/test -j "$jobs" -quiet "$(pwd)/(engine|persistence|server|tools|bench)/.*\.cc$" \
    > build/test/clang-tidy.log 2>&1 || { grep -E "error|warning" build/test/clang-tidy.log; exit 1; }
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
