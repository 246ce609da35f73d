// popnn::lstm against the host LSTM of LstmReference.hpp: forward, backward and weight update.
#include "LstmReference.hpp"
#include "TestUtil.hpp"

#include <popnn/Lstm.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;
namespace lstm = popnn::lstm;

namespace {

struct Fixture {
  test::Harness h{8};
  test::HostLstm ref;
  std::vector<float> x, h0, c0;
  lstm::LstmParams params;
  lstm::LstmWeights w;
  lstm::LstmState init;
  Tensor in;

  Fixture(std::size_t T, std::size_t B, std::size_t I, std::size_t H, bool fullSequence = true)
      : params(FLOAT, B, T, {I, H}) {
    params.outputFullSequence = fullSequence;
    ref.T = T;
    ref.B = B;
    ref.I = I;
    ref.H = H;
    ref.wIn = test::randomValues(4 * I * H, -0.5f, 0.5f, 1);
    ref.wOut = test::randomValues(4 * H * H, -0.5f, 0.5f, 2);
    ref.bias = test::randomValues(4 * H, -0.2f, 0.2f, 3);
    x = test::randomValues(T * B * I, -1, 1, 4);
    h0 = test::randomValues(B * H, -0.5f, 0.5f, 5);
    c0 = test::randomValues(B * H, -0.5f, 0.5f, 6);
    auto& g = h.graph();
    w = lstm::createWeights(g, params, "weights");
    init = lstm::createInitialState(g, params, "init");
    in = lstm::createInput(g, params, "in");
    h.write("wIn", w.inputWeights, ref.wIn);
    h.write("wOut", w.outputWeights, ref.wOut);
    h.write("bias", w.biases, ref.bias);
    h.write("h0", init.output, h0);
    h.write("c0", init.cellState, c0);
    h.write("x", in, x);
  }
};

} // namespace

TEST_CASE("lstmFwd computes the sequence's outputs and final cell state", "[popnn][lstm]") {
  Fixture f(3, 2, 5, 4);
  Tensor intermediates;
  auto out =
      lstm::lstmFwd(f.h.graph(), f.params, f.init, f.in, f.w, &intermediates, f.h.prog(), "lstm");
  REQUIRE(out.first.shape() == std::vector<std::size_t>{3, 2, 4});
  REQUIRE(out.second.shape() == std::vector<std::size_t>{2, 4});
  f.h.read("out", out.first);
  f.h.read("cell", out.second);
  f.h.run();
  f.ref.forward(f.x, f.h0, f.c0);
  CHECK_THAT(f.h.result("out"), test::CloseTo(f.ref.output, 1e-4f, 1e-5f));
  const std::vector<float> lastCell(f.ref.cell.end() - 2 * 4, f.ref.cell.end());
  CHECK_THAT(f.h.result("cell"), test::CloseTo(lastCell, 1e-4f, 1e-5f));
}

TEST_CASE("lstmFwd without the full sequence outputs only the last step", "[popnn][lstm]") {
  Fixture f(2, 3, 2, 3, false);
  auto out = lstm::lstmFwd(f.h.graph(), f.params, f.init, f.in, f.w, nullptr, f.h.prog());
  REQUIRE(out.first.shape() == std::vector<std::size_t>{3, 3});
  f.h.read("out", out.first);
  f.h.run();
  f.ref.forward(f.x, f.h0, f.c0);
  const std::vector<float> last(f.ref.output.end() - 3 * 3, f.ref.output.end());
  CHECK_THAT(f.h.result("out"), test::CloseTo(last, 1e-4f, 1e-5f));
}

TEST_CASE("lstmBwdWithWU gives the gradients of input, initial state and weights",
          "[popnn][lstm]") {
  Fixture f(3, 2, 3, 4);
  auto& g = f.h.graph();
  Tensor fwdInter;
  auto out = lstm::lstmFwd(g, f.params, f.init, f.in, f.w, &fwdInter, f.h.prog(), "fwd");
  const auto dOut = test::randomValues(3 * 2 * 4, -1, 1, 7);
  const Tensor outGrad = f.h.input("dOut", FLOAT, {3, 2, 4}, dOut);
  Tensor inputGrad;
  lstm::LstmWeights wGrad;
  const lstm::LstmState stateGrad =
      lstm::lstmBwdWithWU(g, f.params, f.h.prog(), f.init, fwdInter, f.w, f.in, out.first, outGrad,
                          static_cast<const lstm::LstmState*>(nullptr), &inputGrad, wGrad, "bwd");
  f.h.read("dIn", inputGrad);
  f.h.read("dH0", stateGrad.output);
  f.h.read("dC0", stateGrad.cellState);
  f.h.read("dWIn", wGrad.inputWeights);
  f.h.read("dWOut", wGrad.outputWeights);
  f.h.read("dBias", wGrad.biases);
  f.h.run();
  f.ref.forward(f.x, f.h0, f.c0);
  f.ref.backward(f.x, f.h0, f.c0, dOut);
  CHECK_THAT(f.h.result("dIn"), test::CloseTo(f.ref.dInput, 1e-3f, 1e-5f));
  CHECK_THAT(f.h.result("dH0"), test::CloseTo(f.ref.dH0, 1e-3f, 1e-5f));
  CHECK_THAT(f.h.result("dC0"), test::CloseTo(f.ref.dC0, 1e-3f, 1e-5f));
  CHECK_THAT(f.h.result("dWIn"), test::CloseTo(f.ref.dWIn, 1e-3f, 1e-5f));
  CHECK_THAT(f.h.result("dWOut"), test::CloseTo(f.ref.dWOut, 1e-3f, 1e-5f));
  CHECK_THAT(f.h.result("dBias"), test::CloseTo(f.ref.dBias, 1e-3f, 1e-5f));
}

TEST_CASE("LSTM misuse is refused with the argument named", "[popnn][lstm]") {
  test::Harness h(4);
  lstm::LstmParams params(FLOAT, 2, 3, {4, 5});
  auto w = lstm::createWeights(h.graph(), params, "w");
  auto init = lstm::createInitialState(h.graph(), params, "init");
  const Tensor wrongIn = h.graph().addVariable(FLOAT, {3, 2, 5}, "wrong");
  CHECK_THROWS_WITH(lstm::lstmFwd(h.graph(), params, init, wrongIn, w, nullptr, h.prog()),
                    Contains("in must have shape [3,2,4], not [3,2,5]"));
  CHECK_THROWS_WITH(lstm::createInput(h.graph(), params, "x", {{"recomputationMode", "some"}}),
                    Contains("recomputationMode must be none, cellAndTanh or full"));
  CHECK_THROWS_WITH(lstm::createInput(h.graph(), params, "x", {{"noSuchOption", "1"}}),
                    Contains("noSuchOption"));
  lstm::LstmParams badSizes(FLOAT, 2, 3, {4});
  CHECK_THROWS_WITH(lstm::createInput(h.graph(), badSizes, "x"),
                    Contains("layerSizes must be {input size, output size}"));
  params.cellOrder = {BASIC_LSTM_CELL_FORGET_GATE, BASIC_LSTM_CELL_FORGET_GATE,
                      BASIC_LSTM_CELL_CANDIDATE, BASIC_LSTM_CELL_OUTPUT_GATE};
  const Tensor in = lstm::createInput(h.graph(), params, "in");
  CHECK_THROWS_WITH(lstm::lstmFwd(h.graph(), params, init, in, w, nullptr, h.prog()),
                    Contains("cellOrder must list each unit once"));
}
