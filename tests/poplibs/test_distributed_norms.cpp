// Distributed norms: poplin::distributedNormStatistics / distributedNormStatisticsGradients and
// popnn::bn::distributedBatchNormStatistics / distributedBatchNormGradients on 4 replicas in
// groups of 2, the callback summing over each group with gcl::allReduceCrossReplica. Every
// replica's results must be the batch norm of its group's whole batch, computed on the host;
// plus the callback's group size, and misuse.
#include "TestUtil.hpp"
#include "common/Devices.hpp"

#include <cmath>
#include <cstring>
#include <gcl/Collectives.hpp>
#include <poplar/Engine.hpp>
#include <poplin/Norms.hpp>
#include <poplin/codelets.hpp>
#include <popnn/BatchNorm.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;
using Catch::Contains;

namespace {

constexpr unsigned kReplicas = 4, kGroup = 2;
constexpr std::size_t N = 2, C = 3, F = 4; // per replica: acts [N][C][F]

/// Sums each input over groups of `groupSize` consecutive replicas, and records the sizes.
struct AllReduce {
  std::vector<unsigned> groupSizes;
  poplin::DistributedNormReduceCallback callback() {
    return [this](Graph& graph, const std::vector<Tensor>& inputs, Sequence& prog,
                  unsigned groupSize, const DebugContext& dc, const OptionFlags& options) {
      groupSizes.push_back(groupSize);
      return gcl::allReduceCrossReplica(graph, inputs, gcl::CollectiveOperator::ADD, prog,
                                        gcl::CommGroup(gcl::CommGroupType::CONSECUTIVE, groupSize),
                                        dc, options);
    };
  }
};

/// A replicated graph; in(name) streams replica r's values into a new [N][C][F] tensor, out()
/// streams a tensor back per replica.
struct Replicas {
  Device device = test::smallDevice(4, kReplicas);
  Graph graph{device.getTarget(), kReplicas};
  Sequence prog;
  std::map<std::string, std::vector<std::vector<float>>> inputs, results;
  std::vector<std::pair<std::string, Tensor>> outputs;

  Replicas() {
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
    popnn::addCodelets(graph);
  }
  Tensor in(const std::string& name, const std::vector<std::vector<float>>& perReplica) {
    const Tensor t = graph.addVariable(FLOAT, {N, C, F}, name);
    poputil::mapTensorLinearly(graph, t);
    prog.add(Copy(graph.addHostToDeviceFIFO(name, FLOAT, t.numElements()), t));
    inputs[name] = perReplica;
    return t;
  }
  void out(const std::string& name, const Tensor& t) { outputs.push_back({name, t}); }
  void run() {
    for (const auto& [name, t] : outputs)
      prog.add(Copy(t, graph.addDeviceToHostFIFO(name, FLOAT, t.numElements())));
    Engine engine(graph, prog);
    engine.load(device);
    for (auto& [name, values] : inputs)
      for (unsigned r = 0; r < kReplicas; ++r)
        engine.connectStream(name, r, values[r].data(), values[r].data() + values[r].size());
    for (const auto& [name, t] : outputs) {
      auto& bufs = results[name];
      bufs.assign(kReplicas, std::vector<float>(t.numElements()));
      for (unsigned r = 0; r < kReplicas; ++r)
        engine.connectStream(name, r, bufs[r].data(), bufs[r].data() + bufs[r].size());
    }
    engine.run(0);
  }
};

std::vector<std::vector<float>> perReplica(unsigned seed, float lo, float hi) {
  std::vector<std::vector<float>> v;
  for (unsigned r = 0; r < kReplicas; ++r)
    v.push_back(test::randomValues(N * C * F, lo + float(r), hi + float(r), seed + r));
  return v;
}

/// The batch norm of one group's whole batch on the host: its mean and inverse standard
/// deviation per channel, and the input gradient of gamma * whiten(x) for output gradient g.
struct HostGroupNorm {
  std::vector<double> mean, iStd;
  std::vector<std::vector<float>> grads; // per replica of the group
  HostGroupNorm(const std::vector<const std::vector<float>*>& xs,
                const std::vector<const std::vector<float>*>& gs, const std::vector<float>& gamma,
                float eps, bool unbiased) {
    const double count = double(xs.size() * N * F);
    mean.assign(C, 0.0);
    iStd.assign(C, 0.0);
    std::vector<double> var(C, 0.0), meanG(C, 0.0), meanGX(C, 0.0);
    const auto at = [](std::size_t n, std::size_t c, std::size_t f) { return (n * C + c) * F + f; };
    for (const auto* x : xs)
      for (std::size_t n = 0; n < N; ++n)
        for (std::size_t c = 0; c < C; ++c)
          for (std::size_t f = 0; f < F; ++f)
            mean[c] += (*x)[at(n, c, f)] / count;
    for (const auto* x : xs)
      for (std::size_t n = 0; n < N; ++n)
        for (std::size_t c = 0; c < C; ++c)
          for (std::size_t f = 0; f < F; ++f)
            var[c] += std::pow((*x)[at(n, c, f)] - mean[c], 2) / count;
    for (std::size_t c = 0; c < C; ++c)
      iStd[c] = 1.0 / std::sqrt(var[c] * (unbiased ? count / (count - 1) : 1.0) + eps);
    if (gs.empty()) return;
    for (std::size_t i = 0; i < xs.size(); ++i)
      for (std::size_t n = 0; n < N; ++n)
        for (std::size_t c = 0; c < C; ++c)
          for (std::size_t f = 0; f < F; ++f) {
            const double g = (*gs[i])[at(n, c, f)] * gamma[c];
            meanG[c] += g / count;
            meanGX[c] += g * ((*xs[i])[at(n, c, f)] - mean[c]) * iStd[c] / count;
          }
    for (std::size_t i = 0; i < xs.size(); ++i) {
      std::vector<float> dx(N * C * F);
      for (std::size_t n = 0; n < N; ++n)
        for (std::size_t c = 0; c < C; ++c)
          for (std::size_t f = 0; f < F; ++f) {
            const std::size_t k = at(n, c, f);
            const double g = (*gs[i])[k] * gamma[c];
            const double xhat = ((*xs[i])[k] - mean[c]) * iStd[c];
            dx[k] = float(iStd[c] * (g - meanG[c] - xhat * meanGX[c]));
          }
      grads.push_back(dx);
    }
  }
};

void checkClose(const std::vector<float>& got, const std::vector<double>& want, double tol) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    CHECK(got[i] == Approx(want[i]).margin(tol).epsilon(tol));
}

} // namespace

TEST_CASE("distributedBatchNormStatistics: each group's whole batch", "[popnn][norms][dist]") {
  for (const bool stable : {false, true}) {
    INFO("stableAlgo " << stable);
    Replicas rep;
    AllReduce reduce;
    const auto xs = perReplica(40, -1.0f, 2.0f);
    const Tensor acts = rep.in("acts", xs);
    const auto stats = popnn::bn::distributedBatchNormStatistics(
        rep.graph, acts, 1e-3f, rep.prog, false, reduce.callback(), N * kGroup, stable);
    rep.out("mean", stats.first);
    rep.out("iStd", stats.second);
    rep.run();
    // Group size 2, and one call (mean and power together) or two (stable: mean, then power).
    REQUIRE(!reduce.groupSizes.empty());
    CHECK(reduce.groupSizes.size() == (stable ? 2u : 1u));
    for (unsigned s : reduce.groupSizes)
      CHECK(s == kGroup);
    for (unsigned r = 0; r < kReplicas; ++r) {
      INFO("replica " << r);
      const unsigned first = r / kGroup * kGroup;
      const HostGroupNorm host({&xs[first], &xs[first + 1]}, {}, {}, 1e-3f, false);
      checkClose(rep.results["mean"][r], host.mean, 1e-4);
      checkClose(rep.results["iStd"][r], host.iStd, 1e-4);
    }
  }
}

TEST_CASE("distributedNormStatistics: unbiased variance over the group", "[poplin][norms][dist]") {
  Replicas rep;
  AllReduce reduce;
  const auto xs = perReplica(50, -2.0f, 1.0f);
  const Tensor acts = rep.in("acts", xs);
  const auto stats = poplin::distributedNormStatistics(rep.graph, acts, 1e-5f, rep.prog, true,
                                                       reduce.callback(), N * kGroup);
  rep.out("iStd", stats.second);
  rep.run();
  for (unsigned r = 0; r < kReplicas; ++r) {
    const unsigned first = r / kGroup * kGroup;
    const HostGroupNorm host({&xs[first], &xs[first + 1]}, {}, {}, 1e-5f, true);
    checkClose(rep.results["iStd"][r], host.iStd, 1e-4);
  }
}

TEST_CASE("distributedBatchNormGradients: the gradient of the group's batch norm",
          "[popnn][norms][dist]") {
  for (const bool fromWhitened : {false, true}) {
    INFO("from whitened " << fromWhitened);
    Replicas rep;
    AllReduce reduce;
    const auto xs = perReplica(60, -1.0f, 1.0f);
    const auto gs = perReplica(70, -0.5f, 0.5f);
    const std::vector<float> gammaValues = {0.5f, -1.5f, 2.0f};
    const Tensor acts = rep.in("acts", xs);
    const Tensor grads = rep.in("grads", gs);
    const Tensor gamma = rep.graph.addConstant(FLOAT, {C}, gammaValues.data(), "gamma");
    rep.graph.setTileMapping(gamma, 0);
    const auto stats = popnn::bn::distributedBatchNormStatistics(
        rep.graph, acts, 1e-3f, rep.prog, false, reduce.callback(), N * kGroup);
    Tensor dx;
    if (fromWhitened) {
      const Tensor whitened =
          popnn::bn::batchNormWhiten(rep.graph, acts, stats.first, stats.second, rep.prog);
      dx = popnn::bn::distributedBatchNormGradients(rep.graph, whitened, grads, stats.second, gamma,
                                                    rep.prog, reduce.callback(), N * kGroup);
    } else {
      dx = popnn::bn::distributedBatchNormGradients(rep.graph, acts, grads, stats.first,
                                                    stats.second, gamma, rep.prog,
                                                    reduce.callback(), N * kGroup);
    }
    rep.out("dx", dx);
    rep.run();
    for (unsigned r = 0; r < kReplicas; ++r) {
      INFO("replica " << r);
      const unsigned first = r / kGroup * kGroup;
      const HostGroupNorm host({&xs[first], &xs[first + 1]}, {&gs[first], &gs[first + 1]},
                               gammaValues, 1e-3f, false);
      const auto& want = host.grads[r - first];
      checkClose(rep.results["dx"][r], std::vector<double>(want.begin(), want.end()), 1e-4);
    }
  }
}

TEST_CASE("distributed norms: local statistics without a reduction, and misuse",
          "[poplin][norms][dist][errors]") {
  test::Harness h(4);
  const auto x = test::randomValues(N * C * F, -1.0f, 1.0f, 9);
  const Tensor acts = h.input("acts", FLOAT, {N, C, F}, x);
  AllReduce reduce;
  // normSize equal to the local batch: no callback call, the local statistics.
  const auto local = poplin::distributedNormStatistics(h.graph(), acts, 1e-3f, h.prog(), false,
                                                       reduce.callback(), N);
  CHECK(reduce.groupSizes.empty());
  const auto plain = poplin::normStatistics(h.graph(), acts, 1e-3f, h.prog(), false);
  h.read("local", local.second);
  h.read("plain", plain.second);
  h.run();
  CHECK_THAT(h.result("local"), test::CloseTo(h.result("plain"), 1e-6f, 1e-6f));

  test::Harness h2(4);
  const Tensor acts2 = h2.input("acts", FLOAT, {N, C, F}, x);
  CHECK_THROWS_WITH(poplin::distributedNormStatistics(h2.graph(), acts2, 1e-3f, h2.prog(), false,
                                                      reduce.callback(), 3),
                    Contains("must be a multiple"));
  const poplin::DistributedNormReduceCallback dropsOne =
      [](Graph&, const std::vector<Tensor>& in, Sequence&, unsigned, const DebugContext&,
         const OptionFlags&) { return std::vector<Tensor>(in.begin(), in.end() - 1); };
  CHECK_THROWS_WITH(popnn::bn::distributedBatchNormStatistics(h2.graph(), acts2, 1e-3f, h2.prog(),
                                                              false, dropsOne, 2 * N),
                    Contains("returned 1 tensors for 2 inputs"));
  CHECK_THROWS_AS(popnn::bn::distributedBatchNormStatistics(h2.graph(), acts2, 1e-3f, h2.prog(),
                                                            false, dropsOne, 2 * N, false, FLOAT,
                                                            {}, {{"bogus", "1"}}),
                  poplar::invalid_option);
}
