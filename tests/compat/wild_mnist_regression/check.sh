#!/usr/bin/env bash
# The demo prints "Epoch E (P%), accuracy A%" after each batch of 300 images (a Repeat of 300
# training steps: poplin::matMul, popnn softmax and cross-entropy calcLoss, popops scaledAddTo).
# With learnable data the accuracy must rise: the last report well above the first, and well
# above chance (10%). The profile summary it prints after the first batch must be there too.
set -euo pipefail
out=$1
grep -q '^Using the IPU Model$' "$out"
grep -q 'Epoch 3 (100%), accuracy' "$out"
mapfile -t acc < <(sed -n 's/^Epoch [0-9]* ([0-9]*%), accuracy \([0-9]*\)%$/\1/p' "$out")
if [ "${#acc[@]}" -ne 6 ]; then
  echo "check.sh: expected 6 accuracy reports (3 epochs of 2 batches), got ${#acc[@]}" >&2
  exit 1
fi
first=${acc[0]} last=${acc[5]}
echo "accuracy: ${acc[*]}"
if [ "$last" -lt 50 ] || [ "$last" -lt $((first + 20)) ]; then
  echo "check.sh: the accuracy did not rise as the model trained (${acc[*]})" >&2
  exit 1
fi
grep -q 'Memory' "$out" || { echo "check.sh: no profile summary" >&2; exit 1; }
