# The cycle counts are the model's (they change when the cycle model does), so only their
# agreement with the profile is fixed; the program checks it and says so.
set -euo pipefail
out=$1
grep -q '^the dot products match the host$' "$out"
grep -qE '^cycleCount: [0-9]+ cycles, profile: [0-9]+ cycles$' "$out"
grep -q '^the counters agree with the profile$' "$out"
