#!/usr/bin/env bash
# An installed program starts with no help from the environment (its RUNPATH finds Tessera's
# libraries) and answers --help with a usage line and exit status 0.
set -uo pipefail
program=$1
out=$(env -u LD_LIBRARY_PATH -u LIBRARY_PATH QT_QPA_PLATFORM=offscreen "$program" --help 2>&1)
status=$?
if [ $status -ne 0 ] || ! grep -qi 'usage' <<< "$out"; then
  echo "installed_help.sh: '$program --help' exited $status and printed:" >&2
  echo "$out" >&2
  exit 1
fi
echo "$program --help: ok"
