// Estimates pi with one MultiVertex per tile (six workers each) drawing from the IPU's random
// number generator, sums the hits with popops::reduce, and checks the estimate and that every
// worker counted within its own throws.
#include <cmath>
#include <cstdio>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  const unsigned tiles = 4, workers = 6;
  const int iterations = 20000;
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = tiles;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  graph.addCodelets("pi_vertex.gp");

  Tensor hits = graph.addVariable(UNSIGNED_INT, {tiles, workers}, "hits");
  Tensor where = graph.addVariable(UNSIGNED_INT, {tiles}, "where");
  ComputeSet cs = graph.addComputeSet("darts");
  for (unsigned t = 0; t < tiles; ++t) {
    graph.setTileMapping(hits[t], t);
    graph.setTileMapping(where[t], t);
    VertexRef v = graph.addVertex(cs, "PiVertex", {{"hits", hits[t]}});
    graph.setInitialValue(v["iterations"], iterations);
    graph.setTileMapping(v, t);
    VertexRef w = graph.addVertex(cs, "WhereAmI", {{"tile", where[t]}});
    graph.setTileMapping(w, t);
  }
  Sequence prog;
  prog.add(Execute(cs));
  Tensor total = popops::reduce(graph, hits.flatten(), UNSIGNED_INT, {0}, popops::Operation::ADD,
                                prog, "total");
  graph.createHostRead("hits", hits);
  graph.createHostRead("where", where);
  graph.createHostRead("total", total);

  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  std::vector<unsigned> h(tiles * workers), w(tiles);
  unsigned sum = 0;
  engine.readTensor("hits", h.data(), h.data() + h.size());
  engine.readTensor("where", w.data(), w.data() + w.size());
  engine.readTensor("total", &sum, &sum + 1);

  unsigned hostSum = 0, inRange = 0;
  for (unsigned x : h) {
    hostSum += x;
    inRange += x > 0 && x <= unsigned(iterations);
  }
  const double pi = 4.0 * sum / (double(iterations) * tiles * workers);
  std::printf("%u of %u workers counted within their throws\n", inRange, tiles * workers);
  std::printf("reduce %s the host's sum of the hits\n", sum == hostSum ? "equals" : "differs from");
  std::printf("pi estimate within 0.02 of pi: %s\n", std::fabs(pi - M_PI) < 0.02 ? "yes" : "no");
  std::printf("vertices ran on tiles %u %u %u %u\n", w[0], w[1], w[2], w[3]);
  return 0;
}
