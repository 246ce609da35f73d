// Element types, half-precision conversion and option parsing.
#include "TestUtil.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <poplar/exceptions.hpp>

using namespace poplar;

TEST_CASE("types have IPU sizes and names", "[types]") {
  CHECK(FLOAT.size() == 4);
  CHECK(HALF.size() == 2);
  CHECK(INT.size() == 4);
  CHECK(UNSIGNED_INT.size() == 4);
  CHECK(SHORT.size() == 2);
  CHECK(CHAR.size() == 1);
  CHECK(BOOL.size() == 1);
  CHECK(HALF.toString() == "half");
  CHECK(UNSIGNED_INT.toString() == "unsigned int");
  CHECK(equivalent_device_type_v<float> == FLOAT);
  CHECK(FLOAT != HALF);
}

TEST_CASE("half converts exactly where representable and rounds to nearest even", "[types]") {
  for (float f : {0.0f, 1.0f, -2.5f, 0.099975586f, 65504.0f, 6.103515625e-05f, 5.9604645e-08f})
    CHECK(float(half(f)) == f);
  CHECK(half(1.0f).bits() == 0x3c00);
  CHECK(half(-2.0f).bits() == 0xc000);
  CHECK(half(65504.0f).bits() == 0x7bff);
  CHECK(std::isinf(float(half(65520.0f))));                     // rounds up past the largest half
  CHECK(float(half(1.0f + 1.0f / 2048)) == 1.0f);               // tie: rounds to even (down)
  CHECK(float(half(1.0f + 3.0f / 2048)) == 1.0f + 2.0f / 1024); // tie: rounds to even (up)
  CHECK(float(half(1e-9f)) == 0.0f);                            // underflows to zero
  CHECK(std::isnan(float(half(std::numeric_limits<float>::quiet_NaN()))));
  CHECK(float(half(3.0f)) + float(half(0.5f)) == 3.5f);
  // Every half bit pattern survives a round trip through float.
  for (unsigned b = 0; b < 0x10000; ++b) {
    const float f = half::toFloat(std::uint16_t(b));
    if (!std::isnan(f)) REQUIRE(half::fromFloat(f) == b);
  }
}

TEST_CASE("copyFloatToDeviceHalf and back", "[types]") {
  const Target t;
  const float in[3] = {1.5f, -3.25f, 1000.0f};
  std::uint16_t dev[3];
  float out[3];
  copyFloatToDeviceHalf(t, in, dev, 3);
  copyDeviceHalfToFloat(t, dev, out, 3);
  CHECK(out[0] == 1.5f);
  CHECK(out[1] == -3.25f);
  CHECK(out[2] == 1000.0f);
}

TEST_CASE("OptionFlags hold values and parse JSON", "[options]") {
  OptionFlags o{{"a", "1"}};
  o.set("b", "x");
  CHECK(o.at("a") == "1");
  CHECK(o.size() == 2);
  CHECK_THROWS_AS(o.at("missing"), invalid_option);
  const auto j = parseOptionFlagsJson(R"({"s": "v", "b": true, "n": 3})", "test");
  CHECK(j.at("s") == "v");
  CHECK(j.at("b") == "true");
  CHECK(j.at("n") == "3");
  CHECK_THROWS_MATCHES(parseOptionFlagsJson("{not json", "ORIGIN"), invalid_option,
                       test::What(Catch::Contains("ORIGIN") && Catch::Contains("JSON")));
  CHECK_THROWS_AS(parseOptionFlagsJson("[1,2]", "x"), invalid_option);
  CHECK_THROWS_AS(parseOptionFlagsJson(R"({"a": [1]})", "x"), invalid_option);
  // Found by fuzz_engine_options (tests/data/fuzz/engine-options-number-overflow.json): a number
  // JSON allows but a double cannot hold escaped as nlohmann's out_of_range, no poplar error.
  CHECK_THROWS_MATCHES(parseOptionFlagsJson(R"({"autoReport.all":1e400})", "POPLAR_ENGINE_OPTIONS"),
                       invalid_option,
                       test::What(Catch::Contains("POPLAR_ENGINE_OPTIONS: not valid JSON") &&
                                  Catch::Contains("1e400")));
}
