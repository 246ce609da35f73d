# Each IPU lists only its own stage, each op2 block nested in its stage, five times; the implicit
# blocks grow by about one loop's cycles per execution.
set -euo pipefail
out=$1
[ "$(grep -c '^ipu 0 stage1: ' "$out")" = 5 ]
[ "$(grep -c '^ipu 0    op2: ' "$out")" = 5 ]
[ "$(grep -c '^ipu 1 stage2: ' "$out")" = 5 ]
[ "$(grep -c '^ipu 1    op2: ' "$out")" = 5 ]
if grep -q '^ipu 0 stage2\|^ipu 1 stage1' "$out"; then exit 1; fi
# Nesting: each op2 block lies inside the stage block that follows it.
awk '/^ipu [01] +op2: / { from = $5; sub(/\(/, "", from); to = $7; sub(/\)/, "", to); next }
     /^ipu [01] stage[12]: / { f = $5; sub(/\(/, "", f); t = $7; sub(/\)/, "", t);
                               if (!(f + 0 <= from + 0 && to + 0 <= t + 0)) exit 1 }' "$out"
mapfile -t cycles < <(grep '^implicit operation: ' "$out" | awk '{ print $3 }')
[ "${#cycles[@]}" = 5 ]
for i in 1 2 3 4; do
  step=$(( cycles[i] - cycles[i - 1] ))
  [ "$step" -gt 2000 ] && [ "$step" -lt 5000 ]
done
