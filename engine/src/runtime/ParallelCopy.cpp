#include "ParallelCopy.hpp"

#include "ThreadPool.hpp"

#include <algorithm>

namespace poplar::detail::runtime {

namespace {

bool overlaps(std::size_t a, std::size_t aBytes, std::size_t b, std::size_t bBytes) {
  return a < b + bBytes && b < a + aBytes;
}

/// True when no two destinations overlap and, in one memory, no copy's source overlaps another
/// copy's destination: then every order of the copies (and of pieces of them) gives the same
/// bytes. A copy's source overlapping its own destination is fine (memmove), though it is not
/// cut (`selfOverlap`).
bool orderFree(const std::vector<CopyPiece>& copies, bool sameSpace,
               std::vector<bool>& selfOverlap) {
  std::vector<std::size_t> byDst(copies.size());
  for (std::size_t i = 0; i < byDst.size(); ++i)
    byDst[i] = i;
  std::sort(byDst.begin(), byDst.end(),
            [&](std::size_t a, std::size_t b) { return copies[a].dst < copies[b].dst; });
  for (std::size_t k = 1; k < byDst.size(); ++k) {
    const CopyPiece& prev = copies[byDst[k - 1]];
    if (prev.dst + prev.bytes > copies[byDst[k]].dst) return false;
  }
  selfOverlap.assign(copies.size(), false);
  if (!sameSpace) return true;
  // The destinations are disjoint and sorted, so those a source overlaps are consecutive,
  // starting from the first that ends after the source begins.
  for (std::size_t i = 0; i < copies.size(); ++i) {
    const CopyPiece& c = copies[i];
    auto it =
        std::upper_bound(byDst.begin(), byDst.end(), c.src, [&](std::size_t src, std::size_t d) {
          return src < copies[d].dst + copies[d].bytes;
        });
    for (; it != byDst.end() && copies[*it].dst < c.src + c.bytes; ++it) {
      if (*it != i) return false;
      selfOverlap[i] = overlaps(c.src, c.bytes, c.dst, c.bytes);
    }
  }
  return true;
}

} // namespace

std::unique_ptr<CopyPlan> planCopies(std::vector<CopyPiece> copies, bool sameSpace) {
  copies.erase(
      std::remove_if(copies.begin(), copies.end(), [](const CopyPiece& c) { return c.bytes == 0; }),
      copies.end());
  std::size_t total = 0;
  for (const auto& c : copies)
    total += c.bytes;
  if (total < kMinParallelCopyBytes) return nullptr;
  std::vector<bool> selfOverlap;
  if (!orderFree(copies, sameSpace, selfOverlap)) return nullptr;
  auto plan = std::make_unique<CopyPlan>();
  plan->unitStart.push_back(0);
  std::size_t unitBytes = 0;
  const auto addPiece = [&](CopyPiece piece) {
    plan->pieces.push_back(piece);
    unitBytes += piece.bytes;
    if (unitBytes >= kCopyUnitBytes) {
      plan->unitStart.push_back(plan->pieces.size());
      unitBytes = 0;
    }
  };
  for (std::size_t i = 0; i < copies.size(); ++i) {
    CopyPiece c = copies[i];
    if (selfOverlap[i]) {
      addPiece(c);
      continue;
    }
    while (c.bytes > 0) { // cut where the current unit is full
      const std::size_t n = std::min(c.bytes, kCopyUnitBytes - unitBytes);
      addPiece({c.src, c.dst, n});
      c.src += n, c.dst += n, c.bytes -= n;
    }
  }
  if (plan->unitStart.back() != plan->pieces.size()) plan->unitStart.push_back(plan->pieces.size());
  return plan;
}

void runCopies(ThreadPool& pool, const CopyPlan& plan, unsigned char* dstBase,
               const unsigned char* srcBase) {
  pool.parallelFor(plan.unitStart.size() - 1, [&](std::size_t firstUnit, std::size_t endUnit) {
    const auto* p = plan.pieces.data();
    for (std::size_t i = plan.unitStart[firstUnit]; i < plan.unitStart[endUnit]; ++i)
      moveBytes(dstBase + p[i].dst, srcBase + p[i].src, p[i].bytes);
  });
}

} // namespace poplar::detail::runtime
