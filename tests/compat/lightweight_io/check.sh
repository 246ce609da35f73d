# Five operations on the compute tile, five stream-copy triplets on the I/O tile, and on the
# compute tile (the blocks tile) the run's two control stream-copy triplets, as the tutorial
# prints them; the full buffer's overflow without flushes; with them every block, each flush a
# stream-copy triplet (the tutorial's 406 blocks: 100 + 300 flush blocks + 6 control copies).
set -euo pipefail
out=$1
[ "$(grep -c '^ *operation in tile    0: ' "$out")" = 5 ]
for part in Begin Mid End; do
  [ "$(grep -c "^ *StreamCopy$part in tile  100: " "$out")" = 5 ]
  [ "$(grep -c "^ *StreamCopy$part in tile    0: " "$out")" = 2 ]
done
# No flush blocks without implicit flushes (the tutorial lists none).
if grep -q '^ *BlockFlush in tile' "$out"; then exit 1; fi
# The control copies come first, before the run's first operation.
head -n 6 "$out" | grep -q '^ *StreamCopyBegin in tile    0: '
grep -q '^implicitFlush 0: numBlocks 43, numCommonBlocks 42, numOverflows 1, numFlushes 0, numStreamCopies 0$' "$out"
grep -q '^implicitFlush 1: numBlocks 406, numCommonBlocks 100, numOverflows 0, numFlushes 300, numStreamCopies 6$' "$out"
