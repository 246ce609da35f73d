// One transformer-style block (layer norm, then GELU) built once as a graph function and
// called on two batches, as models reuse a layer's code for several inputs. Its epsilon comes
// from an option string parsed with PopLibs' OptionSpec, its parameters from popnn's Norms.hpp.
// Both results are checked against the same arithmetic on the host.
#include <cmath>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/codelets.hpp>
#include <popnn/LayerNorm.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/Norms.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/GraphFunction.hpp>
#include <poputil/OptionParsing.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;
namespace graphfn = poputil::graphfn;

struct BlockOptions {
  double eps = 1e-3;
  bool applyGelu = false;
};

static BlockOptions parseOptions(const std::vector<std::pair<std::string, std::string>>& flags) {
  BlockOptions options;
  using poplibs::OptionHandler;
  const poplibs::OptionSpec spec{
      {"eps", OptionHandler::createWithDouble(options.eps, 0.0, false)},
      {"applyGelu", OptionHandler::createWithBool(options.applyGelu)}};
  for (const auto& flag : flags)
    spec.parse(flag.first, flag.second);
  return options;
}

static float hostGelu(float x) {
  return 0.5f * x * (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
}

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);

  const BlockOptions options = parseOptions({{"eps", "1e-5"}, {"applyGelu", "true"}});
  try {
    parseOptions({{"eps", "-1"}});
  } catch (const poplar::invalid_option& e) {
    std::cout << "a negative eps is refused" << std::endl;
  }

  const std::size_t N = 4, C = 8;
  Tensor x1 = graph.addVariable(FLOAT, {N, C}, "x1");
  Tensor x2 = graph.addVariable(FLOAT, {N, C}, "x2");
  Tensor y1 = graph.addVariable(FLOAT, {N, C}, "y1");
  Tensor y2 = graph.addVariable(FLOAT, {N, C}, "y2");
  for (const Tensor& t : {x1, x2, y1, y2})
    poputil::mapTensorLinearly(graph, t);
  Tensor gamma, beta;
  std::tie(gamma, beta) = popnn::createNormParams(graph, x1, "ln");

  graphfn::VoidFunction block(
      graph, {graphfn::input(x1, "in"), graphfn::output(y1, "out")},
      [&](std::vector<Tensor>& args, Sequence& seq) {
        auto stats = popnn::ln::layerNormStatistics(graph, args[0], float(options.eps), seq,
                                                    false, false, FLOAT, "ln");
        Tensor out = popnn::ln::layerNormalise(graph, args[0], gamma, beta, stats.first,
                                               stats.second, seq, "ln")
                         .first;
        if (options.applyGelu) popnn::geluInPlace(graph, out, seq, "gelu");
        seq.add(Copy(out, args[1]));
      });

  Sequence prog;
  std::vector<Tensor> call1 = {x1, y1}, call2 = {x2, y2};
  block(call1, prog);
  block(call2, prog);

  graph.createHostWrite("x1", x1);
  graph.createHostWrite("x2", x2);
  graph.createHostWrite("gamma", gamma);
  graph.createHostWrite("beta", beta);
  graph.createHostRead("y1", y1);
  graph.createHostRead("y2", y2);

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> in1(N * C), in2(N * C), g(C), b(C);
  for (std::size_t i = 0; i < N * C; ++i) {
    in1[i] = std::sin(0.7f * float(i));
    in2[i] = 2.0f * std::cos(0.3f * float(i)) - 0.5f;
  }
  for (std::size_t c = 0; c < C; ++c) {
    g[c] = 1.0f + 0.1f * float(c);
    b[c] = 0.05f * float(c) - 0.2f;
  }
  engine.writeTensor("x1", in1.data(), in1.data() + in1.size());
  engine.writeTensor("x2", in2.data(), in2.data() + in2.size());
  engine.writeTensor("gamma", g.data(), g.data() + g.size());
  engine.writeTensor("beta", b.data(), b.data() + b.size());
  engine.run(0);
  std::vector<float> out1(N * C), out2(N * C);
  engine.readTensor("y1", out1.data(), out1.data() + out1.size());
  engine.readTensor("y2", out2.data(), out2.data() + out2.size());

  auto reference = [&](const std::vector<float>& x) {
    std::vector<float> y(x.size());
    for (std::size_t n = 0; n < N; ++n) {
      double mean = 0, var = 0;
      for (std::size_t c = 0; c < C; ++c)
        mean += x[n * C + c];
      mean /= C;
      for (std::size_t c = 0; c < C; ++c)
        var += (x[n * C + c] - mean) * (x[n * C + c] - mean);
      var /= C;
      const double inv = 1.0 / std::sqrt(var + options.eps);
      for (std::size_t c = 0; c < C; ++c)
        y[n * C + c] = hostGelu(float((x[n * C + c] - mean) * inv * g[c] + b[c]));
    }
    return y;
  };
  auto matches = [](const std::vector<float>& a, const std::vector<float>& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if (std::fabs(a[i] - b[i]) > 1e-4f + 1e-4f * std::fabs(b[i])) {
        std::cout << "element " << i << ": " << a[i] << " != " << b[i] << std::endl;
        return false;
      }
    return true;
  };
  if (!matches(out1, reference(in1)) || !matches(out2, reference(in2))) return 1;
  std::cout << "the block matches the host on both batches" << std::endl;
  std::cout << "flops of one forward layer norm: " << popnn::getNormFwdFlops(N, N * C)
            << std::endl;
  return 0;
}
