// debug.cbor: the debug contexts of variables, compute sets and programs, decoded with libcbor.
#include "common/RemoteSum.hpp"
#include "common/ReportFiles.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>
#include <cbor.h>
#include <fstream>
#include <iterator>
#include <poplar/Engine.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using test::Report;

namespace {

struct Context {
  std::uint64_t id = 0;
  std::string name, path, layer, opType, file;
  bool hasParent = false;
  std::uint64_t parent = 0;
};

struct DebugFile {
  std::string format, reportId;
  std::vector<Context> contexts;
};

std::string str(const cbor_item_t* item) {
  REQUIRE(cbor_isa_string(item));
  return std::string(reinterpret_cast<const char*>(cbor_string_handle(item)),
                     cbor_string_length(item));
}

const cbor_item_t* get(const cbor_item_t* map, const char* key) {
  REQUIRE(cbor_isa_map(map));
  for (std::size_t i = 0; i < cbor_map_size(map); ++i)
    if (str(cbor_map_handle(map)[i].key) == key) return cbor_map_handle(map)[i].value;
  FAIL("no key " << key);
  return nullptr;
}

DebugFile readDebugFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  cbor_load_result result;
  cbor_item_t* root =
      cbor_load(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), &result);
  REQUIRE(root);
  DebugFile f;
  f.format = str(get(root, "format"));
  f.reportId = str(get(root, "reportId"));
  const cbor_item_t* contexts = get(root, "contexts");
  for (std::size_t i = 0; i < cbor_array_size(contexts); ++i) {
    const cbor_item_t* c = cbor_array_handle(contexts)[i];
    Context x;
    x.id = cbor_get_int(get(c, "id"));
    x.name = str(get(c, "name"));
    x.path = str(get(c, "path"));
    x.layer = str(get(c, "layer"));
    x.opType = str(get(c, "opType"));
    x.file = str(get(get(c, "location"), "file"));
    const cbor_item_t* parent = get(c, "parent");
    x.hasParent = cbor_isa_uint(parent);
    if (x.hasParent) x.parent = cbor_get_int(parent);
    f.contexts.push_back(x);
  }
  cbor_decref(&root);
  return f;
}

} // namespace

TEST_CASE("debug.cbor holds the contexts the report refers to", "[debug]") {
  test::ScratchDir dir;
  test::RemoteSum s;
  Engine engine(s.graph, s.program, test::reportOptions(dir.path()));
  Report r(dir / "profile.pop");
  const DebugFile f = readDebugFile(dir / "debug.cbor");
  CHECK(f.format == "tessera-debug");
  CHECK(f.reportId == r.text("SELECT value FROM meta WHERE key = 'report_id'"));
  CHECK(f.reportId.size() == 32);
  for (std::size_t i = 0; i < f.contexts.size(); ++i) {
    CHECK(f.contexts[i].id == i);
    if (f.contexts[i].hasParent) CHECK(f.contexts[i].parent < i);
  }
  const auto a = r.integer("SELECT debug_context FROM variables WHERE name = 'a'");
  REQUIRE(a < static_cast<long long>(f.contexts.size()));
  CHECK(f.contexts[a].name == "a");
  CHECK(f.contexts[a].layer == "user");
  CHECK_THAT(f.contexts[a].file, Catch::EndsWith("RemoteSum.cpp"));
  const auto cs = r.integer("SELECT debug_context FROM compute_sets WHERE name = 'sum'");
  CHECK(f.contexts.at(cs).name == "sum");
  for (long long id :
       r.integers("SELECT debug_context FROM programs WHERE debug_context IS NOT NULL"))
    CHECK(id < static_cast<long long>(f.contexts.size()));
}

TEST_CASE("Contexts made inside PopLibs ops are marked with the op", "[debug]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  Tensor x = graph.addVariable(FLOAT, {16}, "x"), y = graph.addVariable(FLOAT, {16}, "y");
  poputil::mapTensorLinearly(graph, x);
  poputil::mapTensorLinearly(graph, y);
  graph.createHostWrite("x", x);
  graph.createHostWrite("y", y);
  program::Sequence prog;
  Tensor z = popops::add(graph, x, y, prog, {DebugContext("layer1"), "sum"});
  graph.createHostRead("z", z);
  Engine engine(graph, prog, test::reportOptions(dir.path()));
  const DebugFile f = readDebugFile(dir / "debug.cbor");
  Report r(dir / "profile.pop");
  const auto csContext = r.integer("SELECT debug_context FROM compute_sets LIMIT 1");
  const Context& c = f.contexts.at(csContext);
  CHECK(c.layer == "poplibs");
  CHECK_THAT(c.path, Catch::StartsWith("layer1/sum/"));
  bool sawOp = false;
  for (const auto& ctx : f.contexts)
    if (ctx.layer == "poplibs" && !ctx.opType.empty()) sawOp = true;
  CHECK(sawOp);
}
