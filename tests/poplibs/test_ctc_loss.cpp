// popnn/CTCLoss.hpp against the CTC loss summed over every path on the host (small alphabets,
// blanks first and last, repeated symbols, variable lengths), its gradient against central
// differences of that loss, PopLibs' estimates of the vertices, and argument errors.
#include "CtcReference.hpp"
#include "TestUtil.hpp"
#include "common/ScratchDir.hpp"
#include "poplibs_support/CtcCycleEstimators.hpp"

#include <popnn/CTCLoss.hpp>
#include <poputil/exceptions.hpp>
#include <pva/pva.hpp>
#include <sstream>
#include <type_traits>

using namespace poplar;
using Catch::Contains;

// PopLibs' signatures exactly.
static_assert(
    std::is_same<decltype(&popnn::ctc::calcLossAndGradientLogits),
                 std::pair<Tensor, Tensor> (*)(Graph&, const Type&, const Tensor&, const Tensor&,
                                               const Tensor&, const Tensor&, program::Sequence&,
                                               const unsigned, const popnn::ctc::Plan&,
                                               const DebugContext&, const OptionFlags&)>::value,
    "calcLossAndGradientLogits signature");
static_assert(std::is_same<decltype(&popnn::ctc::createLabelsInput),
                           Tensor (*)(Graph&, const Type&, const std::size_t, const std::size_t,
                                      const popnn::ctc::Plan&, const DebugContext&)>::value,
              "createLabelsInput signature");

namespace {

/// A batch of CTC problems: logits [T][B][C] and each entry's label and lengths.
struct Problem {
  std::size_t T, B, C, maxLabel;
  unsigned blank;
  std::vector<std::vector<unsigned>> labels;
  std::vector<unsigned> dataLengths;
  std::vector<double> logits; ///< [T][B][C]
};

Problem makeProblem(unsigned blank) {
  Problem p{5, 4, 4, 3, blank, {}, {}, {}};
  // Distinct symbols, a repeat (needs a blank between), an empty label, a short entry.
  std::vector<std::vector<unsigned>> symbols = {{1, 2}, {2, 2}, {}, {3, 1, 3}};
  for (auto& l : symbols)
    for (auto& s : l)
      if (s == blank) s = 0; // keep symbols off the blank
  p.labels = symbols;
  p.dataLengths = {5, 4, 3, 5};
  const auto r = test::randomValues(p.T * p.B * p.C, -2.0f, 2.0f, 34);
  p.logits.assign(r.begin(), r.end());
  return p;
}

/// Entry b's [T][C] logits from the [T][B][C] array.
std::vector<double> entry(const Problem& p, std::size_t b, const std::vector<double>& all) {
  std::vector<double> out;
  for (std::size_t t = 0; t < p.T; ++t)
    for (std::size_t c = 0; c < p.C; ++c)
      out.push_back(all[(t * p.B + b) * p.C + c]);
  return out;
}

double hostLoss(const Problem& p, std::size_t b, const std::vector<double>& logits) {
  return test::ctc::bruteForceLoss(test::ctc::logSoftmaxRows(logits, p.C), p.C, p.dataLengths[b],
                                   p.labels[b], p.blank);
}

struct Inputs {
  Tensor data, labels, dataLengths, labelLengths;
};

Inputs addInputs(test::Harness& h, const Problem& p, const popnn::ctc::Plan& plan, Type inType,
                 const std::vector<double>& values) {
  Inputs in;
  in.data = popnn::ctc::createDataInput(h.graph(), inType, p.B, p.T, p.C, plan, "data");
  in.labels = popnn::ctc::createLabelsInput(h.graph(), UNSIGNED_INT, p.B, p.maxLabel, plan, "lab");
  h.write("data", in.data, std::vector<float>(values.begin(), values.end()));
  std::vector<float> labels(p.B * p.maxLabel, 0.0f), labelLengths, dataLengths;
  for (std::size_t b = 0; b < p.B; ++b) {
    for (std::size_t i = 0; i < p.labels[b].size(); ++i)
      labels[b * p.maxLabel + i] = float(p.labels[b][i]);
    labelLengths.push_back(float(p.labels[b].size()));
    dataLengths.push_back(float(p.dataLengths[b]));
  }
  h.write("labels", in.labels, labels);
  in.dataLengths = h.input("dataLengths", UNSIGNED_INT, {p.B}, dataLengths);
  in.labelLengths = h.input("labelLengths", UNSIGNED_INT, {p.B}, labelLengths);
  return in;
}

} // namespace

TEST_CASE("CTC loss and gradient from logits match the host's sum over paths",
          "[popnn][ctc][loss]") {
  const unsigned blank = GENERATE(0u, 3u);
  const Type inType = GENERATE(FLOAT, HALF);
  INFO("blank " << blank << ", " << inType);
  const Problem p = makeProblem(blank);
  test::Harness h(8);
  const auto plan = popnn::ctc::plan(h.graph(), inType, FLOAT, p.B, p.T, p.maxLabel, p.C);
  const Inputs in = addInputs(h, p, plan, inType, p.logits);
  const auto [loss, grad] =
      popnn::ctc::calcLossAndGradientLogits(h.graph(), FLOAT, in.data, in.labels, in.dataLengths,
                                            in.labelLengths, h.prog(), blank, plan, "ctc");
  CHECK(loss.shape() == std::vector<std::size_t>{p.B});
  CHECK(grad.shape() == std::vector<std::size_t>{p.T, p.B, p.C});
  h.read("loss", loss);
  h.read("grad", grad);
  h.run();

  // Half data is rounded on the way in: the reference takes the values the IPU saw.
  std::vector<double> seen(p.logits.size());
  for (std::size_t i = 0; i < seen.size(); ++i)
    seen[i] = inType == HALF ? double(float(half(float(p.logits[i])))) : p.logits[i];
  const float tol = inType == HALF ? 2e-2f : 1e-4f;
  std::vector<float> expectedLoss, expectedGrad(p.T * p.B * p.C);
  for (std::size_t b = 0; b < p.B; ++b) {
    const std::vector<double> x = entry(p, b, seen);
    expectedLoss.push_back(float(hostLoss(p, b, x)));
    const auto g = test::ctc::numericGradient(
        [&](const std::vector<double>& v) { return hostLoss(p, b, v); }, x);
    const auto probs = test::ctc::logSoftmaxRows(x, p.C);
    for (std::size_t t = 0; t < p.T; ++t)
      for (std::size_t c = 0; c < p.C; ++c)
        // Beyond the entry's length PopLibs gives the probabilities themselves.
        expectedGrad[(t * p.B + b) * p.C + c] =
            float(t < p.dataLengths[b] ? g[t * p.C + c] : std::exp(probs[t * p.C + c]));
  }
  CHECK(expectedLoss[2] > 0.0f); // the empty label still costs the blanks' probability
  CHECK_THAT(h.result("loss"), test::CloseTo(expectedLoss, tol, tol));
  CHECK_THAT(h.result("grad"), test::CloseTo(expectedGrad, tol, 1e-3f + tol));
}

TEST_CASE("CTC loss from log probabilities, half partials and outputs, and loss alone",
          "[popnn][ctc][loss]") {
  const Problem p = makeProblem(1);
  test::Harness h(4);
  const auto plan = popnn::ctc::plan(h.graph(), HALF, HALF, p.B, p.T, p.maxLabel, p.C,
                                     {{"partialsType", "half"}});
  std::vector<double> logProbs(p.logits.size());
  for (std::size_t t = 0; t < p.T * p.B; ++t) {
    const std::vector<double> row(p.logits.begin() + t * p.C, p.logits.begin() + (t + 1) * p.C);
    const auto lp = test::ctc::logSoftmaxRows(row, p.C);
    std::copy(lp.begin(), lp.end(), logProbs.begin() + t * p.C);
  }
  const Inputs in = addInputs(h, p, plan, HALF, logProbs);
  const auto [loss, grad] = popnn::ctc::calcLossAndGradientLogProbabilities(
      h.graph(), HALF, in.data, in.labels, in.dataLengths, in.labelLengths, h.prog(), 1, plan);
  const Tensor lossOnly = popnn::ctc::calcCTCLossLogProbabilities(
      h.graph(), FLOAT, in.data, in.labels, in.dataLengths, in.labelLengths, h.prog(), 1, plan);
  CHECK(loss.elementType() == HALF);
  CHECK(grad.elementType() == HALF);
  CHECK(lossOnly.elementType() == FLOAT);
  h.read("loss", loss);
  h.read("lossOnly", lossOnly);
  h.run();
  std::vector<float> expected;
  for (std::size_t b = 0; b < p.B; ++b)
    expected.push_back(float(hostLoss(p, b, entry(p, b, p.logits))));
  CHECK_THAT(h.result("loss"), test::CloseTo(expected, 3e-2f, 3e-2f));
  CHECK_THAT(h.result("lossOnly"), test::CloseTo(h.result("loss"), 0.0f, 0.0f));
}

TEST_CASE("calcCTCLossLogits matches the loss of calcLossAndGradientLogits", "[popnn][ctc][loss]") {
  const Problem p = makeProblem(0);
  test::Harness h(4);
  const auto plan = popnn::ctc::plan(h.graph(), FLOAT, FLOAT, p.B, p.T, p.maxLabel, p.C);
  const Inputs in = addInputs(h, p, plan, FLOAT, p.logits);
  const Tensor loss = popnn::ctc::calcCTCLossLogits(
      h.graph(), FLOAT, in.data, in.labels, in.dataLengths, in.labelLengths, h.prog(), 0, plan);
  h.read("loss", loss);
  h.run();
  std::vector<float> expected;
  for (std::size_t b = 0; b < p.B; ++b)
    expected.push_back(float(hostLoss(p, b, entry(p, b, p.logits))));
  CHECK_THAT(h.result("loss"), test::CloseTo(expected, 1e-4f, 1e-4f));
}

TEST_CASE("a label no alignment fits: PopLibs' infinite loss, or zeros with zeroInfinity",
          "[popnn][ctc][loss]") {
  const bool zeroInfinity = GENERATE(false, true);
  Problem p = makeProblem(0);
  p.labels[1] = {2, 2, 2}; // needs 5 steps, entry 1 has 4
  test::Harness h(4);
  const auto plan = popnn::ctc::plan(h.graph(), FLOAT, FLOAT, p.B, p.T, p.maxLabel, p.C);
  const Inputs in = addInputs(h, p, plan, FLOAT, p.logits);
  const auto [loss, grad] = popnn::ctc::calcLossAndGradientLogits(
      h.graph(), FLOAT, in.data, in.labels, in.dataLengths, in.labelLengths, h.prog(), 0, plan, {},
      {{"zeroInfinity", zeroInfinity ? "true" : "false"}});
  h.read("loss", loss);
  h.read("grad", grad);
  h.run();
  const auto& l = h.result("loss");
  CHECK(l[1] == (zeroInfinity ? 0.0f : 65504.0f));
  CHECK(l[0] == Approx(hostLoss(p, 0, entry(p, 0, p.logits))).epsilon(1e-4));
  const auto& g = h.result("grad");
  const auto probs = test::ctc::logSoftmaxRows(entry(p, 1, p.logits), p.C);
  for (std::size_t t = 0; t < p.T; ++t)
    for (std::size_t c = 0; c < p.C; ++c)
      CHECK(g[(t * p.B + 1) * p.C + c] ==
            Approx(zeroInfinity ? 0.0 : std::exp(probs[t * p.C + c])).margin(1e-6));
}

TEST_CASE("a label holding the blank stops the run naming the CTC vertex", "[popnn][ctc][loss]") {
  Problem p = makeProblem(0);
  p.labels[0] = {1, 0}; // 0 is the blank
  test::Harness h(4);
  const auto plan = popnn::ctc::plan(h.graph(), FLOAT, FLOAT, p.B, p.T, p.maxLabel, p.C);
  const Inputs in = addInputs(h, p, plan, FLOAT, p.logits);
  popnn::ctc::calcCTCLossLogits(h.graph(), FLOAT, in.data, in.labels, in.dataLengths,
                                in.labelLengths, h.prog(), 0, plan);
  CHECK_THROWS_MATCHES(h.run(), poplar::application_runtime_error,
                       test::What(Contains("popnn::CTCAlpha")));
}

TEST_CASE("CTC plans: placement, comparison, printing", "[popnn][ctc][plan]") {
  test::Harness h(8);
  const auto a = popnn::ctc::plan(h.graph(), HALF, FLOAT, 4, 10, 3, 5);
  const auto b = popnn::ctc::plan(h.graph(), HALF, FLOAT, 4, 10, 3, 5);
  const auto c = popnn::ctc::plan(h.graph(), HALF, FLOAT, 4, 11, 3, 5);
  CHECK(a == b);
  CHECK(a != c);
  CHECK((a < c) != (c < a));
  popnn::ctc::Plan copy = a, empty;
  CHECK(copy == a);
  CHECK(empty != a);
  CHECK(empty < a);
  std::ostringstream s;
  s << a;
  CHECK_THAT(s.str(), Contains("maxLabelLength") && Contains("half"));
  const Tensor data = popnn::ctc::createDataInput(h.graph(), HALF, 4, 10, 5, a);
  CHECK(data.shape() == std::vector<std::size_t>{10, 4, 5});
  // Each batch entry lives on its own tile (4 entries over 8 tiles: 0, 2, 4, 6).
  const auto mapping = h.graph().getTileMapping(data.dimShuffle({1, 0, 2})[3]);
  std::size_t onTile6 = 0;
  for (const auto& iv : mapping[6])
    onTile6 += iv.size();
  CHECK(onTile6 == 50);
}

TEST_CASE("CTC loss argument errors", "[popnn][ctc][errors]") {
  const Problem p = makeProblem(0);
  test::Harness h(4);
  Graph& g = h.graph();
  const auto plan = popnn::ctc::plan(g, FLOAT, FLOAT, p.B, p.T, p.maxLabel, p.C);
  const Inputs in = addInputs(h, p, plan, FLOAT, p.logits);
  auto lossWith = [&](const Tensor& data, const Tensor& labels, unsigned blank,
                      const popnn::ctc::Plan& pl, const OptionFlags& o = {}, Type out = FLOAT) {
    return popnn::ctc::calcLossAndGradientLogits(g, out, data, labels, in.dataLengths,
                                                 in.labelLengths, h.prog(), blank, pl, {}, o);
  };
  const Tensor intLabels = g.addVariable(INT, {p.B, p.maxLabel}, "intLabels");
  CHECK_THROWS_MATCHES(lossWith(in.data, intLabels, 0, plan), poputil::poplibs_error,
                       test::What(Contains("labels tensor must be of type UNSIGNED_INT")));
  CHECK_THROWS_MATCHES(lossWith(in.data, in.labels, 4, plan), poplar::poplar_error,
                       test::What(Contains("blankClass 4")));
  CHECK_THROWS_MATCHES(lossWith(in.data, in.labels, 0, plan, {}, INT), poplar::poplar_error,
                       test::What(Contains("outType must be of type HALF or FLOAT")));
  CHECK_THROWS_MATCHES(lossWith(in.data.slice(0, 3, 0), in.labels, 0, plan), poplar::poplar_error,
                       test::What(Contains("differs from the plan")));
  CHECK_THROWS_MATCHES(lossWith(in.data, in.labels, 0, plan, {{"includeSoftmaxGradient", "false"}}),
                       poplar::poplar_error, test::What(Contains("includeSoftmaxGradient")));
  CHECK_THROWS_MATCHES(lossWith(in.data, in.labels, 0, plan, {{"zeroInfinity", "maybe"}}),
                       poplar::invalid_option, test::What(Contains("zeroInfinity")));
  CHECK_THROWS_MATCHES(lossWith(in.data, in.labels, 0, popnn::ctc::Plan()), poplar::poplar_error,
                       test::What(Contains("plan is empty")));
  CHECK_THROWS_MATCHES(popnn::ctc::plan(g, FLOAT, FLOAT, 2, 5, 2, 3, {{"partialsType", "half"}}),
                       poplar::poplar_error, test::What(Contains("partials type HALF")));
  CHECK_THROWS_MATCHES(popnn::ctc::plan(g, FLOAT, FLOAT, 2, 5, 2, 3, {{"bogus", "1"}}),
                       poplar::invalid_option, test::What(Contains("bogus")));
  CHECK_THROWS_MATCHES(popnn::ctc::createDataInput(g, FLOAT, 3, p.T, p.C, plan),
                       poplar::poplar_error, test::What(Contains("differs from the plan")));
}

TEST_CASE("CTC loss estimates follow PopLibs' formulas", "[poplibs][cycles][ctc]") {
  using namespace poplibs_support;
  // Log add 4 + 1 + 3 + 1 + 6 + 1 = 16, log multiply 1.
  CHECK(ctcLogAddCycles() == 16);
  // Alpha: (8 + 32 + 2 + 2) = 44 per symbol per step, + 17 for the last blank.
  CHECK(ctcAlphaCycles(10, 3, true) == 44 * 30 + 17);
  CHECK(ctcAlphaCycles(10, 3, false) == 44 * 30);
  CHECK(ctcBetaCycles(7, 2, false) == 44 * 14);
  // Grad given alpha: beta + (6 + 34) per symbol per step + 17 for the last blank.
  CHECK(ctcGradGivenAlphaCycles(10, 3, true) == 44 * 30 + 17 + 40 * 30 + 17);
}

TEST_CASE("the profile shows the CTC vertices' PopLibs estimates", "[popnn][ctc][cycles]") {
  const Problem p = makeProblem(0);
  test::ScratchDir dir;
  test::Harness h(8);
  const auto plan = popnn::ctc::plan(h.graph(), FLOAT, FLOAT, p.B, p.T, p.maxLabel, p.C);
  const Inputs in = addInputs(h, p, plan, FLOAT, p.logits);
  popnn::ctc::calcLossAndGradientLogProbabilities(h.graph(), FLOAT, in.data, in.labels,
                                                  in.dataLengths, in.labelLengths, h.prog(), 0,
                                                  plan, "ctc");
  h.run({{"autoReport.outputExecutionProfile", "true"},
         {"autoReport.outputGraphProfile", "true"},
         {"autoReport.directory", dir.path().string()}});
  const pva::Report report = pva::openReport((dir.path() / "profile.pop").string());
  const auto compilation = report.compilation();
  const auto computeSets = compilation.computeSets();
  // One vertex per batch entry, each alone on its tile: the busiest tile runs one worker vertex
  // (30 to launch, the worker's cycles x 6 contexts).
  const std::uint64_t alpha = poplibs_support::ctcAlphaCycles(p.T, p.maxLabel, true);
  const std::uint64_t grad = poplibs_support::ctcGradGivenAlphaCycles(p.T, p.maxLabel, true);
  unsigned seen = 0;
  for (const auto& cs : computeSets) {
    const std::string name = cs.name();
    const bool isAlpha = name.size() >= 6 && name.compare(name.size() - 6, 6, "/alpha") == 0;
    const bool isGrad = name.find("gradGivenAlpha") != std::string::npos;
    if (!isAlpha && !isGrad) continue;
    INFO(name);
    ++seen;
    const auto byTile = cs.estimatedCyclesByTile();
    const std::uint64_t busiest = *std::max_element(byTile.begin(), byTile.end());
    CHECK(busiest == 30 + 6 * (isAlpha ? alpha : grad));
    for (const auto& v : cs.vertices())
      CHECK(v.type().name() ==
            std::string(isAlpha ? "popnn::CTCAlpha" : "popnn::CTCGradGivenAlpha") +
                "<float,float,unsigned int,true>");
  }
  CHECK(seen == 2);
}
