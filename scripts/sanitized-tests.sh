#!/usr/bin/env bash
# The second half of CI (.ci/run, the README's test command): builds build-asan/ with clang,
# AddressSanitizer + UndefinedBehaviorSanitizer and the fuzz targets (scripts/setup.sh
# --sanitize), then runs every suite that does not need the viewer, Python or an install under the
# sanitizers: the engine (engine_tests), codelet files (codelet_tests), PopLibs (poplibs_tests),
# the engine's models and report writing (engine_profiling_tests), the hostile executables
# (exe_reproducer_*), libpva (pva_tests), profiler blobs (profiler_tests), libpvti (pvti_tests),
# the pva tool (cli_*), and every fuzz target once over its corpus (fuzz_regression_*: seeds and
# every finding's minimized input). Any sanitizer report fails the run. On the project machine the
# engine suites add about 13 minutes of CPU to the build and 4 to the tests (docs/reliability.md).
#
# SANITIZED_SUITES=readers runs only the suites that read files (libpva, the profiler's blobs,
# libpvti, the pva tool and the readers' fuzz targets): about half the build, for a change that
# touches only the readers. The compat programs (an install and a make per program) and the
# samples' command lines run in the normal build only.
#
# With --tsan it builds build-tsan/ with ThreadSanitizer instead (scripts/setup.sh --tsan) and
# runs what uses threads: the engine's tests with several host threads per run (TESSERA_THREADS,
# default 4: every compute set and copy big enough is spread over the pool; the replicas'
# lockstep threads), the codelet threads tests, the profiler's background writer and libpvti's
# multi-threaded tracing. Not part of CI; run it after changing threaded code.
#
#   scripts/sanitized-tests.sh            configure, build what those suites need, run them
#   scripts/sanitized-tests.sh --tsan     the same with ThreadSanitizer
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  "") ;;
  --tsan)
    ./scripts/setup.sh --tsan
    cmake --build build-tsan -j2 --target engine_tests codelet_tests codelet_runner popc profiler_tests pvti_tests
    # halt_on_error: a report is a failure (exit status 66), never a warning in a log. Not
    # abort_on_error: Catch2's SIGABRT handler then hung a multi-threaded test after the report.
    export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
    export TESSERA_THREADS="${TESSERA_THREADS:-4}"
    # clang 14's TSan cannot map its shadow memory under the high ASLR entropy of recent kernels
    # ("unexpected memory mapping"): run without address randomisation where setarch allows it.
    run=()
    if setarch "$(uname -m)" -R true 2>/dev/null; then run=(setarch "$(uname -m)" -R); fi
    "${run[@]}" build-tsan/bin/engine_tests
    "${run[@]}" build-tsan/bin/codelet_tests '[threads]'
    "${run[@]}" build-tsan/bin/profiler_tests '[background]'
    # The 6.4M-event load test is a throughput test; 8 threads x 20k spans checks the same.
    "${run[@]}" build-tsan/bin/pvti_tests '[threads],[load],[soak]'
    exit 0 ;;
  -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "sanitized-tests.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac

./scripts/setup.sh --sanitize
# Only what the suites below need: nothing is built that no test runs.
readers=(pva_tests profiler_tests pvti_tests pvti_driver cli_tests pva tessera-mlp tessera-pipeline tessera-oom
         fuzz_report fuzz_report_debug fuzz_trace fuzz_serialized_graph fuzz_cbor fuzz_blobs fuzz_event_block fuzz_pvti_options
         fuzz_engine_options fuzz_analysis fuzz_gp)
engine=(engine_tests codelet_tests codelet_runner popc poplibs_tests engine_profiling_tests exe_runner
        fuzz_executable fuzz_graph_values)
# The 6.4M-event load test is a throughput test (it runs in the normal build); under ASan it
# would take most of CI's time and check nothing the 8-thread load test does not.
case "${SANITIZED_SUITES:-all}" in
  all)
    targets=("${readers[@]}" "${engine[@]}")
    suites='^(engine_tests|codelet_tests|poplibs_tests|engine_profiling_tests|exe_reproducer_|pva_tests|profiler_tests|pvti_tests|cli_|fuzz_regression_)'
    skip='^pvti_load_64x100k$' ;;
  readers)
    targets=("${readers[@]}")
    suites='^(pva_tests|profiler_tests|pvti_tests|cli_|fuzz_regression_)'
    skip='^(pvti_load_64x100k|fuzz_regression_fuzz_executable|fuzz_regression_fuzz_graph_values)$' ;;
  *) echo "sanitized-tests.sh: SANITIZED_SUITES is 'all' (default) or 'readers'" >&2; exit 2 ;;
esac
cmake --build build-asan -j2 --target "${targets[@]}"

# halt_on_error + abort: a report is a failure, never a warning in a log. Leaks are findings too.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
ctest --test-dir build-asan --output-on-failure -j2 -R "$suites" -E "$skip"
