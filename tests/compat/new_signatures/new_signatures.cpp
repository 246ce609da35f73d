// Poplar signatures public code uses: Graph(target, replication_factor(n)), shapes as ArrayRef
// (braced lists, vectors, arrays), Graph::connect(field, value), the three-argument
// setPerfEstimate, variadic Sequence, DebugNameAndId, StringRef, Graph::serialize,
// poplar/CSRFunctions.hpp, and printProfileSummary after debug.instrument alone.
#include <array>
#include <iostream>
#include <sstream>
#include <vector>

#include <poplar/ArrayRef.hpp>
#include <poplar/CSRFunctions.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;

static std::size_t total(ArrayRef<std::size_t> shape) {
  std::size_t n = 1;
  for (auto d : shape)
    n *= d;
  return n;
}

static std::string describe(StringRef name) { return "[" + std::string(name) + "]"; }

int main() {
  IPUModel ipuModel;
  ipuModel.numIPUs = 2;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget(), replication_factor(2));
  graph.addCodelets("codelets.cpp");
  std::cout << "replicas: " << graph.getReplicationFactor()
            << ", tiles per replica: " << graph.getTarget().getNumTiles() << "\n";

  // Shapes three ways.
  const std::vector<std::size_t> vecShape = {2, 3};
  const std::array<std::size_t, 2> arrShape = {{3, 2}};
  Tensor a = graph.addVariable(FLOAT, {6}, "a");
  Tensor b = graph.addVariable(FLOAT, vecShape, "b");
  Tensor c = graph.addVariable(FLOAT, arrShape, "c");
  Tensor c2 = c.reshape({6});
  std::cout << "shapes: " << a.shapeToString() << " " << b.shapeToString() << " "
            << c.shapeToString() << " " << c2.shapeToString() << ", elements "
            << total(b.shape()) << "\n";
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 1);
  graph.setTileMapping(c, 1);
  graph.setInitialValue(a, std::vector<float>{1, 2, 3, 4, 5, 6});
  Tensor konst = graph.addConstant<float>(FLOAT, {2}, {10.0f, 20.0f}, "konst");
  graph.setTileMapping(konst, 2);

  DebugNameAndId dnai("affine");
  ComputeSet cs = graph.addComputeSet({dnai, "cs"});
  VertexRef v = graph.addVertex(cs, "Affine", {{"in", a}, {"out", b.flatten()}});
  graph.connect(v["k"], 3.0f);
  graph.connect(v["bias"], 1);
  graph.setPerfEstimate(v, 100, 12);
  graph.setTileMapping(v, 1);
  std::cout << "debug name " << describe(dnai.getPathName()) << "\n";

  graph.createHostRead("b", b);
  Sequence prog(Execute(cs), Copy(b.flatten(), c2));
  Sequence both{prog, Sequence()};

  std::ostringstream json;
  graph.serialize(json, {both}, SerializationFormat::JSON);
  std::cout << "serialized graph mentions Affine: "
            << (json.str().find("\"Affine\"") != std::string::npos ? "yes" : "no") << "\n";

  Engine engine(graph, both, {{"debug.instrument", "true"}});
  engine.load(device);
  engine.run();
  std::vector<float> out(6 * 2);
  engine.readTensor("b", out.data(), out.data() + 6);
  bool ok = true;
  for (unsigned i = 0; i < 6; ++i)
    ok = ok && out[i] == (i + 1) * 3.0f + 1;
  std::cout << "b = " << out[0] << " ... " << out[5] << (ok ? " (matches the host)" : " MISMATCH") << "\n";
  std::ostringstream summary;
  engine.printProfileSummary(summary);
  std::cout << "profile summary written: " << (summary.str().empty() ? "no" : "yes") << "\n";

  // Floating-point control: with inv set, a vertex that makes a NaN stops the program.
  Graph g2(device.getTarget());
  g2.addCodelets("codelets.cpp");
  Tensor x = g2.addVariable(FLOAT, {}, "x"), y = g2.addVariable(FLOAT, {}, "y");
  g2.setTileMapping(x, 0);
  g2.setTileMapping(y, 0);
  g2.setInitialValue(x, -1.0f);
  ComputeSet logCs = g2.addComputeSet("log");
  VertexRef lv = g2.addVertex(logCs, "Log", {{"in", x}, {"out", y}});
  g2.setTileMapping(lv, 0);
  for (bool inv : {false, true}) {
    Sequence s;
    FloatingPointBehaviour behaviour(inv, false, false, false, false);
    setFloatingPointBehaviour(g2, s, behaviour, "fp");
    s.add(Execute(logCs));
    Engine e(g2, s);
    e.load(device);
    try {
      e.run();
      std::cout << "inv=" << inv << ": log(-1) ran to the end\n";
    } catch (const poplar_error &err) {
      const std::string what = err.what();
      std::cout << "inv=" << inv << ": stopped, "
                << (what.find("NaN") != std::string::npos ? "a NaN" : what) << "\n";
    }
  }
  return ok ? 0 : 1;
}
