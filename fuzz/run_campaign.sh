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
work="${FUZZ_WORK:-/tmp/tessera-fuzz}/$target"
mkdir -p "$work/corpus" "$here/findings/$target"
dict=()
case "$target" in
  fuzz_cbor|fuzz_report_debug) dict=(-dict="$here/dict/cbor.dict") ;;
  fuzz_report|fuzz_trace|fuzz_analysis) dict=(-dict="$here/dict/sqlite.dict") ;;
  fuzz_pvti_options|fuzz_engine_options) dict=(-dict="$here/dict/json.dict") ;;
esac
exec nice -n 15 "$build/bin/$target" "$work/corpus" "$here/corpus/$target" -runs="$runs" "${dict[@]}" \
  -rss_limit_mb=2048 -timeout="${TIMEOUT:-25}" -max_len="${MAX_LEN:-65536}" -print_final_stats=1 \
  -artifact_prefix="$here/findings/$target/" "$@"
