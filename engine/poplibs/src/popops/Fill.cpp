#include "poplibs_support/Arith.hpp"
#include "poplibs_support/TileWork.hpp"

#include <poputil/DebugInfo.hpp>
#include <cctype>
#include <popops/Fill.hpp>
#include <popops/Zero.hpp>
#include <poputil/VertexTemplates.hpp>

namespace popops {

void detail::fill(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
                  double fillValue, const poplar::DebugContext& debugContext, const char* opName) {
  using namespace poplar;
  using poplibs_support::saturatingCast;
  const std::string op = std::string("popops::") + opName;
  std::string csName = opName;
  csName[0] = char(std::toupper(static_cast<unsigned char>(csName[0])));
  const poputil::PoplibsOpDebugInfo di(debugContext, csName);
  poplibs_support::checkValid(t, op, "the tensor");
  const Type type = t.elementType();
  poplibs_support::checkType(type, {FLOAT, HALF, INT, UNSIGNED_INT}, op, "the tensor");
  const ComputeSet cs = graph.addComputeSet(di);
  const auto vertices = poplibs_support::addElementWiseVertices(
      graph, cs, poputil::templateVertex("popops::Fill", type), t, {{"out", t}}, op);
  for (const auto& v : vertices) {
    if (type == FLOAT)
      graph.setInitialValue(v["value"], saturatingCast<float>(fillValue));
    else if (type == HALF)
      graph.setInitialValue(v["value"], saturatingCast<half>(fillValue));
    else if (type == INT)
      graph.setInitialValue(v["value"], saturatingCast<int>(fillValue));
    else
      graph.setInitialValue(v["value"], saturatingCast<unsigned>(fillValue));
  }
  prog.add(program::Execute(cs, di));
}

void zero(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          const poplar::DebugContext& debugContext) {
  detail::fill(graph, t, prog, 0.0, debugContext, "zero");
}

} // namespace popops
