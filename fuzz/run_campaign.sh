#!/usr/bin/env bash
# Runs one fuzz target for a number of executions, one job, at low priority (the machine is
# shared), growing its corpus in a scratch directory; crashes land in fuzz/findings/<target>/.
# TIMEOUT (seconds, default 25) is the per-input limit: raise it on a loaded machine, where a
# job at low priority can wait longer than that for the CPU and report a false timeout.
#   fuzz/run_campaign.sh BUILD_DIR TARGET RUNS [extra libFuzzer flags]
# The log's last "stat::" lines and "Done N runs" are what docs/reliability.md records.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$1" target="$2" runs="$3"
shift 3
# Without coverage in the libraries libFuzzer sees only the target's own file: it would run
# blind, mutating at random, and the executions would count for nothing.
if ! grep -q '^TESSERA_FUZZ_COVERAGE:BOOL=ON$' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "run_campaign.sh: $build is not built for fuzzing campaigns (TESSERA_FUZZ_COVERAGE is off);" >&2
  echo "  configure it with: cmake -S . -B $build -DTESSERA_FUZZ_COVERAGE=ON && cmake --build $build -j2 --target $target" >&2
  exit 2
fi
work="${FUZZ_WORK:-/tmp/tessera-fuzz}/$target"
mkdir -p "$work/corpus" "$here/findings/$target"
flags=()
case "$target" in
  fuzz_cbor|fuzz_report_debug) flags=(-dict="$here/dict/cbor.dict") ;;
  fuzz_report|fuzz_trace|fuzz_analysis) flags=(-dict="$here/dict/sqlite.dict") ;;
  fuzz_pvti_options|fuzz_engine_options) flags=(-dict="$here/dict/json.dict") ;;
esac
# fuzz_analysis sees ~25,000 features an execution: libFuzzer's entropic schedule, which counts
# each feature's frequency on every execution, cost it a third of its executions (2,145 against
# 1,357 in the same two minutes from the same corpus, same coverage). The plain schedule there.
case "$target" in
  fuzz_analysis) flags+=(-entropic=0) ;;
esac
# -reload=0: one job per corpus, so there is nothing to reread from the corpus directory (by
# default libFuzzer lists it every second: 4.5 % of fuzz_analysis's time with 1,300 inputs).
exec nice -n 19 "$build/bin/$target" "$work/corpus" "$here/corpus/$target" -runs="$runs" "${flags[@]}" -reload=0 \
  -rss_limit_mb=2048 -timeout="${TIMEOUT:-25}" -max_len="${MAX_LEN:-65536}" -print_final_stats=1 \
  -artifact_prefix="$here/findings/$target/" "$@"
