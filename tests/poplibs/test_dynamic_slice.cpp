// popops/DynamicSlice.hpp: slices and updates at run-time offsets, against the same
// computation on the host.
#include "TestUtil.hpp"

#include <poplar/exceptions.hpp>
#include <popops/DynamicSlice.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>

using namespace poplar;
using Catch::Contains;

namespace {
std::vector<float> iotaValues(std::size_t n, float start = 0) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = start + float(i);
  return v;
}
} // namespace

TEST_CASE("dynamicSlice takes the slice at the offsets read when the program runs", "[popops]") {
  test::Harness h(8);
  // t[4][5][3] = 100 a + 10 b + c
  std::vector<float> tv;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 5; ++b)
      for (int c = 0; c < 3; ++c)
        tv.push_back(float(100 * a + 10 * b + c));
  const Tensor t = h.input("t", FLOAT, {4, 5, 3}, tv);
  const Tensor off1 = h.input("off1", UNSIGNED_INT, {1}, {2});
  const Tensor off2 = h.input("off2", UNSIGNED_INT, {2}, {1, 3});
  const Tensor wrap = h.input("wrap", UNSIGNED_INT, {1}, {3}); // rows 3, 0 (wraps)
  const Tensor past = h.input("past", UNSIGNED_INT, {1}, {9}); // out of range: starts at 0
  const Tensor s1 = popops::dynamicSlice(h.graph(), t, off1, {1}, {2}, h.prog(), "s1");
  const Tensor s2 = popops::dynamicSlice(h.graph(), t, off2, {0, 1}, {1, 2}, h.prog(), "s2");
  const Tensor s3 = popops::dynamicSlice(h.graph(), t, wrap, {0}, {2}, h.prog(), "s3");
  const Tensor s4 = popops::dynamicSlice(h.graph(), t, past, {0}, {1}, h.prog(), "s4");
  const Tensor out = h.graph().clone(t.slice(0, 2, 2), "out");
  popops::dynamicSliceWithOutput(h.graph(), out, t, off1, {2}, {2}, h.prog(), "s5");
  CHECK(s1.shape() == std::vector<std::size_t>{4, 2, 3});
  CHECK(s2.shape() == std::vector<std::size_t>{1, 2, 3});
  h.read("s1", s1);
  h.read("s2", s2);
  h.read("s3", s3);
  h.read("s4", s4);
  h.read("s5", out);
  h.run();
  std::vector<float> e1, e2, e3, e4, e5;
  for (int a = 0; a < 4; ++a)
    for (int b = 2; b < 4; ++b)
      for (int c = 0; c < 3; ++c)
        e1.push_back(float(100 * a + 10 * b + c));
  for (int b = 3; b < 5; ++b)
    for (int c = 0; c < 3; ++c)
      e2.push_back(float(100 + 10 * b + c));
  for (int a : {3, 0})
    for (int b = 0; b < 5; ++b)
      for (int c = 0; c < 3; ++c)
        e3.push_back(float(100 * a + 10 * b + c));
  for (int b = 0; b < 5; ++b)
    for (int c = 0; c < 3; ++c)
      e4.push_back(float(10 * b + c));
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 5; ++b)
      for (int c : {2, 0})
        e5.push_back(float(100 * a + 10 * b + c));
  CHECK(h.result("s1") == e1);
  CHECK(h.result("s2") == e2);
  CHECK(h.result("s3") == e3);
  CHECK(h.result("s4") == e4);
  CHECK(h.result("s5") == e5);
}

TEST_CASE("dynamicUpdate writes the slice at the offsets, in one or two dimensions", "[popops]") {
  test::Harness h(8);
  const Tensor t = h.input("t", INT, {6, 4}, std::vector<float>(24, 0));
  const Tensor u = h.input("u", HALF, {6, 4}, std::vector<float>(24, 0));
  const Tensor s = h.input("s", INT, {2, 4}, iotaValues(8, 1));
  const Tensor sh = h.input("sh", HALF, {2, 2}, {1, 2, 3, 4});
  const Tensor off = h.input("off", UNSIGNED_INT, {1}, {5}); // rows 5 and 0
  const Tensor off2 = h.input("off2", UNSIGNED_INT, {2}, {1, 2});
  popops::dynamicUpdate(h.graph(), t, s, off, {0}, {2}, h.prog(), "update");
  popops::dynamicUpdate(h.graph(), u, sh, off2, {0, 1}, {2, 2}, h.prog(), "update2d");
  h.read("t", t);
  h.read("u", u);
  h.run();
  std::vector<float> et(24, 0), eu(24, 0);
  for (int c = 0; c < 4; ++c) {
    et[5 * 4 + c] = float(1 + c);
    et[0 * 4 + c] = float(5 + c);
  }
  eu[1 * 4 + 2] = 1;
  eu[1 * 4 + 3] = 2;
  eu[2 * 4 + 2] = 3;
  eu[2 * 4 + 3] = 4;
  CHECK(h.result("t") == et);
  CHECK(h.result("u") == eu);
}

TEST_CASE("createSliceableTensor spreads columns over tiles with every row on the same tile",
          "[popops]") {
  test::Harness h(4);
  const Tensor t =
      popops::createSliceableTensor(h.graph(), FLOAT, {10, 8}, {0}, {1}, 2, "embedding");
  CHECK(t.shape() == std::vector<std::size_t>{10, 8});
  const auto mapping = h.graph().getTileMapping(t);
  for (unsigned tile = 0; tile < 4; ++tile) {
    std::size_t n = 0;
    for (const auto& iv : mapping[tile]) {
      n += iv.size();
      CHECK(iv.begin() / 8 * 8 + tile * 2 == iv.begin()); // columns [2 tile, 2 tile + 2)
    }
    CHECK(n == 20);
  }
  // A tensor whose sliced dimension is not the outermost.
  const Tensor u = popops::createSliceableTensor(h.graph(), HALF, {3, 5, 2}, {1}, {1}, 0, "u");
  CHECK(u.shape() == std::vector<std::size_t>{3, 5, 2});
  CHECK_NOTHROW(h.graph().getTileMapping(u));
  const Tensor s = popops::createSliceTensor(h.graph(), t, {0}, {1}, 3, "slices");
  CHECK(s.shape() == std::vector<std::size_t>{3, 1, 8});
  CHECK(h.graph().getTileMapping(s[0][0]) == h.graph().getTileMapping(t[0]));
  const auto plan = popops::embedding::plan(h.graph(), FLOAT, 10, 8, {3}, {});
  const Tensor idx = popops::createIndicesTensor(h.graph(), {0}, 3, plan, {}, "idx");
  CHECK(idx.shape() == std::vector<std::size_t>{3, 1});
  CHECK(idx.elementType() == UNSIGNED_INT);
  const Tensor s2 = popops::createSliceTensor(h.graph(), FLOAT, {10, 8}, {0}, {1}, 3, plan, {});
  CHECK(s2.shape() == std::vector<std::size_t>{3, 1, 8});
  const Tensor fromSlice =
      popops::createSliceableTensorFromSlice(h.graph(), t.slice(0, 2), {0}, {3}, "fromSlice");
  CHECK(fromSlice.shape() == std::vector<std::size_t>{6, 8});
  const auto sm = popops::getSliceMapping(h.graph(), t, {0}, {1});
  CHECK(sm == h.graph().getTileMapping(t[0]));
  std::ostringstream os;
  os << plan;
  CHECK_THAT(os.str(), Contains("entries 10"));
  CHECK(plan == popops::embedding::plan(h.graph(), FLOAT, 10, 8, {3}, {}));
  CHECK(plan != popops::SlicePlan());
}

TEST_CASE("multiSlice, multiUpdate, multiUpdateAdd and multiUpdateMax as embeddings use them",
          "[popops]") {
  test::Harness h(4);
  const std::size_t entries = 7, width = 6;
  const auto plan =
      popops::embedding::plan(h.graph(), FLOAT, entries, width, {5}, {{"usedForUpdate", "true"}});
  const Tensor table = popops::createSliceableTensor(h.graph(), FLOAT, {entries, width}, {0}, {1},
                                                     plan, {}, "table");
  const auto tableValues = iotaValues(entries * width);
  h.write("table", table, tableValues);
  const Tensor idx = popops::createIndicesTensor(h.graph(), {0}, 5, plan, {}, "idx");
  const std::vector<float> idxValues{3, 0, 6, 3, 42}; // 42: out of range
  h.write("idx", idx, idxValues);
  const Tensor looked =
      popops::multiSlice(h.graph(), table, idx, {0}, {1}, h.prog(), plan, {}, "lookup");
  CHECK(looked.shape() == std::vector<std::size_t>{5, 1, width});
  h.read("looked", looked);

  const Tensor grad =
      h.input("grad", FLOAT, {5, 1, width}, test::randomValues(5 * width, -1, 1, 7));
  const Tensor acc =
      popops::createSliceableTensor(h.graph(), FLOAT, {entries, width}, {0}, {1}, plan, {}, "acc");
  h.write("acc", acc, std::vector<float>(entries * width, 1.0f));
  const Tensor scale = h.input("scale", FLOAT, {}, {0.5f});
  popops::multiUpdateAdd(h.graph(), acc, grad, idx, scale, {0}, {1}, h.prog(), plan, {}, "add");
  h.read("acc", acc);

  const Tensor upd = h.input("upd", INT, {entries, width}, std::vector<float>(entries * width, 0));
  const Tensor src = h.input("src", INT, {5, 1, width}, iotaValues(5 * width, 1));
  popops::multiUpdate(h.graph(), upd, src, idx, {0}, {1}, h.prog(), popops::SlicePlan(), {}, "upd");
  h.read("upd", upd);

  const Tensor mx =
      h.input("mx", HALF, {entries, width}, std::vector<float>(entries * width, 0.5f));
  const Tensor ms = h.input("ms", HALF, {5, 1, width}, test::randomValues(5 * width, -1, 1, 9));
  popops::multiUpdateMax(h.graph(), mx, ms, idx, {0}, {1}, h.prog(), popops::SlicePlan(), {},
                         "max");
  h.read("mx", mx);
  h.run();

  std::vector<float> eLooked, eAcc(entries * width, 1.0f), eUpd(entries * width, 0),
      eMax(entries * width, 0.5f);
  const auto g = test::randomValues(5 * width, -1, 1, 7);
  const auto m = test::randomValues(5 * width, -1, 1, 9);
  for (std::size_t i = 0; i < 5; ++i) {
    const std::size_t row = std::size_t(idxValues[i]);
    for (std::size_t c = 0; c < width; ++c) {
      eLooked.push_back(row < entries ? tableValues[row * width + c] : 0.0f);
      if (row >= entries) continue;
      eAcc[row * width + c] += 0.5f * g[i * width + c];
      eUpd[row * width + c] = float(1 + i * width + c);
      eMax[row * width + c] = std::max(eMax[row * width + c], float(half(m[i * width + c])));
    }
  }
  CHECK(h.result("looked") == eLooked);
  CHECK_THAT(h.result("acc"), test::CloseTo(eAcc, 1e-6f));
  CHECK(h.result("upd") == eUpd);
  CHECK(h.result("mx") == eMax);
}

TEST_CASE("slicing ops name the bad argument", "[popops][errors]") {
  test::Harness h(4);
  const Tensor t = h.input("t", FLOAT, {4, 3}, std::vector<float>(12));
  const Tensor off = h.input("off", UNSIGNED_INT, {1}, {0});
  const Tensor intOff = h.input("intOff", INT, {1}, {0});
  const Tensor idx = h.input("idx", UNSIGNED_INT, {2, 1}, {0, 1});
  Graph& g = h.graph();
  auto& p = h.prog();
  CHECK_THROWS_MATCHES(popops::dynamicSlice(g, t, off, {2}, {1}, p), poputil::poplibs_error,
                       test::What(Contains("dims[0] = 2")));
  CHECK_THROWS_MATCHES(popops::dynamicSlice(g, t, off, {0}, {5}, p), poputil::poplibs_error,
                       test::What(Contains("sizes[0] = 5")));
  CHECK_THROWS_MATCHES(popops::dynamicSlice(g, t, off, {0, 1}, {1}, p), poputil::poplibs_error,
                       test::What(Contains("differ in length")));
  CHECK_THROWS_MATCHES(popops::dynamicSlice(g, t, intOff, {0}, {1}, p), poputil::poplibs_error,
                       test::What(Contains("offset has element type int")));
  CHECK_THROWS_MATCHES(popops::dynamicSlice(g, t, idx, {0}, {1}, p), poputil::poplibs_error,
                       test::What(Contains("offset has shape {2,1}")));
  CHECK_THROWS_MATCHES(popops::dynamicUpdate(g, t, t, off, {0}, {1}, p), poputil::poplibs_error,
                       test::What(Contains("s has shape {4,3}")));
  // Several entries per offset are a generic multiSlice (test_multi_slice_forms.cpp); the
  // accumulating updates still take one entry per offset.
  CHECK_THROWS_MATCHES(
      popops::multiUpdateAdd(g, t, t.expand({1}), idx, t[0][0], {0}, {2}, p, {}, {}),
      poputil::poplibs_error, test::What(Contains("sizes {2}")));
  CHECK_THROWS_MATCHES(popops::multiSlice(g, t, idx, {0}, {1}, p, {}, {{"bogus", "1"}}),
                       poplar::invalid_option, test::What(Contains("bogus")));
  const Tensor s = h.input("s", FLOAT, {2, 1, 3}, std::vector<float>(6));
  const Tensor intScale = h.input("intScale", INT, {}, {1});
  CHECK_THROWS_MATCHES(popops::multiUpdateAdd(g, t, s, idx, intScale, {0}, {1}, p, {}, {}),
                       poputil::poplibs_error, test::What(Contains("scale has element type int")));
  CHECK_THROWS_MATCHES(popops::multiUpdate(g, t, t, idx, {0}, {1}, p, {}, {}),
                       poputil::poplibs_error, test::What(Contains("s has shape {4,3}")));
  CHECK_THROWS_MATCHES(
      popops::embedding::plan(g, FLOAT, 4, 3, {2},
                              {{"usedForSlice", "false"}, {"usedForUpdate", "false"}}),
      poputil::poplibs_error, test::What(Contains("usedForSlice")));
  CHECK_THROWS_MATCHES(
      popops::embedding::plan(g, FLOAT, 4, 3, {2}, {{"operationForUpdate", "pow"}}),
      poplar::invalid_option, test::What(Contains("operationForUpdate")));
  CHECK_THROWS_MATCHES(popops::createSliceableTensor(g, BOOL, {4}, {0}, {1}),
                       poputil::poplibs_error, test::What(Contains("type")));
}

TEST_CASE("dynamicSlice and dynamicUpdate of a sliceable tensor use whole contiguous blocks",
          "[popops]") {
  test::Harness h(4);
  Graph& g = h.graph();
  const Tensor t = popops::createSliceableTensor(g, HALF, {6, 10}, {0}, {2}, 3, "t");
  h.write("t", t, iotaValues(60));
  const Tensor off = h.input("off", UNSIGNED_INT, {1}, {5}); // rows 5 and 0
  const Tensor s = popops::dynamicSlice(g, t, off, {0}, {2}, h.prog(), "slice");
  // Every tile's columns are one [6, width] block: sliced by one DynamicSlice1d per tile.
  const auto mapping = g.getTileMapping(t);
  for (const auto& iv : mapping[0])
    CHECK(iv.size() == 3);
  popops::dynamicUpdate(g, t, popops::dynamicSlice(g, t, off, {0}, {2}, h.prog(), "again"),
                        h.input("off2", UNSIGNED_INT, {1}, {1}), {0}, {2}, h.prog(), "update");
  h.read("s", s);
  h.read("t", t);
  h.run();
  std::vector<float> es, et = iotaValues(60);
  for (int r : {5, 0})
    for (int c = 0; c < 10; ++c)
      es.push_back(float(r * 10 + c));
  for (int c = 0; c < 10; ++c) {
    et[10 + c] = float(50 + c);
    et[20 + c] = float(c);
  }
  CHECK(h.result("s") == es);
  CHECK(h.result("t") == et);
}
