// popnn/SpatialSoftMax.hpp and popnn/experimental/ROIAlign.hpp against host references: the
// expected coordinates under a softmax of the scaled fields, and ROIAlign's bilinear samples
// averaged per bin, its input gradient as the transpose of that (linear) map, PopLibs' vertex
// estimates, argument errors.
#include "TestUtil.hpp"
#include "poplibs_support/RoiAlignCycleEstimators.hpp"

#include <cmath>
#include <popnn/SpatialSoftMax.hpp>
#include <popnn/experimental/ROIAlign.hpp>
#include <poputil/exceptions.hpp>
#include <type_traits>

using namespace poplar;
using Catch::Contains;
namespace pe = popnn::experimental;

static_assert(std::is_same<decltype(&popnn::spatialSoftMax2D),
                           std::pair<Tensor, Tensor> (*)(Graph&, program::Sequence&, const Tensor&,
                                                         float, bool, const DebugContext&)>::value,
              "spatialSoftMax2D signature");
static_assert(
    std::is_same<decltype(&pe::roiAlignInputGradient),
                 Tensor (*)(Graph&, program::Sequence&, Tensor&, Tensor&, Tensor&, Tensor&,
                            const pe::roiAlignParams&, const DebugContext&)>::value,
    "roiAlignInputGradient signature");

TEST_CASE("spatialSoftMax2D gives each field's expected coordinates", "[popnn][spatialsoftmax]") {
  const bool disable = GENERATE(false, true);
  INFO("disableSoftmax " << disable);
  const std::size_t F = 3, H = 4, W = 5;
  const float temperature = 0.5f;
  const auto fields = test::randomValues(F * H * W, -1.0f, 1.0f, 12);
  test::Harness h(8);
  const Tensor in = h.input("fields", FLOAT, {F, H, W}, fields);
  const auto [coords, temp] =
      popnn::spatialSoftMax2D(h.graph(), h.prog(), in, temperature, disable, "ssm");
  CHECK(coords.shape() == std::vector<std::size_t>{F, 2});
  CHECK(temp.rank() == 0);
  h.read("coords", coords);
  h.read("temp", temp);
  h.run();
  // Weights: fields / temperature, softmax over all F x H x W values jointly unless disabled.
  std::vector<double> w(fields.size());
  double sum = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    w[i] = fields[i] / temperature;
    if (!disable) sum += std::exp(w[i]);
  }
  if (!disable)
    for (auto& v : w)
      v = std::exp(v) / sum;
  std::vector<float> expected;
  for (std::size_t f = 0; f < F; ++f) {
    double y = 0, x = 0;
    for (std::size_t r = 0; r < H; ++r)
      for (std::size_t c = 0; c < W; ++c) {
        const double p = w[(f * H + r) * W + c];
        y += p * (-1.0 + 2.0 * double(r) / double(H - 1));
        x += p * (-1.0 + 2.0 * double(c) / double(W - 1));
      }
    expected.push_back(float(y));
    expected.push_back(float(x));
  }
  CHECK_THAT(h.result("coords"), test::CloseTo(expected, 1e-4f, 1e-5f));
  CHECK(h.result("temp") == std::vector<float>{temperature});
}

TEST_CASE("spatialSoftMax2D argument errors", "[popnn][spatialsoftmax][errors]") {
  test::Harness h(4);
  const Tensor flat = h.graph().addVariable(FLOAT, {4, 5}, "flat");
  const Tensor fields = h.graph().addVariable(FLOAT, {2, 4, 5}, "fields");
  const Tensor ints = h.graph().addVariable(INT, {2, 4, 5}, "ints");
  CHECK_THROWS_MATCHES(popnn::spatialSoftMax2D(h.graph(), h.prog(), flat, 1.0f),
                       poplar::poplar_error, test::What(Contains("rank 3")));
  CHECK_THROWS_MATCHES(popnn::spatialSoftMax2D(h.graph(), h.prog(), ints, 1.0f),
                       poplar::poplar_error, test::What(Contains("FLOAT or HALF")));
  CHECK_THROWS_MATCHES(popnn::spatialSoftMax2D(h.graph(), h.prog(), fields, 0.0f),
                       poplar::poplar_error, test::What(Contains("temperature")));
}

namespace {

struct RoiCase {
  std::size_t N = 2, C = 2, H = 5, W = 6;
  std::vector<float> rois;  ///< [R][4]: x1, y1, x2, y2
  std::vector<float> index; ///< [R]
  pe::roiAlignParams params{2, 2, 3, false, 0.5f};
  std::size_t R() const { return index.size(); }
};

RoiCase makeCase(bool aligned) {
  RoiCase k;
  k.params.aligned_ = aligned;
  // Image coordinates (spatialScale 0.5 halves them): inside, crossing the right and bottom
  // edges, narrower than a pixel, and starting above-left of the map.
  k.rois = {1, 1, 7, 6, 4, 3, 14, 12, 3, 3, 3.6f, 3.4f, -2, -1, 4, 5};
  k.index = {0, 1, 1, 0};
  return k;
}

/// Bilinear value of plane [H][W] at (y, x) in the usual ROIAlign way (samples beyond the
/// bottom or right edge are 0; others clamped into the map).
double bilinear(const std::vector<double>& plane, std::size_t H, std::size_t W, double y,
                double x) {
  if (y > double(H) || x > double(W)) return 0.0;
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  std::size_t y0 = std::size_t(y), x0 = std::size_t(x), y1, x1;
  if (y0 >= H - 1) {
    y0 = y1 = H - 1;
    y = double(y0);
  } else
    y1 = y0 + 1;
  if (x0 >= W - 1) {
    x0 = x1 = W - 1;
    x = double(x0);
  } else
    x1 = x0 + 1;
  const double ly = y - double(y0), lx = x - double(x0);
  return plane[y0 * W + x0] * (1 - ly) * (1 - lx) + plane[y0 * W + x1] * (1 - ly) * lx +
         plane[y1 * W + x0] * ly * (1 - lx) + plane[y1 * W + x1] * ly * lx;
}

std::vector<double> hostRoiAlign(const RoiCase& k, const std::vector<double>& data) {
  const auto& p = k.params;
  const std::size_t oh = p.alignedHeight_, ow = p.alignedWidth_, s = p.samplingRatio_;
  std::vector<double> out;
  for (std::size_t r = 0; r < k.R(); ++r) {
    const double shift = p.aligned_ ? 0.5 : 0.0;
    const double x1 = k.rois[4 * r] * p.spatialScale_ - shift;
    const double y1 = k.rois[4 * r + 1] * p.spatialScale_ - shift;
    const double x2 = k.rois[4 * r + 2] * p.spatialScale_ - shift;
    const double y2 = k.rois[4 * r + 3] * p.spatialScale_ - shift;
    const double minSize = p.aligned_ ? 0.0 : 1.0;
    const double bh = std::max(y2 - y1, minSize) / double(oh);
    const double bw = std::max(x2 - x1, minSize) / double(ow);
    const std::size_t n = std::size_t(k.index[r]);
    for (std::size_t c = 0; c < k.C; ++c) {
      const std::vector<double> plane(data.begin() + std::ptrdiff_t((n * k.C + c) * k.H * k.W),
                                      data.begin() + std::ptrdiff_t((n * k.C + c + 1) * k.H * k.W));
      for (std::size_t i = 0; i < oh; ++i)
        for (std::size_t j = 0; j < ow; ++j) {
          double sum = 0;
          for (std::size_t a = 0; a < s; ++a)
            for (std::size_t b = 0; b < s; ++b)
              sum += bilinear(plane, k.H, k.W, y1 + bh * (double(i) + (a + 0.5) / double(s)),
                              x1 + bw * (double(j) + (b + 0.5) / double(s)));
          out.push_back(sum / double(s * s));
        }
    }
  }
  return out;
}

} // namespace

TEST_CASE("roiAlignFwd and roiAlignInputGradient match the host", "[popnn][roialign]") {
  const bool aligned = GENERATE(false, true);
  INFO("aligned " << aligned);
  RoiCase k = makeCase(aligned);
  const std::size_t R = k.R(), outSize = R * k.C * 2 * 3;
  const auto data = test::randomValues(k.N * k.C * k.H * k.W, -1.0f, 1.0f, 5);
  const auto topGrad = test::randomValues(outSize, -1.0f, 1.0f, 6);
  test::Harness h(8);
  Tensor in = h.input("data", FLOAT, {k.N, k.C, k.H, k.W}, data);
  Tensor rois = h.input("rois", FLOAT, {R, 4}, k.rois);
  Tensor index = h.input("index", INT, {R}, k.index);
  Tensor g = h.input("topGrad", FLOAT, {R, k.C, 2, 3}, topGrad);
  const Tensor out = pe::roiAlignFwd(h.graph(), h.prog(), in, rois, index, k.params, "roi");
  const Tensor grad =
      pe::roiAlignInputGradient(h.graph(), h.prog(), in, rois, index, g, k.params, "roiGrad");
  CHECK(out.shape() == std::vector<std::size_t>{R, k.C, 2, 3});
  CHECK(grad.shape() == in.shape());
  h.read("out", out);
  h.read("grad", grad);
  h.run();
  const auto expected = hostRoiAlign(k, std::vector<double>(data.begin(), data.end()));
  CHECK_THAT(h.result("out"),
             test::CloseTo(std::vector<float>(expected.begin(), expected.end()), 1e-5f, 1e-6f));
  // The forward map is linear: the input gradient is its transpose applied to topGrad,
  // grad[i] = <topGrad, forward(e_i)>.
  std::vector<float> expectedGrad;
  std::vector<double> unit(data.size(), 0.0);
  for (std::size_t i = 0; i < data.size(); ++i) {
    unit[i] = 1.0;
    const auto column = hostRoiAlign(k, unit);
    unit[i] = 0.0;
    double dot = 0;
    for (std::size_t o = 0; o < column.size(); ++o)
      dot += column[o] * topGrad[o];
    expectedGrad.push_back(float(dot));
  }
  CHECK_THAT(h.result("grad"), test::CloseTo(expectedGrad, 1e-5f, 1e-6f));
  // Image 1's pixels at the top left are under no region of image 1 (both start at x, y >= 1.5):
  CHECK(h.result("grad")[(1 * k.C + 0) * k.H * k.W] == 0.0f);
}

TEST_CASE("a batch index outside the batch stops the ROIAlign run", "[popnn][roialign]") {
  RoiCase k = makeCase(false);
  k.index[2] = 2; // only images 0 and 1
  test::Harness h(4);
  Tensor in = h.input("data", FLOAT, {k.N, k.C, k.H, k.W}, std::vector<float>(120, 1.0f));
  Tensor rois = h.input("rois", FLOAT, {k.R(), 4}, k.rois);
  Tensor index = h.input("index", UNSIGNED_INT, {k.R()}, k.index);
  pe::roiAlignFwd(h.graph(), h.prog(), in, rois, index, k.params);
  CHECK_THROWS_MATCHES(h.run(), poplar::application_runtime_error,
                       test::What(Contains("popnn::ROIAlignForward")));
}

TEST_CASE("ROIAlign argument errors and estimates", "[popnn][roialign][errors]") {
  test::Harness h(4);
  Graph& g = h.graph();
  Tensor data = g.addVariable(FLOAT, {2, 2, 5, 6}, "data");
  Tensor flat = g.addVariable(FLOAT, {2, 60}, "flat");
  Tensor rois = g.addVariable(FLOAT, {3, 4}, "rois");
  Tensor rois5 = g.addVariable(FLOAT, {3, 5}, "rois5");
  Tensor index = g.addVariable(INT, {3}, "index");
  Tensor index2 = g.addVariable(INT, {2}, "index2");
  Tensor topGrad = g.addVariable(FLOAT, {3, 2, 2, 2}, "topGrad");
  auto& prog = h.prog();
  const pe::roiAlignParams ok(2, 2, 3, false, 1.0f), noSamples(0, 2, 3, false, 1.0f),
      noScale(2, 2, 3, false, 0.0f);
  CHECK_THROWS_MATCHES(pe::roiAlignFwd(g, prog, flat, rois, index, ok), poputil::poplibs_error,
                       test::What(Contains("bottomData must be a 4-dimensional tensor")));
  CHECK_THROWS_MATCHES(pe::roiAlignFwd(g, prog, data, rois5, index, ok), poputil::poplibs_error,
                       test::What(Contains("bottomRois.dim(1) must have 4 elements")));
  CHECK_THROWS_MATCHES(pe::roiAlignFwd(g, prog, data, rois, index2, ok), poputil::poplibs_error,
                       test::What(Contains("bottomBatchIndex")));
  CHECK_THROWS_MATCHES(pe::roiAlignFwd(g, prog, data, rois, index, noSamples),
                       poputil::poplibs_error, test::What(Contains("samplingRatio")));
  CHECK_THROWS_MATCHES(pe::roiAlignFwd(g, prog, data, rois, index, noScale), poputil::poplibs_error,
                       test::What(Contains("spatialScale")));
  CHECK_THROWS_MATCHES(pe::roiAlignInputGradient(g, prog, data, rois, index, topGrad, ok),
                       poputil::poplibs_error, test::What(Contains("topDataGrad")));
  // PopLibs' placeholder of 10 cycles for each of its per-sample vertices.
  CHECK(poplibs_support::roiAlignForwardCycles(2) == 40);
  CHECK(poplibs_support::roiAlignBackwardCycles(3, 5) == 450);
}
