#!/usr/bin/env bash
# Every test: installs what is missing, checks formatting, builds with warnings as errors and
# runs all tests (the kill -9 test of the server included), the web client's unit tests and its
# end-to-end tests in headless Chromium, and a smoke run of the benchmarks; beside them, in the
# background, clang-tidy and a clang AddressSanitizer + UBSan build that then runs the engine,
# persistence and server tests under the sanitizers; at the end, both fuzzers for a while.
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
# No file includes a source file (clang-tidy's bugprone-suspicious-include, which its unity files
# would trip: below).
# shellcheck disable=SC2086
if grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<][^">]*\.(c|cc|cpp|cxx)[">]' $sources; then
  echo "a source file includes another source file (above): include its header" >&2
  exit 1
fi

# The sanitizer tree, built with clang: the golden transcripts then also show that a seed gives
# the same game with a second compiler (R4). The same tree builds the fuzz targets
# (scripts/fuzz.sh), so the libraries are compiled once for both. The engine at -O1, the rest at
# -O0: instrumented Beast code compiles three times faster unoptimised. A unity build, as the
# test tree's.
sanitizer_checks() {
  cmake -S . -B build/asan -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -gline-tables-only" -DCARC_ENGINE_FLAGS="-O1" \
    -DCMAKE_UNITY_BUILD=ON \
    -DCARC_WERROR=ON -DCARC_SANITIZE=ON -DCARC_BUILD_BENCH=OFF -DCARC_BUILD_FUZZ=ON > /dev/null
  # tests_<label> builds every test executable of that ctest label (tests/CMakeLists.txt,
  # carc_discover_tests), so the build covers exactly what ctest -L runs below.
  cmake --build build/asan -j "$jobs" --target tests_engine tests_server tests_persistence \
    fuzz_dispatch fuzz_session
  echo "==> engine, server and persistence tests under AddressSanitizer + UndefinedBehaviorSanitizer"
  ctest --test-dir build/asan --output-on-failure -j "$jobs" -L "^(engine|server|persistence)$" \
    -E "$sanitizer_skipped" --no-tests=error
}
# Left out under the sanitizers, as they only repeat, slowly, what the sanitizers already see: three
# bot tests whose point is an outcome over many whole games (which level wins, whether a horizon
# changes some choice), not a path of their own. The test tree runs them; under the sanitizers,
# Bots.EveryLevelChoosesALegalActionAtEveryDecision and
# Bots.AStrongBotWithAPlayoutHorizonPlaysLegallyAndReproducibly play the same code. They took 59 s
# of the sanitizer tests' 536 s (StrongBeatsGreedy 25 s, the horizon's 24 s, GreedyBeatsRandom
# 11 s). The conformance tests play a tenth of their games there (tests/engine/conformance_budget.h).
sanitizer_skipped='^Bots\.(GreedyBeatsRandom|StrongBeatsGreedy|TheStrongBotsPlayoutHorizonChangesItsChoices)$'

# .clang-tidy: warnings are errors. Its whole report is kept in build/test/clang-tidy.log. It reads
# build/tidy, where only the protobuf headers are generated and nothing is compiled: a unity build
# as the test tree's, so a target's files are checked a few at a time as one and the headers they
# share (Boost.Beast, protobuf) are parsed and matched once per batch, not once per file: 613 s of
# CPU instead of 1,024 s file by file (clang-tidy 14, user + sys; server/net's six files 48 s
# instead of 106 s, carc-client's eight batched files 95 s instead of 183 s). The files a unity
# build compiles on their own (the engine, the game codecs) are still checked one by one. Two
# checks see a batch differently: bugprone-suspicious-include would flag each line of a unity
# file (its rule, that no file includes a source file, is checked with grep beside clang-format),
# and misc-unused-using-decls looks at a translation unit's main file only, which a batch's files
# are not: in CI it checks the files compiled on their own. No check's cost is worth dropping it:
# in server/net's batch the costliest, bugprone-use-after-move, takes 12% of the matching time.
clang_tidy() {
  cmake -S . -B build/tidy -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -g1" -DCARC_ENGINE_FLAGS="-O2" -DCARC_WERROR=ON \
    -DCMAKE_UNITY_BUILD=ON > /dev/null
  cmake --build build/tidy --target carc_proto_generated
  run-clang-tidy -p build/tidy -j "$jobs" -quiet -checks=-bugprone-suspicious-include \
    "$(pwd)/((engine|persistence|server|tools|bench)/.*\.cc|build/tidy/(persistence|server|tools|bench)/.*\.cxx)$"
}

# The sanitizer checks and clang-tidy only need CPU, while the tests in front mostly wait (on
# servers, on the browser, on bots and on clocks that must run out). So both run in the background
# at the lowest priority, each with its log, and the steps in front keep the machine's attention.
# Neither needs the test tree (each configures a tree of its own), so both start before the test
# build: at nice 19 they only take the CPU it leaves, and the run ends when they do. On 2 cores
# they are its longest part: in a CI run they still worked for 860 s after the last step in front
# had finished, and the test build left a core idle for 34 s of its 440 s.
background() { # LOG COMMAND: runs COMMAND at the lowest priority, its output in LOG
  local log=$1
  shift
  (
    renice -n 19 -p "$BASHPID" > /dev/null
    "$@"
  ) > "$log" 2>&1 &
}
# Stops a background job and everything it started.
kill_tree() {
  local child
  for child in $(pgrep -P "$1"); do kill_tree "$child"; done
  kill "$1" 2> /dev/null || true
}
background_jobs=()
stop_background() {
  local job
  for job in "${background_jobs[@]}"; do kill_tree "$job"; done
}
trap stop_background EXIT
# Waits for a background job: WHAT PID LOG [PATTERN]. A failure shows the log's lines that match
# PATTERN, or its end.
wait_for() {
  if ! wait "$2"; then
    if [ -n "${4:-}" ]; then grep -E "$4" "$3" | head -n 100; else tail -n 60 "$3"; fi
    echo "$1 failed: $3" >&2
    exit 1
  fi
}

mkdir -p build/test
if [ "${CARC_SKIP_ASAN:-0}" != "1" ]; then
  echo "==> the sanitizer build and its tests start in the background: build/test/sanitizer.log"
  background build/test/sanitizer.log sanitizer_checks
  sanitizer=$!
  background_jobs+=("$sanitizer")
fi
if [ "${CARC_SKIP_TIDY:-0}" != "1" ]; then
  echo "==> clang-tidy starts in the background: build/test/clang-tidy.log"
  background build/test/clang-tidy.log clang_tidy
  tidy=$!
  background_jobs+=("$tidy")
fi

# Warnings are errors; assertions on (no NDEBUG). The engine and its tests are compiled
# optimised (-O2), everything else at -O0 with line tables (-g1): the server's Boost.Beast
# templates compile two to three times faster that way, and a backtrace still names file and line.
# A unity build: a target's files are compiled a few at a time as one, so the headers they share
# (GoogleTest, Boost.Beast, protobuf) are read once per batch, not once per file.
step "build (warnings are errors)"
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -g1" -DCARC_ENGINE_FLAGS="-O2" -DCARC_WERROR=ON \
  -DCMAKE_UNITY_BUILD=ON > /dev/null
cmake --build build/test -j "$jobs"

step "tests"
ctest --test-dir build/test --output-on-failure -j "$jobs"

step "web client (npm ci, unit tests, type check and build)"
(cd web && npm ci --no-audit --no-fund && npm test && npm run build)

step "container and Kubernetes files (dockerfile-utils, yamllint)"
(cd docker && npm ci --no-audit --no-fund --loglevel=error && npm run lint --silent)
yamllint -c .yamllint -s docker deploy .yamllint

step "web client end to end (headless Chromium against carc-server)"
(cd web && CARC_SERVER="$(pwd)/../build/test/server/carc-server" npm run e2e)

step "benchmarks (smoke run)"
./build/test/bench/engine_bench --benchmark_min_time=0.05 > /dev/null
./build/test/bench/store_bench --benchmark_min_time=0.05 > /dev/null

if [ "${CARC_SKIP_ASAN:-0}" != "1" ]; then
  step "waiting for the sanitizer build and its tests (clang, AddressSanitizer + UBSan)"
  wait_for "the sanitizer build or its tests" "$sanitizer" build/test/sanitizer.log
  grep -E "tests passed" build/test/sanitizer.log || true
fi
if [ "${CARC_SKIP_TIDY:-0}" != "1" ]; then
  step "waiting for clang-tidy"
  wait_for clang-tidy "$tidy" build/test/clang-tidy.log "error|warning"
fi
trap - EXIT

if [ "${CARC_SKIP_FUZZ:-0}" != "1" ]; then
  step "fuzzing"
  if [ "${CARC_SKIP_ASAN:-0}" != "1" ]; then
    CARC_FUZZ_BUILD=build/asan CARC_FUZZ_SECONDS="${CARC_FUZZ_SECONDS:-30}" ./scripts/fuzz.sh
  else
    CARC_FUZZ_SECONDS="${CARC_FUZZ_SECONDS:-30}" ./scripts/fuzz.sh
  fi
fi
step "all tests passed"
