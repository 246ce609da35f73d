// popops/Loop.hpp, Encoding.hpp, Sort.hpp and TopK.hpp against the host.
#include "TestUtil.hpp"

#include <algorithm>
#include <numeric>
#include <popops/DynamicSlice.hpp>
#include <popops/Encoding.hpp>
#include <popops/Loop.hpp>
#include <popops/Sort.hpp>
#include <popops/TopK.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>

using namespace poplar;
using Catch::Contains;

TEST_CASE("countedLoop passes the counter to its body; countedForLoop runs to a tensor limit",
          "[popops]") {
  test::Harness h(4);
  Graph& g = h.graph();
  // Copies row i of `table` into row i of `copy` on pass i (begin 1, end 7, step 2: rows 1 3 5).
  const Tensor table = h.input("table", FLOAT, {7, 3}, test::randomValues(21, -1, 1, 3));
  const Tensor copy = h.input("copy", FLOAT, {7, 3}, std::vector<float>(21, 0));
  h.prog().add(popops::countedLoop(
      g, 1, 7, 2,
      [&](const Tensor& i) {
        program::Sequence body;
        const Tensor row = popops::dynamicSlice(g, table, i.reshape({1}), {0}, {1}, body, "row");
        popops::dynamicUpdate(g, copy, row, i.reshape({1}), {0}, {1}, body, "put");
        return body;
      },
      "loop"));
  // Sums the counter values 3, 6, 9 (limit 12, read from a tensor) into `total` with a fixed
  // body; countedForLoop's own counter runs the same number of passes.
  const Tensor count = g.addVariable(INT, {}, "count");
  g.setTileMapping(count, 1);
  const Tensor limit = h.input("limit", INT, {}, {12});
  const Tensor passes = h.input("passes", INT, {}, {0});
  program::Sequence body;
  // passes += 1 through a loop counter vertex with an unreachable limit.
  popops::addForLoopCounterVertex(g, passes, limit, 1, 0, body, "increment");
  h.prog().add(popops::countedForLoop(g, count, 3, limit, 3, body, "forLoop"));
  h.read("count", count);
  h.prog().add(popops::countedForLoop(g, 0, limit, 4, body, "forLoop2")); // 3 more passes
  h.read("copy", copy);
  h.read("passes", passes);
  h.run();
  const auto tv = test::randomValues(21, -1, 1, 3);
  std::vector<float> expected(21, 0);
  for (int r : {1, 3, 5})
    for (int c = 0; c < 3; ++c)
      expected[r * 3 + c] = tv[r * 3 + c];
  CHECK(h.result("copy") == expected);
  CHECK(h.result("passes") == std::vector<float>{6});
  CHECK(h.result("count") == std::vector<float>{12});
  CHECK_THROWS_MATCHES(
      popops::countedLoop(g, 0, 5, 2, [](const Tensor&) { return program::Sequence(); }),
      poputil::poplibs_error, test::What(Contains("steps of 2")));
  CHECK_THROWS_MATCHES(popops::countedForLoop(g, 0, limit, 0, body), poputil::poplibs_error,
                       test::What(Contains("countStep is 0")));
  const Tensor f = h.input("f", FLOAT, {}, {1});
  CHECK_THROWS_MATCHES(popops::countedForLoop(g, f, 0, limit, 1, body), poputil::poplibs_error,
                       test::What(Contains("count has element type float")));
}

TEST_CASE("encodeOneHot and iota", "[popops]") {
  test::Harness h(4);
  Graph& g = h.graph();
  const Tensor idx = h.input("idx", UNSIGNED_INT, {5}, {2, 0, 4, 5, 9});
  const Tensor enc = h.input("enc", HALF, {5, 5}, std::vector<float>(25, 7));
  popops::encodeOneHot(g, idx, enc, h.prog(), "oneHot");
  const Tensor sidx = h.input("sidx", INT, {3}, {1, -1, 2});
  const Tensor enc2 = h.input("enc2", INT, {3, 3}, std::vector<float>(9, 0));
  const Tensor on = h.input("on", INT, {}, {5});
  const Tensor off = h.input("off", INT, {}, {-1});
  popops::encodeOneHot(g, sidx, enc2, h.prog(), on, off, "custom");
  const Tensor u = h.input("u", UNSIGNED_INT, {100}, std::vector<float>(100, 0));
  const Tensor i = h.input("i", INT, {10}, std::vector<float>(10, 0));
  popops::iota(g, u, 5u, h.prog(), "iotaU");
  popops::iota(g, i, -3, h.prog(), "iotaI");
  h.read("enc", enc);
  h.read("enc2", enc2);
  h.read("u", u);
  h.read("i", i);
  h.run();
  std::vector<float> e(25, 0);
  e[0 * 5 + 2] = e[1 * 5 + 0] = e[2 * 5 + 4] = 1;
  CHECK(h.result("enc") == e);
  CHECK(h.result("enc2") == std::vector<float>{-1, 5, -1, -1, -1, -1, -1, -1, 5});
  std::vector<float> eu(100), ei(10);
  std::iota(eu.begin(), eu.end(), 5.0f);
  std::iota(ei.begin(), ei.end(), -3.0f);
  CHECK(h.result("u") == eu);
  CHECK(h.result("i") == ei);
  CHECK_THROWS_MATCHES(popops::encodeOneHot(g, idx, enc2, h.prog()), poputil::poplibs_error,
                       test::What(Contains("encoded has shape {3,3}")));
  CHECK_THROWS_MATCHES(popops::iota(g, u, -1, h.prog()), poputil::poplibs_error,
                       test::What(Contains("t has element type unsigned int")));
}

TEST_CASE("sort, sortKeyValue and their in-place forms", "[popops]") {
  test::Harness h(4);
  Graph& g = h.graph();
  const auto kv = test::randomValues(4 * 9, -5, 5, 11);
  const Tensor k = h.input("k", FLOAT, {4, 9}, kv);
  std::vector<float> vv(36);
  std::iota(vv.begin(), vv.end(), 0.0f);
  const Tensor v = h.input("v", INT, {4, 9}, vv);
  const Tensor sorted0 = popops::sort(g, k, 0, h.prog(), "sortDim0");
  const Tensor byKey = popops::sortKeyValue(g, k, v, 1, h.prog(), "sortKV");
  const Tensor inPlace = h.input("inPlace", HALF, {2, 5}, {5, 1, 4, 2, 3, 0, -1, 9, 8, 7});
  popops::sortInPlace(g, inPlace, 1, h.prog(), "sortInPlace");
  h.read("sorted0", sorted0);
  h.read("byKey", byKey);
  h.read("inPlace", inPlace);
  h.read("k", k);
  h.run();
  std::vector<float> e0 = kv;
  for (int c = 0; c < 9; ++c) {
    std::vector<float> col;
    for (int r = 0; r < 4; ++r)
      col.push_back(kv[r * 9 + c]);
    std::sort(col.begin(), col.end());
    for (int r = 0; r < 4; ++r)
      e0[r * 9 + c] = col[r];
  }
  CHECK(h.result("sorted0") == e0);
  CHECK(h.result("k") == kv); // sort and sortKeyValue leave their inputs alone
  std::vector<float> eKV;
  for (int r = 0; r < 4; ++r) {
    std::vector<int> order(9);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return kv[r * 9 + a] < kv[r * 9 + b]; });
    for (int i : order)
      eKV.push_back(float(r * 9 + i));
  }
  CHECK(h.result("byKey") == eKV);
  CHECK(h.result("inPlace") == std::vector<float>{1, 2, 3, 4, 5, -1, 0, 7, 8, 9});
  CHECK_THROWS_MATCHES(popops::sort(g, k, 2, h.prog()), poputil::poplibs_error,
                       test::What(Contains("dim 2")));
  CHECK_THROWS_MATCHES(popops::sortKeyValue(g, k, inPlace, 1, h.prog()), poputil::poplibs_error,
                       test::What(Contains("v has")));
}

TEST_CASE("topK and the arg-max family", "[popops]") {
  test::Harness h(4);
  Graph& g = h.graph();
  const std::size_t rows = 6, n = 10, k = 3;
  const auto xv = test::randomValues(rows * n, -3, 3, 5);
  const popops::TopKParams params(k, true, popops::SortOrder::DESCENDING);
  const Tensor x = popops::createTopKInput(g, FLOAT, {2, 3, n}, params, "x");
  h.write("x", x, xv);
  const Tensor top = popops::topK(g, h.prog(), x, params, "topK");
  CHECK(top.shape() == std::vector<std::size_t>{2, 3, k});
  const auto [smallest, where] = popops::topKWithPermutation(
      g, h.prog(), x, popops::TopKParams(k, false, popops::SortOrder::ASCENDING, true), "perm");
  const Tensor x2 = x.reshape({rows, n});
  const auto [maxV, maxI] = popops::maxAndArgMax(g, x2, h.prog(), "maxAndArgMax");
  const Tensor minI = popops::argMin(g, x2, h.prog(), "argMin");
  const Tensor am = popops::argMax(g, x2, h.prog(), "argMax");
  h.read("top", top);
  h.read("smallest", smallest);
  h.read("where", where);
  h.read("maxV", maxV);
  h.read("maxI", maxI);
  h.read("minI", minI);
  h.read("am", am);
  h.run();
  std::vector<float> eTop, eSmall, eWhere, eMax, eMaxI, eMinI;
  for (std::size_t r = 0; r < rows; ++r) {
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return xv[r * n + a] > xv[r * n + b]; });
    for (std::size_t i = 0; i < k; ++i)
      eTop.push_back(xv[r * n + order[i]]);
    eMax.push_back(xv[r * n + order[0]]);
    eMaxI.push_back(float(order[0]));
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return xv[r * n + a] < xv[r * n + b]; });
    for (std::size_t i = 0; i < k; ++i) {
      eSmall.push_back(xv[r * n + order[i]]);
      eWhere.push_back(float(order[i]));
    }
    eMinI.push_back(float(order[0]));
  }
  CHECK(h.result("top") == eTop);
  CHECK(h.result("smallest") == eSmall);
  CHECK(h.result("where") == eWhere);
  CHECK(h.result("maxV") == eMax);
  CHECK(h.result("maxI") == eMaxI);
  CHECK(h.result("am") == eMaxI);
  CHECK(h.result("minI") == eMinI);
  std::ostringstream os;
  os << params;
  CHECK(os.str() == "{k=3, largest=true, sortOrder=descending, stableSort=false}");
  CHECK_THROWS_MATCHES(
      popops::topK(g, h.prog(), x, popops::TopKParams(11, true, popops::SortOrder::NONE)),
      poputil::poplibs_error, test::What(Contains("k = 11")));
  CHECK_THROWS_MATCHES(popops::argMax(g, x, h.prog()), poputil::poplibs_error,
                       test::What(Contains("input has shape {2,3,10}")));
}
