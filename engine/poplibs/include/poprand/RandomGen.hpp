// Random numbers on the tiles: uniform, log-uniform, normal, truncated normal and Bernoulli
// distributions, dropout, and the generators' seed.
//
// Each tile has one generator (xoroshiro128+, as the IPU's hardware generator). As in Poplar's
// IPU Model, generation is deterministic: every tile's generator starts from the same seed when
// the engine loads, and setSeed() has no effect. Unseeded calls (seed == nullptr) draw from and
// advance the tile's generator, so successive calls and runs give new numbers. Seeded calls
// are repeatable: the numbers depend only on the seed tensor's value, seedModifier and the
// layout of the reference tensor (not on earlier calls), so a dropout mask can be recomputed.
// See docs/compatibility.md.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poputil/exceptions.hpp>
#include <string>
#include <utility>

namespace poprand {

// Common parameters:
//   seed          nullptr, or a pair of UNSIGNED_INT seeding the generators for this call;
//   seedModifier  mixed into the seed (ignored without one): different modifiers, different
//   numbers; reference     the result is a clone of it (shape and tile mapping), so its mapping
//   must be
//                 complete; the work runs on the tiles holding it;
//   prog          receives the program.
// Bad arguments throw poputil::poplibs_error naming the operation and the argument.

/// Elements of `input` kept with probability keepProbability and multiplied by `scale`, the
/// others zero. The mask depends on the keep probability, seed, modifier and reference layout.
/// The result is a clone of `reference` (same shape as input).
poplar::Tensor dropout(poplar::Graph& graph, const poplar::Tensor* seed,
                       const uint32_t seedModifier, const poplar::Tensor& input,
                       const poplar::Tensor& reference, double keepProbability, double scale,
                       poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = {});

/// The same; the result clones `reference` when outputClonesRef, else `input`.
poplar::Tensor dropout(poplar::Graph& graph, const poplar::Tensor* seed,
                       const uint32_t seedModifier, const poplar::Tensor& input,
                       const poplar::Tensor& reference, double keepProbability, double scale,
                       bool outputClonesRef, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = {});

/// Dropout with one mask element per element of `reference`, broadcast to `input` (rows,
/// columns or whole dimensions dropped together). reference must broadcast to input's shape.
poplar::Tensor shapedDropout(poplar::Graph& graph, const poplar::Tensor* seed,
                             const uint32_t seedModifier, const poplar::Tensor& input,
                             const poplar::Tensor& reference, double keepProbability, double scale,
                             poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext = {});

/// Uniform in [minVal, maxVal] (minVal < maxVal): FLOAT and HALF continuous; INT integers of
/// the closed interval, each equally likely up to a bias of (maxVal - minVal + 1) / 2^32.
poplar::Tensor uniform(poplar::Graph& graph, const poplar::Tensor* seed, uint32_t seedModifier,
                       const poplar::Tensor& reference, const poplar::Type& outType, double minVal,
                       double maxVal, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = {});

/// Log-uniform in [minVal, maxVal] (1 <= minVal < maxVal): base^u with u uniform in
/// [log_base minVal, log_base maxVal]. FLOAT, HALF or INT (rounded).
poplar::Tensor logUniform(poplar::Graph& graph, const poplar::Tensor* seed, uint32_t seedModifier,
                          const poplar::Tensor& reference, const poplar::Type& outType,
                          double minVal, double maxVal, poplar::program::Sequence& prog,
                          double base = M_E, const poplar::DebugContext& debugContext = {});

/// 1 with probability `prob` (in [0, 1]), else 0. FLOAT, HALF or INT.
poplar::Tensor bernoulli(poplar::Graph& graph, const poplar::Tensor* seed, uint32_t seedModifier,
                         const poplar::Tensor& reference, const poplar::Type& outType, double prob,
                         poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext = {});

/// Normal with the given mean and standard deviation (>= 0). FLOAT or HALF.
poplar::Tensor normal(poplar::Graph& graph, const poplar::Tensor* seed, uint32_t seedModifier,
                      const poplar::Tensor& reference, const poplar::Type& outType, double mean,
                      double stdDev, poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {});

/// Normal(mean, stdDev) truncated symmetrically to [mean - alpha·stdDev, mean + alpha·stdDev]
/// (alpha > 0): out-of-range draws are redrawn. FLOAT or HALF.
poplar::Tensor truncatedNormal(poplar::Graph& graph, const poplar::Tensor* seed,
                               uint32_t seedModifier, const poplar::Tensor& reference,
                               const poplar::Type& outType, double mean, double stdDev,
                               double alpha, poplar::program::Sequence& prog,
                               const poplar::DebugContext& debugContext = {});

/// Seeds every tile's generator from masterSeed (a pair of UNSIGNED_INT) and seedModifier. As
/// in Poplar's IPU Model this has no effect on the numbers generated (the seed vertices run and
/// are costed, the generators keep their state).
void setSeed(poplar::Graph& graph, const poplar::Tensor& masterSeed, uint32_t seedModifier,
             poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

} // namespace poprand
