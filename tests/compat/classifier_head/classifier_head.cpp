// A classifier head: the top 3 classes of each sample's logits (topK), the predicted class
// (argMax) and the one-hot encoding of the labels (encodeOneHot), with top-1 and top-3
// accuracy worked out on the host from what the device returned and compared with the host's
// own computation.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/Encoding.hpp>
#include <popops/TopK.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <pva/pva.hpp>

using namespace poplar;
using namespace poplar::program;

static void printOps(const std::string& dir) {
  pva::Report report = pva::openReport(dir + "/profile.pop", dir + "/debug.cbor");
  for (const pva::ComputeSet& cs : report.compilation().computeSets()) {
    auto dc = cs.debugContext();
    std::string op = dc ? dc->opType() : std::string("?");
    for (const auto& v : cs.vertices())
      std::cout << "profile: " << op << " " << v.type().name() << " x" << v.count() << "\n";
  }
}

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  const std::size_t batch = 12, classes = 10, k = 3;
  const popops::TopKParams params(k, true, popops::SortOrder::DESCENDING);
  Tensor logits = popops::createTopKInput(graph, FLOAT, {batch, classes}, params, "logits");
  Tensor labels = graph.addVariable(UNSIGNED_INT, {batch}, "labels");
  poputil::mapTensorLinearly(graph, labels);
  Tensor oneHot = graph.addVariable(FLOAT, {batch, classes}, "oneHot");
  poputil::mapTensorLinearly(graph, oneHot, 0, classes);
  graph.createHostWrite("logits", logits);
  graph.createHostWrite("labels", labels);

  Sequence prog;
  std::pair<Tensor, Tensor> top = popops::topKWithPermutation(graph, prog, logits, params, "top3");
  Tensor predicted = popops::argMax(graph, logits, prog, "predicted");
  popops::encodeOneHot(graph, labels, oneHot, prog, "labelsOneHot");
  graph.createHostRead("topValues", top.first);
  graph.createHostRead("topClasses", top.second);
  graph.createHostRead("predicted", predicted);
  graph.createHostRead("oneHot", oneHot);

  OptionFlags engineOptions{{"autoReport.all", "true"},
                            {"autoReport.directory", "./report"},
                            {"debug.retainDebugInformation", "true"}};
  Engine engine(graph, prog, engineOptions);
  engine.load(device);

  std::vector<float> hostLogits(batch * classes);
  std::vector<unsigned> hostLabels(batch);
  for (std::size_t i = 0; i < hostLogits.size(); ++i)
    hostLogits[i] = float((i * 37 + 11) % 101) / 10.0f - 5.0f;
  for (std::size_t b = 0; b < batch; ++b) hostLabels[b] = unsigned((b * 7) % classes);
  engine.writeTensor("logits", hostLogits.data(), hostLogits.data() + hostLogits.size());
  engine.writeTensor("labels", hostLabels.data(), hostLabels.data() + hostLabels.size());
  engine.run(0);
  std::vector<float> topValues(batch * k), gotOneHot(batch * classes);
  std::vector<unsigned> topClasses(batch * k), gotPredicted(batch);
  engine.readTensor("topValues", topValues.data(), topValues.data() + topValues.size());
  engine.readTensor("topClasses", topClasses.data(), topClasses.data() + topClasses.size());
  engine.readTensor("predicted", gotPredicted.data(), gotPredicted.data() + gotPredicted.size());
  engine.readTensor("oneHot", gotOneHot.data(), gotOneHot.data() + gotOneHot.size());

  unsigned top1 = 0, top3 = 0, hostTop1 = 0, hostTop3 = 0;
  for (std::size_t b = 0; b < batch; ++b) {
    std::vector<unsigned> order(classes);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](unsigned x, unsigned y) {
      return hostLogits[b * classes + x] > hostLogits[b * classes + y];
    });
    for (std::size_t i = 0; i < k; ++i)
      if (topClasses[b * k + i] != order[i] ||
          topValues[b * k + i] != hostLogits[b * classes + order[i]]) {
        std::cerr << "sample " << b << ": top " << i << " is class " << topClasses[b * k + i]
                  << ", expected " << order[i] << "\n";
        return 1;
      }
    if (gotPredicted[b] != order[0]) {
      std::cerr << "sample " << b << ": argMax " << gotPredicted[b] << ", expected " << order[0]
                << "\n";
      return 1;
    }
    for (std::size_t c = 0; c < classes; ++c)
      if (gotOneHot[b * classes + c] != (c == hostLabels[b] ? 1.0f : 0.0f)) {
        std::cerr << "oneHot[" << b << "][" << c << "] = " << gotOneHot[b * classes + c] << "\n";
        return 1;
      }
    top1 += gotPredicted[b] == hostLabels[b];
    hostTop1 += order[0] == hostLabels[b];
    for (std::size_t i = 0; i < k; ++i) {
      top3 += topClasses[b * k + i] == hostLabels[b];
      hostTop3 += order[i] == hostLabels[b];
    }
  }
  if (top1 != hostTop1 || top3 != hostTop3) {
    std::cerr << "accuracy differs from the host\n";
    return 1;
  }
  std::cout << "topK, argMax and encodeOneHot match the host\n";
  std::cout << "top-1 correct: " << top1 << " of " << batch << ", top-3 correct: " << top3
            << " of " << batch << "\n";
  printOps("report");
  return 0;
}
