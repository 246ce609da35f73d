// multiconv's parallel plan: each convolution of the set on its own range of tiles (the
// bigger one first, PopLibs' way), all in one compute set, with results equal to the host's
// and to the serial plan's; its inputs, weights and outputs on disjoint tiles; the reserved
// tiles option; the serial fallback when there are more convolutions than tiles.
#include "ConvReference.hpp"
#include "TestUtil.hpp"

#include <poplin/MultiConvolution.hpp>
#include <set>

using namespace poplar;
using poplin::ConvParams;
namespace mc = poplin::multiconv;

namespace {

std::set<unsigned> tilesOf(const Graph& graph, const Tensor& t) {
  std::set<unsigned> tiles;
  const auto mapping = graph.getTileMapping(t);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    if (!mapping[tile].empty()) tiles.insert(tile);
  return tiles;
}

bool disjoint(const std::set<unsigned>& a, const std::set<unsigned>& b) {
  for (unsigned t : a)
    if (b.count(t)) return false;
  return true;
}

struct Run {
  std::vector<std::set<unsigned>> inTiles, outTiles;
};

/// Builds and runs the set with `options`, checks every output against the host.
Run runSet(const std::vector<ConvParams>& params, const OptionFlags& options, unsigned tiles) {
  test::Harness h(tiles);
  std::vector<mc::CreateTensorArgs> create;
  for (std::size_t i = 0; i < params.size(); ++i)
    create.push_back({params[i], {}, "conv" + std::to_string(i)});
  std::vector<mc::ConvolutionArgs> args;
  std::vector<std::vector<float>> ins, ws;
  Run run;
  for (unsigned i = 0; i < params.size(); ++i) {
    const test::HostConv host(params[i]);
    const Tensor in = mc::createInput(h.graph(), create, i, options);
    const Tensor w = mc::createWeights(h.graph(), create, i, options);
    ins.push_back(test::randomValues(host.inSize(), -1.0f, 1.0f, 60 + i));
    ws.push_back(test::randomValues(host.wSize(), -1.0f, 1.0f, 70 + i));
    h.write("in" + std::to_string(i), in, ins.back());
    h.write("w" + std::to_string(i), w, ws.back());
    run.inTiles.push_back(tilesOf(h.graph(), in));
    args.push_back({in, w, params[i], {}});
  }
  poplin::PlanningCache cache;
  const auto outs = mc::convolution(h.graph(), args, false, h.prog(), "multi", options, &cache);
  REQUIRE(outs.size() == params.size());
  for (std::size_t i = 0; i < outs.size(); ++i) {
    h.read("out" + std::to_string(i), outs[i]);
    run.outTiles.push_back(tilesOf(h.graph(), outs[i]));
  }
  h.run();
  for (std::size_t i = 0; i < outs.size(); ++i) {
    const test::HostConv host(params[i]);
    CHECK_THAT(h.result("out" + std::to_string(i)),
               test::CloseTo(host.forward(ins[i], ws[i]), 1e-5f, 1e-5f));
  }
  return run;
}

std::vector<ConvParams> twoConvs() {
  ConvParams big(FLOAT, 2, {8, 8}, {3, 3}, 4, 8, 1);
  big.inputTransform.paddingLower = {1, 1};
  big.inputTransform.paddingUpper = {1, 1};
  ConvParams small(FLOAT, 1, {5, 5}, {1, 1}, 2, 3, 1);
  return {small, big};
}

} // namespace

TEST_CASE("multiconv parallel plan: own tiles, one compute set", "[poplin][multiconv]") {
  const auto params = twoConvs();
  const Run parallel = runSet(params, {{"perConvReservedTiles", "4"}}, 16); // parallel: default
  CHECK(disjoint(parallel.outTiles[0], parallel.outTiles[1]));
  CHECK(disjoint(parallel.inTiles[0], parallel.inTiles[1]));
  // The bigger convolution is placed first, from tile 0.
  CHECK(parallel.outTiles[1].count(0) == 1);
  CHECK(parallel.outTiles[0].count(0) == 0);
  // The serial plan lays each convolution over all tiles: they share some.
  const Run serial = runSet(params, {{"planType", "serial"}}, 16);
  CHECK(!disjoint(serial.outTiles[0], serial.outTiles[1]));
}

TEST_CASE("multiconv parallel plan: reserved tiles and the serial fallback",
          "[poplin][multiconv]") {
  const auto params = twoConvs();
  // Reserving 12 of 16 tiles for the small convolution leaves the big one at most 4.
  const Run reserved = runSet(params, {{"perConvReservedTiles", "12"}}, 16);
  CHECK(reserved.outTiles[1].size() <= 4);
  CHECK(disjoint(reserved.outTiles[0], reserved.outTiles[1]));
  // Three convolutions on two tiles: serial, still right.
  auto three = params;
  three.push_back(ConvParams(FLOAT, 1, {4, 4}, {2, 2}, 1, 2, 1));
  runSet(three, {}, 2);
}
