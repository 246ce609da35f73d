// poprand operations: argument checks, the output tensor (a clone of the reference), and one
// supervisor vertex per tile over that tile's elements, wired to the tile's generator state.
#include "HardwareSeeds.hpp"
#include "poplibs_support/TileWork.hpp"

#include <cmath>
#include <limits>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <poprand/RandomGen.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace poprand {
namespace {

using namespace poplar;
using poplar::program::Sequence;

std::string num(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

void checkSeed(const Tensor* seed, const std::string& op) {
  if (!seed) return;
  poplibs_support::checkValid(*seed, op, "seed");
  if (seed->elementType() != UNSIGNED_INT || seed->numElements() != 2)
    throw poputil::poplibs_error(op + ": seed must be a pair of UNSIGNED_INT (shape {2}), not " +
                                 seed->elementType().toString() + " " + seed->shapeToString());
}

void checkFinite(double v, const std::string& op, const char* name) {
  if (!std::isfinite(v))
    throw poputil::poplibs_error(op + ": " + name + " must be finite, not " + num(v));
}

/// A clone of `reference` of type `type` filled by one `vertexName` per tile (its elements of
/// the flattened result as `out`, of `input` as `in` when given), with `setParams` setting the
/// vertex's distribution parameters.
template <class SetParams>
Tensor generate(Graph& graph, const Tensor* seed, uint32_t seedModifier, const Tensor& reference,
                const Type& type, const Tensor* input, const std::string& vertexName,
                Sequence& prog, const poputil::PoplibsOpDebugInfo& di, const std::string& op,
                SetParams setParams) {
  poplibs_support::checkValid(reference, op, "reference");
  checkSeed(seed, op);
  const auto mapping = poplibs_support::tileMapping(graph, reference, op);
  const Tensor out = graph.clone(type, reference, {di, "out"});
  const Tensor flatOut = out.flatten();
  const Tensor flatIn = input ? input->flatten() : Tensor();
  const Tensor hwSeeds = detail::hardwareSeeds(graph);
  const ComputeSet cs = graph.addComputeSet({di, op.substr(op.find("::") + 2)});
  const std::string vertex = poputil::templateVertex(vertexName, type);
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    if (mapping[tile].empty()) continue;
    std::vector<Tensor> outs, ins;
    for (const auto& iv : mapping[tile]) {
      outs.push_back(flatOut.slice(iv));
      if (input) ins.push_back(flatIn.slice(iv));
    }
    const auto v = graph.addVertex(cs, vertex);
    graph.connect(v["out"], concat(outs));
    if (input) graph.connect(v["in"], concat(ins));
    graph.connect(v["hwSeeds"], hwSeeds[tile]);
    graph.connect(v["seed"], seed ? seed->flatten() : hwSeeds[tile].slice(0, 2));
    graph.setInitialValue(v["seedModifier"], unsigned(seedModifier));
    graph.setInitialValue(v["useSeed"], unsigned(seed != nullptr));
    graph.setInitialValue(v["tile"], tile);
    setParams(v);
    graph.setTileMapping(v, tile);
  }
  prog.add(program::Execute(cs, di));
  return out;
}

void checkDropout(const Tensor& input, const Tensor& reference, double keepProbability,
                  double scale, const std::string& op) {
  poplibs_support::checkValid(input, op, "input");
  poplibs_support::checkValid(reference, op, "reference");
  poplibs_support::checkType(input.elementType(), {FLOAT, HALF}, op, "input");
  if (!(keepProbability >= 0.0 && keepProbability <= 1.0))
    throw poputil::poplibs_error(op + ": keepProbability must be in [0, 1], not " +
                                 num(keepProbability));
  checkFinite(scale, op, "scale");
}

} // namespace

Tensor dropout(Graph& graph, const Tensor* seed, const uint32_t seedModifier, const Tensor& input,
               const Tensor& reference, double keepProbability, double scale, bool outputClonesRef,
               Sequence& prog, const DebugContext& debugContext) {
  const std::string op = "poprand::dropout";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "dropout");
  checkDropout(input, reference, keepProbability, scale, op);
  if (input.shape() != reference.shape())
    throw poputil::poplibs_error(op + ": reference has shape " + reference.shapeToString() +
                                 " but input " + input.shapeToString() + "; they must match");
  // The work follows the tensor the result clones.
  const Tensor& layout = outputClonesRef ? reference : input;
  return generate(graph, seed, seedModifier, layout, input.elementType(), &input,
                  "poprand::DropoutSupervisor", prog, di, op, [&](VertexRef v) {
                    graph.setInitialValue(v["prob"], float(keepProbability));
                    graph.setInitialValue(v["scale"], float(scale));
                  });
}

Tensor dropout(Graph& graph, const Tensor* seed, const uint32_t seedModifier, const Tensor& input,
               const Tensor& reference, double keepProbability, double scale, Sequence& prog,
               const DebugContext& debugContext) {
  return dropout(graph, seed, seedModifier, input, reference, keepProbability, scale, true, prog,
                 debugContext);
}

Tensor shapedDropout(Graph& graph, const Tensor* seed, const uint32_t seedModifier,
                     const Tensor& input, const Tensor& reference, double keepProbability,
                     double scale, Sequence& prog, const DebugContext& debugContext) {
  const std::string op = "poprand::shapedDropout";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "shapedDropout");
  checkDropout(input, reference, keepProbability, scale, op);
  // numpy broadcasting of reference to input: trailing dimensions equal or 1.
  const auto& in = input.shape();
  const auto& ref = reference.shape();
  bool broadcasts = ref.size() <= in.size();
  for (std::size_t i = 0; broadcasts && i < ref.size(); ++i) {
    const std::size_t r = ref[ref.size() - 1 - i], d = in[in.size() - 1 - i];
    broadcasts = r == d || r == 1;
  }
  if (!broadcasts)
    throw poputil::poplibs_error(op + ": reference of shape " + reference.shapeToString() +
                                 " does not broadcast to input's shape " + input.shapeToString());
  // The mask holds `scale` where kept and 0 elsewhere; one multiply applies it to the input.
  Tensor mask = generate(graph, seed, seedModifier, reference, input.elementType(), nullptr,
                         "poprand::BernoulliSupervisor", prog, di, op, [&](VertexRef v) {
                           graph.setInitialValue(v["prob"], float(keepProbability));
                         });
  const Tensor scaleT = graph.addConstant(input.elementType(), {}, float(scale), {di, "scale"});
  graph.setTileMapping(scaleT, 0);
  popops::mulInPlace(graph, mask, scaleT, prog, {di, "scale"});
  return popops::mul(graph, input, mask, prog, {di, "apply"});
}

Tensor uniform(Graph& graph, const Tensor* seed, uint32_t seedModifier, const Tensor& reference,
               const Type& outType, double minVal, double maxVal, Sequence& prog,
               const DebugContext& debugContext) {
  const std::string op = "poprand::uniform";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "uniform");
  poplibs_support::checkType(outType, {FLOAT, HALF, INT}, op, "outType");
  checkFinite(minVal, op, "minVal");
  checkFinite(maxVal, op, "maxVal");
  if (!(minVal < maxVal))
    throw poputil::poplibs_error(op + ": minVal (" + num(minVal) + ") must be less than maxVal (" +
                                 num(maxVal) + ")");
  if (outType == INT) {
    const double lo = std::ceil(minVal), hi = std::floor(maxVal);
    if (lo < double(std::numeric_limits<int>::min()) ||
        hi > double(std::numeric_limits<int>::max()) || lo > hi)
      throw poputil::poplibs_error(op + ": [" + num(minVal) + ", " + num(maxVal) +
                                   "] holds no INT values or exceeds the INT range");
    const std::uint64_t range = std::uint64_t(hi - lo) + 1; // 2^32 wraps to 0: every value
    return generate(graph, seed, seedModifier, reference, outType, nullptr,
                    "poprand::UniformSupervisor", prog, di, op, [&](VertexRef v) {
                      graph.setInitialValue(v["offset"], int(lo));
                      graph.setInitialValue(v["range"], unsigned(range));
                    });
  }
  return generate(graph, seed, seedModifier, reference, outType, nullptr,
                  "poprand::UniformSupervisor", prog, di, op, [&](VertexRef v) {
                    graph.setInitialValue(v["offset"], float(minVal));
                    graph.setInitialValue(v["scale"], float(maxVal - minVal));
                  });
}

Tensor logUniform(Graph& graph, const Tensor* seed, uint32_t seedModifier, const Tensor& reference,
                  const Type& outType, double minVal, double maxVal, Sequence& prog, double base,
                  const DebugContext& debugContext) {
  const std::string op = "poprand::logUniform";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "logUniform");
  poplibs_support::checkType(outType, {FLOAT, HALF, INT}, op, "outType");
  checkFinite(minVal, op, "minVal");
  checkFinite(maxVal, op, "maxVal");
  if (minVal < 1.0)
    throw poputil::poplibs_error(op + ": minVal must be at least 1, not " + num(minVal));
  if (!(maxVal > minVal))
    throw poputil::poplibs_error(op + ": maxVal (" + num(maxVal) +
                                 ") must be greater than minVal (" + num(minVal) + ")");
  if (!(base > 1.0) || !std::isfinite(base))
    throw poputil::poplibs_error(op + ": base must be a finite number greater than 1, not " +
                                 num(base));
  // base^u = e^(u ln base): draw the natural exponent uniformly, exponentiate, cast.
  const Tensor exponent = uniform(graph, seed, seedModifier, reference, FLOAT, std::log(minVal),
                                  std::log(maxVal), prog, {di, "exponent"});
  popops::expInPlace(graph, exponent, prog, {di, "exp"});
  if (outType == FLOAT) return exponent;
  return popops::cast(graph, exponent, outType, prog, {di, "cast"});
}

Tensor bernoulli(Graph& graph, const Tensor* seed, uint32_t seedModifier, const Tensor& reference,
                 const Type& outType, double prob, Sequence& prog,
                 const DebugContext& debugContext) {
  const std::string op = "poprand::bernoulli";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "bernoulli");
  poplibs_support::checkType(outType, {FLOAT, HALF, INT}, op, "outType");
  if (!(prob >= 0.0 && prob <= 1.0))
    throw poputil::poplibs_error(op + ": prob must be in [0, 1], not " + num(prob));
  return generate(graph, seed, seedModifier, reference, outType, nullptr,
                  "poprand::BernoulliSupervisor", prog, di, op,
                  [&](VertexRef v) { graph.setInitialValue(v["prob"], float(prob)); });
}

Tensor normal(Graph& graph, const Tensor* seed, uint32_t seedModifier, const Tensor& reference,
              const Type& outType, double mean, double stdDev, Sequence& prog,
              const DebugContext& debugContext) {
  const std::string op = "poprand::normal";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "normal");
  poplibs_support::checkType(outType, {FLOAT, HALF}, op, "outType");
  checkFinite(mean, op, "mean");
  checkFinite(stdDev, op, "stdDev");
  if (stdDev < 0)
    throw poputil::poplibs_error(op + ": stdDev must not be negative, not " + num(stdDev));
  return generate(graph, seed, seedModifier, reference, outType, nullptr,
                  "poprand::NormalSupervisor", prog, di, op, [&](VertexRef v) {
                    graph.setInitialValue(v["mean"], float(mean));
                    graph.setInitialValue(v["stdDev"], float(stdDev));
                  });
}

Tensor truncatedNormal(Graph& graph, const Tensor* seed, uint32_t seedModifier,
                       const Tensor& reference, const Type& outType, double mean, double stdDev,
                       double alpha, Sequence& prog, const DebugContext& debugContext) {
  const std::string op = "poprand::truncatedNormal";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "truncatedNormal");
  poplibs_support::checkType(outType, {FLOAT, HALF}, op, "outType");
  checkFinite(mean, op, "mean");
  checkFinite(stdDev, op, "stdDev");
  if (stdDev < 0)
    throw poputil::poplibs_error(op + ": stdDev must not be negative, not " + num(stdDev));
  if (!(alpha > 0) || !std::isfinite(alpha))
    throw poputil::poplibs_error(op + ": alpha must be a finite number greater than 0, not " +
                                 num(alpha));
  // Redraws per element: enough that a value still outside the bounds has odds below 2^-24.
  const double outside = std::erfc(alpha / std::sqrt(2.0));
  const unsigned iterations =
      outside <= 0 ? 1u
                   : unsigned(std::min(
                         64.0, std::max(1.0, std::ceil(std::log(0x1p-24) / std::log(outside)))));
  return generate(graph, seed, seedModifier, reference, outType, nullptr,
                  "poprand::TruncatedNormalSupervisor", prog, di, op, [&](VertexRef v) {
                    graph.setInitialValue(v["mean"], float(mean));
                    graph.setInitialValue(v["stdDev"], float(stdDev));
                    graph.setInitialValue(v["alpha"], float(alpha));
                    graph.setInitialValue(v["iterations"], iterations);
                  });
}

void setSeed(Graph& graph, const Tensor& masterSeed, uint32_t seedModifier, Sequence& prog,
             const DebugContext& debugContext) {
  const std::string op = "poprand::setSeed";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "setSeed");
  checkSeed(&masterSeed, op);
  // One seed vertex per tile, as PopLibs adds; in the IPU Model they leave the generators as
  // they are (see SetSeedSupervisor).
  const ComputeSet cs = graph.addComputeSet({di, "setSeed"});
  const Tensor flat = masterSeed.flatten();
  for (unsigned tile = 0; tile < graph.getTarget().getNumTiles(); ++tile) {
    const auto v = graph.addVertex(cs, "poprand::SetSeedSupervisor");
    graph.connect(v["seed"], flat);
    graph.setInitialValue(v["seedModifier"], unsigned(seedModifier));
    graph.setTileMapping(v, tile);
  }
  prog.add(program::Execute(cs, di));
}

} // namespace poprand
