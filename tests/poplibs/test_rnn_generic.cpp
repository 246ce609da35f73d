// popnn::rnn::Rnn, the generic recurrent loop, around a running-sum cell (h += x_t, output h):
// forward and reverse, one and several shards, with and without code reuse, the state
// sequence, interimOut and created sequences; variable time steps; the gathering form;
// lstm:: and rnn::getMatMulPrePlanParameters; and misuse.
#include "TestUtil.hpp"

#include <algorithm>
#include <poplin/MatMul.hpp>
#include <popnn/Lstm.hpp>
#include <popnn/Recurrent.hpp>
#include <popnn/Rnn.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;
using namespace popnn::rnn;
using Catch::Contains;

namespace {

constexpr std::size_t T = 7, B = 2, H = 3;

/// h += x_t; the output, interimOut and created slices are h, 2h and h + x_t.
Sequence runningSum(Graph& g, const TimeStepState&, const RnnBatchwiseFlags&,
                    std::vector<Tensor>& state, const RnnSlice& slice, std::vector<Tensor>& created,
                    Sequence*, const DebugNameAndId&) {
  Sequence s;
  popops::addInPlace(g, state[0], slice.inputs[0], s);
  s.add(Copy(state[0], slice.outputs[0]));
  if (slice.interimOut.valid()) popops::mulWithOutput(g, state[0], 2.0f, slice.interimOut, s);
  if (!created.empty()) created[0] = popops::add(g, state[0], slice.inputs[0], s);
  return s;
}

void checkLoop(bool reverse, unsigned shards, bool codeReuse) {
  INFO("reverse " << reverse << " shards " << shards << " codeReuse " << codeReuse);
  test::Harness h(4);
  Graph& g = h.graph();
  const RnnParams params(FLOAT, B, T, {H, H});
  const auto x = test::randomValues(T * B * H, -1.0f, 1.0f, 3);
  const auto h0 = test::randomValues(B * H, -1.0f, 1.0f, 4);
  const Tensor in = h.input("x", FLOAT, {T, B, H}, x);
  const Tensor init = h.input("h0", FLOAT, {B, H}, h0);
  const Tensor out = createOutputTensor(g, params, shards, "out");
  const Tensor seq = createOutputTensor(g, params, shards, "stateSeq");
  Tensor interim = createRecurrentTensor(g, params, H, shards, "interim");
  const Tensor made = createOutputTensor(g, params, shards, "created");
  OptionFlags options{{"codeReuse", codeReuse ? "true" : "false"}};
  const auto final = Rnn(g, params, reverse, {init}, StateSequence{seq, 0}, {in}, nullptr, &interim,
                         {out}, {made}, h.prog(), runningSum, shards, options, "rnn");
  REQUIRE(final.size() == 1);
  h.read("out", out);
  h.read("seq", seq);
  h.read("interim", interim);
  h.read("created", made);
  h.read("final", final[0]);
  h.read("h0after", init);
  h.run();
  // Host: steps in processing order.
  std::vector<float> want(T * B * H), acc = h0;
  for (std::size_t n = 0; n < T; ++n) {
    const std::size_t t = reverse ? T - 1 - n : n;
    for (std::size_t i = 0; i < B * H; ++i) {
      acc[i] += x[t * B * H + i];
      want[t * B * H + i] = acc[i];
    }
  }
  CHECK_THAT(h.result("out"), test::CloseTo(want, 1e-5f, 1e-5f));
  CHECK_THAT(h.result("seq"), test::CloseTo(want, 1e-5f, 1e-5f));
  CHECK_THAT(h.result("final"), test::CloseTo(acc, 1e-5f, 1e-5f));
  CHECK_THAT(h.result("h0after"), test::CloseTo(h0, 0.0f, 0.0f)); // the state is a copy
  std::vector<float> twice(want), plusX(want);
  for (std::size_t i = 0; i < want.size(); ++i) {
    twice[i] = 2 * want[i];
    plusX[i] = want[i] + x[i];
  }
  CHECK_THAT(h.result("interim"), test::CloseTo(twice, 1e-5f, 1e-5f));
  CHECK_THAT(h.result("created"), test::CloseTo(plusX, 1e-5f, 1e-5f));
}

} // namespace

TEST_CASE("rnn::Rnn runs the cell over the sequence", "[popnn][rnn]") {
  checkLoop(false, 1, false);
  checkLoop(true, 1, false);
  checkLoop(false, 3, false);
  checkLoop(true, 3, true);
  checkLoop(false, 2, true);
}

TEST_CASE("rnn::Rnn calls the cell once per shard, or once with codeReuse", "[popnn][rnn]") {
  for (const bool reuse : {false, true}) {
    test::Harness h(4);
    const RnnParams params(FLOAT, B, T, {H, H});
    const Tensor in = h.input("x", FLOAT, {T, B, H}, std::vector<float>(T * B * H, 1.0f));
    const Tensor init = h.input("h0", FLOAT, {B, H}, std::vector<float>(B * H, 0.0f));
    const Tensor out = createOutputTensor(h.graph(), params, 1, "out");
    unsigned calls = 0, withInit = 0;
    const LoopBodyType counting = [&](Graph& g, const TimeStepState& time,
                                      const RnnBatchwiseFlags& flags, std::vector<Tensor>& state,
                                      const RnnSlice& slice, std::vector<Tensor>& created,
                                      Sequence* initProg, const DebugNameAndId& dnai) {
      ++calls;
      withInit += initProg != nullptr;
      CHECK(time.begin.valid());
      CHECK(time.counter.valid());
      CHECK(!flags.valid());
      return runningSum(g, time, flags, state, slice, created, initProg, dnai);
    };
    OptionFlags options{{"codeReuse", reuse ? "true" : "false"}};
    Rnn(h.graph(), params, false, {init}, StateSequence{}, {in}, nullptr, nullptr, {out}, {},
        h.prog(), counting, 3, options);
    CHECK(calls == (reuse ? 1u : 3u));
    CHECK(withInit == 1u); // only the first shard gets the initialisation program
    h.read("out", out);
    h.run();
    // All ones summed: step t holds t + 1.
    for (std::size_t t = 0; t < T; ++t)
      CHECK(h.result("out")[t * B * H] == float(t + 1));
  }
}

TEST_CASE("rnn::Rnn misuse is an error", "[popnn][rnn][errors]") {
  test::Harness h(4);
  Graph& g = h.graph();
  const RnnParams params(FLOAT, B, T, {H, H});
  const Tensor in = h.input("x", FLOAT, {T, B, H}, std::vector<float>(T * B * H, 1.0f));
  const Tensor init = h.input("h0", FLOAT, {B, H}, std::vector<float>(B * H, 0.0f));
  const Tensor out = createOutputTensor(g, params, 1, "out");
  OptionFlags none;
  CHECK_THROWS_WITH(Rnn(g, params, false, {init}, StateSequence{}, {in}, nullptr, nullptr, {out},
                        {}, h.prog(), runningSum, 8, none),
                    Contains("numShards must be between 1 and maxTimeSteps"));
  const Tensor shortIn =
      h.input("short", FLOAT, {T - 1, B, H}, std::vector<float>((T - 1) * B * H));
  CHECK_THROWS_WITH(Rnn(g, params, false, {init}, StateSequence{}, {shortIn}, nullptr, nullptr,
                        {out}, {}, h.prog(), runningSum, 1, none),
                    Contains("inputs[0] must be [7, ...]"));
  CHECK_THROWS_WITH(Rnn(g, params, false, {init}, StateSequence{out, 4}, {in}, nullptr, nullptr,
                        {out}, {}, h.prog(), runningSum, 1, none),
                    Contains("stateIndex 4 names no state tensor"));
  OptionFlags bad{{"codeReuse", "sometimes"}};
  CHECK_THROWS_AS(Rnn(g, params, false, {init}, StateSequence{}, {in}, nullptr, nullptr, {out}, {},
                      h.prog(), runningSum, 1, bad),
                  poplar::invalid_option);
  const LoopBodyType noOutput = [](Graph&, const TimeStepState&, const RnnBatchwiseFlags&,
                                   std::vector<Tensor>&, const RnnSlice&,
                                   std::vector<Tensor>& created, Sequence*,
                                   const DebugNameAndId&) { return Sequence(); };
  const Tensor made = createOutputTensor(g, params, 1, "made");
  CHECK_THROWS_WITH(Rnn(g, params, false, {init}, StateSequence{}, {in}, nullptr, nullptr, {out},
                        {made}, h.prog(), noOutput, 1, none),
                    Contains("the cell's created[0] must have shape"));
}

TEST_CASE("lstm::getMatMulPrePlanParameters: the layer's products", "[popnn][lstm]") {
  const popnn::lstm::LstmParams params(HALF, 4, 10, {16, 16});
  const auto training = popnn::lstm::getMatMulPrePlanParameters(params, {{"partialsType", "half"}});
  REQUIRE(training.size() == 3); // forward, backward, weight update
  const poplin::MatMulParams& fwd = training[0].first;
  CHECK(fwd.aShape == std::vector<std::size_t>{1, 4, 32});  // batch x (input + recurrent)
  CHECK(fwd.bShape == std::vector<std::size_t>{1, 32, 64}); // 4 gates of 16
  CHECK(fwd.inputType == HALF);
  bool sawPartials = false, sawPass = false;
  for (const auto& kv : training[0].second) {
    sawPartials |= kv.first == "partialsType" && kv.second == "half";
    sawPass |= kv.first == "fullyConnectedPass" && kv.second == "TRAINING_FWD";
  }
  CHECK(sawPartials);
  CHECK(sawPass);
  const auto inference =
      popnn::lstm::getMatMulPrePlanParameters(params, {{"inferenceOnly", "true"}});
  REQUIRE(inference.size() == 1);
  CHECK_THROWS_AS(popnn::lstm::getMatMulPrePlanParameters(params, {{"noSuch", "1"}}),
                  poplar::invalid_option);
}

namespace {

/// h += mask * x_t (x_t when the flags are empty); the output slice is h.
Sequence maskedSum(Graph& g, const TimeStepState&, const RnnBatchwiseFlags& flags,
                   std::vector<Tensor>& state, const RnnSlice& slice, std::vector<Tensor>&,
                   Sequence*, const DebugNameAndId&) {
  Sequence s;
  const Tensor x =
      flags.valid() ? popops::mul(g, slice.inputs[0], flags.mask.expand({1}), s) : slice.inputs[0];
  popops::addInPlace(g, state[0], x, s);
  s.add(Copy(state[0], slice.outputs[0]));
  return s;
}

void checkVariableSteps(bool reverse, const std::vector<float>& limits) {
  INFO("reverse " << reverse << " limits " << limits.size());
  test::Harness h(4);
  Graph& g = h.graph();
  const Tensor steps = h.input("limits", UNSIGNED_INT, {limits.size()}, limits);
  const RnnParams params(FLOAT, B, T, steps, {H, H});
  CHECK(params.variableTimeSteps());
  CHECK(params.batchVariableTimeSteps() == (limits.size() == B));
  const auto x = test::randomValues(T * B * H, -1.0f, 1.0f, 5);
  const Tensor in = h.input("x", FLOAT, {T, B, H}, x);
  const Tensor init = h.input("h0", FLOAT, {B, H}, std::vector<float>(B * H, 0.0f));
  const Tensor out = h.input("out", FLOAT, {T, B, H}, std::vector<float>(T * B * H, -9.0f));
  bool sawFlags = false, sawSeqFlag = false;
  const LoopBodyType cell = [&](Graph& gr, const TimeStepState& time,
                                const RnnBatchwiseFlags& flags, std::vector<Tensor>& state,
                                const RnnSlice& slice, std::vector<Tensor>& created, Sequence* ip,
                                const DebugNameAndId& dnai) {
    sawFlags = flags.valid();
    sawSeqFlag = time.variableSeqFlag.valid();
    if (flags.valid()) {
      CHECK(flags.mask.shape() == std::vector<std::size_t>{B});
      CHECK(flags.mask.elementType() == FLOAT);
      CHECK(flags.inverse.shape() == std::vector<std::size_t>{B});
    }
    return maskedSum(gr, time, flags, state, slice, created, ip, dnai);
  };
  OptionFlags none;
  const auto final = Rnn(g, params, reverse, {init}, StateSequence{}, {in}, nullptr, nullptr, {out},
                         {}, h.prog(), cell, 1, none, "rnn");
  CHECK(sawFlags == (limits.size() == B));
  CHECK(sawSeqFlag);
  h.read("out", out);
  h.read("final", final[0]);
  h.run();
  // Host: steps at or past the largest limit do not run (their rows stay -9); below it, an
  // entry adds x only below its own limit.
  const float largest = *std::max_element(limits.begin(), limits.end());
  std::vector<float> want(T * B * H, -9.0f), acc(B * H, 0.0f);
  for (std::size_t n = 0; n < T; ++n) {
    const std::size_t t = reverse ? T - 1 - n : n;
    if (float(t) >= largest) continue;
    for (std::size_t b = 0; b < B; ++b) {
      const float limit = limits.size() == B ? limits[b] : limits[0];
      for (std::size_t i = 0; i < H; ++i) {
        if (float(t) < limit) acc[b * H + i] += x[(t * B + b) * H + i];
        want[(t * B + b) * H + i] = acc[b * H + i];
      }
    }
  }
  CHECK_THAT(h.result("out"), test::CloseTo(want, 1e-5f, 1e-5f));
  CHECK_THAT(h.result("final"), test::CloseTo(acc, 1e-5f, 1e-5f));
}

/// The gathering form with the running sum: temporaries h and 2h; gatherFn adds
/// sum over its steps of (h_t * g_t + 2 h_t) into `acc`, so every step must be gathered once,
/// its temporaries paired with its own gather input.
/// With `limits` (variable time steps) the cell masks x and steps at or past the largest limit
/// do not run: their temporaries read as zeros.
void checkGather(unsigned shards, unsigned stepsPerGather, const std::vector<float>& limits = {}) {
  INFO("shards " << shards << " stepsPerGather " << stepsPerGather << " limits " << limits.size());
  test::Harness h(4);
  Graph& g = h.graph();
  const RnnParams params =
      limits.empty() ? RnnParams(FLOAT, B, T, {H, H})
                     : RnnParams(FLOAT, B, T,
                                 h.input("limits", UNSIGNED_INT, {limits.size()}, limits), {H, H});
  const auto x = test::randomValues(T * B * H, -1.0f, 1.0f, 6);
  const auto gx = test::randomValues(T * B * H, -1.0f, 1.0f, 7);
  const Tensor in = h.input("x", FLOAT, {T, B, H}, x);
  const Tensor gin = h.input("g", FLOAT, {T, B, H}, gx);
  const Tensor init = h.input("h0", FLOAT, {B, H}, std::vector<float>(B * H, 0.0f));
  const Tensor acc = h.input("acc", FLOAT, {B, H}, std::vector<float>(B * H, 0.0f));
  const LoopBodyType cell = [](Graph& gr, const TimeStepState&, const RnnBatchwiseFlags& flags,
                               std::vector<Tensor>& state, const RnnSlice& slice,
                               std::vector<Tensor>&, Sequence*, const DebugNameAndId&) {
    Sequence s;
    const Tensor x = flags.valid() ? popops::mul(gr, slice.inputs[0], flags.mask.expand({1}), s)
                                   : slice.inputs[0];
    popops::addInPlace(gr, state[0], x, s);
    REQUIRE(slice.interimOut.shape() == std::vector<std::size_t>{2, B, H});
    s.add(Copy(state[0], slice.interimOut[0]));
    popops::mulWithOutput(gr, state[0], 2.0f, slice.interimOut[1], s);
    return s;
  };
  std::vector<unsigned> sizes;
  const GatherBodyType gatherFn = [&](Graph& gr, const RnnSlice& slice, unsigned steps, Sequence*,
                                      const DebugNameAndId&) {
    sizes.push_back(steps);
    Sequence s;
    REQUIRE(slice.interimIn.shape() == std::vector<std::size_t>{steps * 2, B, H});
    REQUIRE(slice.inputs.size() == 1);
    REQUIRE(slice.inputs[0].shape() == std::vector<std::size_t>{steps * B, H});
    const Tensor temps = slice.interimIn.reshape({steps, 2, B, H});
    const Tensor prod = popops::mul(gr, temps.slice(0, 1, 1).squeeze({1}),
                                    slice.inputs[0].reshape({steps, B, H}), s);
    popops::addInPlace(gr, prod, temps.slice(1, 2, 1).squeeze({1}), s);
    popops::addInPlace(gr, acc, popops::reduce(gr, prod, {0}, {popops::Operation::ADD}, s), s);
    return s;
  };
  OptionFlags none;
  const auto final = Rnn(g, params, {init}, StateSequence{}, {in}, Tensor(), 2, h.prog(), cell,
                         {gin}, gatherFn, shards, stepsPerGather, none, "gather");
  h.read("acc", acc);
  h.read("final", final[0]);
  h.run();
  std::vector<float> sum(B * H, 0.0f), want(B * H, 0.0f);
  const float largest = limits.empty() ? float(T) : *std::max_element(limits.begin(), limits.end());
  for (std::size_t n = 0; n < T; ++n) {
    const std::size_t t = T - 1 - n; // always reversed
    if (float(t) >= largest) continue;
    for (std::size_t i = 0; i < B * H; ++i) {
      const float limit = limits.empty() ? float(T) : limits[limits.size() == B ? i / H : 0];
      if (float(t) < limit) sum[i] += x[t * B * H + i];
      want[i] += sum[i] * gx[t * B * H + i] + 2 * sum[i];
    }
  }
  CHECK_THAT(h.result("final"), test::CloseTo(sum, 1e-5f, 1e-5f));
  CHECK_THAT(h.result("acc"), test::CloseTo(want, 1e-4f, 1e-4f));
  // Per shard: one call for its full groups (if any), one for the remainder (if any).
  std::vector<unsigned> expected;
  for (unsigned s = shards; s-- > 0;) {
    const std::size_t length = T * (s + 1) / shards - T * s / shards;
    const std::size_t gsize = std::min<std::size_t>(stepsPerGather, length);
    if (length / gsize) expected.push_back(unsigned(gsize));
    if (length % gsize) expected.push_back(unsigned(length % gsize));
  }
  CHECK(sizes == expected);
}

} // namespace

TEST_CASE("rnn::Rnn with variable time steps", "[popnn][rnn]") {
  checkVariableSteps(false, {3, 5});
  checkVariableSteps(true, {5, 2});
  checkVariableSteps(false, {4});
  checkVariableSteps(true, {4});
}

TEST_CASE("rnn::Rnn gathering form", "[popnn][rnn]") {
  checkGather(1, 3);
  checkGather(1, 1);
  checkGather(1, 10);
  checkGather(2, 2);
  checkGather(1, 3, {5, 2});
  checkGather(2, 3, {4});
}

TEST_CASE("rnn::Rnn gathering form misuse and bad time steps", "[popnn][rnn][errors]") {
  test::Harness h(4);
  Graph& g = h.graph();
  const RnnParams params(FLOAT, B, T, {H, H});
  const Tensor in = h.input("x", FLOAT, {T, B, H}, std::vector<float>(T * B * H, 1.0f));
  const Tensor init = h.input("h0", FLOAT, {B, H}, std::vector<float>(B * H, 0.0f));
  const GatherBodyType gatherFn = [](Graph&, const RnnSlice&, unsigned, Sequence*,
                                     const DebugNameAndId&) { return Sequence(); };
  OptionFlags none;
  CHECK_THROWS_WITH(Rnn(g, params, {init}, StateSequence{}, {in}, Tensor(), 2, h.prog(), maskedSum,
                        {}, gatherFn, 1, 0, none),
                    Contains("stepsPerGather must be non-zero"));
  CHECK_THROWS_WITH(Rnn(g, params, {init}, StateSequence{}, {in}, Tensor(), 0, h.prog(), maskedSum,
                        {}, gatherFn, 1, 2, none),
                    Contains("numTemps must be non-zero"));
  CHECK_THROWS_WITH(Rnn(g, params, {init}, StateSequence{}, {in}, Tensor(), 2, h.prog(), maskedSum,
                        {}, GatherBodyType(), 1, 2, none),
                    Contains("gatherFn is empty"));
  const Tensor three = h.input("three", UNSIGNED_INT, {3}, {1, 2, 3});
  CHECK_THROWS_WITH(RnnParams(FLOAT, B, T, three, {H, H}),
                    Contains("varTimeSteps must have 1 or batchSize (2) entries"));
}

TEST_CASE("rnn::getMatMulPrePlanParameters: the step's products", "[popnn][rnn]") {
  const auto both = getMatMulPrePlanParameters(5, 4, 8, 6, HALF);
  REQUIRE(both.size() == 2); // x W_in and h W_fb
  CHECK(both[0].first.aShape == std::vector<std::size_t>{4, 8});
  CHECK(both[0].first.bShape == std::vector<std::size_t>{8, 6});
  CHECK(both[1].first.bShape == std::vector<std::size_t>{6, 6});
  CHECK(both[0].first.inputType == HALF);
  const auto feedback = getMatMulPrePlanParameters(5, 4, 8, 6, FLOAT, FLOAT, true, false);
  REQUIRE(feedback.size() == 1);
  CHECK(feedback[0].first.aShape == std::vector<std::size_t>{4, 6});
  CHECK(feedback[0].first.inputType == FLOAT);
}
