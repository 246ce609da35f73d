#include "TestUtil.hpp"

#include <cmath>
#include <limits>
#include <popops/Cast.hpp>
#include <popops/Fill.hpp>
#include <popops/Zero.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;

TEST_CASE("fill and zero set every element in the tensor's type", "[popops]") {
  test::Harness h(8);
  const Tensor f = h.input("f", FLOAT, {5, 9}, std::vector<float>(45, 1.0f));
  const Tensor hf = h.input("h", HALF, {33}, std::vector<float>(33, 1.0f));
  const Tensor i = h.input("i", INT, {20}, std::vector<float>(20, 1.0f));
  const Tensor u = h.input("u", UNSIGNED_INT, {3}, std::vector<float>(3, 1.0f));
  const Tensor z = h.input("z", FLOAT, {100}, std::vector<float>(100, 1.0f));
  popops::fill(h.graph(), f, h.prog(), 2.5f, "fillFloat");
  popops::fill(h.graph(), hf, h.prog(), half(0.1f), "fillHalf");
  popops::fill(h.graph(), i, h.prog(), -7, "fillInt");
  popops::fill<unsigned>(h.graph(), u, h.prog(), 4000000000u, "fillUnsigned");
  popops::zero(h.graph(), z, h.prog(), "zero");
  h.read("f", f);
  h.read("h", hf);
  h.read("i", i);
  h.read("u", u);
  h.read("z", z);
  h.run();
  CHECK(h.result("f") == std::vector<float>(45, 2.5f));
  CHECK(h.result("h") == std::vector<float>(33, float(half(0.1f))));
  CHECK(h.result("i") == std::vector<float>(20, -7.0f));
  CHECK(h.result("u") == std::vector<float>(3, 4000000000.0f));
  CHECK(h.result("z") == std::vector<float>(100, 0.0f));
}

TEST_CASE("cast converts, rounds and saturates", "[popops]") {
  test::Harness h(4);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> values{1.5f, -2.7f, 0.1f, 3e9f, -3e9f, nan, 65504.0f, 1e6f};
  const Tensor src = h.input("src", FLOAT, {8}, values);
  const Tensor toInt = popops::cast(h.graph(), src, INT, h.prog(), "toInt");
  const Tensor toUnsigned = popops::cast(h.graph(), src, UNSIGNED_INT, h.prog(), "toUnsigned");
  const Tensor toHalf = popops::cast(h.graph(), src, HALF, h.prog(), "toHalf");
  const Tensor back = popops::cast(h.graph(), toInt, FLOAT, h.prog(), "back");
  const Tensor same = popops::cast(h.graph(), src, FLOAT, h.prog(), "same");
  CHECK(toInt.elementType() == INT);
  CHECK(h.graph().getTileMapping(toInt) == h.graph().getTileMapping(src));
  const Tensor dst = h.graph().clone(HALF, toInt, "dst");
  h.prog().add(popops::cast(h.graph(), toInt, dst, "intoExisting"));
  for (const auto& [name, t] :
       std::vector<std::pair<std::string, Tensor>>{{"toInt", toInt},
                                                   {"toUnsigned", toUnsigned},
                                                   {"toHalf", toHalf},
                                                   {"back", back},
                                                   {"same", same},
                                                   {"dst", dst}})
    h.read(name, t);
  h.run();
  const float intMax = float(std::numeric_limits<int>::max());
  const float intMin = float(std::numeric_limits<int>::min());
  const std::vector<float> ints{1, -2, 0, intMax, intMin, 0, 65504, 1e6f};
  CHECK(h.result("toInt") == ints);
  CHECK(h.result("back") == ints);
  CHECK(h.result("toUnsigned") == std::vector<float>{1, 0, 0, 3e9f, 0, 0, 65504, 1e6f});
  const auto halves = h.result("toHalf");
  CHECK(halves[0] == 1.5f);
  CHECK(halves[2] == float(half(0.1f)));
  CHECK(std::isinf(halves[3]));
  CHECK(std::isnan(halves[5]));
  CHECK(halves[6] == 65504.0f);
  CHECK_THAT(h.result("same"), test::CloseTo(values, 0.0f));
  CHECK(h.result("dst")[7] == std::numeric_limits<float>::infinity());
  CHECK(h.result("dst")[1] == -2.0f);
}

TEST_CASE("fill and cast reject unsupported types and shapes", "[popops][errors]") {
  test::Harness h(4);
  const Tensor b = h.graph().addVariable(BOOL, {4}, "b");
  const Tensor f = h.input("f", FLOAT, {4}, std::vector<float>(4));
  const Tensor g = h.input("g", FLOAT, {2, 2}, std::vector<float>(4));
  h.graph().setTileMapping(b, 0);
  CHECK_THROWS_MATCHES(popops::fill(h.graph(), b, h.prog(), 1), poputil::poplibs_error,
                       test::What(Contains("popops::fill") && Contains("bool")));
  CHECK_THROWS_MATCHES(popops::zero(h.graph(), b, h.prog()), poputil::poplibs_error,
                       test::What(Contains("popops::zero")));
  CHECK_THROWS_MATCHES(popops::cast(h.graph(), f, SHORT, h.prog()), poputil::poplibs_error,
                       test::What(Contains("popops::cast") && Contains("short")));
  CHECK_THROWS_MATCHES(popops::cast(h.graph(), f, g), poputil::poplibs_error,
                       test::What(Contains("{4}") && Contains("{2,2}")));
}
