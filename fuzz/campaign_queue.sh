#!/usr/bin/env bash
# Runs run_campaign.sh for several targets one after another (one job at a time: the machine is
# shared), each until its executions or its time budget (seconds) run out, logging to
# $FUZZ_LOGS/camp-<target>.log.
#   fuzz/campaign_queue.sh BUILD_DIR TARGET:RUNS:SECONDS ...
# The jobs run at the lowest priority: nice 19 (run_campaign.sh) and the autogroup's nice 19. On
# kernels with autogroups (sched_autogroup_enabled) CPU is shared between sessions first, so nice
# alone does not hold a job back against other users' builds. An autogroup is a whole session:
# the queue takes a session of its own (setsid) before lowering it, so that the shell that
# started it (and its builds) keeps its priority. FUZZ_AUTOGROUP_NICE=0 leaves it alone.
#   FUZZ_LOGS=DIR  FUZZ_WORK=DIR (run_campaign.sh)  TIMEOUT=SECONDS  MAX_LEN=BYTES
set -uo pipefail
if [ -z "${TESSERA_FUZZ_OWN_SESSION:-}" ] && [ -e /proc/self/autogroup ]; then
  TESSERA_FUZZ_OWN_SESSION=1 exec setsid -w "$0" "$@"
fi
if [ -e /proc/self/autogroup ] && [ "${FUZZ_AUTOGROUP_NICE:-19}" != 0 ]; then
  echo "${FUZZ_AUTOGROUP_NICE:-19}" > /proc/$$/autogroup 2>/dev/null ||
    echo "campaign_queue.sh: could not lower this session's autogroup priority" >&2
fi
here="$(cd "$(dirname "$0")" && pwd)"
build="$1"
shift
logs="${FUZZ_LOGS:-/tmp}"
for spec in "$@"; do
  IFS=: read -r target runs seconds <<< "$spec"
  "$here/run_campaign.sh" "$build" "$target" "$runs" -max_total_time="$seconds" > "$logs/camp-$target.log" 2>&1
  echo "EXIT $?" >> "$logs/camp-$target.log"
done
