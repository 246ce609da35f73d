#!/usr/bin/env bash
# Writes data/train-images-idx3-ubyte and data/train-labels-idx1-ubyte in MNIST's format (IDX:
# big-endian magic number and sizes, then bytes) for the regression demo: 60,000 synthetic
# 28 x 28 "digits", each class a cross of two rows and two columns of its own at full
# brightness over faint noise, so that logistic regression can learn them within a few hundred
# images. Deterministic (fixed seeds).
set -euo pipefail
mkdir -p data
/usr/bin/env python3 - <<'PY'
import random, struct
n, side = 60000, 28
labels = random.Random(2).choices(range(10), k=n)
noise = random.Random(1).randbytes(n * side * side).translate(bytes(b & 15 for b in range(256)))
templates = []
for c in range(10):
    t = bytearray(side * side)
    for k in (4 + 2 * c, 5 + 2 * c):
        for j in range(side):
            t[k * side + j] = 255  # row k
            t[j * side + k] = 255  # column k
    templates.append(int.from_bytes(t, "big"))
size = side * side
with open("data/train-images-idx3-ubyte", "wb") as f:
    f.write(struct.pack(">IIII", 2051, n, side, side))
    for i, c in enumerate(labels):
        img = int.from_bytes(noise[i * size:(i + 1) * size], "big") | templates[c]
        f.write(img.to_bytes(size, "big"))
with open("data/train-labels-idx1-ubyte", "wb") as f:
    f.write(struct.pack(">II", 2049, n))
    f.write(bytes(labels))
PY
