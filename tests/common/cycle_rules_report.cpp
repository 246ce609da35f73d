// tessera-cycle-rules-report --device model|ipu --reports DIR: a report whose vertices two rules
// cost, for the tests of the front ends that show them (pva summary, Python, printProfileSummary).
// Two instances of one codelet loop, one with a declared estimate (setPerfEstimate) and one
// without: an IPU Model costs them "setPerfEstimate" and "executed"; simulated hardware measures
// both ("executed"). Prints Engine::printProfileSummary. The codelet cache goes under DIR unless
// TESSERA_CODELET_CACHE says otherwise.
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <string>

namespace {

const char* const kCodelet = R"(#include <poplar/Vertex.hpp>
class Loop : public poplar::Vertex {
public:
  poplar::Input<unsigned> n;
  poplar::Input<float> x;
  poplar::Output<float> out;
  bool compute() {
    float v = x;
    for (unsigned i = 0; i < n; ++i) v = v * 1.5f + 1.0f;
    *out = v;
    return true;
  }
};
)";

poplar::Device device(const std::string& kind) {
  if (kind == "model") {
    poplar::IPUModel model;
    model.tilesPerIPU = 4;
    return model.createDevice();
  }
  auto devices =
      poplar::DeviceManager::createDeviceManager().getDevices(poplar::TargetType::IPU, 1);
  for (poplar::Device& d : devices)
    if (d.attach()) return std::move(d);
  throw std::runtime_error("no simulated IPU to attach to");
}

} // namespace

int main(int argc, char** argv) {
  using namespace poplar;
  std::string kind, dir;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--device")
      kind = argv[i + 1];
    else if (a == "--reports")
      dir = argv[i + 1];
  }
  if ((kind != "model" && kind != "ipu") || dir.empty() || argc != 5) {
    std::cerr << "usage: tessera-cycle-rules-report --device model|ipu --reports DIR\n";
    return 2;
  }
  try {
    if (!std::getenv("TESSERA_CODELET_CACHE"))
      setenv("TESSERA_CODELET_CACHE", (dir + "/codelet-cache").c_str(), 1);
    std::filesystem::create_directories(dir);
    Device d = device(kind);
    Graph graph(d.getTarget());
    const std::string codelet = dir + "/loop.cpp";
    std::ofstream(codelet) << kCodelet;
    graph.addCodelets(codelet);
    ComputeSet cs = graph.addComputeSet("loops");
    Tensor n = graph.addConstant(UNSIGNED_INT, {}, 100u, "n");
    graph.setTileMapping(n, 0);
    for (unsigned tile = 0; tile < 2; ++tile) {
      Tensor x = graph.addConstant(FLOAT, {}, 0.5f, "x");
      Tensor out = graph.addVariable(FLOAT, {}, "out" + std::to_string(tile));
      graph.setTileMapping(x, tile);
      graph.setTileMapping(out, tile);
      VertexRef v = graph.addVertex(cs, "Loop", {{"n", n}, {"x", x}, {"out", out}});
      graph.setTileMapping(v, tile);
      if (tile == 0) graph.setPerfEstimate(v, 50); // a hand-written estimate, far too low
    }
    Engine engine(graph, program::Execute(cs),
                  {{"autoReport.all", "true"}, {"autoReport.directory", dir}});
    engine.load(d);
    engine.run(0);
    engine.printProfileSummary(std::cout);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "tessera-cycle-rules-report: " << e.what() << "\n";
    return 1;
  }
}
