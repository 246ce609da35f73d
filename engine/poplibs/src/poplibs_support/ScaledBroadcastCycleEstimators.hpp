// Cycle estimates of PopLibs vertices that Tessera's own ops do not run (its scaled adds run
// popops::ScaledAdd<T> worker vertices, its scalar broadcasts popops::map), as PopLibs'
// published estimators compute them (graphcore/poplibs lib/popops/PerformanceEstimation.cpp,
// getScaledArithmeticSupervisorCycleEstimate, and popopsCycleEstimators.cpp, the
// BroadcastScalar estimators). They serve popops/PerformanceEstimation.hpp. The constants are
// facts about the vertices' assembly; the code is ours. The broadcast estimators take their
// per-operation loop costs from the binary-operation tables of ElementWiseCycleEstimators.hpp
// (PopLibs keeps separate broadcast tables).
#pragma once

#include "ElementWiseCycleEstimators.hpp"

#include <algorithm>
#include <cstdint>
#include <poplar/PerfEstimateFunc.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <poplar/VectorLayout.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace poplibs_support {

/// Cycles to unpack a field stored as `layout`: ShortSpan and ScaledPtr32 2 (shift and add),
/// ScaledPtr64/128 1 (shift), plain pointers and spans 0.
inline std::uint64_t unpackCost(poplar::layout::Vector layout) {
  switch (layout) {
  case poplar::layout::Vector::ShortSpan:
  case poplar::layout::Vector::ScaledPtr32:
    return 2;
  case poplar::layout::Vector::ScaledPtr64:
  case poplar::layout::Vector::ScaledPtr128:
    return 1;
  default:
    return 0;
  }
}

enum class ScaledOp { ADD, SUBTRACT, AXPLUSBY, AXMINUSBY };

/// PopLibs' ScaledAdd/ScaledSubtract/aXPlusbY/aXMinusbY supervisor vertices over n elements.
/// Integer data: 53 + 26 per 3 elements (+1 subtracting), 6 + 26 per leftover element (6 when
/// none), 8 + 6 to finish. Float/half: the supervisor's 21 (+6 when `a` is ScaledPtr64), the
/// basic supervisor overhead, 7 (13 with leftover elements), 12 and 6 (+12 and both
/// operands' unpacking for aXPlusbY, +7 subtracting); then the busiest worker × the contexts.
/// Workers share whole vectors of `vectorWidth`; the one after the last full share handles the
/// leftover elements. Half data with float `b`: 16 + (9 + 5 per further vector) + 2, leftovers
/// 1 + (2 + 5 for a pair) + (2 + 6 for a last one), + 1 subtracting on the supervisor; float
/// aX±bY: 16 + (6 + 3 per further vector of the base share), 1 + 5 for a leftover; otherwise
/// 15 + (6 + 3, 4 with mixed types, 2 memory-constrained (1 from 16 vectors) per further
/// vector of the base share) + 2, leftovers 1 + 8 (float) or 1 + 5 (+7 for a pair, +6 for a
/// third) (half); + 1 to exit.
inline std::uint64_t scaledArithmeticSupervisorCycles(unsigned numWorkerContexts,
                                                      unsigned vectorWidth, poplar::Type dataType,
                                                      poplar::Type dataBType, bool memConstrained,
                                                      ScaledOp op, poplar::layout::Vector aLayout,
                                                      poplar::layout::Vector bLayout,
                                                      std::uint64_t n) {
  if (dataType == poplar::INT || dataType == poplar::UNSIGNED_INT) {
    std::uint64_t cycles = 53 + 26 * (n / 3) + (op == ScaledOp::SUBTRACT ? 1 : 0);
    cycles += n % 3 == 0 ? 6 : 6 + 26 * (n % 3);
    return cycles + 8 + 6;
  }
  const std::uint64_t contexts = numWorkerContexts ? numWorkerContexts : 1;
  const std::uint64_t width = vectorWidth ? vectorWidth : 1;
  const std::uint64_t vectors = n / width, leftover = n % width;
  const std::uint64_t perWorker = vectors / contexts, extraVectors = vectors % contexts;
  std::uint64_t supervisor = 21 + (aLayout == poplar::layout::Vector::ScaledPtr64 ? 6 : 0) +
                             basicOpSupervisorOverhead() + (leftover == 0 ? 7 : 13) + 12 + 6;
  if (op == ScaledOp::AXPLUSBY) supervisor += 12 + unpackCost(aLayout) + unpackCost(bLayout);
  if (op == ScaledOp::SUBTRACT) supervisor += 7;
  std::uint64_t busiest = 0;
  for (std::uint64_t w = 0; w < contexts; ++w) {
    std::uint64_t c;
    if (dataType == poplar::HALF && dataBType == poplar::FLOAT) {
      const std::uint64_t v = perWorker + (w < extraVectors ? 1 : 0);
      c = 16 + (v ? 9 + 5 * (v - 1) : 0) + 2;
      if (w == extraVectors) {
        c += 1;
        if (leftover) c += 2 + (leftover >= 2 ? 5 : 0) + 2 + (leftover % 2 ? 6 : 0);
      }
    } else if (dataType == poplar::FLOAT &&
               (op == ScaledOp::AXPLUSBY || op == ScaledOp::AXMINUSBY)) {
      c = 16 + (perWorker ? 6 + 3 * (perWorker - 1) : 0);
      if (w == extraVectors) c += 1 + (leftover ? 5 : 0);
    } else {
      const std::uint64_t loop =
          memConstrained ? (perWorker >= 16 ? 1 : 2) : (dataType == dataBType ? 3 : 4);
      c = 15 + (perWorker ? 6 + loop * (perWorker - 1) : 0) + 2;
      if (w == extraVectors) {
        c += 1;
        if (leftover) {
          if (dataType == poplar::FLOAT)
            c += 8;
          else
            c += 5 + (leftover >= 2 ? 7 + (leftover == 3 ? 6 : 0) : 0);
        }
      }
    }
    busiest = std::max(busiest, c + 1);
  }
  if (dataType == poplar::HALF && dataBType == poplar::FLOAT && op == ScaledOp::SUBTRACT)
    supervisor += 1;
  return supervisor + busiest * contexts;
}

/// Flops of a binary operation per element: none for the bitwise and shift operations, one
/// otherwise.
inline std::uint64_t flopsPerBinaryElement(const std::string& op) {
  return op.rfind("BITWISE_", 0) == 0 || op.rfind("SHIFT_", 0) == 0 ? 0 : 1;
}

/// The inner loop of a BroadcastScalar vertex: with the natural vector width each vector costs
/// its loop cycles plus `overhead` (the variance conversions between types count as float, one
/// more cycle for a half output); otherwise unrolled loops at their cost. Throws when the
/// binary tables have no entry for the operation and type.
inline std::uint64_t broadcastLoopCycles(const poplar::Target& target, const std::string& op,
                                         poplar::Type type, bool inPlace, std::uint64_t overhead,
                                         std::uint64_t n) {
  const auto info = binaryOpLoopInfo(op, type, inPlace);
  if (!info)
    throw std::invalid_argument("no broadcast estimate for " + op + " on " + type.toString());
  if (info->natural)
    return innerLoopCycles(n, target.getVectorWidth(type), info->cyclesPerLoop + overhead);
  return innerLoopCycles(n, info->unroll, info->cyclesPerLoop);
}

/// PopLibs' BroadcastScalar1D MultiVertexes over n elements: per worker 20 + the loop over
/// ceil(n / contexts) elements (overhead per vector 1 with an assembly loop, else 4; 0 or 1 for
/// the variance conversions between types), × the contexts, + the supervisor overhead.
inline poplar::VertexPerfEstimate broadcastScalar1DCycles(const poplar::Target& target,
                                                          const std::string& op,
                                                          poplar::Type inType, poplar::Type outType,
                                                          bool inPlace, std::uint64_t n) {
  const bool variance2Types =
      (op == "VARIANCE_TO_INV_STD_DEV" || op == "INV_STD_DEV_TO_VARIANCE") && inType != outType;
  poplar::Type type = inType;
  std::uint64_t overhead = hasAssemblyLoop(op, type) ? 1 : 4;
  if (!inPlace && variance2Types) {
    type = poplar::FLOAT;
    overhead = outType == poplar::FLOAT ? 0 : 1;
  }
  const std::uint64_t contexts = target.getNumWorkerContexts();
  const std::uint64_t worker =
      20 + broadcastLoopCycles(target, op, type, inPlace, overhead, detail::ceilDiv(n, contexts));
  return {worker * contexts + basicOpSupervisorOverhead(), n * flopsPerBinaryElement(op)};
}

/// PopLibs' BroadcastScalar2D vertices over regions of `data` elements: 20, and per region 28
/// and the loop (overhead per vector as the 1D form with a uniform scalar, else 4; mixed types
/// need a uniform scalar).
inline poplar::VertexPerfEstimate broadcastScalar2DCycles(const poplar::Target& target,
                                                          const std::string& op,
                                                          poplar::Type inType, poplar::Type outType,
                                                          bool inPlace, bool uniformScalar,
                                                          const std::vector<std::size_t>& data) {
  const bool variance2Types =
      (op == "VARIANCE_TO_INV_STD_DEV" || op == "INV_STD_DEV_TO_VARIANCE") && inType != outType;
  poplar::Type type = inType;
  std::uint64_t overhead = uniformScalar && hasAssemblyLoop(op, type) ? 1 : 4;
  if (!inPlace && variance2Types) {
    if (!uniformScalar)
      throw std::invalid_argument("no BroadcastScalar vertex takes mixed types with a "
                                  "non-uniform scalar");
    type = poplar::FLOAT;
    overhead = outType == poplar::FLOAT ? 0 : 1;
  }
  std::uint64_t cycles = 20, elems = 0;
  for (std::size_t n : data) {
    cycles += broadcastLoopCycles(target, op, type, inPlace, overhead, n) + 28;
    elems += n;
  }
  return {cycles, elems * flopsPerBinaryElement(op)};
}

} // namespace poplibs_support
