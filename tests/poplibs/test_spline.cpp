// popops::splineBasis and popops::splineWeighting (B-spline convolution, as PyTorch Geometric's
// SplineConv): results against a host reference written from the B-spline definitions,
// estimates against PopLibs' formulas, and API misuse.
#include "TestUtil.hpp"
#include "poplibs_support/SplineCycleEstimators.hpp"

#include <cmath>
#include <popops/SplineBasis.hpp>
#include <popops/SplineWeighting.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;

namespace {

/// The uniform B-spline of `degree` on knots 0, 1, 2, ... evaluated at t (Cox-de Boor), so
/// the reference does not share the vertices' closed forms.
double bspline(unsigned degree, double t) {
  if (degree == 0) return t >= 0 && t < 1 ? 1.0 : 0.0;
  return (t * bspline(degree - 1, t) + (degree + 1 - t) * bspline(degree - 1, t - 1)) / degree;
}

struct HostBasis {
  std::vector<float> basis;
  std::vector<int> index;
};

/// For each edge and spline: per dimension the coordinate scaled to the kernel, the knot
/// floor(v) + kMod (wrapped), and the B-spline weight of that knot at v.
HostBasis hostBasis(const std::vector<float>& pseudo, std::size_t E, const std::vector<int>& ks,
                    const std::vector<unsigned char>& open, unsigned degree) {
  const std::size_t D = ks.size();
  std::size_t S = 1;
  for (std::size_t d = 0; d < D; ++d)
    S *= degree + 1;
  HostBasis r;
  for (std::size_t e = 0; e < E; ++e)
    for (std::size_t s = 0; s < S; ++s) {
      double b = 1.0;
      int wi = 0, stride = 1;
      std::size_t k = s;
      for (std::size_t d = 0; d < D; ++d) {
        const unsigned kMod = unsigned(k % (degree + 1));
        k /= degree + 1;
        const double v = pseudo[e * D + d] * (ks[d] - (open[d] ? int(degree) : 0));
        const double frac = v - std::floor(v);
        // Knot kMod's spline, centred so that at frac its support starts degree - kMod back.
        b *= bspline(degree, frac + double(degree - kMod));
        wi += int((unsigned(v) + kMod) % unsigned(ks[d])) * stride;
        stride *= ks[d];
      }
      r.basis.push_back(float(b));
      r.index.push_back(wi);
    }
  return r;
}

std::vector<float> asFloats(const std::vector<int>& v) {
  return std::vector<float>(v.begin(), v.end());
}

} // namespace

TEST_CASE("splineBasis: degrees 1 to 3 against the B-spline definition", "[popops][spline]") {
  const std::size_t E = 13;
  const std::vector<int> ks = {5, 4};
  const std::vector<unsigned char> open = {1, 0};
  const auto pseudo = test::randomValues(E * 2, 0.0f, 0.999f, 7);
  for (unsigned degree = 1; degree <= 3; ++degree)
    for (Type type : {FLOAT, HALF}) {
      INFO("degree " << degree << " " << type.toString());
      test::Harness h(4);
      const std::size_t S = (degree + 1) * (degree + 1);
      const Tensor p = h.input("pseudo", type, {E, 2}, pseudo);
      const Tensor k = h.graph().addConstant(INT, {2}, ks.data(), "kernelSize");
      h.graph().setTileMapping(k, 0);
      const Tensor o = h.graph().addConstant(UNSIGNED_CHAR, {2}, open.data(), "isOpen");
      h.graph().setTileMapping(o, 1);
      const Tensor basis = h.graph().addVariable(type, {E, S}, "basis");
      const Tensor index = h.graph().addVariable(INT, {E, S}, "index");
      poputil::mapTensorLinearly(h.graph(), basis);
      poputil::mapTensorLinearly(h.graph(), index);
      popops::splineBasis(h.graph(), p, k, o, basis, index, degree, h.prog(), "basis");
      h.read("basis", basis);
      h.read("index", index);
      h.run();
      // The host sees the pseudo values as the device does (rounded to half).
      std::vector<float> seen = pseudo;
      if (type == HALF)
        for (float& v : seen)
          v = float(poplar::half(v));
      const HostBasis ref = hostBasis(seen, E, ks, open, degree);
      const float tol = type == HALF ? 1e-2f : 1e-5f;
      CHECK_THAT(h.result("basis"), test::CloseTo(ref.basis, tol, tol));
      CHECK(h.result("index") == asFloats(ref.index));
      // Each edge's coefficients sum to 1 (a partition of unity).
      for (std::size_t e = 0; e < E; ++e) {
        float sum = 0;
        for (std::size_t s = 0; s < S; ++s)
          sum += h.result("basis")[e * S + s];
        CHECK(sum == Approx(1.0f).margin(type == HALF ? 1e-2 : 1e-5));
      }
    }
}

TEST_CASE("splineWeighting: features through the spline kernel", "[popops][spline]") {
  const std::size_t E = 11, cin = 3, cout = 4, K = 20;
  const std::vector<int> ks = {5, 4};
  const std::vector<unsigned char> open = {1, 1};
  const unsigned degree = 1;
  const std::size_t S = 4;
  test::Harness h(4);
  const auto pseudo = test::randomValues(E * 2, 0.0f, 0.999f, 8);
  const auto x = test::randomValues(E * cin, -1.0f, 1.0f, 9);
  const auto w = test::randomValues(K * cin * cout, -1.0f, 1.0f, 10);
  const Tensor p = h.input("pseudo", FLOAT, {E, 2}, pseudo);
  const Tensor k = h.graph().addConstant(INT, {2}, ks.data(), "kernelSize");
  const Tensor o = h.graph().addConstant(UNSIGNED_CHAR, {2}, open.data(), "isOpen");
  h.graph().setTileMapping(k, 2);
  h.graph().setTileMapping(o, 3);
  const Tensor basis = h.graph().addVariable(FLOAT, {E, S}, "basis");
  const Tensor index = h.graph().addVariable(INT, {E, S}, "index");
  poputil::mapTensorLinearly(h.graph(), basis);
  poputil::mapTensorLinearly(h.graph(), index);
  popops::splineBasis(h.graph(), p, k, o, basis, index, degree, h.prog());
  const Tensor in = h.input("x", FLOAT, {E, cin}, x);
  const Tensor weight = h.input("w", FLOAT, {K, cin, cout}, w);
  const Tensor out = popops::splineWeighting(h.graph(), in, weight, basis, index, h.prog(), "sw");
  REQUIRE(out.shape() == std::vector<std::size_t>{E, cout});
  h.read("out", out);
  h.run();
  const HostBasis ref = hostBasis(pseudo, E, ks, open, degree);
  std::vector<float> expected(E * cout, 0.0f);
  for (std::size_t e = 0; e < E; ++e)
    for (std::size_t oc = 0; oc < cout; ++oc) {
      double acc = 0;
      for (std::size_t s = 0; s < S; ++s)
        for (std::size_t c = 0; c < cin; ++c)
          acc += ref.basis[e * S + s] * x[e * cin + c] *
                 w[(std::size_t(ref.index[e * S + s]) * cin + c) * cout + oc];
      expected[e * cout + oc] = float(acc);
    }
  CHECK_THAT(h.result("out"), test::CloseTo(expected, 1e-5f, 1e-5f));
}

TEST_CASE("spline estimates follow PopLibs' formulas", "[popops][spline][cycles]") {
  // SplineBasis: 30 per coefficient, x2 for float.
  CHECK(poplibs_support::splineBasisCycles(FLOAT, 16) == 960);
  CHECK(poplibs_support::splineBasisCycles(HALF, 16) == 480);
  // SplineWeighting: 15 per product of input channels, splines and outputs, x2 for float.
  CHECK(poplibs_support::splineWeightingCycles(FLOAT, 3, 4, 8) == 15 * 3 * 4 * 8 * 2);
  CHECK(poplibs_support::splineWeightingCycles(HALF, 3, 4, 8) == 15 * 3 * 4 * 8);
}

TEST_CASE("spline ops: misuse is a clear error", "[popops][spline]") {
  test::Harness h(2);
  Graph& g = h.graph();
  const auto var = [&](Type t, std::vector<std::size_t> shape) {
    const Tensor v = g.addVariable(t, shape);
    poputil::mapTensorLinearly(g, v);
    return v;
  };
  const Tensor p = var(FLOAT, {4, 2}), k = var(INT, {2}), o = var(UNSIGNED_CHAR, {2});
  const Tensor b = var(FLOAT, {4, 4}), wi = var(INT, {4, 4});
  CHECK_THROWS_MATCHES(popops::splineBasis(g, p, k, o, b, wi, 4, h.prog()), poputil::poplibs_error,
                       test::What(Contains("degree must be 1, 2 or 3")));
  CHECK_THROWS_MATCHES(popops::splineBasis(g, var(FLOAT, {8}), k, o, b, wi, 1, h.prog()),
                       poputil::poplibs_error, test::What(Contains("pseudo must have rank 2")));
  CHECK_THROWS_MATCHES(popops::splineBasis(g, p, var(FLOAT, {2}), o, b, wi, 1, h.prog()),
                       poputil::poplibs_error, test::What(Contains("kernelSize")));
  CHECK_THROWS_MATCHES(popops::splineBasis(g, p, var(INT, {3}), o, b, wi, 1, h.prog()),
                       poputil::poplibs_error, test::What(Contains("one element per column")));
  CHECK_THROWS_MATCHES(popops::splineBasis(g, p, k, o, var(FLOAT, {4, 9}), wi, 2, h.prog()),
                       poputil::poplibs_error, test::What(Contains("(degree + 1)^numDims")));
  const Tensor unmapped = g.addVariable(FLOAT, {4, 4});
  CHECK_THROWS_MATCHES(popops::splineBasis(g, p, k, o, unmapped, wi, 1, h.prog()), std::exception,
                       test::What(Contains("not fully mapped")));
  const Tensor x = var(FLOAT, {4, 3}), w = var(FLOAT, {16, 3, 5});
  CHECK_THROWS_MATCHES(popops::splineWeighting(g, x, var(FLOAT, {16, 2, 5}), b, wi, h.prog()),
                       poputil::poplibs_error, test::What(Contains("input channels")));
  CHECK_THROWS_MATCHES(popops::splineWeighting(g, x, var(HALF, {16, 3, 5}), b, wi, h.prog()),
                       poputil::poplibs_error, test::What(Contains("weight is half")));
  CHECK_THROWS_MATCHES(popops::splineWeighting(g, x, w, b, var(FLOAT, {4, 4}), h.prog()),
                       poputil::poplibs_error, test::What(Contains("weightIndex")));
  CHECK_THROWS_MATCHES(popops::splineWeighting(g, var(FLOAT, {5, 3}), w, b, wi, h.prog()),
                       poputil::poplibs_error, test::What(Contains("edges")));
}
