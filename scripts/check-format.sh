#!/usr/bin/env bash
# Fails when a C++ file of the tree is not as clang-format-14 and .clang-format would write it.
# (tests/compat/ is left as its programs' own authors would write them: its .clang-format
# disables formatting.) Fix with:  scripts/check-format.sh --fix
#
# Run by ctest as `format`; clang-format-14 is installed by scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=(--dry-run --Werror)
[ "${1:-}" = "--fix" ] && mode=(-i)
find . -path ./.git -prune -o -path './build*' -prune -o \
  \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) -type f -print0 |
  xargs -0 clang-format-14 "${mode[@]}"
