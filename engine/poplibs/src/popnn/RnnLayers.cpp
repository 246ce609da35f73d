// Shared checks and views of popnn's recurrent layers (see RnnLayers.hpp).
#include "RnnLayers.hpp"

#include "poplibs_support/TileWork.hpp"

#include <cstdlib>
#include <poplar/exceptions.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {
namespace rnn_layers {

using namespace poplar;

Dims dimsOf(const rnn::RnnParams& rnn, const Type& dataType, std::size_t batchSize,
            std::size_t timeSteps, const std::vector<std::size_t>& layerSizes,
            const std::string& op) {
  struct {
    const Type& dataType;
    std::size_t batchSize, timeSteps;
    const std::vector<std::size_t>& layerSizes;
  } p{dataType, batchSize, timeSteps, layerSizes};
  if (p.layerSizes.size() != 2)
    throw poputil::poplibs_error(op + ": layerSizes must be {input size, output size}, not " +
                                 std::to_string(p.layerSizes.size()) + " sizes");
  if (rnn.variableTimeSteps())
    throw poputil::poplibs_error(op + ": a variable number of time steps is not supported yet");
  if (!p.timeSteps || !p.batchSize || !p.layerSizes[0] || !p.layerSizes[1])
    throw poputil::poplibs_error(op + ": timeSteps, batchSize and layerSizes must be non-zero");
  if (p.dataType != FLOAT && p.dataType != HALF)
    throw poputil::poplibs_error(op + ": dataType must be float or half, not " +
                                 p.dataType.toString());
  return {p.timeSteps, p.batchSize, p.layerSizes[0], p.layerSizes[1]};
}

void checkShape(const Tensor& t, const std::vector<std::size_t>& want, const std::string& op,
                const std::string& what) {
  if (!t.valid()) throw poputil::poplibs_error(op + ": " + what + " is an empty tensor");
  if (t.shape() != want) {
    std::string w, g;
    for (auto d : want)
      w += (w.empty() ? "" : ",") + std::to_string(d);
    for (auto d : t.shape())
      g += (g.empty() ? "" : ",") + std::to_string(d);
    throw poputil::poplibs_error(op + ": " + what + " must have shape [" + w + "], not [" + g +
                                 "]");
  }
}

Tensor newTensor(Graph& graph, const Type& type, const std::vector<std::size_t>& shape,
                 const DebugContext& dc) {
  Tensor t = graph.addVariable(type, shape, dc);
  poputil::mapTensorLinearly(graph, t);
  return t;
}

Tensor unitsAsMatrix(const Tensor& w) {
  return w.dimShuffle({1, 0, 2}).reshape({w.dim(1), w.dim(0) * w.dim(2)});
}

Tensor matrixAsUnits(const Tensor& m, std::size_t units) {
  return m.reshape({m.dim(0), units, m.dim(1) / units}).dimShuffle({1, 0, 2});
}

Tensor stack(const std::vector<Tensor>& ts, unsigned dim) {
  std::vector<Tensor> expanded;
  for (const auto& t : ts)
    expanded.push_back(t.expand({dim}));
  return concat(expanded, dim);
}

std::vector<unsigned> unitPositions(const std::vector<unsigned>& order, unsigned numUnits,
                                    const std::string& op) {
  std::vector<unsigned> pos(numUnits, numUnits);
  if (order.size() != numUnits)
    throw poputil::poplibs_error(op + ": cellOrder must list the " + std::to_string(numUnits) +
                                 " units, not " + std::to_string(order.size()));
  for (unsigned k = 0; k < order.size(); ++k) {
    const unsigned u = order[k];
    if (u >= numUnits || pos[u] != numUnits)
      throw poputil::poplibs_error(op + ": cellOrder must list each unit once");
    pos[u] = k;
  }
  return pos;
}

// Values are checked even for options that change nothing here, so a typo fails as on PopLibs.
OptionFlags checkLayerOptions(const OptionFlags& options, std::initializer_list<const char*> known,
                              const std::string& op) {
  poplibs_support::checkOptions(options, known, op);
  OptionFlags matMulOptions;
  for (const auto& kv : options) {
    const std::string& k = kv.first;
    const std::string& v = kv.second;
    auto bad = [&](const char* want) {
      throw poplar::invalid_option(op + ": option " + k + " must be " + want + ", not '" + v + "'");
    };
    if (k == "availableMemoryProportion") {
      char* end = nullptr;
      const double d = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end || d < 0 || d > 1) bad("a number in [0, 1]");
      matMulOptions.set(k, v);
    } else if (k == "partialsType" || k == "weightAccumulatorsType") {
      if (v != "float" && v != "half") bad("float or half");
      if (k == "partialsType") matMulOptions.set(k, v);
    } else if (k == "preCalcWeights" || k == "rnnCodeReuse" || k == "inferenceOnly") {
      if (v != "true" && v != "false") bad("true or false");
    } else if (k == "recomputationMode") {
      if (v != "none" && v != "cellAndTanh" && v != "full") bad("none, cellAndTanh or full");
    } else if (k == "numShards") {
      if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v == "0")
        bad("a positive integer");
    }
  }
  return matMulOptions;
}

} // namespace rnn_layers
} // namespace popnn
