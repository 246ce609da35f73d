// popnn/CTCInference.hpp against a host prefix beam search, against best-path decoding with one
// beam on peaked data, and with beams enough for every prefix against the exact most probable
// labelling (the sum over its paths); PopLibs' per-step estimates; argument errors.
#include "CtcReference.hpp"
#include "TestUtil.hpp"
#include "poplibs_support/CtcCycleEstimators.hpp"

#include <popnn/CTCInference.hpp>
#include <popnn/CTCLoss.hpp>
#include <poputil/exceptions.hpp>
#include <set>
#include <type_traits>

using namespace poplar;
using Catch::Contains;

static_assert(std::is_same<decltype(&popnn::ctc_infer::beamSearchDecoderLogits),
                           std::tuple<Tensor, Tensor, Tensor> (*)(
                               Graph&, const Tensor&, const Tensor&, program::Sequence&, unsigned,
                               unsigned, unsigned, const popnn::ctc::Plan&, const DebugContext&,
                               const OptionFlags&)>::value,
              "beamSearchDecoderLogits signature");

namespace {

struct Decoded {
  std::vector<float> probs, lengths, labels;
};

/// Runs the decoder on logits [T][B][C] (or log probabilities) and reads its three outputs.
Decoded runDecoder(const std::vector<double>& values, std::size_t T, std::size_t B, std::size_t C,
                   const std::vector<unsigned>& dataLengths, unsigned blank, unsigned beamwidth,
                   unsigned topPaths, bool logits, Type type = FLOAT) {
  test::Harness h(8);
  const auto plan = popnn::ctc_infer::plan(h.graph(), type, B, T, C, beamwidth);
  const Tensor data = popnn::ctc_infer::createDataInput(h.graph(), type, B, T, C, plan, "data");
  h.write("data", data, std::vector<float>(values.begin(), values.end()));
  const Tensor lengths = h.input("lengths", UNSIGNED_INT, {B},
                                 std::vector<float>(dataLengths.begin(), dataLengths.end()));
  const auto [probs, labelLengths, labels] =
      logits ? popnn::ctc_infer::beamSearchDecoderLogits(h.graph(), data, lengths, h.prog(), blank,
                                                         beamwidth, topPaths, plan)
             : popnn::ctc_infer::beamSearchDecoderLogProbabilities(
                   h.graph(), data, lengths, h.prog(), blank, beamwidth, topPaths, plan);
  CHECK(probs.shape() == std::vector<std::size_t>{B, topPaths});
  CHECK(probs.elementType() == type);
  CHECK(labels.shape() == std::vector<std::size_t>{B, topPaths, T});
  h.read("probs", probs);
  h.read("lengths", labelLengths);
  h.read("labels", labels);
  h.run();
  return {h.result("probs"), h.result("lengths"), h.result("labels")};
}

std::vector<double> entry(const std::vector<double>& all, std::size_t T, std::size_t B,
                          std::size_t C, std::size_t b) {
  std::vector<double> out;
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t c = 0; c < C; ++c)
      out.push_back(all[(t * B + b) * C + c]);
  return out;
}

std::vector<unsigned> path(const Decoded& d, std::size_t T, std::size_t topPaths, std::size_t b,
                           std::size_t p) {
  const std::size_t at = b * topPaths + p;
  std::vector<unsigned> out;
  for (std::size_t i = 0; i < std::size_t(d.lengths[at]); ++i)
    out.push_back(unsigned(d.labels[at * T + i]));
  return out;
}

} // namespace

TEST_CASE("CTC beam search matches a host prefix beam search", "[popnn][ctc][inference]") {
  const unsigned blank = GENERATE(0u, 4u);
  INFO("blank " << blank);
  const std::size_t T = 6, B = 3, C = 5;
  const unsigned beamwidth = 4, topPaths = 3;
  const std::vector<unsigned> dataLengths = {6, 4, 1};
  const auto r = test::randomValues(T * B * C, -2.0f, 2.0f, 91);
  const std::vector<double> logits(r.begin(), r.end());
  const Decoded d = runDecoder(logits, T, B, C, dataLengths, blank, beamwidth, topPaths, true);
  for (std::size_t b = 0; b < B; ++b) {
    INFO("entry " << b);
    const auto lp = test::ctc::logSoftmaxRows(entry(logits, T, B, C, b), C);
    const auto expected = test::ctc::beamSearch(lp, C, dataLengths[b], blank, beamwidth);
    for (std::size_t p = 0; p < topPaths; ++p) {
      CHECK(path(d, T, topPaths, b, p) == expected[p].labels);
      CHECK(d.probs[b * topPaths + p] == Approx(expected[p].logProb).epsilon(1e-4));
    }
    // Labels beyond each path's length are zero.
    for (std::size_t p = 0; p < topPaths; ++p)
      for (std::size_t i = std::size_t(d.lengths[b * topPaths + p]); i < T; ++i)
        CHECK(d.labels[(b * topPaths + p) * T + i] == 0.0f);
  }
}

TEST_CASE("CTC beam search with one beam decodes peaked data as best-path decoding does",
          "[popnn][ctc][inference]") {
  const std::size_t T = 8, B = 2, C = 4;
  const unsigned blank = 0;
  // Each step strongly favours one class (repeats, blanks between repeats, runs).
  const std::vector<std::vector<unsigned>> winners = {{1, 1, 0, 1, 2, 2, 0, 3},
                                                      {0, 3, 3, 3, 0, 0, 2, 1}};
  std::vector<double> logits(T * B * C, 0.0);
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = 0; t < T; ++t)
      logits[(t * B + b) * C + winners[b][t]] = 6.0;
  const Decoded d = runDecoder(logits, T, B, C, {8, 8}, blank, 1, 1, true);
  for (std::size_t b = 0; b < B; ++b) {
    const auto lp = test::ctc::logSoftmaxRows(entry(logits, T, B, C, b), C);
    CHECK(path(d, T, 1, b, 0) == test::ctc::greedy(lp, C, T, blank));
  }
  CHECK(path(d, T, 1, 0, 0) == std::vector<unsigned>{1, 1, 2, 3});
  CHECK(path(d, T, 1, 1, 0) == std::vector<unsigned>{3, 2, 1});
}

TEST_CASE("CTC beam search with a beam for every prefix finds the most probable labelling",
          "[popnn][ctc][inference]") {
  // 4 steps over 2 symbols: at most 1 + 2 + 4 + 8 + 16 = 31 prefixes.
  const std::size_t T = 4, C = 3;
  const unsigned blank = 2;
  const auto r = test::randomValues(T * C, -1.5f, 1.5f, 7);
  const auto lp = test::ctc::logSoftmaxRows(std::vector<double>(r.begin(), r.end()), C);
  const Decoded d = runDecoder(lp, T, 1, C, {4}, blank, 31, 2, false);
  // Exact: every labelling's probability summed over its paths.
  std::set<std::vector<unsigned>> labellings;
  std::vector<unsigned> p(T, 0);
  for (unsigned i = 0; i < 81; ++i) {
    for (std::size_t t = 0, v = i; t < T; ++t, v /= C)
      p[t] = unsigned(v % C);
    labellings.insert(test::ctc::collapse(p, blank));
  }
  std::vector<std::pair<double, std::vector<unsigned>>> ranked;
  for (const auto& l : labellings)
    ranked.push_back({-test::ctc::bruteForceLoss(lp, C, T, l, blank), l});
  std::sort(ranked.rbegin(), ranked.rend());
  CHECK(path(d, T, 2, 0, 0) == ranked[0].second);
  CHECK(d.probs[0] == Approx(ranked[0].first).epsilon(1e-5));
  CHECK(path(d, T, 2, 0, 1) == ranked[1].second);
  CHECK(d.probs[1] == Approx(ranked[1].first).epsilon(1e-5));
}

TEST_CASE("CTC beam search on half data, and paths no beam reached", "[popnn][ctc][inference]") {
  // One step over two classes: only the empty path and "1" exist; the third is empty at -65504.
  const std::vector<double> lp = {std::log(0.75), std::log(0.25)};
  const Decoded d = runDecoder(lp, 1, 1, 2, {1}, 0, 3, 3, false, HALF);
  CHECK(d.lengths == std::vector<float>{0, 1, 0});
  CHECK(d.labels == std::vector<float>{0, 1, 0});
  CHECK(d.probs[0] == Approx(std::log(0.75)).epsilon(1e-3));
  CHECK(d.probs[1] == Approx(std::log(0.25)).epsilon(1e-3));
  CHECK(d.probs[2] == -65504.0f);
}

TEST_CASE("CTC beam search argument errors", "[popnn][ctc][inference][errors]") {
  test::Harness h(4);
  Graph& g = h.graph();
  const auto plan = popnn::ctc_infer::plan(g, FLOAT, 2, 5, 4, 3);
  const Tensor data = popnn::ctc_infer::createDataInput(g, FLOAT, 2, 5, 4, plan);
  const Tensor lengths = g.addVariable(UNSIGNED_INT, {2}, "lengths");
  const Tensor intLengths = g.addVariable(INT, {2}, "intLengths");
  auto decode = [&](const Tensor& len, unsigned blank, unsigned width, unsigned top,
                    const popnn::ctc::Plan& pl) {
    return popnn::ctc_infer::beamSearchDecoderLogProbabilities(g, data, len, h.prog(), blank, width,
                                                               top, pl);
  };
  CHECK_THROWS_MATCHES(decode(lengths, 0, 3, 4, plan), poputil::poplibs_error,
                       test::What(Contains("topPaths 4")));
  CHECK_THROWS_MATCHES(decode(lengths, 0, 3, 0, plan), poputil::poplibs_error,
                       test::What(Contains("topPaths 0")));
  CHECK_THROWS_MATCHES(decode(lengths, 0, 2, 1, plan), poputil::poplibs_error,
                       test::What(Contains("beamwidth 2 differs")));
  CHECK_THROWS_MATCHES(decode(lengths, 4, 3, 1, plan), poputil::poplibs_error,
                       test::What(Contains("blankClass 4")));
  CHECK_THROWS_MATCHES(decode(intLengths, 0, 3, 1, plan), poputil::poplibs_error,
                       test::What(Contains("dataLengths tensor must be of type UNSIGNED_INT")));
  const auto lossPlan = popnn::ctc::plan(g, FLOAT, FLOAT, 2, 5, 2, 4);
  CHECK_THROWS_MATCHES(decode(lengths, 0, 3, 1, lossPlan), poputil::poplibs_error,
                       test::What(Contains("CTC loss plan")));
  CHECK_THROWS_MATCHES(popnn::ctc::createDataInput(g, FLOAT, 2, 5, 4, plan), poputil::poplibs_error,
                       test::What(Contains("CTC inference plan")));
  CHECK_THROWS_MATCHES(popnn::ctc_infer::plan(g, FLOAT, 2, 5, 4, 0), poputil::poplibs_error,
                       test::What(Contains("beamwidth must be positive")));
  CHECK(plan != lossPlan);
}

TEST_CASE("a data length beyond maxTime stops the beam search run", "[popnn][ctc][inference]") {
  CHECK_THROWS_MATCHES(runDecoder(std::vector<double>(2 * 3, -1.0), 2, 1, 3, {3}, 0, 2, 1, false),
                       poplar::application_runtime_error,
                       test::What(Contains("popnn::CTCBeamSearchDecoder")));
}

TEST_CASE("CTC beam search estimates follow PopLibs' per-step formulas", "[poplibs][cycles][ctc]") {
  using namespace poplibs_support;
  const Target t = Target::createIPUTarget(1, "ipu2");
  // 4 beams over 5 classes: 4 x 4 extend + 4 copy = 20 candidates; 4 per worker.
  CHECK(ctcRankCandidatesCycles(t, 20, 4) == 14 + 44 + 8 + (13 + 4 * 28 + 4 * 3 * 9 + 15) * 6);
  CHECK(ctcReduceCandidatesCycles(t, 20) == 36 + (13 + 9 + 6) * 6);
  CHECK(ctcUpdateCycles(t, 4) == 28 + (16 + 28 + 1) * 6);
  CHECK(ctcBeamSearchStepCycles(t, 4, 5) == ctcRankCandidatesCycles(t, 20, 4) +
                                                ctcReduceCandidatesCycles(t, 20) +
                                                ctcUpdateCycles(t, 4));
}
