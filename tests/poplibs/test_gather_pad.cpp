// popops/Gather.hpp, Scatter.hpp, Pad.hpp and SelectScalarFromRows.hpp against the host.
#include "TestUtil.hpp"

#include <cmath>
#include <popops/ElementWise.hpp>
#include <popops/EncodingConstants.hpp>
#include <popops/Gather.hpp>
#include <popops/Pad.hpp>
#include <popops/Scatter.hpp>
#include <popops/SelectScalarFromRows.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;

TEST_CASE("gather takes slices along an axis in numpy.take's layout", "[popops]") {
  test::Harness h(4);
  // in[3][4][2] = 100 a + 10 b + c
  std::vector<float> iv;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 2; ++c)
        iv.push_back(float(100 * a + 10 * b + c));
  const Tensor in = popops::createGatherInput(h.graph(), FLOAT, {3, 4, 2}, 1, {}, "in");
  h.write("in", in, iv);
  const Tensor idx = h.input("idx", INT, {2, 2}, {3, 0, -1, 1}); // -1: out of range
  const Tensor out = popops::gather(h.graph(), in, idx, 1, h.prog(), {}, "gather");
  CHECK(out.shape() == std::vector<std::size_t>{3, 2, 2, 2});
  h.read("out", out);
  h.run();
  std::vector<float> expected;
  const int ix[4] = {3, 0, -1, 1};
  for (int a = 0; a < 3; ++a)
    for (int i = 0; i < 4; ++i)
      for (int c = 0; c < 2; ++c)
        expected.push_back(ix[i] < 0 ? 0.0f : float(100 * a + 10 * ix[i] + c));
  CHECK(h.result("out") == expected);
  const Tensor f = h.input("f", FLOAT, {2}, {0, 0});
  CHECK_THROWS_MATCHES(popops::gather(h.graph(), in, f, 0, h.prog(), {}), poputil::poplibs_error,
                       test::What(Contains("indices has element type float")));
  CHECK_THROWS_MATCHES(popops::gather(h.graph(), in, idx, 3, h.prog(), {}), poputil::poplibs_error,
                       test::What(Contains("axis 3")));
}

TEST_CASE("pad with constants, edges and reflections; negative padding truncates", "[popops]") {
  test::Harness h(4);
  Graph& g = h.graph();
  const Tensor t = h.input("t", FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor c = popops::pad(g, t, {1, -1}, {0, 2}, 9.0f);
  CHECK(c.shape() == std::vector<std::size_t>{3, 4});
  const Tensor edge = popops::pad(t, {0, 2}, {1, 1}, popops::padding::Type::EDGE);
  const Tensor reflect = popops::pad(t, 2, 1, 1, popops::padding::Type::REFLECT);
  const Tensor v = h.input("v", FLOAT, {}, {-1});
  const Tensor byTensor = popops::pad(g, t, 0, 1, 0, v, popops::padding::MappingMethod::EDGE);
  const Tensor i = h.input("i", INT, {3}, {1, 2, 3});
  const Tensor ip = popops::pad(g, i, {2}, {0}, 7, popops::padding::MappingMethod::EDGE);
  for (const auto& [name, x] : std::vector<std::pair<std::string, Tensor>>{
           {"c", c}, {"edge", edge}, {"reflect", reflect}, {"byTensor", byTensor}, {"ip", ip}}) {
    const Tensor copy = g.clone(x, name); // padded views include constants: read a copy
    h.prog().add(program::Copy(x, copy));
    h.read(name, copy);
  }
  h.run();
  CHECK(h.result("c") == std::vector<float>{9, 9, 9, 9, 2, 3, 9, 9, 5, 6, 9, 9});
  CHECK(h.result("edge") ==
        std::vector<float>{1, 1, 1, 2, 3, 3, 4, 4, 4, 5, 6, 6, 4, 4, 4, 5, 6, 6});
  CHECK(h.result("reflect") == std::vector<float>{3, 2, 1, 2, 3, 2, 6, 5, 4, 5, 6, 5});
  CHECK(h.result("byTensor") == std::vector<float>{1, 2, 3, 4, 5, 6, -1, -1, -1});
  CHECK(h.result("ip") == std::vector<float>{7, 7, 1, 2, 3});
  CHECK_THROWS_MATCHES(popops::pad(t, 3, 0, 1, popops::padding::Type::REFLECT),
                       poputil::poplibs_error, test::What(Contains("reflect padding")));
  CHECK_THROWS_MATCHES(
      popops::pad(g, t, std::vector<std::ptrdiff_t>{1}, std::vector<std::ptrdiff_t>{1}, 0.0f),
      poputil::poplibs_error, test::What(Contains("one entry per dimension")));
  CHECK_THROWS_MATCHES(popops::pad(g, t, -2, -2, 1, 0.0f), poputil::poplibs_error,
                       test::What(Contains("truncate more")));
}

TEST_CASE("selectScalarFromRows picks one element per row", "[popops]") {
  test::Harness h(4);
  const auto pv = test::randomValues(5 * 7, -1, 1, 13);
  const Tensor params = h.input("params", FLOAT, {5, 7}, pv);
  const Tensor idx = h.input("idx", UNSIGNED_INT, {5}, {6, 0, 3, 7, 2});
  // MASKED_LABEL_CODE does not survive a float, so write it through a separate tensor.
  const Tensor masked = h.graph().addConstant(UNSIGNED_INT, {1}, unsigned(MASKED_LABEL_CODE));
  h.graph().setTileMapping(masked, 0);
  h.prog().add(program::Copy(masked, idx.slice(4, 5)));
  const Tensor out = popops::selectScalarFromRows(h.graph(), params, idx, h.prog(), "select");
  h.read("out", out);
  h.run();
  const auto& r = h.result("out");
  REQUIRE(r.size() == 5);
  CHECK(r[0] == pv[0 * 7 + 6]);
  CHECK(r[1] == pv[1 * 7 + 0]);
  CHECK(r[2] == pv[2 * 7 + 3]);
  CHECK(std::isnan(r[3]));
  CHECK(r[4] == 0.0f);
  CHECK_THROWS_MATCHES(popops::selectScalarFromRows(h.graph(), params, params, h.prog()),
                       poputil::poplibs_error, test::What(Contains("indices has element type")));
}

TEST_CASE("scatter writes (or combines) windows at run-time indices, skipping misfits",
          "[popops]") {
  test::Harness h(4);
  Graph& g = h.graph();
  // Rows: operand [4,3], scalar indices {2, 7 (does not fit), 0}, windows of one row.
  const Tensor rowsT = h.input("rows", FLOAT, {4, 3}, std::vector<float>(12, 0));
  const Tensor rowIdx = h.input("rowIdx", INT, {3}, {2, 7, 0});
  const Tensor rowUpd = h.input("rowUpd", FLOAT, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  popops::scatter(g, rowsT, rowIdx, rowUpd, 1, {1}, {0}, {0}, h.prog(), "rows");
  // Elements: operand [3,3], index vectors along dim 1, the update added to what is there.
  const Tensor elems = h.input("elems", FLOAT, {3, 3}, std::vector<float>(9, 1));
  const Tensor elemIdx = h.input("elemIdx", UNSIGNED_INT, {3, 2}, {1, 1, 2, 0, 1, 1});
  const Tensor elemUpd = h.input("elemUpd", FLOAT, {3}, {10, 20, 30});
  popops::UpdateComputationFunc add = [](Graph& graph, Tensor& a, Tensor& b, program::Sequence& p) {
    return popops::add(graph, a, b, p, "combine");
  };
  popops::scatter(g, elems, elemIdx, elemUpd, 1, {}, {0, 1}, {0, 1}, add, h.prog(), "elems");
  h.read("rows", rowsT);
  h.read("elems", elems);
  h.run();
  CHECK(h.result("rows") == std::vector<float>{7, 8, 9, 0, 0, 0, 1, 2, 3, 0, 0, 0});
  CHECK(h.result("elems") == std::vector<float>{1, 1, 1, 1, 41, 1, 21, 1, 1});
  CHECK_THROWS_MATCHES(popops::scatter(g, rowsT, rowIdx, rowUpd, 1, {1}, {0}, {0, 1}, h.prog()),
                       poputil::poplibs_error, test::What(Contains("scatterDimsToOperandDims")));
  CHECK_THROWS_MATCHES(
      popops::scatter(g, rowsT, rowIdx, rowUpd.slice(0, 2), 1, {1}, {0}, {0}, h.prog()),
      poputil::poplibs_error, test::What(Contains("index batch")));
}

TEST_CASE("gather with XLA's parameters picks elements and clamped windows", "[popops]") {
  test::Harness h(4);
  Graph& g = h.graph();
  const Tensor in = popops::createGatherInput(g, FLOAT, {3, 3}, {1, 1}, {0, 1}, "in");
  h.write("in", in, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  const Tensor points = h.input("points", UNSIGNED_INT, {2, 2}, {1, 1, 2, 1});
  const Tensor picked =
      popops::gather(g, in, points, 1, {}, {1, 1}, {0, 1}, {0, 1}, h.prog(), "pick");
  CHECK(picked.shape() == std::vector<std::size_t>{2});
  // Windows of two rows starting at row 3 (clamped to 1) and row 0; batch dimension last.
  const Tensor starts = h.input("starts", INT, {2}, {3, 0});
  const Tensor windows =
      popops::gather(g, in, starts, 1, {0, 1}, {2, 3}, {}, {0}, h.prog(), "windows");
  CHECK(windows.shape() == std::vector<std::size_t>{2, 3, 2});
  h.read("picked", picked);
  h.read("windows", windows);
  h.run();
  CHECK(h.result("picked") == std::vector<float>{5, 8});
  // windows[r][c][b] = in[start_b + r][c], start = {1, 0}
  CHECK(h.result("windows") == std::vector<float>{4, 1, 5, 2, 6, 3, 7, 4, 8, 5, 9, 6});
  CHECK_THROWS_MATCHES(popops::gather(g, in, points, 1, {}, {1, 1}, {0}, {0, 1}, h.prog()),
                       poputil::poplibs_error, test::What(Contains("offsetDims")));
  CHECK_THROWS_MATCHES(popops::gather(g, in, points, 1, {}, {2, 1}, {0, 1}, {0, 1}, h.prog()),
                       poputil::poplibs_error, test::What(Contains("collapsedSliceDims")));
}
