// The gfloat casts: one cast vertex per piece of the input's tile work, each reading the
// one-element parameter tensor (the packed format word) and carrying the rounding state.
#include "poplibs_support/TileWork.hpp"

#include <popfloat/experimental/CastToGfloat.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>

namespace popfloat {
namespace experimental {

using namespace poplar;
using poplar::program::Sequence;

namespace {

void checkParam(const Tensor& param, const std::string& op) {
  if (!param.valid() || param.numElements() != 1 || param.elementType() != INT)
    throw poputil::poplibs_error(op + ": param must be the one-element INT tensor "
                                      "createCastOpParamsTensor makes");
}

void checkInput(const Tensor& input, const Type& expected, const std::string& op,
                const char* what) {
  if (!input.valid()) throw poputil::poplibs_error(op + ": the input tensor is invalid");
  if (input.elementType() != expected)
    throw poputil::poplibs_error(op + ": the input is " + input.elementType().toString() + " but " +
                                 what + " is " + expected.toString());
}

/// The rounding state of a cast to gfloat, set on each vertex; seeds differ per vertex.
void setRounding(Graph& graph, const std::vector<VertexRef>& vertices,
                 const GfloatCast::CastConfig& c) {
  static unsigned nextSeed = 0x9E3779B9u;
  for (const VertexRef& v : vertices) {
    graph.setInitialValue(v["roundMode"], unsigned(c.getRoundMode()));
    graph.setInitialValue(v["numSRBits"], c.getNumSRBits());
    graph.setInitialValue(v["density"],
                          unsigned(c.getSRNoiseDensity() == SRDensityType::BERNOULLI ? 1 : 0));
    graph.setInitialValue(v["srNoiseOffset"], c.getSRNoiseOffset());
    graph.setInitialValue(v["srNoiseScale"], c.getSRNoiseScale());
    graph.setInitialValue(v["srNoiseMax"], c.getSRNoiseMax());
    graph.setInitialValue(v["srNoiseMin"], c.getSRNoiseMin());
    graph.setInitialValue(v["bernoulliProb"], c.getBernoulliProbability());
    graph.setInitialValue(v["nanoo"], c.isNanooModeEnabled());
    nextSeed = nextSeed * 1664525u + 1013904223u;
    graph.setInitialValue(v["seed"], nextSeed);
  }
}

void connectParam(Graph& graph, const std::vector<VertexRef>& vertices, const Tensor& param) {
  for (const VertexRef& v : vertices)
    graph.connect(v["param"], param.flatten());
}

Tensor toGfloat(Graph& graph, const Tensor& input, const Tensor& param, const ComputeSet& cs,
                const GfloatCast::CastConfig& c, const DebugNameAndId& di, const std::string& op) {
  checkParam(param, op);
  checkInput(input, c.getCalculationType(), op, "the cast's calculation type");
  const Tensor out = graph.clone(c.getStorageType(), input, {di, "gfloat"});
  const auto vertices = poplibs_support::addElementWiseVertices(
      graph, cs,
      poputil::templateVertex("popfloat::experimental::CastNativeToGfloat", input.elementType(),
                              c.getStorageType()),
      input, {{"in", input}, {"out", out}}, op);
  connectParam(graph, vertices, param);
  setRounding(graph, vertices, c);
  return out;
}

void toGfloatInPlace(Graph& graph, const Tensor& input, const Tensor& param, const ComputeSet& cs,
                     const GfloatCast::CastConfig& c, const std::string& op) {
  checkParam(param, op);
  checkInput(input, c.getCalculationType(), op, "the cast's calculation type");
  if (!c.inPlaceOp(input.elementType()))
    throw poputil::poplibs_error(op + ": the format is stored as " + c.getStorageType().toString() +
                                 ", not in place in " + input.elementType().toString());
  const auto vertices = poplibs_support::addElementWiseVertices(
      graph, cs,
      poputil::templateVertex("popfloat::experimental::CastNativeToGfloatInPlace",
                              input.elementType()),
      input, {{"inOut", input}}, op);
  connectParam(graph, vertices, param);
  setRounding(graph, vertices, c);
}

Tensor toNative(Graph& graph, const Tensor& input, const Tensor& param, const ComputeSet& cs,
                const GfloatCast::CastConfig& c, const DebugNameAndId& di, const std::string& op) {
  checkParam(param, op);
  if (!input.valid()) throw poputil::poplibs_error(op + ": the input tensor is invalid");
  const Type in = input.elementType();
  if (in != FLOAT && in != HALF && in != SHORT && in != SIGNED_CHAR)
    throw poputil::poplibs_error(op +
                                 ": gfloats are stored as FLOAT, HALF, SHORT or "
                                 "SIGNED_CHAR, not " +
                                 in.toString());
  const Tensor out = graph.clone(c.getStorageType(), input, {di, "native"});
  const auto vertices = poplibs_support::addElementWiseVertices(
      graph, cs,
      poputil::templateVertex("popfloat::experimental::CastGfloatToNative", in, c.getStorageType()),
      input, {{"in", input}, {"out", out}}, op);
  connectParam(graph, vertices, param);
  for (const VertexRef& v : vertices)
    graph.setInitialValue(v["formatType"], unsigned(c.getFormatType()));
  return out;
}

const std::string kTo = "popfloat::experimental::GfloatCast::castNativeToGfloat";
const std::string kInPlace = "popfloat::experimental::GfloatCast::castNativeToGfloatInPlace";
const std::string kFrom = "popfloat::experimental::GfloatCast::castGfloatToNative";

} // namespace

Tensor GfloatCast::castNativeToGfloat(Graph& graph, Tensor input, const Tensor& param,
                                      Sequence& prog, const CastConfig& gfCastCfg,
                                      const DebugContext& debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input, param), "castNativeToGfloat");
  const ComputeSet cs = graph.addComputeSet({di, "castNativeToGfloat"});
  const Tensor out = toGfloat(graph, input, param, cs, gfCastCfg, {di}, kTo);
  prog.add(program::Execute(cs, {di}));
  di.addOutput(out);
  return out;
}

Tensor GfloatCast::castNativeToGfloat(Graph& graph, Tensor input, const Tensor& param,
                                      const ComputeSet& cs, const CastConfig& gfCastCfg,
                                      const DebugContext& debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input, param), "castNativeToGfloat");
  const Tensor out = toGfloat(graph, input, param, cs, gfCastCfg, {di}, kTo);
  di.addOutput(out);
  return out;
}

Tensor GfloatCast::castNativeToGfloat(Graph& graph, Tensor input, Sequence& prog,
                                      const DebugContext& debugContext) {
  return castNativeToGfloat(graph, input, getCastOpParams(), prog, nativeToGFCastCfg, debugContext);
}

void GfloatCast::castNativeToGfloatInPlace(Graph& graph, Tensor input, const Tensor& param,
                                           Sequence& prog, const CastConfig& gfCastCfg,
                                           const DebugContext& debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input, param), "castNativeToGfloatInPlace");
  const ComputeSet cs = graph.addComputeSet({di, "castNativeToGfloatInPlace"});
  toGfloatInPlace(graph, input, param, cs, gfCastCfg, kInPlace);
  prog.add(program::Execute(cs, {di}));
}

void GfloatCast::castNativeToGfloatInPlace(Graph& graph, Tensor input, Sequence& prog,
                                           const DebugContext& debugContext) {
  castNativeToGfloatInPlace(graph, input, getCastOpParams(), prog, nativeToGFCastCfg, debugContext);
}

void GfloatCast::castNativeToGfloatInPlace(Graph& graph, Tensor input, const Tensor& param,
                                           const ComputeSet& cs, const CastConfig& gfCastCfg,
                                           const DebugContext& debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input, param), "castNativeToGfloatInPlace");
  toGfloatInPlace(graph, input, param, cs, gfCastCfg, kInPlace);
}

void GfloatCast::castNativeToGfloatInPlace(Graph& graph, Tensor input, const ComputeSet& cs) {
  castNativeToGfloatInPlace(graph, input, getCastOpParams(), cs, nativeToGFCastCfg);
}

Tensor GfloatCast::castGfloatToNative(Graph& graph, Tensor input, const Tensor& param,
                                      Sequence& prog, const CastConfig& gfCastCfg,
                                      const DebugContext& debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input, param), "castGfloatToNative");
  const ComputeSet cs = graph.addComputeSet({di, "castGfloatToNative"});
  const Tensor out = toNative(graph, input, param, cs, gfCastCfg, {di}, kFrom);
  prog.add(program::Execute(cs, {di}));
  di.addOutput(out);
  return out;
}

Tensor GfloatCast::castGfloatToNative(Graph& graph, Tensor input, Sequence& prog,
                                      const DebugContext& debugContext) {
  return castGfloatToNative(graph, input, getCastOpParams(), prog, gfToNativeCastCfg, debugContext);
}

Tensor GfloatCast::castGfloatToNative(Graph& graph, Tensor input, const Tensor& param,
                                      const ComputeSet& cs, const CastConfig& gfCastCfg,
                                      const DebugContext& debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input, param), "castGfloatToNative");
  const Tensor out = toNative(graph, input, param, cs, gfCastCfg, {di}, kFrom);
  di.addOutput(out);
  return out;
}

Tensor GfloatCast::castGfloatToNative(Graph& graph, Tensor input, const ComputeSet& cs) {
  return castGfloatToNative(graph, input, getCastOpParams(), cs, gfToNativeCastCfg);
}

} // namespace experimental
} // namespace popfloat
