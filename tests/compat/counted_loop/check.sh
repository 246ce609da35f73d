# The loop's ops show in the profile with PopLibs' vertex names.
set -euo pipefail
out=$1
grep -q '^countedLoop of 6 passes with dynamicSlice matches the host$' "$out"
grep -qE '^profile: dynamicSlice popops::DynamicSlice1d<float> x[0-9]+$' "$out"
grep -qE '^profile: dynamicSlice popops::DynamicSlice[12]d<unsigned int> x[0-9]+$' "$out"
grep -qE '^profile: dynamicUpdate popops::DynamicUpdateSlice1d<float> x[0-9]+$' "$out"
grep -qE '^profile: countedLoop popops::ForLoopCounter<unsigned int> x1$' "$out"
