// The multiSlice / multiUpdate forms beyond the MultiSlice vertices: several dimensions or
// several entries per offset, offsets known when the graph is built (ArrayRef), and the
// options of the dynamic slices; results against the host.
#include "TestUtil.hpp"

#include <popops/DynamicSlice.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;

namespace {

std::vector<float> counting(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = float(i);
  return v;
}

/// t [4][5][3] = counting; the slice of sizes {1, 2} over dims {0, 1} at (o0, o1).
std::vector<float> hostSlice(unsigned o0, unsigned o1) {
  std::vector<float> out;
  for (unsigned b = 0; b < 2; ++b)
    for (unsigned c = 0; c < 3; ++c)
      out.push_back(float((o0 * 5 + o1 + b) * 3 + c));
  return out;
}

} // namespace

TEST_CASE("multiSlice over two dimensions, inline and in a loop", "[popops][dynamicslice]") {
  for (std::size_t numOffsets : {3u, 5u}) {
    INFO(numOffsets << " offsets");
    test::Harness h(4);
    const Tensor t = h.input("t", FLOAT, {4, 5, 3}, counting(60));
    const std::vector<unsigned> offs = {1, 2, 3, 0, 0, 3, 2, 1, 3, 3};
    std::vector<float> offsValues(offs.begin(), offs.begin() + 2 * numOffsets);
    const Tensor offsets = h.input("offsets", UNSIGNED_INT, {numOffsets, 2}, offsValues);
    const Tensor out =
        popops::multiSlice(h.graph(), t, offsets, {0, 1}, {1, 2}, h.prog(), {}, {}, "slices");
    CHECK(out.shape() == std::vector<std::size_t>{numOffsets, 1, 2, 3});
    h.read("out", out);
    h.run();
    std::vector<float> expected;
    for (std::size_t i = 0; i < numOffsets; ++i) {
      const auto s = hostSlice(offs[2 * i], offs[2 * i + 1]);
      expected.insert(expected.end(), s.begin(), s.end());
    }
    CHECK(h.result("out") == expected);
  }
}

TEST_CASE("multiUpdate over two dimensions writes each slice", "[popops][dynamicslice]") {
  test::Harness h(4);
  const Tensor t = h.input("t", FLOAT, {4, 5, 3}, std::vector<float>(60, 0.0f));
  // Four non-overlapping 1x2 windows.
  const std::vector<float> offs = {0, 0, 1, 3, 3, 1, 2, 2};
  const Tensor offsets = h.input("offsets", UNSIGNED_INT, {4, 2}, offs);
  const Tensor s = h.input("s", FLOAT, {4, 1, 2, 3}, counting(24));
  popops::multiUpdate(h.graph(), t, s, offsets, {0, 1}, {1, 2}, h.prog(), {}, {}, "update");
  h.read("t", t);
  h.run();
  std::vector<float> expected(60, 0.0f);
  for (unsigned i = 0; i < 4; ++i)
    for (unsigned b = 0; b < 2; ++b)
      for (unsigned c = 0; c < 3; ++c)
        expected[(unsigned(offs[2 * i]) * 5 + unsigned(offs[2 * i + 1]) + b) * 3 + c] =
            float(i * 6 + b * 3 + c);
  CHECK(h.result("t") == expected);
}

TEST_CASE("multiSlice with static offsets", "[popops][dynamicslice]") {
  test::Harness h(4);
  const Tensor t = h.input("t", FLOAT, {4, 3}, counting(12));
  const std::vector<unsigned> offsets = {2, 0, 7, 2};
  const Tensor rows = popops::multiSlice(h.graph(), t, offsets, 0, h.prog(), "rows");
  const Tensor remapped = popops::multiSlice(h.graph(), t, offsets, 0, h.prog(), "remapped",
                                             {{"remapOutOfBoundIndices", "true"}});
  const Tensor cols = popops::multiSlice(h.graph(), t, {1, 2}, 1, h.prog());
  CHECK(rows.shape() == std::vector<std::size_t>{4, 1, 3});
  CHECK(cols.shape() == std::vector<std::size_t>{2, 4, 1});
  h.read("rows", rows);
  h.read("remapped", remapped);
  h.read("cols", cols);
  h.run();
  CHECK(h.result("rows") == std::vector<float>{6, 7, 8, 0, 1, 2, 0, 0, 0, 6, 7, 8});
  CHECK(h.result("remapped") == std::vector<float>{6, 7, 8, 0, 1, 2, 0, 1, 2, 6, 7, 8});
  CHECK(h.result("cols") == std::vector<float>{1, 4, 7, 10, 2, 5, 8, 11});
}

TEST_CASE("multiUpdateAdd with static offsets accumulates repeats", "[popops][dynamicslice]") {
  for (Type type : {FLOAT, HALF}) {
    INFO(type);
    test::Harness h(4);
    const Tensor t = h.input("t", type, {4, 3}, counting(12));
    const Tensor s = h.input("s", type, {4, 1, 3}, counting(12));
    const Tensor scale = h.input("scale", FLOAT, {}, {0.5f});
    const std::vector<unsigned> offsets = {1, 3, 1, 9}; // 9 is past the end: ignored
    popops::multiUpdateAdd(h.graph(), t, s, offsets, scale, 0, h.prog(), "grad");
    h.read("t", t);
    h.run();
    std::vector<float> expected = counting(12);
    for (unsigned c = 0; c < 3; ++c) {
      expected[3 + c] += 0.5f * (float(c) + float(6 + c));
      expected[9 + c] += 0.5f * float(3 + c);
    }
    CHECK(h.result("t") == expected);
  }
}

TEST_CASE("static multi-slices and dynamic-slice options report bad arguments",
          "[popops][dynamicslice][errors]") {
  test::Harness h(4);
  const Tensor t = h.input("t", FLOAT, {4, 3}, counting(12));
  const Tensor scale = h.input("scale", FLOAT, {}, {1.0f});
  const std::vector<unsigned> offsets = {0, 1};
  CHECK_THROWS_MATCHES(popops::multiSlice(h.graph(), t, offsets, 2, h.prog()),
                       poputil::poplibs_error, test::What(Contains("dim 2")));
  const Tensor bad = h.input("bad", FLOAT, {2, 3}, counting(6));
  CHECK_THROWS_MATCHES(popops::multiUpdateAdd(h.graph(), t, bad, offsets, scale, 0, h.prog()),
                       poputil::poplibs_error, test::What(Contains("s has shape {2,3}")));
  const Tensor s = h.input("s", FLOAT, {2, 1, 3}, counting(6));
  const Tensor iscale = h.input("iscale", INT, {}, {1.0f});
  CHECK_THROWS_MATCHES(popops::multiUpdateAdd(h.graph(), t, s, offsets, iscale, 0, h.prog()),
                       poputil::poplibs_error, test::What(Contains("scale has element type int")));
  CHECK_THROWS_AS(popops::multiSlice(h.graph(), t, offsets, 0, h.prog(), {}, {{"sorted", "true"}}),
                  poplar::invalid_option);
  const Tensor off = h.input("off", UNSIGNED_INT, {1}, {1.0f});
  CHECK_THROWS_MATCHES(popops::dynamicSlice(h.graph(), t, off, {0}, {1}, h.prog(), {},
                                            {{"paddingIndexUsed", "true"}}),
                       poputil::poplibs_error, test::What(Contains("paddingIndexUsed")));
  CHECK_THROWS_AS(popops::dynamicUpdate(h.graph(), t, t.slice(0, 1), off, {0}, {1}, h.prog(), {},
                                        {{"remapOutOfBoundIndices", "yes"}}),
                  poplar::invalid_option);
  // Generic forms: offsets need one column per dimension.
  const Tensor offs3 = h.input("offs3", UNSIGNED_INT, {2, 3}, counting(6));
  CHECK_THROWS_MATCHES(popops::multiSlice(h.graph(), t, offs3, {0, 1}, {1, 1}, h.prog(), {}, {}),
                       poputil::poplibs_error, test::What(Contains("offsets has shape {2,3}")));
}

TEST_CASE("grouped multi-slices work on each group's own table", "[popops][dynamicslice]") {
  test::Harness h(4);
  const std::size_t G = 2, entries = 6, width = 3, n = 4;
  const auto plan = popops::embedding::plan(h.graph(), FLOAT, G, entries, width, {n}, {});
  const Tensor table = popops::createGroupedSliceableTensor(h.graph(), FLOAT, G, {entries, width},
                                                            {0}, {1}, plan, {}, "table");
  CHECK(table.shape() == std::vector<std::size_t>{G, entries, width});
  const Tensor idx = popops::createGroupedIndicesTensor(h.graph(), G, {0}, n, plan, {}, "idx");
  CHECK(idx.shape() == std::vector<std::size_t>{G, n, 1});
  const Tensor grads = popops::createGroupedSliceTensor(h.graph(), FLOAT, G, {entries, width}, {0},
                                                        {1}, n, plan, {}, "grads");
  CHECK(grads.shape() == std::vector<std::size_t>{G, n, 1, width});
  const std::vector<float> tableValues = counting(G * entries * width);
  const std::vector<float> idxValues = {5, 0, 2, 5, 1, 1, 4, 3};
  const std::vector<float> gradValues = counting(G * n * width);
  h.write("table", table, tableValues);
  h.write("idx", idx, idxValues);
  h.write("grads", grads, gradValues);
  const Tensor scale = h.input("scale", FLOAT, {}, {2.0f});
  const Tensor rows =
      popops::groupedMultiSlice(h.graph(), table, idx, {0}, {1}, h.prog(), plan, {}, "lookup");
  CHECK(rows.shape() == std::vector<std::size_t>{G, n, 1, width});
  popops::groupedMultiUpdateAdd(h.graph(), table, grads, idx, scale, {0}, {1}, h.prog(), plan, {},
                                "update");
  h.read("rows", rows);
  h.read("table", table);
  h.run();
  std::vector<float> wantRows, wantTable = tableValues;
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t e = std::size_t(idxValues[g * n + i]);
      for (std::size_t c = 0; c < width; ++c) {
        wantRows.push_back(tableValues[(g * entries + e) * width + c]);
        wantTable[(g * entries + e) * width + c] += 2.0f * gradValues[(g * n + i) * width + c];
      }
    }
  CHECK(h.result("rows") == wantRows);
  CHECK(h.result("table") == wantTable);

  const auto ungrouped = popops::embedding::plan(h.graph(), FLOAT, entries, width, {n}, {});
  CHECK_THROWS_MATCHES(
      popops::groupedMultiSlice(h.graph(), table, idx, {0}, {1}, h.prog(), ungrouped, {}),
      poputil::poplibs_error, test::What(Contains("not made for groups")));
  const auto three = popops::embedding::plan(h.graph(), FLOAT, 3, entries, width, {n}, {});
  CHECK_THROWS_MATCHES(
      popops::groupedMultiSlice(h.graph(), table, idx, {0}, {1}, h.prog(), three, {}),
      poputil::poplibs_error, test::What(Contains("for 3 groups")));
  CHECK_THROWS_MATCHES(
      popops::groupedMultiSlice(h.graph(), table, idx[0], {0}, {1}, h.prog(), plan, {}),
      poputil::poplibs_error, test::What(Contains("offsets has shape")));
}
