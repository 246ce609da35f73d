// poplin's grouped and accumulating matmuls, the create* overloads with separate input and
// output types, pre-arranging, and preplanning, against host products.
#include "TestUtil.hpp"

#include <poplin/MatMul.hpp>
#include <poputil/exceptions.hpp>
#include <set>
#include <sstream>

using namespace poplar;
using Catch::Contains;

namespace {

std::set<unsigned> tilesOf(const Graph& graph, const Tensor& t) {
  std::set<unsigned> tiles;
  const auto mapping = graph.getTileMapping(t);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    if (!mapping[tile].empty()) tiles.insert(tile);
  return tiles;
}

} // namespace

TEST_CASE("matMulGrouped multiplies each group on its own tiles", "[poplin][matmul][grouped]") {
  const std::size_t G = 3, M = 4, K = 70, N = 5;
  test::Harness h(12);
  auto& g = h.graph();
  const auto a = test::randomValues(G * M * K, -1, 1, 1),
             b = test::randomValues(G * K * N, -1, 1, 2);
  const Tensor A = poplin::createMatMulGroupedInputLHS(g, FLOAT, FLOAT, {G, M, K}, {G, K, N}, "A");
  const Tensor B = poplin::createMatMulGroupedInputRHS(g, FLOAT, FLOAT, {G, M, K}, {G, K, N}, "B");
  // Each group's operands live on that group's share of the 12 tiles: 4 each, disjoint.
  for (std::size_t i = 0; i < G; ++i) {
    const auto tiles = tilesOf(g, A[i]);
    REQUIRE(!tiles.empty());
    CHECK(*tiles.begin() >= 4 * i);
    CHECK(*tiles.rbegin() < 4 * (i + 1));
  }
  h.write("A", A, a);
  h.write("B", B, b);
  const Tensor C = poplin::matMulGrouped(g, A, B, h.prog(), FLOAT, "grouped");
  REQUIRE(C.shape() == std::vector<std::size_t>{G, M, N});
  // Transposed operands (not row-contiguous) are rearranged first.
  const Tensor At = g.addVariable(FLOAT, {G, K, M}, "At");
  g.setTileMapping(At, 0);
  const Tensor D = poplin::matMulGrouped(g, poplin::transposeGroupedMatrix(At), B, h.prog(), FLOAT);
  std::vector<float> at(G * K * M);
  for (std::size_t x = 0; x < G; ++x)
    for (std::size_t i = 0; i < M; ++i)
      for (std::size_t k = 0; k < K; ++k)
        at[(x * K + k) * M + i] = a[(x * M + i) * K + k];
  h.write("At", At, at);
  h.read("C", C);
  h.read("D", D);
  h.run();
  const auto expected = test::hostMatMul(a, b, G, M, K, N);
  CHECK_THAT(h.result("C"), test::CloseTo(expected, 1e-5f, 1e-5f));
  CHECK_THAT(h.result("D"), test::CloseTo(expected, 1e-5f, 1e-5f));
}

TEST_CASE("matMulGrouped with more groups than tiles, and WithOutput",
          "[poplin][matmul][grouped]") {
  const std::size_t G = 6, M = 2, K = 3, N = 4;
  test::Harness h(4);
  auto& g = h.graph();
  const auto a = test::randomValues(G * M * K, -1, 1, 3),
             b = test::randomValues(G * K * N, -1, 1, 4);
  const Tensor A = h.input("A", FLOAT, {G, M, K}, a);
  const Tensor B = h.input("B", FLOAT, {G, K, N}, b);
  Tensor out = poplin::createMatMulGroupedOutput(g, FLOAT, HALF, {G, M, K}, {G, K, N}, "out");
  CHECK(out.elementType() == HALF);
  poplin::matMulGroupedWithOutput(g, A, B, out, h.prog(), "withOutput");
  h.read("out", out);
  h.run();
  CHECK_THAT(h.result("out"), test::CloseTo(test::hostMatMul(a, b, G, M, K, N), 2e-3f, 2e-3f));
}

TEST_CASE("matMulAcc and matMulGroupedAcc add k times the product", "[poplin][matmul][grouped]") {
  test::Harness h(8);
  auto& g = h.graph();
  const std::size_t M = 3, K = 4, N = 2, G = 2;
  const auto a = test::randomValues(G * M * K, -1, 1, 5),
             b = test::randomValues(G * K * N, -1, 1, 6);
  const auto c = test::randomValues(G * M * N, -1, 1, 7);
  const std::vector<float> a0(a.begin(), a.begin() + M * K), b0(b.begin(), b.begin() + K * N);
  const std::vector<float> c0(c.begin(), c.begin() + M * N);
  const Tensor A = h.input("A", FLOAT, {G, M, K}, a);
  const Tensor B = h.input("B", FLOAT, {G, K, N}, b);
  const Tensor C1 = h.input("C1", FLOAT, {M, N}, c0);
  const Tensor C2 = h.input("C2", FLOAT, {M, N}, c0);
  const Tensor C3 = h.input("C3", FLOAT, {G, M, N}, c);
  const Tensor C4 = h.input("C4", FLOAT, {G, M, N}, c);
  const Tensor k = h.input("k", FLOAT, {}, {-0.5f});
  poplin::matMulAcc(g, C1, 2.0f, A[0], B[0], h.prog(), "acc");
  poplin::matMulAcc(g, C2, k, A[0], B[0], h.prog(), "accTensor");
  poplin::matMulGroupedAcc(g, C3, 3.0f, A, B, h.prog(), "groupedAcc");
  poplin::matMulGroupedAcc(g, C4, k, A, B, h.prog(), "groupedAccTensor");
  for (const char* name : {"C1", "C2", "C3", "C4"})
    h.read(name, name[1] == '1' ? C1 : name[1] == '2' ? C2 : name[1] == '3' ? C3 : C4);
  h.run();
  auto expect = [&](const std::vector<float>& before, const std::vector<float>& prod, float scale) {
    std::vector<float> e(before.size());
    for (std::size_t i = 0; i < e.size(); ++i)
      e[i] = before[i] + scale * prod[i];
    return e;
  };
  const auto p0 = test::hostMatMul(a0, b0, 1, M, K, N), p = test::hostMatMul(a, b, G, M, K, N);
  CHECK_THAT(h.result("C1"), test::CloseTo(expect(c0, p0, 2.0f), 1e-5f, 1e-5f));
  CHECK_THAT(h.result("C2"), test::CloseTo(expect(c0, p0, -0.5f), 1e-5f, 1e-5f));
  CHECK_THAT(h.result("C3"), test::CloseTo(expect(c, p, 3.0f), 1e-5f, 1e-5f));
  CHECK_THAT(h.result("C4"), test::CloseTo(expect(c, p, -0.5f), 1e-5f, 1e-5f));
}

TEST_CASE("createMatMul* with input and output types, and preArrangeMatMulInputRHS",
          "[poplin][matmul]") {
  test::Harness h(8);
  auto& g = h.graph();
  const std::size_t M = 4, K = 6, N = 5;
  const Tensor A = poplin::createMatMulInputLHS(g, FLOAT, FLOAT, {M, K}, {K, N}, "A");
  const Tensor B = poplin::createMatMulInputRHS(g, FLOAT, HALF, {M, K}, {K, N}, "B");
  const Tensor C = poplin::createMatMulOutput(g, FLOAT, HALF, {M, K}, {K, N}, "C");
  const Tensor D = poplin::createMatMulOutput(g, FLOAT, {M, K}, {K, N}, "D");
  CHECK(A.shape() == std::vector<std::size_t>{M, K});
  CHECK(B.shape() == std::vector<std::size_t>{K, N});
  CHECK(C.elementType() == HALF);
  CHECK(D.elementType() == FLOAT);
  const auto a = test::randomValues(M * K, -1, 1, 8), b = test::randomValues(K * N, -1, 1, 9);
  h.write("A", A, a);
  const Tensor Bt = h.input("Bt", FLOAT, {N, K}, [&] {
    std::vector<float> t(N * K);
    for (std::size_t k = 0; k < K; ++k)
      for (std::size_t n = 0; n < N; ++n)
        t[n * K + k] = b[k * N + n];
    return t;
  }());
  const Tensor pre = poplin::preArrangeMatMulInputRHS(g, {M, K}, Bt.transpose(), h.prog(), "pre");
  CHECK(pre.shape() == std::vector<std::size_t>{K, N});
  Tensor out = D;
  poplin::matMulWithOutput(g, A, pre, out, h.prog(), "mm");
  h.read("D", D);
  h.run();
  CHECK_THAT(h.result("D"), test::CloseTo(test::hostMatMul(a, b, 1, M, K, N), 1e-5f, 1e-5f));
}

TEST_CASE("grouped matmul plans, preplanning and option checks", "[poplin][matmul][grouped]") {
  test::Harness h(8);
  auto& g = h.graph();
  std::ostringstream os;
  poplin::matMulGroupedReportPlan(os, g, FLOAT, FLOAT, {2, 4, 8}, {2, 8, 3});
  // One plan for both groups: the grouped convolution's, over all 8 tiles.
  CHECK_THAT(os.str(), Contains("convGroupSplit 2"));
  CHECK_THAT(os.str(), Contains("on 8 of 8 tiles"));
  CHECK_THROWS_WITH(poplin::matMulGroupedReportPlan(os, g, FLOAT, FLOAT, {2, 4, 8}, {3, 8, 3}),
                    Contains("has 2 groups but B"));
  CHECK_THROWS_WITH(poplin::matMulGroupedReportPlan(os, g, FLOAT, FLOAT, {4, 8}, {8, 3}),
                    Contains("[G,M,K] and [G,K,N]"));
  const Tensor A = g.addVariable(FLOAT, {2, 4, 8});
  const Tensor B = g.addVariable(FLOAT, {2, 8, 3});
  const Tensor C = g.addVariable(FLOAT, {2, 4, 4});
  CHECK_THROWS_WITH(poplin::matMulGroupedAcc(g, C, 1.0f, A, B, h.prog()), Contains("C has shape"));

  poplin::matmulValidateOptions({{"availableMemoryProportion", "0.3"},
                                 {"fullyConnectedPass", "TRAINING_BWD"},
                                 {"inputRHSIsPreArranged", "false"}});
  CHECK_THROWS_AS(poplin::matmulValidateOptions({{"fullyConnectedPass", "SIDEWAYS"}}),
                  poplar::invalid_option);
  CHECK_THROWS_AS(poplin::matmulValidateOptions({{"noSuchOption", "1"}}), poplar::invalid_option);

  const OptionFlags opts{{"fullyConnectedPass", "TRAINING_FWD"}, {"partialsType", "half"}};
  poplin::MatMulParams grouped{FLOAT, FLOAT, {3, 4, 8}, {3, 8, 5}};
  poplin::MatMulParams plain{HALF, FLOAT, {4, 8}, {8, 5}};
  CHECK((plain < grouped) != (grouped < plain));
  const std::set<poplin::MatMulPlanParams> mms{{&g.getTarget(), grouped, &opts},
                                               {&g.getTarget(), plain, nullptr}};
  poplin::matmul::PlanningCache cache;
  poplin::preplanMatMuls(mms, cache);
  poplin::MatMulToConvOptions convOpts;
  const auto convs = poplin::matMulGetConvPlanParams(mms, convOpts);
  REQUIRE(convs.size() == 2);
  REQUIRE(convOpts.count(&opts) == 1);
  CHECK(convOpts.at(&opts).at("pass") == "FC_TRAINING_FWD");
  CHECK(convOpts.at(&opts).at("partialsType") == "half");
  bool sawGrouped = false;
  for (const auto& c : convs) {
    const poplin::ConvParams& p = std::get<1>(c);
    if (p.numConvGroups == 3) {
      sawGrouped = true;
      // As PopLibs: A's rows are the batch, over a field of one element.
      CHECK(p.batchSize == 4);
      CHECK(p.inputFieldShape == std::vector<std::size_t>{1});
      CHECK(p.inputChannelsPerConvGroup == 8);
      CHECK(p.outputChannelsPerConvGroup == 5);
    }
  }
  CHECK(sawGrouped);
  poplin::PlanningCache convCache;
  poplin::preplanConvolutions(convs, convCache); // the converted convolutions plan
  const std::set<poplin::MatMulPlanParams> bad{
      {&g.getTarget(), poplin::MatMulParams{FLOAT, FLOAT, {4, 8}, {7, 5}}, nullptr}};
  CHECK_THROWS_AS(poplin::preplanMatMuls(bad, cache), poputil::poplibs_error);
}
