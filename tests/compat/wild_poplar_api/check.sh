#!/usr/bin/env bash
# Checks what the three programs print (PrintTensor goes to standard error) against the host:
# popops::sortKeyValue's results, popops::topKWithPermutation's largest value and its index in
# the 2,500 numbers topk.cpp draws with rand() (the C library's, default seed), the simulated
# time the Engine timer reports, and poplin::matMulGrouped of the two 3 x 3 x 3 tensors.
set -euo pipefail
out=$1
err=$(dirname "$out")/stderr.txt
grep -q '^Attached to IPU' "$out"
grep -Eq '^time to run = [0-9]+ cycles \([0-9.]+ us at [0-9]+ MHz\)$' "$out"
/usr/bin/env python3 - "$err" <<'PY'
import ctypes, re, sys
text = open(sys.argv[1]).read()
parts = dict(re.findall(r"^== (\S+)\n(.*?)(?=^== |\Z)", text, re.S | re.M))

def tensor(part, name):
    m = re.search(r"^" + re.escape(name) + r": (.*?)(?=^\S+: |\Z)", parts[part], re.S | re.M)
    if not m:
        sys.exit(f"check.sh: no '{name}' printed by {part}")
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", m.group(1))]

# sort.cpp: keys and values are the stream's first three numbers (1, 2, 3).
for name in ("after_sort_d_a", "after_sort_d_b", "after_sort_d_c"):
    assert tensor("sort/sort", name) == [1, 2, 3], (name, tensor("sort/sort", name))

# topk.cpp: a[i] = rand() % 25000 for 2,500 numbers; the top one and where it is.
libc = ctypes.CDLL(None)
a = [libc.rand() % 25000 for _ in range(2500)]
top, where = tensor("topk/topk", "pairs_first"), tensor("topk/topk", "pairs_second")
assert top == [max(a)], (top, max(a))
assert a[int(where[0])] == max(a), (where, max(a))

# groupmatrixMul_api.cpp: A = B = 0..26 as three 3 x 3 matrices; res[g] = A[g] B[g].
m = [[[9 * g + 3 * i + j for j in range(3)] for i in range(3)] for g in range(3)]
want = [sum(m[g][i][k] * m[g][k][j] for k in range(3))
        for g in range(3) for i in range(3) for j in range(3)]
for name in ("res", "dtemp_out"):
    got = tensor("groupMatrixMul/matrixMulGroupApi", name)
    assert got == want, (name, got, want)
print("sort, top-k and grouped matmul match the host")
PY
