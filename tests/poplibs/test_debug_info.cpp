// poputil/DebugInfo.hpp (DI_ARGS, PoplibsOpDebugInfo, toProfileValue), poplar::ProfileValue and
// gcl/TileAllocation.hpp.
#include "TestUtil.hpp"

#include <gcl/TileAllocation.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/DebugInfo.hpp>

using namespace poplar;
using Catch::Contains;

namespace {

// A user-written op in the style of PopLibs' own: its arguments recorded with DI_ARGS.
Tensor scaledSum(Graph& graph, const Tensor& a, const Tensor& b, float scale,
                 program::Sequence& prog, const DebugContext& debugContext,
                 const poputil::PoplibsOpDebugInfo** seen) {
  static std::unique_ptr<poputil::PoplibsOpDebugInfo> keep;
  keep.reset(new poputil::PoplibsOpDebugInfo(debugContext, DI_ARGS(a, b, scale)));
  auto& di = *keep;
  auto out = popops::add(graph, a, b, prog, {di, "add"});
  popops::mulInPlace(graph, out, scale, prog, {di});
  di.addOutput(out);
  *seen = &di;
  return out;
}

} // namespace

TEST_CASE("DI_ARGS records an op's arguments and PoplibsOpDebugInfo its output",
          "[poputil][debuginfo]") {
  test::Harness h(4);
  const Tensor a = h.input("a", FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor b = h.input("b", FLOAT, {2, 3}, {6, 5, 4, 3, 2, 1});
  const poputil::PoplibsOpDebugInfo* di = nullptr;
  const Tensor out = scaledSum(h.graph(), a, b, 0.5f, h.prog(), {"layer"}, &di);
  h.read("out", out);
  h.run();
  CHECK_THAT(h.result("out"), test::CloseTo({3.5f, 3.5f, 3.5f, 3.5f, 3.5f, 3.5f}, 1e-6f));

  const auto& values = di->getValues();
  CHECK(values.at("api").asString() == "scaledSum"); // the calling function's name
  const auto& args = values.at("args");
  CHECK(args["scale"].asDouble() == 0.5);
  CHECK(args["a"]["type"].asString() == "float");
  CHECK(args["a"]["shape"][1].asUint() == 3);
  CHECK(values.at("outputs")["output"]["shape"][std::size_t{0}].asUint() == 2);
  // What the op made is under its own context: layer poplibs, op type the api.
  const DebugContext made{*di, "x"};
  CHECK(made.getPathName() == "layer/scaledSum/x");
  CHECK(made.getLayer() == "poplibs");
  CHECK(di->getContext().getOpType() == "scaledSum");
}

TEST_CASE("toProfileValue maps containers, pointers and Poplar objects", "[poputil][debuginfo]") {
  const std::vector<unsigned> v{4, 5};
  const ProfileValue pv = poputil::toProfileValue(v);
  CHECK(pv["1"].asUint() == 5);
  const int* none = nullptr;
  CHECK(poputil::toProfileValue(none).asString() == "<nullptr>");
  CHECK(poputil::toProfileValue(std::make_pair(std::string("k"), true))["second"].asBool());
  OptionFlags opts{{"availableMemoryProportion", "0.3"}};
  CHECK(poputil::toProfileValue(opts)["availableMemoryProportion"].asString() == "0.3");
  CHECK(poputil::toProfileValue(TensorCloneMethod::CREATE_NEW_ORDER).asString() ==
        "CREATE_NEW_ORDER");
  CHECK_THROWS_WITH(pv.asString(), Contains("asString: the value is a map"));
  CHECK_THROWS_WITH(pv["9"], Contains("no entry '9'"));
  CHECK(ProfileValue(2.0).asInt() == 2);
}

TEST_CASE("DebugInfo::setValue keeps the first value of a name", "[poputil][debuginfo]") {
  poputil::OpDebugInfo di({"op"}, "myApi");
  CHECK(di.setValue("k", 1));
  CHECK_FALSE(di.setValue("k", 2));
  CHECK(di.getValues().at("k").asDouble() == 1);
  CHECK(di.getValues().at("api").asString() == "myApi");
  CHECK(di.getContext().getLayer() == "poplibs");
}

TEST_CASE("gcl::perIPUTiles splits an IPU's tiles into I/O and compute sets", "[gcl]") {
  test::Harness h(16);
  auto& g = h.graph();
  const unsigned io = gcl::getMinIoTiles(g);
  CHECK(io == 8); // a 16-tile test IPU cannot spare 32: half of it
  const auto ioTiles = gcl::perIPUTiles(g, 0, io);
  const auto computeTiles = gcl::perIPUTiles(g, io, 16 - io, true, true);
  CHECK(ioTiles == std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(computeTiles.front() == 8);
  CHECK(computeTiles.back() == 15);
  // The two sets make working virtual graphs.
  Graph computeGraph = g.createVirtualGraph(computeTiles.front(), computeTiles.back() + 1);
  CHECK(computeGraph.getTarget().getNumTiles() == 8);
  CHECK_THROWS_WITH(gcl::perIPUTiles(g, 10, 8),
                    Contains("offset 10 + count 8 exceeds the 16 tiles"));
  CHECK_THROWS_WITH(gcl::perIPUTiles(g, 1, 4, true, true), Contains("must be even"));
}
