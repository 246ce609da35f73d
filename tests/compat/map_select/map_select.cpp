// A fused element-wise expression as custom operations write them: a clipped, label-masked
// score, where(x > float(label), x * scale + bias, float(label) - 0.5), built with popops::expr
// and evaluated by one popops::map over tensors of three types. The numbers are checked
// against the same loop on the host, and the profile must show one compute set of fused
// vertices under the operation's debug name.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <pva/pva.hpp>

using namespace poplar;
using namespace poplar::program;
namespace pe = popops::expr;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 16;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  const std::size_t rows = 8, cols = 50, n = rows * cols;
  Tensor x = graph.addVariable(FLOAT, {rows, cols}, "x");
  Tensor label = graph.addVariable(INT, {rows, cols}, "label");
  Tensor bias = graph.addVariable(FLOAT, {cols}, "bias"); // broadcast over the rows
  poputil::mapTensorLinearly(graph, x);
  poputil::mapTensorLinearly(graph, label);
  poputil::mapTensorLinearly(graph, bias);
  graph.createHostWrite("x", x);
  graph.createHostWrite("label", label);
  graph.createHostWrite("bias", bias);

  const float scale = 1.5f;
  const pe::Cast labelF(pe::_2, FLOAT);
  const pe::Select score(pe::_1 * scale + pe::_3, labelF - 0.5f, pe::_1 > labelF);
  Sequence prog;
  Tensor result = popops::map(graph, score, {x, label, bias}, prog, "maskedScore");
  graph.createHostRead("result", result);

  Engine engine(graph, prog,
                {{"autoReport.outputGraphProfile", "true"}, {"autoReport.directory", "report"}});
  engine.load(device);
  std::vector<float> hostX(n), hostBias(cols), out(n);
  std::vector<int> hostLabel(n);
  for (std::size_t i = 0; i < n; ++i) {
    hostX[i] = std::sin(0.37f * float(i)) * 3.0f;
    hostLabel[i] = int(i % 5) - 2;
  }
  for (std::size_t c = 0; c < cols; ++c) hostBias[c] = 0.01f * float(c);
  engine.writeTensor("x", hostX.data(), hostX.data() + n);
  engine.writeTensor("label", hostLabel.data(), hostLabel.data() + n);
  engine.writeTensor("bias", hostBias.data(), hostBias.data() + cols);
  engine.run(0);
  engine.readTensor("result", out.data(), out.data() + n);

  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float l = float(hostLabel[i]);
    const float expect = hostX[i] > l ? hostX[i] * scale + hostBias[i % cols] : l - 0.5f;
    if (std::fabs(out[i] - expect) > 1e-5f * (1.0f + std::fabs(expect))) ++bad;
  }
  std::cout << (bad == 0 ? "fused expression matches the host"
                         : std::to_string(bad) + " elements differ from the host")
            << "\n";

  // The profile: the operation's compute set, holding only fused expression vertices.
  pva::Report report = engine.getReport(false);
  unsigned mapSets = 0;
  bool onlyMapVertices = true;
  for (const pva::ComputeSet& cs : report.compilation().computeSets()) {
    if (cs.name().find("maskedScore") == std::string::npos) continue;
    ++mapSets;
    for (const pva::ComputeSetVertices& v : cs.vertices())
      if (v.type().name().compare(0, 13, "popops::map::") != 0) onlyMapVertices = false;
  }
  std::cout << "compute sets for maskedScore: " << mapSets << "\n";
  std::cout << "vertices: " << (onlyMapVertices ? "popops::map::..." : "OTHER") << "\n";
  return bad == 0 && mapSets == 1 && onlyMapVertices ? EXIT_SUCCESS : EXIT_FAILURE;
}
