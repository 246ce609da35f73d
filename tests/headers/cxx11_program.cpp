// A small graph program written against the public headers only, compiled as C++11 at -O0 with
// -Werror (see CMakeLists.txt). Compiling each header alone parses it; this program also
// instantiates the header templates the way a C++11 user program does (a vertex registered with
// TESSERA_VERTEX, addConstant/setInitialValue, popops::fill, poputil::templateVertex) and links
// them against the C++17 libraries, so it fails if a template needs C++14/17 once instantiated
// or if a static constexpr member used by value has no definition before C++17.
#include <cstdint>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/HalfFloat.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Vertex.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Fill.hpp>
#include <popops/codelets.hpp>
#include <poputil/VertexTemplates.hpp>
#include <pva/Insights.hpp>
#include <pva/pva.hpp>
#include <pvti/pvti.hpp>
#include <vector>

#if __cplusplus != 201103L
#error "this test must be compiled as C++11"
#endif

using namespace poplar;
using namespace poplar::program;

// Every kind of member the registration tells apart: a vector input, an edge list, a scalar
// output and a state value; compute() returns void, and the class has its own cycle estimate.
class ScaledSum : public Vertex {
public:
  Input<Vector<float>> in;
  Vector<Input<Vector<float>>> extra;
  Output<float> out;
  float scale;

  void compute() {
    float s = 0;
    for (float x : in)
      s += x;
    for (std::size_t i = 0; i < extra.size(); ++i)
      for (float x : extra[i])
        s += x;
    *out = s * scale;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector& v, const Target&) {
    return 10 + v.getFieldInfo("in").size();
  }
};
TESSERA_VERTEX(ScaledSum, in, extra, out, scale);

namespace {
int failures = 0;
void check(bool ok, const char* what) {
  if (!ok) {
    std::cerr << "FAILED: " << what << "\n";
    ++failures;
  }
}
} // namespace

int main() {
  // Binding to a reference odr-uses the member: before C++17 it links only if it is defined.
  const Type& floatType = TypeOf<float>::value;
  check(floatType == FLOAT, "TypeOf<float>::value is FLOAT");
  check(poputil::templateVertex("popops::Add", FLOAT, true) == "popops::Add<float,true>",
        "templateVertex names the vertex");
  check(float(half(1.5f)) == 1.5f, "half round-trips 1.5");

  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  graph.addCodelets(__FILE__);

  Sequence prog;
  Tensor a = graph.addConstant<float>(FLOAT, {4}, {1, 2, 3, 4});
  Tensor b = graph.addConstant(FLOAT, {4}, 0.5f);
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 1);
  Tensor sum = popops::add(graph, a, b, prog, "add"); // 1.5 2.5 3.5 4.5

  Tensor extra = graph.addVariable(FLOAT, {2}, VariableMappingMethod::LINEAR, "extra");
  graph.setInitialValue(extra, std::vector<float>{10, 20});
  Tensor out = graph.addVariable(FLOAT, {}, "out");
  graph.setTileMapping(out, 0);

  ComputeSet cs = graph.addComputeSet("scaledSum");
  VertexRef v = graph.addVertex(cs, "ScaledSum", {{"in", sum}, {"out", out}});
  graph.connect(v["extra"], std::vector<Tensor>{extra.slice(0, 1), extra.slice(1, 2)});
  graph.setInitialValue(v["scale"], 2.0f);
  graph.setTileMapping(v, 0);
  prog.add(Execute(cs));

  Tensor filled = graph.addVariable(FLOAT, {3}, VariableMappingMethod::LINEAR, "filled");
  popops::fill(graph, filled, prog, 3); // FillValueType = int
  graph.createHostRead("out", out);
  graph.createHostRead("filled", filled);

  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);

  float result = 0;
  engine.readTensor("out", &result, &result + 1);
  check(result == 2.0f * (12.0f + 30.0f), "the vertex computed 2 * (sum(a + b) + sum(extra))");
  std::vector<float> f(3);
  engine.readTensor("filled", f.data(), f.data() + f.size());
  check(f[0] == 3 && f[1] == 3 && f[2] == 3, "popops::fill wrote 3 everywhere");

  if (failures == 0) std::cout << "C++11 program OK\n";
  return failures == 0 ? 0 : 1;
}
