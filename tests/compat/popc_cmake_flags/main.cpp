// Runs a precompiled stencil codelet over 4 tiles and checks it against the host.
#include <cstdio>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#define STENCIL_CENTRE 0.5f
#define STENCIL_SIDE 0.25f

using namespace poplar;
using namespace poplar::program;

int main() {
#if POPLAR_VERSION_MAJOR >= 3
  std::printf("built for Poplar %d.x (popc --version)\n", POPLAR_VERSION_MAJOR);
#else
  std::printf("Poplar older than 3: untested\n");
  return 1;
#endif
  const unsigned tiles = 4, perTile = 8, n = tiles * perTile;
  IPUModel model;
  model.tilesPerIPU = tiles;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("stencil_codelets.gp");

  std::vector<float> host(n + 2);
  for (unsigned i = 0; i < host.size(); ++i) host[i] = float((i * 7) % 11) - 3.0f;
  Tensor in = graph.addVariable(FLOAT, {n + 2}, "in");
  Tensor out = graph.addVariable(FLOAT, {n}, "out");
  graph.setInitialValue(in, host);
  ComputeSet cs = graph.addComputeSet("stencil");
  for (unsigned t = 0; t < tiles; ++t) {
    graph.setTileMapping(in.slice(t * perTile, (t + 1) * perTile + (t + 1 == tiles ? 2 : 0)), t);
    graph.setTileMapping(out.slice(t * perTile, (t + 1) * perTile), t);
    VertexRef v = graph.addVertex(cs, "Stencil3",
                                  {{"in", in.slice(t * perTile, (t + 1) * perTile + 2)},
                                   {"out", out.slice(t * perTile, (t + 1) * perTile)}});
    graph.setTileMapping(v, t);
  }
  graph.createHostRead("out", out);
  Engine engine(graph, Execute(cs));
  engine.load(device);
  engine.run();
  std::vector<float> result(n);
  engine.readTensor("out", result.data(), result.data() + n);
  unsigned wrong = 0;
  for (unsigned i = 0; i < n; ++i) {
    const float want = STENCIL_CENTRE * host[i + 1] + STENCIL_SIDE * (host[i] + host[i + 2]);
    if (result[i] != want) ++wrong;
  }
  std::printf("%u cells on %u tiles, %u differ from the host\n", n, tiles, wrong);
  return wrong == 0 ? 0 : 1;
}
