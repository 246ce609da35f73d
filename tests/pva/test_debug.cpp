// Debug information: contexts, their JSON, parents and locations, and OperationAnalysis.
#include "PvaTestUtil.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <popnn/NonLinearity.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

namespace {
/// y = x + x * x under the user context "layer1", written with every report file.
pva::Report opsReport(const test::ScratchDir& dir) {
  using namespace poplar;
  auto device = test::tinyDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  Tensor x = graph.addVariable(FLOAT, {16}, "x");
  poputil::mapTensorLinearly(graph, x);
  graph.createHostWrite("x", x);
  program::Sequence prog;
  const DebugContext layer("layer1");
  Tensor sq = popops::mul(graph, x, x, prog, {layer, "square"});
  Tensor y = popops::add(graph, x, sq, prog, {layer, "sum"});
  graph.createHostRead("y", y);
  { Engine engine(graph, prog, test::reportOptions(dir.path())); }
  return pva::openReport((dir / "profile.pop").string(), (dir / "debug.cbor").string());
}
} // namespace

TEST_CASE("Operations group programs and variables under the op that made them", "[pva][debug]") {
  test::ScratchDir dir;
  const auto report = opsReport(dir);
  const pva::OperationAnalysis analysis(report);
  std::vector<std::string> names;
  std::optional<pva::Operation> mul;
  for (const auto& op : analysis.operations()) {
    names.push_back(op.name());
    if (op.name() == "layer1/square/Mul") mul = op;
  }
  INFO("operations: " << Catch::Detail::stringify(names));
  REQUIRE(mul);
  CHECK(mul->type() == "Mul");
  CHECK(mul->debugContext()->layerName() == "poplibs");
  CHECK(nlohmann::json::parse(mul->debugContext()->layer())["layer"] == "poplibs");
  CHECK_FALSE(mul->programs().empty());
  bool executes = false;
  for (const auto& p : mul->programs())
    executes = executes || p->type() == pva::Program::Type::OnTileExecute;
  CHECK(executes);
  REQUIRE(mul->firstStepIndex());
  REQUIRE(mul->lastStepIndex());
  CHECK(*mul->lastStepIndex() >= *mul->firstStepIndex());
  CHECK(mul->estimatedCycles() > 0);
  CHECK_FALSE(mul->vars().empty()); // the product it created
  CHECK(mul->variableBytes() >= 64);

  const auto parents = mul->debugContext()->parents();
  REQUIRE(parents.size() >= 2);
  CHECK(parents[0]->name() == "square");
  CHECK(parents[1]->name() == "layer1");
  CHECK(parents[1]->layerName() == "user");
  const auto json = nlohmann::json::parse(mul->debugContext()->json());
  CHECK(json["opType"] == "Mul");
  CHECK(json["path"] == "layer1/square/Mul");
  CHECK_THAT(parents[1]->location().fileName(), Catch::EndsWith("test_debug.cpp"));
  CHECK(parents[1]->location().lineNumber() > 0);
}

TEST_CASE("Debug information is checked against its report", "[pva][debug]") {
  test::ScratchDir a, b;
  { const auto ra = opsReport(a); }
  { const auto rb = opsReport(b); }
  const std::string msg = test::messageOf<pva::DebugInfoMismatchError>(
      [&] { pva::openReport((a / "profile.pop").string(), (b / "debug.cbor").string()); });
  CHECK_THAT(msg, Catch::Contains((b / "debug.cbor").string()));
  CHECK_THAT(msg, Catch::Contains("another report"));
  CHECK_THROWS_AS(pva::openReport((a / "profile.pop").string(), (a / "missing.cbor").string()),
                  pva::FileNotFoundError);
  const auto noDebug = pva::openReport((a / "profile.pop").string());
  CHECK_FALSE(noDebug.hasDebugInfo());
  CHECK_FALSE(noDebug.compilation().programs().back()->debugContext());
  CHECK_THROWS_AS(pva::OperationAnalysis(noDebug), pva::InvalidArgumentError);
}

TEST_CASE("An in-place non-linearity is a PopLibs operation like the others", "[pva][debug]") {
  using namespace poplar;
  test::ScratchDir dir;
  {
    auto device = test::tinyDevice();
    Graph graph(device.getTarget());
    popops::addCodelets(graph);
    popnn::addCodelets(graph);
    Tensor x = graph.addVariable(FLOAT, {16}, "x");
    poputil::mapTensorLinearly(graph, x);
    graph.createHostWrite("x", x);
    program::Sequence prog;
    popnn::nonLinearityInPlace(graph, popnn::NonLinearityType::RELU, x, prog,
                               {DebugContext("layer1"), "relu"});
    Engine engine(graph, prog, test::reportOptions(dir.path()));
  }
  const auto report =
      pva::openReport((dir / "profile.pop").string(), (dir / "debug.cbor").string());
  std::optional<pva::Operation> relu;
  for (const auto& op : pva::OperationAnalysis(report).operations())
    if (op.name() == "layer1/relu/RELU") relu = op;
  REQUIRE(relu);
  CHECK(relu->type() == "RELU");
  CHECK(relu->debugContext()->layerName() ==
        "poplibs"); // it was "user", so the Operations view's poplibs layer missed it
  CHECK_FALSE(relu->programs().empty());
}
