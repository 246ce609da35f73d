// popops/Rearrange.hpp: transpositions and regrouping against the host, the vertices PopLibs
// uses for each shape and type, their cycle estimates, and bad arguments.
#include "TestUtil.hpp"
#include "common/Devices.hpp"
#include "common/ScratchDir.hpp"
#include "popops/TransposeCycles.hpp"

#include <map>
#include <poplar/Engine.hpp>
#include <popops/Rearrange.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VarStructure.hpp>
#include <poputil/exceptions.hpp>
#include <pva/pva.hpp>

using namespace poplar;
using Catch::Contains;
namespace rearrange = popops::rearrange;

namespace {

std::vector<float> iotaValues(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = float(i % 2048);
  return v;
}

/// The innermost two dimensions of [matrices, rows, cols] values swapped.
std::vector<float> hostTranspose(const std::vector<float>& in, std::size_t matrices,
                                 std::size_t rows, std::size_t cols) {
  std::vector<float> out(in.size());
  for (std::size_t m = 0; m < matrices; ++m)
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c)
        out[m * rows * cols + c * rows + r] = in[m * rows * cols + r * cols + c];
  return out;
}

/// The vertex types (and how many of each) a partialTranspose of `shape` adds when its
/// matrices are spread over 4 tiles in whole matrices.
std::map<std::string, unsigned> transposeVertexTypes(Type type, std::vector<std::size_t> shape) {
  auto device = test::smallDevice(4);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  const Tensor in = graph.addVariable(type, shape, "in");
  const std::size_t matrix = shape[shape.size() - 1] * shape[shape.size() - 2];
  poputil::mapTensorLinearly(graph, in, 0, unsigned(matrix));
  const ComputeSet cs = graph.addComputeSet("transpose");
  rearrange::partialTranspose(graph, in, cs, "pt");
  program::Sequence prog{program::Execute(cs)};
  const test::ScratchDir dir;
  Engine engine(
      graph, prog,
      {{"autoReport.outputGraphProfile", "true"}, {"autoReport.directory", dir.path().string()}});
  std::map<std::string, unsigned> types;
  for (const auto& c : engine.getReport(false).compilation().computeSets())
    if (c.name().find("transpose") != std::string::npos)
      for (const auto& v : c.vertices())
        types[v.type().name()] += unsigned(v.count());
  return types;
}

} // namespace

TEST_CASE("partialTranspose swaps the two innermost dimensions", "[popops][rearrange]") {
  for (Type type : {FLOAT, HALF, INT}) {
    INFO(type);
    test::Harness h(4);
    const std::vector<std::size_t> shape{2, 3, 4, 6};
    const std::vector<float> values = iotaValues(2 * 3 * 4 * 6);
    const Tensor in = h.graph().addVariable(type, shape, "in");
    poputil::mapTensorLinearly(h.graph(), in, 0, 24);
    h.write("in", in, values);
    const ComputeSet cs = h.graph().addComputeSet("transpose");
    const Tensor out = rearrange::partialTranspose(h.graph(), in, cs, "pt");
    h.prog().add(program::Execute(cs));
    CHECK(out.shape() == std::vector<std::size_t>{2, 3, 6, 4});
    h.read("out", out);
    h.run();
    CHECK(h.result("out") == hostTranspose(values, 6, 4, 6));
  }
}

TEST_CASE("fast half transposes: one worker or the MultiVertex, by shape", "[popops][rearrange]") {
  // 6 matrices of 8x4 halves on 4 tiles: 2, 2, 2 and 0 per tile, too many for one worker.
  test::Harness h(4);
  const std::vector<float> values = iotaValues(6 * 8 * 4);
  const Tensor in = h.graph().addVariable(HALF, {6, 8, 4}, "in");
  poputil::mapTensorLinearly(h.graph(), in, 0, 32);
  h.write("in", in, values);
  const ComputeSet cs = h.graph().addComputeSet("transpose");
  const Tensor out = rearrange::partialTranspose(h.graph(), in, cs);
  h.prog().add(program::Execute(cs));
  h.read("out", out);
  h.run();
  CHECK(h.result("out") == hostTranspose(values, 6, 8, 4));

  CHECK(transposeVertexTypes(HALF, {6, 8, 4}) ==
        std::map<std::string, unsigned>{{"popops::Transpose1D<half>", 3}});
  CHECK(transposeVertexTypes(HALF, {1, 8, 12}) ==
        std::map<std::string, unsigned>{{"popops::Transpose1DSingleWorker<half>", 1}});
  // Four 4x4 blocks per tile are still cheaper on one worker.
  CHECK(transposeVertexTypes(UNSIGNED_SHORT, {16, 4, 4}) ==
        std::map<std::string, unsigned>{{"popops::Transpose1DSingleWorker<unsigned short>", 4}});
  // Sides not multiples of 4, and 4-byte types: Transpose2D, one per worker with work.
  CHECK(transposeVertexTypes(HALF, {4, 5, 4}) ==
        std::map<std::string, unsigned>{{"popops::Transpose2D<half>", 4}});
  CHECK(transposeVertexTypes(FLOAT, {16, 2, 6}) ==
        std::map<std::string, unsigned>{{"popops::Transpose2D<float>", 16}});
}

TEST_CASE("canUseFastTranspose and getMinimumRegroupGrainSize", "[popops][rearrange]") {
  const Target t = Target::createIPUTarget(1, "ipu2");
  CHECK(rearrange::canUseFastTranspose(t, HALF, 8, 4, 10));
  CHECK(rearrange::canUseFastTranspose(t, SHORT, 4, 4, 1000));
  CHECK_FALSE(rearrange::canUseFastTranspose(t, FLOAT, 8, 4, 1));
  CHECK_FALSE(rearrange::canUseFastTranspose(t, HALF, 6, 4, 1));
  CHECK_FALSE(rearrange::canUseFastTranspose(t, HALF, 4, 4, 70000));
  CHECK_FALSE(rearrange::canUseFastTranspose(t, HALF, 8, 1024, 1)); // stride too long
  CHECK(rearrange::getMinimumRegroupGrainSize(HALF) == 4);
  CHECK(rearrange::getMinimumRegroupGrainSize(UNSIGNED_SHORT) == 4);
  CHECK(rearrange::getMinimumRegroupGrainSize(FLOAT) == 2);
  CHECK(rearrange::getMinimumRegroupGrainSize(INT) == 2);
  CHECK(rearrange::getMinimumRegroupGrainSize(BOOL) == 1);
}

TEST_CASE("transpose cycle estimates follow PopLibs' formulas", "[popops][rearrange][cycles]") {
  using popops::detail::transpose2dCycles;
  using popops::detail::transposeWorkerCycles;
  // 4-byte fast path (even sides): 27 + m (11 + rows/2 (6 + 3 (cols/2 - 1))).
  CHECK(transpose2dCycles(true, 3, 4, 6) == 27 + 3 * (11 + 2 * (6 + 3 * 2)));
  // 4-byte slow path (odd side): 13 + m (8 + cols (5 + 2 rows)).
  CHECK(transpose2dCycles(true, 2, 3, 5) == 13 + 2 * (8 + 5 * (5 + 6)));
  // 2-byte, >= 8 columns: 37 + m (12 + rows/4 (15 + 4 (cols/4 - 2))).
  CHECK(transpose2dCycles(false, 2, 8, 12) == 37 + 2 * (12 + 2 * (15 + 4)));
  // 2-byte 4x4 and Nx4.
  CHECK(transpose2dCycles(false, 5, 4, 4) == 32 + 15 * 5);
  CHECK(transpose2dCycles(false, 2, 12, 4) == 28 + 2 * (17 + 20 + 4));
  // 2-byte slow path: 15 + m (8 + cols (5 + 5 rows / 2)).
  CHECK(transpose2dCycles(false, 1, 5, 3) == 15 + 8 + 3 * (5 + 12));
  // The 1-D worker loop.
  CHECK(transposeWorkerCycles(1, 1, 1) == 29);
  CHECK(transposeWorkerCycles(1, 1, 4) == 17 + 20 + 2 * 4);
  CHECK(transposeWorkerCycles(3, 1, 2) == 27 + 2 * (15 + 20 + 4));
  CHECK(transposeWorkerCycles(2, 3, 5) == 29 + 5 * (18 + 2 * (12 + 4)));
}

TEST_CASE("regroupTensor moves the grouping to another dimension", "[popops][rearrange]") {
  SECTION("from a row-major tensor: the blocks are gathered by a copy first") {
    test::Harness h(4);
    const std::vector<float> values = iotaValues(8 * 6);
    const Tensor t = h.input("t", FLOAT, {8, 6}, values);
    const ComputeSet cs = h.graph().addComputeSet("regroup");
    std::vector<program::Copy> copies;
    const Tensor r = rearrange::regroupTensor(h.graph(), t, copies, cs, {1, 2}, {0, 4}, "rg");
    CHECK(copies.size() == 1);
    for (const auto& c : copies)
      h.prog().add(c);
    h.prog().add(program::Execute(cs));
    REQUIRE(r.shape() == t.shape());
    const auto groupings = poputil::detectDimGroupings(h.graph(), r);
    REQUIRE_FALSE(groupings.empty());
    CHECK(groupings.front() == poputil::GroupingInfo{0, 4});
    h.read("r", r);
    h.run();
    CHECK(h.result("r") == values);
  }
  SECTION("from a tensor already in blocks: transposed in place, no copy") {
    test::Harness h(4);
    // Memory order [a/4][b/2][a%4][b%2]: each 4x2 block is contiguous.
    const Tensor var = h.graph().addVariable(HALF, {2, 4, 4, 4}, "var");
    poputil::mapTensorLinearly(h.graph(), var, 0, 16);
    const Tensor t = var.dimShuffle({0, 2, 1, 3}).reshape({8, 16});
    const std::vector<float> values = iotaValues(8 * 16);
    h.write("t", t, values);
    const ComputeSet cs = h.graph().addComputeSet("regroup");
    program::Sequence copies;
    const Tensor r = rearrange::regroupTensor(h.graph(), t, copies, cs, {1, 4}, {0, 4});
    h.prog().add(copies);
    h.prog().add(program::Execute(cs));
    std::vector<program::Copy> none;
    rearrange::regroupTensor(h.graph(), t, none, h.graph().addComputeSet("unused"), {1, 4}, {0, 4});
    CHECK(none.empty());
    h.read("r", r);
    h.run();
    CHECK(h.result("r") == values);
  }
}

TEST_CASE("regroupIfPossible and regroupIfBeneficial", "[popops][rearrange]") {
  test::Harness h(4);
  const std::vector<float> values = iotaValues(8 * 8);
  const Tensor t = h.input("t", HALF, {8, 8}, values);

  // Grouped only in the innermost dimension, wanted in dimension 0.
  const Tensor a = rearrange::regroupIfPossible(h.graph(), t, h.prog(), {0, 4}, "possible");
  CHECK_FALSE(a.elementsAreEqual(t));
  CHECK(poputil::detectDimGroupings(h.graph(), a).front() == poputil::GroupingInfo{0, 4});
  // Already grouped in the wanted dimension: unchanged.
  CHECK(rearrange::regroupIfPossible(h.graph(), t, h.prog(), {1, 4}).elementsAreEqual(t));
  // A rank-1 tensor is never regrouped.
  CHECK(rearrange::regroupIfPossible(h.graph(), t.flatten(), h.prog(), {0, 4})
            .elementsAreEqual(t.flatten()));

  // Like `a` (grouped in dimension 0): t regrouped; like t itself: unchanged.
  const Tensor b = rearrange::regroupIfBeneficial(h.graph(), t, a, h.prog(), "beneficial");
  CHECK_FALSE(b.elementsAreEqual(t));
  CHECK(poputil::detectDimGroupings(h.graph(), b).front().first == 0);
  CHECK(rearrange::regroupIfBeneficial(h.graph(), t, t, h.prog()).elementsAreEqual(t));

  // Back to the innermost dimension from `a`.
  const Tensor c = rearrange::regroupIfBeneficial(h.graph(), a, 4, h.prog(), "preferred");
  CHECK_FALSE(c.elementsAreEqual(a));
  CHECK(poputil::detectDimGroupings(h.graph(), c).front().first == 1);

  h.read("a", a);
  h.read("b", b);
  h.read("c", c);
  h.run();
  CHECK(h.result("a") == values);
  CHECK(h.result("b") == values);
  CHECK(h.result("c") == values);
}

TEST_CASE("rearrange reports bad arguments naming them", "[popops][rearrange][errors]") {
  test::Harness h(4);
  const Tensor t = h.input("t", FLOAT, {8, 6}, iotaValues(48));
  const ComputeSet cs = h.graph().addComputeSet("cs");
  program::Sequence seq;
  CHECK_THROWS_MATCHES(rearrange::regroupTensor(h.graph(), t, seq, cs, {2, 2}, {0, 4}),
                       poputil::poplibs_error, test::What(Contains("from names dimension 2")));
  CHECK_THROWS_MATCHES(rearrange::regroupTensor(h.graph(), t, seq, cs, {1, 2}, {0, 3}),
                       poputil::poplibs_error, test::What(Contains("to has group size 3")));
  const Tensor flags = h.graph().addVariable(BOOL, {4, 4}, "flags");
  h.graph().setTileMapping(flags, 0);
  CHECK_THROWS_MATCHES(rearrange::regroupTensor(h.graph(), flags, seq, cs, {1, 2}, {0, 2}),
                       poputil::poplibs_error, test::What(Contains("t has type bool")));
  CHECK_THROWS_MATCHES(rearrange::partialTranspose(h.graph(), t.flatten(), cs),
                       poputil::poplibs_error, test::What(Contains("in has shape {48}")));
  CHECK_THROWS_MATCHES(rearrange::regroupIfBeneficial(h.graph(), t, 4, seq), poputil::poplibs_error,
                       test::What(Contains("preferredGrouping 4")));
  CHECK_THROWS_MATCHES(rearrange::regroupIfBeneficial(h.graph(), t, t.transpose(), seq),
                       poputil::poplibs_error, test::What(Contains("ref has shape {6,8}")));
  CHECK_THROWS_MATCHES(poputil::detectInnermostGrouping(h.graph(), t[0][0]), poputil::poplibs_error,
                       test::What(Contains("scalar")));
  CHECK_THROWS_MATCHES(
      rearrange::addTransposeVertices(h.graph(), cs, FLOAT, 2, 2, {{{0, 1}}},
                                      [&](std::size_t) { return std::make_pair(t[0], t[1]); }),
      poputil::poplibs_error, test::What(Contains("getInOut(0)")));
}
