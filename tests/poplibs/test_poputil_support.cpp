// poputil's support headers: option parsing, tensor meta-data, vertex template names, cycle
// estimator tables, and the interval and dimension helpers of Util.hpp.
#include "TestUtil.hpp"
#include "poputil/TensorMetaDataBase.hpp"

#include <optional>
#include <poplar/HalfFloat.hpp>
#include <poputil/OptionParsing.hpp>
#include <poputil/TensorMetaData.hpp>
#include <poputil/Util.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/cyclesTables.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;

namespace {

enum class Mode { FAST, SAFE };

struct Options {
  Mode mode = Mode::FAST;
  unsigned count = 1;
  bool flag = false;
  double ratio = 0.5;
  std::string name;
  std::vector<unsigned> tiles;
  std::optional<double> limit;
  std::optional<Mode> maybeMode = Mode::SAFE;
};

} // namespace

TEST_CASE("OptionSpec parses option strings into typed fields", "[poputil][options]") {
  Options o;
  using poplibs::OptionHandler;
  const poplibs::OptionSpec spec{
      {"mode", OptionHandler::createWithEnum(o.mode, {{"fast", Mode::FAST}, {"safe", Mode::SAFE}})},
      {"count", OptionHandler::createWithInteger(o.count)},
      {"flag", OptionHandler::createWithBool(o.flag)},
      {"ratio", OptionHandler::createWithDouble(o.ratio, 0.0, false, 1.0, true)},
      {"name", OptionHandler::createWithString(o.name)},
      {"tiles", OptionHandler::createWithList(o.tiles)},
      {"limit", poplibs::createOptionalDoubleHandler(o.limit)},
      {"maybeMode", poplibs::createOptionalEnumHandler(
                        o.maybeMode, {{"fast", Mode::FAST}, {"safe", Mode::SAFE}})}};
  spec.parse("mode", "safe");
  spec.parse("count", "0x10");
  spec.parse("flag", "true");
  spec.parse("ratio", "1");
  spec.parse("name", "abc");
  spec.parse("tiles", "1,2,0x3");
  spec.parse("limit", "2.5");
  spec.parse("maybeMode", "none");
  CHECK(o.mode == Mode::SAFE);
  CHECK(o.count == 16);
  CHECK(o.flag);
  CHECK(o.ratio == 1.0);
  CHECK(o.name == "abc");
  CHECK(o.tiles == std::vector<unsigned>{1, 2, 3});
  CHECK(o.limit == 2.5);
  CHECK_FALSE(o.maybeMode.has_value());

  CHECK_THROWS_MATCHES(spec.parse("colour", "red"), poplar::invalid_option,
                       test::What(Contains("Unrecognised option 'colour'")));
  CHECK_NOTHROW(spec.parse("colour", "red", true));
  CHECK_THROWS_MATCHES(
      spec.parse("mode", "slow"), poplar::invalid_option,
      test::What(Contains("'slow'") && Contains("'mode'") && Contains("['fast', 'safe']")));
  CHECK_THROWS_MATCHES(spec.parse("count", "12x"), poplar::invalid_option,
                       test::What(Contains("Not a valid integer")));
  CHECK_THROWS_MATCHES(spec.parse("ratio", "0"), poplar::invalid_option,
                       test::What(Contains("greater than 0")));
  CHECK_THROWS_AS(spec.parse("ratio", "1.5"), poplar::invalid_option);
  CHECK_THROWS_AS(spec.parse("tiles", "1,a"), poplar::invalid_option);
  CHECK_THROWS_AS(spec.parse("flag", "yes"), poplar::invalid_option);
  CHECK(poplibs::parse::asBool("false") == false);
  CHECK(poplibs::parse::asInteger<int>("-7") == -7);
  CHECK(poplibs::parse::asFloatingPoint<float>("0.25") == 0.25f);
  CHECK(poplibs::parse::describeEnumValues(std::map<std::string, int>{}) == "[]");
}

namespace {
struct Payload : poputil::TensorMetaDataBase {
  explicit Payload(int v) : value(v) {}
  int value;
  std::unique_ptr<poputil::TensorMetaDataBase> clone() const override {
    return std::make_unique<Payload>(value);
  }
};
} // namespace

TEST_CASE("TensorMetaData owns and deep-copies its data", "[poputil]") {
  poputil::TensorMetaData empty;
  CHECK(empty.getData() == nullptr);
  poputil::TensorMetaData a(std::make_unique<Payload>(7));
  poputil::TensorMetaData b(a);
  REQUIRE(b.getData() != nullptr);
  CHECK(b.getData() != a.getData());
  CHECK(static_cast<const Payload*>(b.getData())->value == 7);
  poputil::TensorMetaData c;
  c = std::move(a);
  CHECK(static_cast<const Payload*>(c.getData())->value == 7);
  c = empty;
  CHECK(c.getData() == nullptr);
}

namespace {
enum class Colour { RED, GREEN };
} // namespace
template <> struct poputil::VertexTemplateToString<Colour> {
  static std::string to_string(const Colour& c) { return c == Colour::RED ? "red" : "green"; }
};

TEST_CASE("templateVertex names vertices as PopLibs does", "[poputil]") {
  CHECK(poputil::templateVertex("popops::Fill") == "popops::Fill");
  CHECK(poputil::templateVertex("popops::Fill", FLOAT) == "popops::Fill<float>");
  CHECK(poputil::templateVertex("v", HALF, true, "x", std::string("y"), 4u, Colour::GREEN) ==
        "v<half,true,x,y,4,green>");
  CHECK(poputil::templateVertex("v", poplar::StringRef("ref")) == "v<ref>");
  CHECK(poputil::templateVertexParams(true) == "");
  CHECK(poputil::templateVertexParams(false, FLOAT) == ",float>");
}

namespace {
class FakeVertex : public poplar::VertexIntrospector {
public:
  FieldInfo getFieldInfo(const std::string&) const override { return FieldInfo({12}, false); }
  const std::vector<unsigned char>& getStateBytes(const std::string&) const override {
    return bytes;
  }
  const std::string& getVertexType() const override { return type; }
  std::vector<unsigned char> bytes{3, 0, 0, 0, 5, 0, 0, 0};
  std::string type = "mylib::Scale<float,true>";
};

std::uint64_t MAKE_PERF_ESTIMATOR_NAME(Scale)(const poplar::VertexIntrospector& vertex,
                                              const poplar::Target& target,
                                              const poplar::Type& type, bool wide) {
  CODELET_FIELD(in);
  CODELET_SCALAR_VAL(factor, unsigned);
  CODELET_VECTOR_VALS(factors, unsigned);
  return in.size() * (type == FLOAT ? 2 : 1) + factor + factors.size() * 100 + (wide ? 1000 : 0);
}

poplar::VertexPerfEstimate MAKE_PERF_ESTIMATOR_NAME(Noop)(const poplar::VertexIntrospector&,
                                                          const poplar::Target&) {
  return {42, 7};
}
} // namespace

TEST_CASE("cycle estimator tables bind template arguments", "[poputil]") {
  const poputil::internal::PerfEstimatorTable table{
      CYCLE_ESTIMATOR_ENTRY(mylib, Scale, FLOAT, true),
      CYCLE_ESTIMATOR_ENTRY(mylib, Scale, HALF, false),
      CYCLE_ESTIMATOR_ENTRY_NOPARAMS(mylib, Noop)};
  REQUIRE(table.size() == 3);
  CHECK(table[0].first == "mylib::Scale<float,true>");
  CHECK(table[1].first == "mylib::Scale<half,false>");
  CHECK(table[2].first == "mylib::Noop");
  test::Harness h(4);
  const FakeVertex v;
  // 12 elements, factor 3, two state words.
  CHECK(table[0].second(v, h.graph().getTarget()) == 24 + 3 + 200 + 1000);
  CHECK(table[1].second(v, h.graph().getTarget()) == 12 + 3 + 200);
  CHECK(table[2].second(v, h.graph().getTarget()) == 42);
  CHECK_NOTHROW(poputil::internal::registerPerfFunctions(h.graph(), table));
}

TEST_CASE("factorDims and unfactorDims reshape dimensions into factors and back", "[poputil]") {
  test::Harness h(4);
  const Tensor t = h.graph().addVariable(FLOAT, {4, 6, 4}, "t");
  const Tensor f = poputil::factorDims(t, {1, 2});
  CHECK(f.shape() == std::vector<std::size_t>{4, 3, 1, 2, 4});
  // Element [a, b, c] of t is [a, b / 2, 0, b % 2, c] of f.
  CHECK(f[2][1][0][1][3].getVarRegions() == t[2][3][3].getVarRegions());
  const Tensor back = poputil::unfactorDims(f, 2);
  CHECK(back.shape() == t.shape());
  CHECK(back.flatten().getVarRegions() == t.flatten().getVarRegions());
  const Tensor inner = poputil::factorDims(t, {3}, 1);
  CHECK(inner.shape() == std::vector<std::size_t>{4, 2, 3, 4});
  CHECK(poputil::unfactorDims(inner, 1, 1).flatten().getVarRegions() ==
        t.flatten().getVarRegions());
  CHECK_THROWS_MATCHES(poputil::factorDims(t, {5}, 1), poputil::poplibs_error,
                       test::What(Contains("factor 5")));
  CHECK_THROWS_AS(poputil::unfactorDims(t, 2), poputil::poplibs_error);
}

TEST_CASE("Interval helpers flatten and unshuffle", "[poputil]") {
  const std::vector<std::vector<Interval>> lists{{{0, 2}, {5, 6}}, {}, {{9, 12}}};
  CHECK(poputil::flattenIntervals(lists) == std::vector<Interval>{{0, 2}, {5, 6}, {9, 12}});
  // Shuffle [0,10) as [6,10) [0,2) [2,6): the shuffled tensor holds 6..9, 0, 1, 2..5.
  const std::vector<Interval> shuffle{{6, 10}, {0, 2}, {2, 6}};
  const auto unshuffle = poputil::calculateUnshufflingIntervals(shuffle);
  CHECK(unshuffle == std::vector<Interval>{{4, 6}, {6, 10}, {0, 4}});
  std::vector<int> shuffled;
  for (const auto& iv : shuffle)
    for (std::size_t i = iv.begin(); i < iv.end(); ++i)
      shuffled.push_back(int(i));
  std::vector<int> restored;
  for (const auto& iv : unshuffle)
    for (std::size_t i = iv.begin(); i < iv.end(); ++i)
      restored.push_back(shuffled[i]);
  CHECK(restored == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK_THROWS_AS(poputil::calculateUnshufflingIntervals({{0, 2}, {3, 4}}), poputil::poplibs_error);
  test::Harness h(1);
  CHECK(poputil::castToDeviceHalfValue(h.graph().getTarget(), 1.0) == 1.0);
  CHECK(poputil::castToDeviceHalfValue(h.graph().getTarget(), 0.1) == double(float(half(0.1f))));
  CHECK(poputil::castToDeviceHalfValue(h.graph().getTarget(), 0.1) != 0.1);
  poputil::poplibs_error e("boom");
  CHECK(e.type == "poplibs_error");
}
