// Byte copies spread over the host thread pool: the exchange's tensor-to-tensor copies (Copy
// programs) and the scatter and gather of stream, remote-buffer and host transfers. A list of
// copies is split into units of similar size that threads take in any order, which is only
// done when the order cannot change the result, so results are the same bits for every count.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <vector>

namespace poplar::detail::runtime {

class ThreadPool;

/// memmove, with the sizes of one element inlined: a tensor copied element by element (a
/// transpose, a broadcast) makes copies of 2, 4 or 8 bytes, for which a library call costs more
/// than the copy itself.
inline void moveBytes(unsigned char* dst, const unsigned char* src, std::size_t n) {
  switch (n) {
  case 2:
    std::memmove(dst, src, 2);
    return;
  case 4:
    std::memmove(dst, src, 4);
    return;
  case 8:
    std::memmove(dst, src, 8);
    return;
  default:
    std::memmove(dst, src, n);
  }
}

/// One copy: `bytes` from offset `src` of the source base to offset `dst` of the destination's.
struct CopyPiece {
  std::size_t src, dst, bytes;
};

struct CopyPlan {
  std::vector<CopyPiece> pieces;      ///< the copies, large ones cut into units
  std::vector<std::size_t> unitStart; ///< where each unit's pieces start, and the end
};

/// Copies below this many bytes in all stay on the calling thread: handing them to other
/// threads costs about 25 us (waking the worker and waiting for it), which is the time of a
/// few hundred KiB of copies (bench_engine_threads --program exchange: 2 threads took 1.5x the
/// time of one at 376 KiB, 0.8x at 1.5 MiB).
constexpr std::size_t kMinParallelCopyBytes = 1 << 20;
/// The work one thread takes at a time.
constexpr std::size_t kCopyUnitBytes = 64 << 10;

/// The plan for `copies`, or null when they are too few bytes, or when their order matters: two
/// destinations overlap, or (in one memory) a copy reads what another writes. Copies in one
/// memory run as memmove, as one thread runs them; such a copy whose own source and destination
/// overlap is never cut.
std::unique_ptr<CopyPlan> planCopies(std::vector<CopyPiece> copies, bool sameSpace);

/// Runs every piece of `plan` on the pool's threads (as memmove, whose result with a copy
/// overlapping itself is what one thread gives).
void runCopies(ThreadPool& pool, const CopyPlan& plan, unsigned char* dstBase,
               const unsigned char* srcBase);

} // namespace poplar::detail::runtime
