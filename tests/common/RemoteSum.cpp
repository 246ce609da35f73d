#include "common/RemoteSum.hpp"

#include <vector>

namespace test {

RemoteSum::RemoteSum() {
  using namespace poplar;
  a = graph.addVariable(FLOAT, {8}, "a");
  graph.setTileMapping(a.slice(0, 4), 0);
  graph.setTileMapping(a.slice(4, 8), 1);
  std::vector<float> init(8, 1.0f);
  graph.setInitialValue(a, init);
  out = graph.addVariable(FLOAT, {1}, "out");
  graph.setTileMapping(out, 0);
  ComputeSet cs = graph.addComputeSet("sum");
  VertexRef v = graph.addVertex(cs, "SumVertex", {{"in", a}, {"out", out[0]}});
  graph.setTileMapping(v, 0);
  program = program::Execute(cs);
}

} // namespace test
