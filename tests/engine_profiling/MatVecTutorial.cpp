#include "MatVecTutorial.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Vertex.hpp>
#include <sstream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

/// partial = a . b
class FidelityDotProduct : public Vertex {
public:
  Input<Vector<float>> a, b;
  Output<float> out;
  bool compute() {
    float s = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
      s += a[i] * b[i];
    *out = s;
    return true;
  }
};
TESSERA_VERTEX(FidelityDotProduct, a, b, out);

/// out = sum of the row's partials
class FidelityRowSum : public Vertex {
public:
  Input<Vector<float>> in;
  Output<float> out;
  bool compute() {
    float s = 0;
    for (float x : in)
      s += x;
    *out = s;
    return true;
  }
};
TESSERA_VERTEX(FidelityRowSum, in, out);

namespace {

unsigned divUp(unsigned a, unsigned b) {
  return (a + b - 1) / b;
}

/// The tutorial's cost of splitting each row into `split` segments: the busiest tile's
/// dot-product and reduction work (workers rounded up) plus the exchange each needs.
unsigned planCost(const Target& t, unsigned rows, unsigned cols, unsigned split) {
  const unsigned tiles = t.getNumTiles(), workers = t.getNumWorkerContexts(),
                 bw = t.getExchangeBytesPerCycle();
  const unsigned dotsPerTile = std::max(divUp(rows * split, tiles), 1u);
  const unsigned segment = divUp(cols, split);
  const unsigned dotCompute = divUp(dotsPerTile, workers) * workers * (5 + (segment + 1) / 2);
  const unsigned dotExchange = divUp(dotsPerTile, rows) * segment * 4 / bw;
  const unsigned sumsPerTile = std::max(divUp(rows, tiles), 1u);
  const unsigned sumCompute = divUp(sumsPerTile, workers) * workers * (5 + (split + 1) / 2);
  const unsigned sumExchange = sumsPerTile * split * 4 / bw;
  return dotCompute + dotExchange + sumCompute + sumExchange;
}

unsigned bestSplit(const Target& t, unsigned rows, unsigned cols) {
  unsigned best = 1, bestCost = std::numeric_limits<unsigned>::max();
  for (unsigned split = 1; split < cols; ++split) {
    const unsigned c = planCost(t, rows, cols, split);
    if (c < bestCost) best = split, bestCost = c;
  }
  return best;
}

// The tutorial's codelets as a codelet file would hold them (the same code as the classes
// above): a C++ loop each, as the tutorial's README says its hardware profile measures.
const char* const kCodeletFile = R"(#include <poplar/Vertex.hpp>
class FidelityDotProduct : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> a, b;
  poplar::Output<float> out;
  bool compute() {
    float s = 0;
    for (unsigned i = 0; i < a.size(); ++i) s += a[i] * b[i];
    *out = s;
    return true;
  }
};
class FidelityRowSum : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<float> out;
  bool compute() {
    float s = 0;
    for (unsigned i = 0; i < in.size(); ++i) s += in[i];
    *out = s;
    return true;
  }
};
)";

} // namespace

namespace test {

Device tutorialIpuModel(const char* ipuVersion) {
  IPUModel model(ipuVersion);
  model.minIPUSyncDelay = 0; // as the tutorial sets its IPU Model
  model.relativeSyncDelay = IPUModel::RelativeSyncDelayType::NO_DELAY;
  return model.createDevice();
}

MatVecRun runMatVec(Device& device, unsigned rows, unsigned cols, const std::filesystem::path& dir,
                    bool codeletFile) {
  const Target& target = device.getTarget();
  Graph graph(target);
  if (codeletFile) {
    const auto source = dir / "matrix-mul-codelets.cpp";
    std::ofstream(source) << kCodeletFile;
    graph.addCodelets(source.string());
  } else {
    graph.addCodelets("MatVecTutorial.cpp");
  }

  Tensor matrix = graph.addVariable(FLOAT, {rows, cols}, "matrix");
  Tensor x = graph.addVariable(FLOAT, {cols}, "x");
  Tensor y = graph.addVariable(FLOAT, {rows}, "y");
  MatVecRun result;
  const unsigned split = result.split = bestSplit(target, rows, cols);
  const unsigned tiles = target.getNumTiles();
  Tensor partials = graph.addVariable(FLOAT, {rows, split}, "partials");
  for (unsigned c = 0; c < cols; ++c)
    graph.setTileMapping(x[c], c * tiles / cols); // spread over all tiles

  ComputeSet dots = graph.addComputeSet("dots");
  for (unsigned s = 0; s < split; ++s) {
    const unsigned begin = s * cols / split, end = (s + 1) * cols / split;
    if (begin == end) continue;
    for (unsigned r = 0; r < rows; ++r) {
      const unsigned tile =
          (s * rows + r) * tiles / (split * rows); // all segments evenly over the tiles
      VertexRef v = graph.addVertex(dots, "FidelityDotProduct",
                                    {{"a", matrix[r].slice(begin, end)},
                                     {"b", x.slice(begin, end)},
                                     {"out", partials[r][s]}});
      graph.setTileMapping(v, tile);
      graph.setTileMapping(matrix[r].slice(begin, end), tile);
      graph.setTileMapping(partials[r][s], tile);
      graph.setPerfEstimate(v, 5 + (end - begin + 1) / 2); // 2 MACs a cycle after 5 to start
    }
  }
  ComputeSet sums = graph.addComputeSet("sums");
  for (unsigned r = 0; r < rows; ++r) {
    const unsigned tile = r * tiles / rows;
    VertexRef v = graph.addVertex(sums, "FidelityRowSum", {{"in", partials[r]}, {"out", y[r]}});
    graph.setTileMapping(v, tile);
    graph.setTileMapping(y[r], tile);
    graph.setPerfEstimate(v, 5 + (split + 1) / 2);
  }

  DataStream xIn = graph.addHostToDeviceFIFO("x", FLOAT, cols);
  DataStream matrixIn = graph.addHostToDeviceFIFO("matrix", FLOAT, std::size_t(rows) * cols);
  DataStream yOut = graph.addDeviceToHostFIFO("y", FLOAT, rows);
  Engine engine(
      graph,
      Sequence({Copy(xIn, x), Copy(matrixIn, matrix), Execute(dots), Execute(sums), Copy(y, yOut)}),
      {{"autoReport.all", "true"}, {"autoReport.directory", dir.string()}});
  engine.load(device);
  std::vector<float> hostMatrix(std::size_t(rows) * cols), hostX(cols), hostY(rows);
  for (unsigned c = 0; c < cols; ++c)
    hostX[c] = float(c % 7) - 3;
  for (std::size_t i = 0; i < hostMatrix.size(); ++i)
    hostMatrix[i] = float(i % 5) - 2;
  engine.connectStream("x", hostX.data());
  engine.connectStream("matrix", hostMatrix.data());
  engine.connectStream("y", hostY.data());
  engine.run();

  result.correct = true;
  for (unsigned r = 0; r < rows && result.correct; ++r) {
    double expect = 0;
    for (unsigned c = 0; c < cols; ++c)
      expect += double(hostMatrix[std::size_t(r) * cols + c]) * hostX[c];
    result.correct = std::abs(expect - hostY[r]) <= 1e-3 * (1 + std::abs(expect));
  }
  const pva::ReportSummary summary = pva::summarize(engine.getReport());
  result.figures = summary.execution;
  result.rules = summary.vertexCycleRules;
  std::ostringstream text;
  engine.printProfileSummary(text);
  result.summaryText = text.str();
  return result;
}

} // namespace test
