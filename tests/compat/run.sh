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
# Public programs built unchanged (issue 34) may also have:
#   - command.txt: the program to run (a path in the build folder) and its arguments, one line,
#     when it is not named after the folder or needs arguments;
#   - setup.sh: runs in the run folder before the program, with the build folder as its
#     argument (to write the input files the program reads);
#   - mirror.txt: "<owner>+<name> <commit>": the program's sources are a public repository that
#     is not copied here (it has no licence that allows it); the Makefile takes them from the
#     repository's git mirror, $TESSERA_WILD_MIRRORS/<owner>+<name>/repo (default /work/.mirror,
#     where the project's fetch tool puts them), given to make as WILD_GIT_DIR and WILD_COMMIT.
#     Without the mirror or that commit the test is skipped (exit status 77).
set -euo pipefail
prefix=$1 src=$2 work=$3
name=$(basename "$src")

if [ -f "$src/mirror.txt" ]; then
  read -r repo commit < "$src/mirror.txt"
  WILD_GIT_DIR="${TESSERA_WILD_MIRRORS:-/work/.mirror}/$repo/repo"
  if ! git --git-dir="$WILD_GIT_DIR" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "run.sh: skipped: $name needs $repo at $commit ($WILD_GIT_DIR has not got it;" \
         "set TESSERA_WILD_MIRRORS)"
    exit 77
  fi
  export WILD_GIT_DIR WILD_COMMIT=$commit
fi

rm -rf "$work"
mkdir -p "$work"
cp -r "$src"/. "$work/build"
# shellcheck disable=SC1091
source "$prefix/enable.sh"

cd "$work/build"
make --no-print-directory
mkdir -p "$work/run"
cd "$work/run"
command=("$work/build/$name")
if [ -f "$work/build/command.txt" ]; then
  read -r -a words < "$work/build/command.txt"
  command=("$work/build/${words[0]}" "${words[@]:1}")
fi
if [ -f "$work/build/setup.sh" ]; then
  bash "$work/build/setup.sh" "$work/build"
fi
if ! "${command[@]}" > "$work/output.txt" 2> "$work/stderr.txt"; then
  echo "run.sh: $name failed (${command[*]}); its output:" >&2
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
