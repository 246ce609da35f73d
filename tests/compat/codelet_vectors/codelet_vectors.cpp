// Vertices from a codelet file with vector, vector-of-edges, vector-list and multi-worker
// fields. The program runs from another directory: Poplar finds the codelet file beside the
// executable.
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("vector_codelets.cpp");

  Tensor m = graph.addVariable(FLOAT, {3, 4}, "m");
  Tensor counts = graph.addVariable(INT, {5}, "counts");
  Tensor sums = graph.addVariable(FLOAT, {3}, "sums");
  Tensor partials = graph.addVariable(FLOAT, {6}, "partials");
  Tensor lengths = graph.addVariable(UNSIGNED_INT, {3}, "lengths");
  for (Tensor t : {m, counts, sums, partials, lengths})
    graph.setTileMapping(t, 0);
  std::vector<float> values;
  for (int i = 1; i <= 12; ++i)
    values.push_back(float(i));
  graph.setInitialValue(m, values);
  graph.setInitialValue(counts, std::vector<int>{1, 2, 3, 4, 5});

  ComputeSet scale = graph.addComputeSet("scale");
  VertexRef s = graph.addVertex(scale, "Scale<float>", {{"data", m.flatten()}});
  graph.setInitialValue(s["factor"], 0.5f);
  graph.setTileMapping(s, 0);
  VertexRef si = graph.addVertex(scale, "Scale<int>", {{"data", counts}});
  graph.setInitialValue(si["factor"], 3);
  graph.setTileMapping(si, 1);

  ComputeSet reduce = graph.addComputeSet("reduce");
  VertexRef rs = graph.addVertex(reduce, "RowSums", {{"sums", sums}});
  graph.setFieldSize(rs["rows"], 3);
  for (unsigned r = 0; r < 3; ++r)
    graph.connect(rs["rows"][r], m[r]);
  graph.setTileMapping(rs, 0);
  VertexRef dot = graph.addVertex(reduce, "PartialDot",
                                  {{"a", m[0]}, {"b", m[2]}, {"partials", partials}});
  graph.setTileMapping(dot, 1);
  VertexRef len = graph.addVertex(reduce, "Lengths", {{"lengths", lengths}});
  graph.connect(len["in"], {m[0].slice(0, 2), m[1], m[2].slice(0, 1)});
  graph.setTileMapping(len, 2);

  Sequence prog({Execute(scale), Execute(reduce), PrintTensor("m", m),
                 PrintTensor("counts", counts), PrintTensor("sums", sums),
                 PrintTensor("partials", partials), PrintTensor("lengths", lengths)});
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  std::cout << "codelet vertices ran\n";
  return 0;
}
