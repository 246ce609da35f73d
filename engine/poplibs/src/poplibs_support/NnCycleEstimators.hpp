// Cycle estimates of popnn's vertices (non-linearities and their gradients, loss, accuracy) as
// PopLibs' published estimators compute them (graphcore/poplibs lib/popnn/
// popnnCycleEstimators.cpp and PerformanceEstimation.hpp, the release whose op cycles are
// getNonLinearityOpCycles(type, isFloat): the constants are facts about the vertices' assembly;
// the code is ours). Tessera's vertices are worker vertices over one region, so each takes the
// 2D vertex's formula for a single region.
#pragma once

#include "poplibs_support/ReduceCycleEstimators.hpp"

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <string>

namespace poplibs_support {

/// Worst-case cycles of one non-linearity instruction ("RELU", "SIGMOID", "TANH", "GELU",
/// "GELU_ERF", "SWISH") for float or half: 1; 5 / 2; 5 / 1; 10 / 5; 30 / 15; 6 / 3 (PopLibs'
/// getNonLinearityOpCycles, scalar forms; GELU and GELU_ERF are its placeholder figures).
/// HARD_SIGMOID, which PopLibs builds from popops expressions, counts as 3: a multiply-add and
/// the two clamps.
inline std::uint64_t nonLinearityOpCycles(const std::string& nl, bool isFloat) {
  if (nl == "RELU") return 1;
  if (nl == "SIGMOID") return isFloat ? 5 : 2;
  if (nl == "TANH") return isFloat ? 5 : 1;
  if (nl == "GELU_ERF") return isFloat ? 30 : 15;
  if (nl == "SWISH") return isFloat ? 6 : 3;
  if (nl == "HARD_SIGMOID") return 3;
  return isFloat ? 10 : 5; // GELU
}

/// Cycles per vector of a gradient's loop: 3 for RELU, SIGMOID, TANH (and HARD_SIGMOID);
/// PopLibs' getNonLinearityGradOpCycles for the others: GELU 10 / 5, GELU_ERF 30 / 15,
/// SWISH 15 / 9 (float / half).
inline std::uint64_t nonLinearityGradOpCycles(const std::string& nl, bool isFloat) {
  if (nl == "GELU") return isFloat ? 10 : 5;
  if (nl == "GELU_ERF") return isFloat ? 30 : 15;
  if (nl == "SWISH") return isFloat ? 15 : 9;
  return 3;
}

/// popnn::NonLinearity2D over one region of n elements (in place): 5 + 9 of set-up; per region
/// 4, 2 more for half (32-bit alignment test), 2 + 2; the pipelined vector loop (2 ops per
/// vector: warm-up 2 + op, 2 × op per further vector, 1 + op to drain); the remainders (float:
/// 2, + 2 + op for an odd element; half: 2, + 2 + op for a pair, 2, + 3 + op for one); 1.
inline std::uint64_t nonLinearityCycles(const poplar::Target& target, poplar::Type type,
                                        const std::string& nl, std::uint64_t n) {
  const bool isFloat = type == poplar::FLOAT;
  const std::uint64_t width = target.getVectorWidth(type);
  const std::uint64_t op = nonLinearityOpCycles(nl, isFloat);
  const std::uint64_t vectors = n / width, rest = n % width;
  std::uint64_t cycles = 5 + 2 + 5 + 2;
  cycles += 4 + (isFloat ? 0 : 2) + 2 + 2;
  if (vectors) cycles += 2 + op + (vectors - 1) * 2 * op + 1 + op;
  if (isFloat)
    cycles += 2 + (rest ? 2 + op : 0);
  else
    cycles += 2 + ((rest & 2) ? 2 + op : 0) + 2 + ((rest & 1) ? 3 + op : 0);
  return cycles + 1;
}

/// popnn::NonLinearityGrad2D over one region of n elements: 5 + 12 of set-up; per region 9;
/// the vector loop (4 to warm up, 3 per further vector, 1 to store the last); the remainders
/// (float: 2, + 4 for an odd element; half: 2, + 5 for a pair, 2, + 7 for one); 1. The same for
/// every non-linearity: the derivative is computed from the forward output.
inline std::uint64_t nonLinearityGradCycles(const poplar::Target& target, poplar::Type type,
                                            std::uint64_t n, const std::string& nl = "RELU") {
  const bool isFloat = type == poplar::FLOAT;
  const std::uint64_t op = nonLinearityGradOpCycles(nl, isFloat);
  const std::uint64_t width = target.getVectorWidth(type);
  const std::uint64_t vectors = n / width, rest = n % width;
  std::uint64_t cycles = 5 + 4 + 3 + 3 + 2;
  cycles += 6 + 3;
  if (vectors) cycles += 4 + (vectors - 1) * op + 1;
  if (isFloat)
    cycles += 2 + (rest ? 4 : 0);
  else
    cycles += 2 + ((rest & 2) ? 5 : 0) + 2 + ((rest & 1) ? 7 : 0);
  return cycles + 1;
}

/// popnn::LossSumSquaredTransform / LossCrossEntropyTransform over one row of `size` classes:
/// 5 + pointer loads (6 for cross-entropy, 5 for sum-squared) + 5 + 1 for half + 2 + 1, the
/// loop (9 or 4 per float, per pair of halves), for half 2 + the odd element (11 or 6), 1.
inline std::uint64_t lossTransformCycles(bool isFloat, bool crossEntropy, std::uint64_t size) {
  return 5 + (crossEntropy ? 6 : 5) + 5 + (isFloat ? 0 : 1) + 2 + 1 +
         (crossEntropy ? 9 : 4) * (isFloat ? size : size / 2) +
         (isFloat ? 0 : 2 + ((size & 1) ? (crossEntropy ? 11 : 6) : 0)) + 1;
}

/// popnn::ReduceMaxClassSparse over one row of `classes` activations (the arg-max of a row):
/// 5 + 2 + 3 + 3 + 1, 3 per further element, 3 + 6 + 4.
inline std::uint64_t reduceMaxClassSparseCycles(std::uint64_t classes) {
  return 5 + 2 + 3 + 3 + 1 + (classes ? classes - 1 : 0) * 3 + 3 + 6 + 4;
}

/// popnn::CalcAccuracy over a batch: 5 + 4 + 2 + 1 + 1, 4 per batch element, 1.
inline std::uint64_t calcAccuracyCycles(std::uint64_t batch) {
  return 5 + 4 + 2 + 1 + 1 + 4 * batch + 1;
}

} // namespace poplibs_support
