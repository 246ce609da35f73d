#!/usr/bin/env bash
# Runs the three programs one after the other, as their run scripts do (./sort, ./topk,
# ./matrixMulGroupApi), each announcing itself on both streams so check.sh can tell their
# outputs apart.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for program in sort/sort topk/topk groupMatrixMul/matrixMulGroupApi; do
  echo "== $program"
  echo "== $program" >&2
  "$here/$program"
done
