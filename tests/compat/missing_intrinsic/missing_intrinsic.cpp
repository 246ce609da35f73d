// Bad input: codelets calling IPU intrinsics the host build cannot provide. addCodelets throws,
// and the message names the intrinsic.
#include <iostream>
#include <string>

#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

static int tryCodelet(poplar::Graph &graph, const std::string &file, const std::string &intrinsic) {
  try {
    graph.addCodelets(file);
    std::cout << file << " compiled: the error was not detected\n";
    return 1;
  } catch (const poplar::poplar_error &e) {
    const std::string what = e.what();
    std::cout << "addCodelets(" << file << ") failed; the message "
              << (what.find(intrinsic) != std::string::npos ? "names" : "does not name") << " "
              << intrinsic << " and "
              << (what.find("no host implementation") != std::string::npos ? "says" : "does not say")
              << " it has no host implementation\n";
  }
  return 0;
}

int main() {
  poplar::IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  poplar::Device device = ipuModel.createDevice();
  poplar::Graph graph(device.getTarget());
  int failures = tryCodelet(graph, "cycle_codelet.cpp", "__builtin_ipu_get_scount_l");
  failures += tryCodelet(graph, "tapack_codelet.cpp", "__builtin_ipu_tapack");
  return failures;
}
