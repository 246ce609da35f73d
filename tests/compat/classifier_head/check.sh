# Each op shows in the profile with its vertices, under its op's debug context.
set -euo pipefail
out=$1
grep -q '^topK, argMax and encodeOneHot match the host$' "$out"
grep -qE '^top-1 correct: [0-9]+ of 12, top-3 correct: [0-9]+ of 12$' "$out"
grep -qE '^profile: topKWithPermutation popops::TopK<float,unsigned int> x[0-9]+$' "$out"
grep -qE '^profile: argMax popops::ReduceMaxClassGather<float,unsigned int> x[0-9]+$' "$out"
grep -qE '^profile: encodeOneHot popops::EncodeOneHot<unsigned int,float> x[0-9]+$' "$out"
