// The gradient of a sparse softmax cross-entropy, as a hand-written training step computes it:
// the softmax probabilities (here written from the host) minus one at each example's label,
// updated in place by popops::updateScalarInRows. One example carries MASKED_LABEL_CODE (a
// padding example: left alone) and one a label past the last class (its row becomes NaN, as
// TensorFlow's op reports it). The result is checked against the same update on the host.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/EncodingConstants.hpp>
#include <popops/UpdateScalarInRows.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  const std::size_t batch = 12, classes = 10;
  Tensor probs = graph.addVariable(FLOAT, {batch, classes}, "probs");
  Tensor labels = graph.addVariable(UNSIGNED_INT, {batch}, "labels");
  poputil::mapTensorLinearly(graph, probs);
  poputil::mapTensorLinearly(graph, labels);
  graph.createHostWrite("probs", probs);
  graph.createHostWrite("labels", labels);
  graph.createHostRead("grad", probs);

  Sequence backward;
  popops::updateScalarInRows(graph, probs, labels, backward, "softmaxGrad");

  Engine engine(graph, backward);
  engine.load(device);

  std::vector<float> host(batch * classes);
  std::vector<unsigned> hostLabels(batch);
  for (std::size_t b = 0; b < batch; ++b) {
    float sum = 0;
    for (std::size_t c = 0; c < classes; ++c) {
      host[b * classes + c] = std::exp(std::sin(float(b * classes + c)));
      sum += host[b * classes + c];
    }
    for (std::size_t c = 0; c < classes; ++c)
      host[b * classes + c] /= sum;
    hostLabels[b] = unsigned((b * 7) % classes);
  }
  hostLabels[3] = MASKED_LABEL_CODE;
  hostLabels[8] = unsigned(classes + 2);
  engine.writeTensor("probs", host.data(), host.data() + host.size());
  engine.writeTensor("labels", hostLabels.data(), hostLabels.data() + batch);
  engine.run(0);
  std::vector<float> grad(host.size());
  engine.readTensor("grad", grad.data(), grad.data() + grad.size());

  bool ok = true;
  std::size_t nanRows = 0;
  for (std::size_t b = 0; b < batch; ++b) {
    bool rowNaN = true;
    for (std::size_t c = 0; c < classes; ++c) {
      const float got = grad[b * classes + c];
      rowNaN = rowNaN && std::isnan(got);
      if (hostLabels[b] == MASKED_LABEL_CODE) {
        ok = ok && got == host[b * classes + c];
      } else if (hostLabels[b] >= classes) {
        ok = ok && std::isnan(got);
      } else {
        const float want = host[b * classes + c] - (c == hostLabels[b] ? 1.0f : 0.0f);
        ok = ok && std::fabs(got - want) < 1e-6f;
      }
    }
    nanRows += rowNaN;
  }
  std::cout << "rows set to NaN: " << nanRows << "\n";
  std::cout << (ok ? "gradient matches the host" : "gradient differs from the host") << "\n";
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
