#!/usr/bin/env bash
# Builds and runs one Poplar-style program the way its user would, and checks what it prints.
#
#   run.sh <installed prefix> <program folder> <scratch folder>
#
# The folder is copied to the scratch folder and built there with `make` after sourcing the
# prefix's enable.sh (no other flags: the Makefile must work as written). The program, named
# after the folder, runs from a different working directory (the scratch folder's run/), then:
#   - expected.txt, if present, must equal its standard output exactly, and
#     expected_stderr.txt its standard error (where PrintTensor writes, as on Poplar);
#   - check.sh, if present, runs in the build folder with the output file as its argument
#     (for output with parts that are not fixed, and for follow-up steps such as a Python script).
set -euo pipefail
prefix=$1 src=$2 work=$3
name=$(basename "$src")

rm -rf "$work"
mkdir -p "$work"
cp -r "$src"/. "$work/build"
# shellcheck disable=SC1091
source "$prefix/enable.sh"

cd "$work/build"
make --no-print-directory
mkdir -p "$work/run"
cd "$work/run"
if ! "$work/build/$name" > "$work/output.txt" 2> "$work/stderr.txt"; then
  echo "run.sh: $name failed; its output:" >&2
  cat "$work/output.txt" "$work/stderr.txt" >&2
  exit 1
fi
cat "$work/output.txt" "$work/stderr.txt"

compare() { # compare <expected file> <actual file> <what>
  [ -f "$1" ] || return 0
  if ! diff -u "$1" "$2"; then
    echo "run.sh: $name printed on $3 something other than $(basename "$1") (diff above)" >&2
    exit 1
  fi
}
compare "$work/build/expected.txt" "$work/output.txt" "standard output"
compare "$work/build/expected_stderr.txt" "$work/stderr.txt" "standard error"
if [ -f "$work/build/check.sh" ]; then
  cd "$work/build"
  bash ./check.sh "$work/output.txt"
fi
