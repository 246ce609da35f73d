#!/usr/bin/env bash
# ThreadSanitizer run of the engine's tests: builds build-tsan/ with clang and -fsanitize=thread
# (only engine_tests and what it links), then runs engine_tests with every compute set allowed on
# several host threads (TESSERA_THREADS, default 4 here), so that the runtime's thread pool, the
# replicas' lockstep threads and the per-thread cycle counters are all checked for data races.
# Any report fails the run. Not part of CI (.ci/run): a TSan build takes a while; run it after
# changing engine/src/Runtime.cpp or ThreadPool.cpp.
#
#   scripts/tsan-tests.sh [Catch2 test spec...]    e.g. scripts/tsan-tests.sh '[threads]'
set -euo pipefail
cd "$(dirname "$0")/.."

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
tsan="-fsanitize=thread -fno-omit-frame-pointer"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 "${launcher[@]}" \
  -DCMAKE_C_FLAGS="$tsan" -DCMAKE_CXX_FLAGS="$tsan" \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread \
  -DTESSERA_BUILD_VIEWER=OFF -DTESSERA_BUILD_PYTHON=OFF -DTESSERA_BUILD_BENCH=OFF -DTESSERA_BUILD_SAMPLES=OFF \
  -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
cmake --build build-tsan -j"${JOBS:-2}" --target engine_tests

export TSAN_OPTIONS="halt_on_error=1:abort_on_error=1:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
export TESSERA_THREADS="${TESSERA_THREADS:-4}"
# clang 14's TSan cannot map its shadow memory under the high ASLR entropy of recent kernels
# ("unexpected memory mapping"): run without address randomisation where setarch allows it.
run=()
if setarch "$(uname -m)" -R true 2>/dev/null; then run=(setarch "$(uname -m)" -R); fi
"${run[@]}" build-tsan/bin/engine_tests "$@"
