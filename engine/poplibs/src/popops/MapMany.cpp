// map, mapInPlace and mapWithOutput over several expressions (PopLibs' std::vector<expr::Any>
// forms): one fused map per expression, as PopLibs runs them.
#include <popops/ElementWise.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace popops {

using namespace poplar;
using poplar::program::Sequence;

std::vector<Tensor> map(Graph& graph, const std::vector<expr::Any>& exprs,
                        const std::vector<Tensor>& ts, Sequence& prog,
                        const DebugContext& debugContext, const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "MapMultipleOuts");
  std::vector<Tensor> outs;
  outs.reserve(exprs.size());
  for (const auto& e : exprs)
    outs.push_back(map(graph, e, ts, prog, {di}, options));
  return outs;
}

void mapInPlace(Graph& graph, const std::vector<expr::Any>& exprs, const std::vector<Tensor>& ts,
                Sequence& prog, const DebugContext& debugContext, const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "MapInPlaceMultiple");
  if (exprs.size() > ts.size())
    throw poputil::poplibs_error("popops::mapInPlace: " + std::to_string(exprs.size()) +
                                 " expressions but only " + std::to_string(ts.size()) +
                                 " tensors to write them to (expression i writes ts[i])");
  // Every expression reads the inputs as they were: results go to new tensors first.
  std::vector<Tensor> outs;
  outs.reserve(exprs.size());
  for (const auto& e : exprs)
    outs.push_back(map(graph, e, ts, prog, {di}, options));
  for (std::size_t i = 0; i < outs.size(); ++i) {
    if (outs[i].shape() != ts[i].shape() || outs[i].elementType() != ts[i].elementType())
      throw poputil::poplibs_error("popops::mapInPlace: expression " + std::to_string(i) +
                                   " gives " + outs[i].elementType().toString() + " of shape " +
                                   outs[i].shapeToString() + " but ts[" + std::to_string(i) +
                                   "] is " + ts[i].elementType().toString() + " of shape " +
                                   ts[i].shapeToString());
    prog.add(program::Copy(outs[i], ts[i], false, {di}));
  }
}

void mapWithOutput(Graph& graph, const std::vector<expr::Any>& exprs, const std::vector<Tensor>& ts,
                   const std::vector<Tensor>& outs, Sequence& prog,
                   const DebugContext& debugContext, const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "MapWithOutputMultiple");
  if (exprs.size() != outs.size())
    throw poputil::poplibs_error("popops::mapWithOutput: " + std::to_string(exprs.size()) +
                                 " expressions but " + std::to_string(outs.size()) +
                                 " output tensors (one each)");
  for (std::size_t i = 0; i < exprs.size(); ++i)
    mapWithOutput(graph, exprs[i], ts, outs[i], prog, {di}, options);
}

} // namespace popops
