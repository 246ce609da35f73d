// FLOP estimates (profiler.includeFlopEstimates): the engine's FLOP model checked through the
// compute_sets rows it writes, read back with raw SQLite against counts worked out by hand.
#include "common/Devices.hpp"
#include "common/RemoteSum.hpp"
#include "common/ReportFiles.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>
#include <numeric>
#include <poplar/Engine.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Pooling.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/NaN.hpp>
#include <popops/NormaliseImage.hpp>
#include <popops/UpdateScalarInRows.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using test::Report;

namespace {

OptionFlags withFlops(const std::filesystem::path& dir, const char* on) {
  OptionFlags o = test::reportOptions(dir);
  o.set("profiler.includeFlopEstimates", on);
  return o;
}

/// A [m,k] . [k,n] float matrix product plus an element-wise add of its result to itself.
void buildMatMulAndAdd(Graph& graph, program::Sequence& prog, std::size_t m, std::size_t k,
                       std::size_t n, Type type) {
  poplin::addCodelets(graph);
  popops::addCodelets(graph);
  Tensor a = graph.addVariable(type, {m, k}, "a"), b = graph.addVariable(type, {k, n}, "b");
  poputil::mapTensorLinearly(graph, a);
  poputil::mapTensorLinearly(graph, b);
  graph.createHostWrite("a", a);
  graph.createHostWrite("b", b);
  Tensor c = poplin::matMul(graph, a, b, prog, "mm");
  Tensor d = popops::add(graph, c, c, prog, "twice");
  graph.createHostRead("d", d);
}

/// Σ estimated_flops of the compute sets whose vertices are all of codelets named like `like`.
long long flopsOf(Report& r, const std::string& like) {
  return r.integer("SELECT coalesce(sum(estimated_flops), 0) FROM compute_sets cs WHERE NOT EXISTS "
                   "(SELECT 1 FROM "
                   "compute_set_vertices v JOIN vertex_types t ON t.id = v.vertex_type WHERE "
                   "v.compute_set = cs.id "
                   "AND t.name NOT LIKE '" +
                   like +
                   "') AND EXISTS (SELECT 1 FROM compute_set_vertices v WHERE "
                   "v.compute_set = cs.id)");
}

} // namespace

TEST_CASE("FLOPs of a matmul's partial products are 2·M·N·K; an add one per element", "[flops]") {
  const std::size_t m = 6, k = 40, n = 10;
  test::ScratchDir dir;
  auto device = test::tinyDevice();
  Graph graph(device.getTarget());
  program::Sequence prog;
  buildMatMulAndAdd(graph, prog, m, k, n, FLOAT);
  Engine engine(graph, prog, withFlops(dir.path(), "true"));
  Report r(dir / "profile.pop");
  CHECK(r.text("SELECT value FROM meta WHERE key = 'flop_estimates'") == "true");
  CHECK(flopsOf(r, "poplin::ConvPartial%") == static_cast<long long>(2 * m * n * k));
  CHECK(flopsOf(r, "popops::Add<%") == static_cast<long long>(m * n));
  // Every vertex here is a PopLibs codelet the model knows.
  CHECK(r.integer("SELECT count(*) FROM compute_sets WHERE estimated_flops IS NULL") == 0);
  CHECK(r.integer("SELECT sum(vertices_without_flop_estimate) FROM compute_sets") == 0);
}

TEST_CASE("A fused map counts each float operation of its expression per element", "[flops]") {
  namespace pe = popops::expr;
  test::ScratchDir dir;
  auto device = test::tinyDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  std::vector<Tensor> ts;
  for (const char* name : {"a", "b", "c", "d"}) {
    ts.push_back(graph.addVariable(FLOAT, {64}, name));
    poputil::mapTensorLinearly(graph, ts.back());
    graph.createHostWrite(name, ts.back());
  }
  const Tensor ints = graph.addVariable(INT, {64}, "ints");
  poputil::mapTensorLinearly(graph, ints);
  graph.createHostWrite("ints", ints);
  program::Sequence prog;
  // add, multiply, compare and the outer add: 4 per element; the select and the cast none.
  const Tensor sel = popops::map(graph,
                                 pe::Select(pe::_1 + pe::_2, pe::_3 * pe::_4, pe::_1 < pe::_3) +
                                     pe::Cast(pe::_5, FLOAT),
                                 {ts[0], ts[1], ts[2], ts[3], ints}, prog, "select");
  graph.createHostRead("sel", sel);
  // In place: a clamp (2 compares) and a multiply.
  popops::mapInPlace(graph, pe::Clamp(pe::_1, pe::Const(0.0f), pe::Const(1.0f)) * pe::Const(2.0f),
                     {ts[0]}, prog, "clamp");
  // Integer arithmetic: none.
  popops::mapInPlace(graph, pe::_1 * pe::_1 + pe::Const(1), {ints}, prog, "ints");
  Engine engine(graph, prog, withFlops(dir.path(), "true"));
  Report r(dir / "profile.pop");
  const auto flopsNamed = [&](const std::string& name) {
    return r.integer("SELECT estimated_flops FROM compute_sets WHERE name LIKE '" + name + "%'");
  };
  CHECK(flopsNamed("select") == 4 * 64);
  CHECK(flopsNamed("clamp") == 3 * 64);
  CHECK(flopsNamed("ints") == 0);
  CHECK(r.integer("SELECT sum(vertices_without_flop_estimate) FROM compute_sets") == 0);
}

TEST_CASE("Integer data does no floating-point operations", "[flops]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  Tensor x = graph.addVariable(INT, {16}, "x");
  poputil::mapTensorLinearly(graph, x);
  graph.createHostWrite("x", x);
  program::Sequence prog;
  graph.createHostRead("y", popops::add(graph, x, x, prog, "sum"));
  Engine engine(graph, prog, withFlops(dir.path(), "true"));
  Report r(dir / "profile.pop");
  CHECK(r.integer("SELECT count(*) FROM compute_sets") > 0);
  CHECK(r.integer("SELECT sum(estimated_flops) FROM compute_sets") == 0);
}

TEST_CASE("A codelet the model does not know has no estimate, counted apart", "[flops]") {
  test::ScratchDir dir;
  test::RemoteSum s; // its SumVertex is the program's own
  Engine engine(s.graph, s.program, withFlops(dir.path(), "true"));
  Report r(dir / "profile.pop");
  CHECK(r.integer("SELECT estimated_flops FROM compute_sets WHERE name = 'sum'") == 0);
  CHECK(r.integer("SELECT vertices_without_flop_estimate FROM compute_sets WHERE name = 'sum'") ==
        1);
}

TEST_CASE("profiler.includeFlopEstimates off (the default) writes no estimates", "[flops]") {
  for (const char* setting : {"false", "default"}) {
    INFO(setting);
    test::ScratchDir dir;
    auto device = test::tinyDevice();
    Graph graph(device.getTarget());
    program::Sequence prog;
    buildMatMulAndAdd(graph, prog, 4, 8, 4, FLOAT);
    Engine engine(graph, prog,
                  std::string(setting) == "default" ? test::reportOptions(dir.path())
                                                    : withFlops(dir.path(), setting));
    Report r(dir / "profile.pop");
    CHECK(r.text("SELECT value FROM meta WHERE key = 'flop_estimates'") == "false");
    CHECK(r.integer("SELECT count(*) FROM compute_sets") > 0);
    CHECK(
        r.integer(
            "SELECT count(*) FROM compute_sets WHERE estimated_flops IS NOT NULL OR "
            "vertices_without_flop_estimate IS NOT NULL OR estimated_flops_by_tile IS NOT NULL") ==
        0);
  }
}

TEST_CASE(
    "FLOPs per tile: each tile the FLOPs of the vertices on it, adding up to the compute set's",
    "[flops]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice(4);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  program::Sequence prog;
  // 10 elements: 7 on tile 0, 3 on tile 2, none on tiles 1 and 3.
  Tensor a = graph.addVariable(FLOAT, {10}, "a"), b = graph.addVariable(FLOAT, {10}, "b");
  for (Tensor t : {a, b}) {
    graph.setTileMapping(t.slice(0, 7), 0);
    graph.setTileMapping(t.slice(7, 10), 2);
  }
  Tensor c = popops::add(graph, a, b, prog, "sum"); // mapped like a: its vertices on tiles 0 and 2
  graph.createHostRead("c", c);
  Engine engine(graph, prog, withFlops(dir.path(), "true"));
  Report r(dir / "profile.pop");
  REQUIRE(r.integer("SELECT count(*) FROM compute_sets WHERE estimated_flops > 0") == 1);
  const long long id = r.integer("SELECT id FROM compute_sets WHERE estimated_flops > 0");
  const std::string where = " FROM compute_sets WHERE id = " + std::to_string(id);
  // One FLOP per element added, on the tile that holds it.
  CHECK(r.tileValues("SELECT estimated_flops_by_tile" + where) ==
        std::vector<std::uint64_t>{7, 0, 3, 0});
  CHECK(r.integer("SELECT estimated_flops" + where) == 10);
  // Every compute set's tiles add up to its total.
  for (long long cs : r.integers("SELECT id FROM compute_sets")) {
    const auto byTile = r.tileValues(
        "SELECT estimated_flops_by_tile FROM compute_sets WHERE id = " + std::to_string(cs));
    CHECK(byTile.size() == 4);
    CHECK(std::accumulate(byTile.begin(), byTile.end(), 0ull) ==
          static_cast<unsigned long long>(r.integer(
              "SELECT estimated_flops FROM compute_sets WHERE id = " + std::to_string(cs))));
  }
}

TEST_CASE("FLOPs of a convolution are 2 per multiply-add; pooling one per window element",
          "[flops]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice();
  Graph graph(device.getTarget());
  poplin::addCodelets(graph);
  popops::addCodelets(graph);
  popnn::addCodelets(graph);
  program::Sequence prog;
  const poplin::ConvParams params(FLOAT, 2, {6, 5}, {3, 3}, 3, 4, 1); // no padding
  const Tensor in = poplin::createInput(graph, params, "in");
  const Tensor w = poplin::createWeights(graph, params, "w");
  graph.createHostWrite("in", in);
  graph.createHostWrite("w", w);
  const Tensor out = poplin::convolution(graph, in, w, params, false, prog, "conv");
  const popnn::pooling::PoolParams pool(popnn::PoolingType::MAX, {4, 3}, {2, 2}, {2, 1}, {0, 0},
                                        {0, 0}, 4, 2, FLOAT);
  const Tensor pooled = popnn::pooling::pool(graph, pool, out, prog, "pool");
  graph.createHostRead("pooled", pooled);
  Engine engine(graph, prog, withFlops(dir.path(), "true"));
  Report r(dir / "profile.pop");
  CHECK(flopsOf(r, "poplin::ConvPartial%") == static_cast<long long>(2 * 2 * 4 * 4 * 3 * 3 * 9));
  CHECK(flopsOf(r, "poplin::ConvPartial%") == static_cast<long long>(poplin::getFwdFlops(params)));
  // 2 x 4 planes of 2 x 2 outputs, each the maximum of 4 elements.
  CHECK(flopsOf(r, "popnn::MaxPooling<%") == 2 * 4 * 2 * 2 * 4);
  CHECK(static_cast<long long>(popnn::pooling::getFwdFlops(pool)) == 2 * 4 * 2 * 2 * 4);
  CHECK(r.integer("SELECT sum(vertices_without_flop_estimate) FROM compute_sets") == 0);
}

TEST_CASE("FLOPs of the NaN check, the row update and image normalisation follow PopLibs",
          "[flops]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice(4);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  program::Sequence prog;
  Tensor x = graph.addVariable(FLOAT, {6, 10}, "x");
  Tensor labels = graph.addVariable(UNSIGNED_INT, {6}, "labels");
  poputil::mapTensorLinearly(graph, x);
  poputil::mapTensorLinearly(graph, labels);
  graph.createHostWrite("x", x);
  graph.createHostWrite("labels", labels);
  graph.createHostRead("nan", popops::hasNaNOrInf(graph, x, prog, "check"));
  popops::updateScalarInRows(graph, x, labels, prog, "update");
  Tensor image = popops::createNormaliseImageInput(graph, UNSIGNED_CHAR, {4, 5, 3}, "image");
  Tensor consts = graph.addConstant(HALF, {3}, 1.0f, "consts");
  graph.setTileMapping(consts, 0);
  graph.createHostWrite("image", image);
  graph.createHostRead("norm", popops::normaliseImage(graph, prog, image, 1.0f, consts, consts));
  Engine engine(graph, prog, withFlops(dir.path(), "true"));
  Report r(dir / "profile.pop");
  // One compare per element checked; 9 per pixel (3 channels of scale, offset, scale); the
  // decrement counts none, as PopLibs' estimator.
  CHECK(flopsOf(r, "popops::HasNaNOrInf%") == 60);
  CHECK(flopsOf(r, "popops::NormaliseImage%") == 9 * 20);
  CHECK(flopsOf(r, "popops::UpdateIntervalDEC%") == 0);
  CHECK(r.integer("SELECT count(*) FROM compute_sets cs JOIN compute_set_vertices v ON "
                  "v.compute_set = cs.id JOIN vertex_types t ON t.id = v.vertex_type WHERE "
                  "(t.name LIKE 'popops::HasNaNOrInf%' OR t.name LIKE 'popops::NormaliseImage%' "
                  "OR t.name LIKE 'popops::UpdateIntervalDEC%') AND "
                  "cs.vertices_without_flop_estimate > 0") == 0);
}
