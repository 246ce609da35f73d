# Each op shows in the profile with PopLibs' vertex names, under its op's debug context.
set -euo pipefail
out=$1
grep -q '^multiSlice matches the host' "$out"
grep -q '^multiUpdateAdd matches the host$' "$out"
grep -qE '^profile: multiSlice popops::MultiSlice<float> x[0-9]+$' "$out"
grep -qE '^profile: multiUpdateAdd popops::MultiUpdateAdd<float,false> x[0-9]+$' "$out"
