// Streams a 1-D lattice for a few steps on two tiles, then measures row densities and counts
// cells above a threshold, each checked against the same computation on the host.
#include <cstdio>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {

const unsigned kCells = 8, kSpeeds = 3, kSteps = 3;

// The host's version of StreamStep, with a zero relaxation (never set on the device).
std::vector<float> hostStream(const std::vector<float> &cells) {
  std::vector<float> out(cells.size(), 0.0f);
  for (unsigned i = 1; i + 1 < kCells + 2; ++i) {
    out[i * kSpeeds + 0] = cells[(i + 1) * kSpeeds + 0];
    out[i * kSpeeds + 1] = cells[i * kSpeeds + 1];
    out[i * kSpeeds + 2] = cells[(i - 1) * kSpeeds + 2];
  }
  return out;
}

} // namespace

int main() {
  IPUModel model;
  model.tilesPerIPU = 2;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("codelets.gp");

  std::vector<float> host((kCells + 2) * kSpeeds, 0.0f);
  for (unsigned i = 1; i <= kCells; ++i)
    for (unsigned s = 0; s < kSpeeds; ++s)
      host[i * kSpeeds + s] = float(i) + 0.25f * float(s);

  // Two buffers of cells with a zero halo at each end; the step reads one and writes the
  // inside of the other, and the copy back keeps the halo.
  Tensor a = graph.addVariable(FLOAT, {(kCells + 2) * kSpeeds}, "a");
  Tensor b = graph.addVariable(FLOAT, {(kCells + 2) * kSpeeds}, "b");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 0);
  graph.setInitialValue(a, host);
  graph.setInitialValue(b, std::vector<float>(host.size(), 0.0f));
  ComputeSet step = graph.addComputeSet("stream");
  VertexRef s = graph.addVertex(step, "StreamStep",
                                {{"cellsIn", a}, {"cellsOut", b.slice(kSpeeds, (kCells + 1) * kSpeeds)}});
  graph.setInitialValue(s["numCells"], kCells);
  graph.setTileMapping(s, 0);

  Tensor rows = b.slice(kSpeeds, (kCells + 1) * kSpeeds).reshape({2, kCells / 2 * kSpeeds});
  Tensor density = graph.addVariable(FLOAT, {2}, "density");
  Tensor above = graph.addVariable(UNSIGNED_INT, {}, "above");
  Tensor timesRun = graph.addVariable(UNSIGNED_INT, {}, "timesRun");
  graph.setTileMapping(density, 1);
  graph.setTileMapping(above, 1);
  graph.setTileMapping(timesRun, 1);
  graph.setInitialValue(timesRun, 0u);
  ComputeSet measure = graph.addComputeSet("measure");
  VertexRef d = graph.addVertex(measure, "RowDensity", {{"density", density}});
  graph.setFieldSize(d["rows"], 2);
  graph.connect(d["rows"][0], rows[0]);
  graph.connect(d["rows"][1], rows[1]);
  graph.setInitialValue(d["cellsPerRow"], kCells / 2);
  graph.setTileMapping(d, 1);
  VertexRef c = graph.addVertex(measure, "CountAbove",
                                {{"values", b}, {"above", above}, {"timesRun", timesRun}});
  graph.setInitialValue(c["threshold"], 4.0f);
  graph.setTileMapping(c, 1);
  graph.createHostRead("b", b);
  graph.createHostRead("density", density);
  graph.createHostRead("above", above);
  graph.createHostRead("timesRun", timesRun);

  Sequence prog;
  prog.add(Repeat(kSteps, Sequence{Execute(step), Copy(b, a)}));
  prog.add(Execute(measure));
  prog.add(Execute(measure));
  Engine engine(graph, prog);
  engine.load(device);
  engine.run();

  std::vector<float> cells(host.size()), dens(2);
  unsigned count = 0, runs = 0;
  engine.readTensor("b", cells.data(), cells.data() + cells.size());
  engine.readTensor("density", dens.data(), dens.data() + 2);
  engine.readTensor("above", &count, &count + 1);
  engine.readTensor("timesRun", &runs, &runs + 1);

  std::vector<float> want = host;
  for (unsigned i = 0; i < kSteps; ++i) want = hostStream(want);
  float wantDensity[2] = {0, 0};
  unsigned wantAbove = 0;
  for (unsigned i = 0; i < want.size(); ++i) {
    if (i >= kSpeeds && i < (kCells + 1) * kSpeeds) wantDensity[(i - kSpeeds) / (kCells / 2 * kSpeeds)] += want[i];
    if (want[i] > 4.0f) ++wantAbove;
  }
  const bool ok = cells == want && dens[0] == wantDensity[0] && dens[1] == wantDensity[1] &&
                  count == wantAbove && runs == 2;
  std::printf("after %u steps: row densities %.2f %.2f, %u cells above 4, counter ran %u times\n",
              kSteps, dens[0], dens[1], count, runs);
  std::printf("%s\n", ok ? "results match the host" : "MISMATCH");
  return ok ? 0 : 1;
}
