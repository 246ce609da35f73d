#!/usr/bin/env bash
# The CI regression gate of docs/ci-gate.md, end to end: profile two variants of the sample MLP
# (the "base" and a "new" one whose layers work on twice the batch), then gate the new one with
# `pva compare` and show each exit status.
#
#   scripts/ci-gate-example.sh [BIN_DIR]     BIN_DIR: where tessera-mlp and pva are (build/bin)
#
# Exits 0 when every status is the one expected (so CI can run this script as a smoke test),
# 1 otherwise. Work files go to $CI_GATE_WORK (default: a temporary directory, removed).
set -uo pipefail
cd "$(dirname "$0")/.."

bin=${1:-build/bin}
for tool in tessera-mlp pva; do
  [ -x "$bin/$tool" ] || { echo "ci-gate-example: $bin/$tool not found; build first (cmake --build build -j2)" >&2; exit 2; }
done
work=${CI_GATE_WORK:-$(mktemp -d)}
[ -z "${CI_GATE_WORK:-}" ] && trap 'rm -rf "$work"' EXIT
mkdir -p "$work"

# 1. Reports. In a real pipeline "base" comes from the main branch (built and run in an earlier
#    job, kept as an artifact) and "new" from the change under review; any program gets its
#    reports with POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true","autoReport.directory":"DIR"}'.
echo "== profiling the base model (batch 32) and the new one (batch 64)"
"$bin/tessera-mlp" --steps 32 --steps-per-run 16 --reports "$work/base" --out "$work/base" > /dev/null || exit 2
"$bin/tessera-mlp" --steps 32 --steps-per-run 16 --batch 64 --reports "$work/new" --out "$work/new" > /dev/null || exit 2

failures=0
# expect STATUS DESCRIPTION -- COMMAND...: runs the command, shows its status against the expected one.
expect() {
  local want=$1 what=$2
  shift 3
  echo
  echo "== $what"
  echo "\$ ${*/#$bin\//}"
  "$@" > "$work/out.txt" 2> "$work/err.txt"
  local got=$?
  # The verdict lines of the text report, or the error message.
  grep -E '^(PASS|FAIL|  (cycles|memory)\.)' "$work/out.txt" | head -8
  sed 's/^/stderr: /' "$work/err.txt" | head -3
  if [ "$got" -eq "$want" ]; then
    echo "-> exit status $got (expected $want)"
  else
    echo "-> exit status $got, EXPECTED $want"
    failures=$((failures + 1))
  fi
}

expect 0 "the same report: nothing grew" -- \
  "$bin/pva" compare "$work/base" "$work/base" --max-cycles-increase 2% --max-memory-increase 1%
expect 1 "the larger model against 2% cycles / 1% memory: over, JUnit XML for the CI system" -- \
  "$bin/pva" compare "$work/base" "$work/new" --max-cycles-increase 2% --max-memory-increase 1% \
  --format junit --output "$work/pva-gate.xml"
expect 0 "the same change with thresholds it fits in (a deliberate, accepted growth)" -- \
  "$bin/pva" compare "$work/base" "$work/new" --max-cycles-increase 70% --max-memory-increase 60%
expect 0 "the reverse direction: everything shrank, which never fails" -- \
  "$bin/pva" compare "$work/new" "$work/base"
expect 2 "a missing report: bad input, not a regression" -- \
  "$bin/pva" compare "$work/base" "$work/missing/profile.pop"

echo
echo "== JUnit written for the over-threshold run: $(grep -c '<failure' "$work/pva-gate.xml") failures in $work/pva-gate.xml"
if [ "$failures" -ne 0 ]; then
  echo "ci-gate-example: $failures status(es) differed from the expected ones" >&2
  exit 1
fi
echo "ci-gate-example: every exit status as expected"
