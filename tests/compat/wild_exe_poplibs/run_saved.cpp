// Loads and runs a saved executable; linked with -lpoplar only, although the executable runs
// PopLibs vertices.
#include <fstream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: run_saved <executable>\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  try {
    Executable exe = Executable::deserialize(in);
    IPUModel ipuModel;
    ipuModel.tilesPerIPU = 4;
    Device device = ipuModel.createDevice();
    Engine engine(std::move(exe));
    engine.load(device);
    engine.run(0);
    std::vector<float> y(8);
    engine.readTensor("y", y.data(), y.data() + y.size());
    std::cout << "y = 3 + 0.5 * x:";
    for (float v : y)
      std::cout << " " << v;
    std::cout << "\n";
  } catch (const poplar_error &e) {
    std::cerr << "run_saved: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
