// popops/NormaliseImage.hpp against the same normalisation on the host, for each input type,
// with the output's pixels on their input's tiles, and PopLibs' vertex estimate.
#include "TestUtil.hpp"
#include "poplibs_support/NormaliseImageCycleEstimators.hpp"

#include <popops/NormaliseImage.hpp>
#include <poputil/exceptions.hpp>
#include <type_traits>

using namespace poplar;
using Catch::Contains;

// PopLibs' signatures exactly (the debug contexts default to {}).
static_assert(std::is_same<decltype(&popops::createNormaliseImageInput),
                           Tensor (*)(Graph&, const Type&, const ArrayRef<std::size_t>,
                                      const DebugContext&)>::value,
              "createNormaliseImageInput signature");
static_assert(std::is_same<decltype(&popops::normaliseImage),
                           Tensor (*)(Graph&, program::Sequence&, Tensor, float, Tensor, Tensor,
                                      const DebugContext&)>::value,
              "normaliseImage signature");

TEST_CASE("normaliseImage scales, offsets and pads pixels to 4 channels", "[popops][image]") {
  const Type inType = GENERATE(UNSIGNED_CHAR, HALF, FLOAT);
  INFO(inType);
  const Type outType = inType == UNSIGNED_CHAR ? HALF : inType;
  test::Harness h(4);
  Graph& g = h.graph();
  // 2 images of 5 x 7 pixels: 70 pixels, more than a grain per worker on some tiles only.
  const std::vector<std::size_t> shape = {2, 5, 7, 3};
  const Tensor in = popops::createNormaliseImageInput(g, inType, shape, "image");
  CHECK(in.shape() == shape);
  CHECK(in.elementType() == inType);
  const std::size_t pixels = 2 * 5 * 7;
  std::vector<float> iv(pixels * 3);
  for (std::size_t i = 0; i < iv.size(); ++i)
    iv[i] = float((i * 37) % 256);
  h.write("in", in, iv);
  const std::vector<float> off = {0.485f, 0.456f, 0.406f}, sc = {4.4f, 4.5f, 4.4f};
  const Tensor offsets = h.input("offsets", outType, {3}, off);
  const Tensor scales = h.input("scales", outType, {3}, sc);
  const float inScale = 1.0f / 255;
  const Tensor out = popops::normaliseImage(g, h.prog(), in, inScale, offsets, scales, "norm");
  CHECK(out.shape() == std::vector<std::size_t>{2, 5, 7, 4});
  CHECK(out.elementType() == outType);
  // Each output pixel sits on its input pixel's tile.
  const auto inMap = g.getTileMapping(in), outMap = g.getTileMapping(out);
  for (unsigned tile = 0; tile < inMap.size(); ++tile) {
    std::size_t inElems = 0, outElems = 0;
    for (const auto& iv2 : inMap[tile])
      inElems += iv2.size();
    for (const auto& ov : outMap[tile])
      outElems += ov.size();
    CHECK(outElems * 3 == inElems * 4);
  }
  h.read("out", out);
  h.run();
  std::vector<float> expected(pixels * 4);
  for (std::size_t p = 0; p < pixels; ++p) {
    for (unsigned c = 0; c < 3; ++c)
      expected[4 * p + c] = (iv[3 * p + c] * inScale - off[c]) * sc[c];
    expected[4 * p + 3] = 0.0f;
  }
  // half rounds every step: a few ulps of values up to ~2.5.
  CHECK_THAT(h.result("out"), test::CloseTo(expected, outType == HALF ? 4e-3f : 1e-5f,
                                            outType == HALF ? 4e-3f : 1e-6f));
}

TEST_CASE("normaliseImage rejects bad arguments by name", "[popops][image]") {
  test::Harness h(2);
  Graph& g = h.graph();
  auto& p = h.prog();
  CHECK_THROWS_MATCHES(
      popops::createNormaliseImageInput(g, INT, {4, 3}), poputil::poplibs_error,
      test::What(Contains("createNormaliseImageInput") && Contains("element type")));
  CHECK_THROWS_MATCHES(popops::createNormaliseImageInput(g, FLOAT, {4, 4}), poputil::poplibs_error,
                       test::What(Contains("innermost 3 channels")));
  CHECK_THROWS_MATCHES(popops::createNormaliseImageInput(g, FLOAT, {3}), poputil::poplibs_error,
                       test::What(Contains("at least 2 dimensions")));
  const Tensor img = popops::createNormaliseImageInput(g, FLOAT, {4, 3});
  const Tensor ok = h.input("ok", FLOAT, {3}, {0, 0, 0});
  const Tensor halves = h.input("halves", HALF, {3}, {0, 0, 0});
  const Tensor four = h.input("four", FLOAT, {4}, {0, 0, 0, 0});
  CHECK_THROWS_MATCHES(popops::normaliseImage(g, p, img, 1.0f, halves, ok), poputil::poplibs_error,
                       test::What(Contains("offsets has element type")));
  CHECK_THROWS_MATCHES(popops::normaliseImage(g, p, img, 1.0f, ok, four), poputil::poplibs_error,
                       test::What(Contains("scales has shape")));
  CHECK_THROWS_MATCHES(popops::normaliseImage(g, p, img, 0.0f, ok, ok), poputil::poplibs_error,
                       test::What(Contains("inScale")));
  CHECK_THROWS_MATCHES(popops::normaliseImage(g, p, img.reshape({3, 4}), 1.0f, ok, ok),
                       poputil::poplibs_error, test::What(Contains("tIn has shape")));
  // A layout that splits pixels between tiles: one element per tile boundary off.
  const Tensor split = g.addVariable(FLOAT, {4, 3}, "split");
  g.setTileMapping(split.flatten().slice(0, 4), 0);
  g.setTileMapping(split.flatten().slice(4, 12), 1);
  CHECK_THROWS_MATCHES(
      popops::normaliseImage(g, p, split, 1.0f, ok, ok), poputil::poplibs_error,
      test::What(Contains("splits a pixel") && Contains("createNormaliseImageInput")));
}

TEST_CASE("NormaliseImage estimate follows PopLibs' formula", "[poplibs][cycles][image]") {
  const Target t = Target::createIPUTarget(1, "ipu2");
  // 10 pixels per worker and 3 workers with one more: (base + 11 x per-pixel + 1) x 6.
  const unsigned packed = (10u << 3) | 3u;
  CHECK(poplibs_support::normaliseImageCycles(t, UNSIGNED_CHAR, packed) == (28 + 11 * 8 + 1) * 6);
  CHECK(poplibs_support::normaliseImageCycles(t, HALF, packed) == (51 + 11 * 11 + 1) * 6);
  CHECK(poplibs_support::normaliseImageCycles(t, FLOAT, packed) == (51 + 11 * 17 + 1) * 6);
  // A single extra pixel is not counted (PopLibs' "remainder > 1").
  CHECK(poplibs_support::normaliseImageCycles(t, FLOAT, (2u << 3) | 1u) == (51 + 2 * 17 + 1) * 6);
}
