# Five operations on the compute tile, five stream-copy triplets on the I/O tile and none on the
# compute tile; the full buffer's overflow without flushes, every block with them.
set -euo pipefail
out=$1
[ "$(grep -c '^ *operation in tile    0: ' "$out")" = 5 ]
[ "$(grep -c '^ *StreamCopyBegin in tile  100: ' "$out")" = 5 ]
[ "$(grep -c '^ *StreamCopyMid in tile  100: ' "$out")" = 5 ]
[ "$(grep -c '^ *StreamCopyEnd in tile  100: ' "$out")" = 5 ]
if grep -q 'StreamCopy.* in tile    0: ' "$out"; then exit 1; fi
grep -q '^implicitFlush 0: numBlocks 43, numCommonBlocks 42, numOverflows 1, numFlushes 0, numStreamCopies 0$' "$out"
grep -q '^implicitFlush 1: numBlocks 200, numCommonBlocks 100, numOverflows 0, numFlushes 100, numStreamCopies 0$' "$out"
