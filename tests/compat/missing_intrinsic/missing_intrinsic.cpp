// Bad input: a codelet calling an IPU intrinsic the host build cannot provide. addCodelets
// throws, and the message names the intrinsic.
#include <iostream>
#include <string>

#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

int main() {
  poplar::IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  poplar::Device device = ipuModel.createDevice();
  poplar::Graph graph(device.getTarget());
  try {
    graph.addCodelets("cycle_codelet.cpp");
    std::cout << "compiled: the error was not detected\n";
    return 1;
  } catch (const poplar::poplar_error &e) {
    const std::string what = e.what();
    std::cout << "addCodelets failed; the message "
              << (what.find("__builtin_ipu_get_scount_l") != std::string::npos ? "names" : "does not name")
              << " __builtin_ipu_get_scount_l and "
              << (what.find("no host implementation") != std::string::npos ? "says" : "does not say")
              << " it has no host implementation\n";
  }
  return 0;
}
