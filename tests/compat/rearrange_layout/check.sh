# The layout changes show in the profile with PopLibs' transpose vertices, under their ops (or
# the compute sets the program gave them).
set -euo pipefail
out=$1
grep -q '^regroupIfBeneficial matches the host$' "$out"
grep -q '^regroupTensor matches the host$' "$out"
grep -q '^partialTranspose matches the host$' "$out"
grep -q '^static multiSlice and multiUpdateAdd match the host$' "$out"
grep -qE '^profile: regroupIfBeneficial popops::Transpose1D(SingleWorker)?<half> x[0-9]+$' "$out"
grep -qE '^profile: transposes popops::Transpose2D<float> x[0-9]+$' "$out"
grep -qE '^profile: regroup popops::Transpose2D<float> x[0-9]+$' "$out"
