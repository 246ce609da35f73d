#!/usr/bin/env bash
# Runs run_campaign.sh for several targets one after another (one job at a time: the machine is
# shared), each until its executions or its time budget (seconds) run out, logging to
# $FUZZ_LOGS/camp-<target>.log.
#   fuzz/campaign_queue.sh BUILD_DIR TARGET:RUNS:SECONDS ...
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$1"
shift
logs="${FUZZ_LOGS:-/tmp}"
for spec in "$@"; do
  IFS=: read -r target runs seconds <<< "$spec"
  "$here/run_campaign.sh" "$build" "$target" "$runs" -max_total_time="$seconds" > "$logs/camp-$target.log" 2>&1
  echo "EXIT $?" >> "$logs/camp-$target.log"
done
