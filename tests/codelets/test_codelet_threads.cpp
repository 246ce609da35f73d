// Codelet-file vertices on several host threads (tessera.threads): a compute set whose codelet
// writes to the console runs on one thread, so its lines come whole and in the vertices' order;
// a quiet codelet's compute set is spread over the threads and computes the same.
#include "CodeletFiles.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fcntl.h>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <string>
#include <unistd.h>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

constexpr unsigned kTiles = 256, kPerTile = 128; // enough work for the pool

const char* const kCodelets = R"(#include <poplar/Vertex.hpp>
#include <cstdio>
// Prints one line in three pieces: lines from vertices on several threads would interleave.
class Shout : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  bool compute() {
    std::printf("tile-sum ");
    std::printf("%d", int(in[0]));
    std::printf(" end\n");
    return true;
  }
};
)";

// In a file of its own: the decision is made per codelet object (a .gp that prints anywhere
// keeps all its compute sets on one thread).
const char* const kQuietCodelets = R"(#include <poplar/Vertex.hpp>
class Twice : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<float>> data;
  bool compute() {
    for (unsigned i = 0; i < data.size(); ++i) data[i] *= 2;
    return true;
  }
};
)";

/// Standard output of `f`, read back from a file standard output was redirected to.
template <typename F> std::string captureStdout(const std::filesystem::path& file, F f) {
  std::fflush(stdout);
  const int saved = dup(1);
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dup2(fd, 1);
  ::close(fd);
  try {
    f();
  } catch (...) {
    std::fflush(stdout);
    dup2(saved, 1);
    ::close(saved);
    throw;
  }
  std::fflush(stdout);
  dup2(saved, 1);
  ::close(saved);
  return test::readFile(file);
}

} // namespace

TEST_CASE(
    "a printing codelet's lines stay whole and in order on many threads; a quiet one runs on them",
    "[codelets][threads]") {
  test::CodeletScratch scratch;
  const auto loudFile = scratch.write("loud_codelets.cpp", kCodelets);
  const auto quietFile = scratch.write("quiet_codelets.cpp", kQuietCodelets);
  IPUModel model;
  model.tilesPerIPU = kTiles;
  Device device = model.createDevice();
  Graph g(device.getTarget());
  g.addCodelets(loudFile.string());
  g.addCodelets(quietFile.string());
  Tensor x = g.addVariable(FLOAT, {kTiles * kPerTile}, "x");
  std::vector<float> initial(kTiles * kPerTile);
  for (std::size_t i = 0; i < initial.size(); ++i)
    initial[i] = float(i / kPerTile) + float(i % 3);
  g.setInitialValue(x, initial);
  ComputeSet loud = g.addComputeSet("loud"), quiet = g.addComputeSet("quiet");
  for (unsigned t = 0; t < kTiles; ++t) {
    const Tensor mine = x.slice(t * kPerTile, (t + 1) * kPerTile);
    g.setTileMapping(mine, t);
    g.setTileMapping(g.addVertex(loud, "Shout", {{"in", mine}}), t);
    g.setTileMapping(g.addVertex(quiet, "Twice", {{"data", mine}}), t);
  }
  g.createHostRead("x", x);
  Engine e(g, Sequence{Execute(quiet), Execute(loud)}, {{"tessera.threads", "8"}});
  e.load(device);
  const std::string out = captureStdout(scratch / "stdout.txt", [&] { e.run(); });
  std::string want;
  for (unsigned t = 0; t < kTiles; ++t)
    want += "tile-sum " + std::to_string(int(2 * initial[t * kPerTile])) + " end\n";
  CHECK(out == want);
  std::vector<float> got(initial.size());
  e.readTensor("x", got.data(), got.data() + got.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    REQUIRE(got[i] == 2 * initial[i]);
}
