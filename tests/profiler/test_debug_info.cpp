// debug.cbor, decoded with libcbor's item API independently of the writer.
#include "common/Exceptions.hpp"
#include "common/ScratchDir.hpp"

#include <cbor.h>
#include <fstream>
#include <iterator>
#include <memory>
#include <profiler/DebugInfoWriter.hpp>
#include <profiler/ReportWriter.hpp>
#include <profiler/Schema.hpp>

using namespace tessera::profiler;
namespace fs = std::filesystem;
namespace keys = schema::cbor;

namespace {

struct ItemDeleter {
  void operator()(cbor_item_t* item) const { cbor_decref(&item); }
};
using Item = std::unique_ptr<cbor_item_t, ItemDeleter>;

Item load(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  cbor_load_result result;
  cbor_item_t* item =
      cbor_load(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), &result);
  REQUIRE(item != nullptr);
  REQUIRE(result.error.code == CBOR_ERR_NONE);
  CHECK(result.read == bytes.size()); // one item, nothing after it
  return Item(item);
}

std::string str(const cbor_item_t* item) {
  REQUIRE(cbor_isa_string(item));
  REQUIRE(cbor_string_is_definite(item));
  return std::string(reinterpret_cast<const char*>(cbor_string_handle(item)),
                     cbor_string_length(item));
}

// The value of `key` in a definite map (borrowed from the map).
const cbor_item_t* get(const cbor_item_t* map, std::string_view key) {
  REQUIRE(cbor_isa_map(map));
  const cbor_pair* pairs = cbor_map_handle(map);
  for (std::size_t i = 0; i < cbor_map_size(map); ++i)
    if (str(pairs[i].key) == key) return pairs[i].value;
  FAIL("key '" << key << "' missing");
  return nullptr;
}

std::uint64_t unsignedOf(const cbor_item_t* item) {
  REQUIRE(cbor_isa_uint(item));
  return cbor_get_int(item);
}

std::vector<DebugContextRecord> sampleContexts() {
  DebugContextRecord root;
  root.id = 0;
  root.name = "mlp";
  root.path = "mlp";
  root.layer = "user";
  root.file = "samples/mlp/main.cpp";
  root.function = "main";
  root.line = 42;
  DebugContextRecord child;
  child.id = 1;
  child.name = "matmul";
  child.path = "mlp/matmul";
  child.layer = "poplibs";
  child.opType = "MatMul";
  child.file = "engine/poplibs/poplin/MatMul.cpp";
  child.function = "poplin::matMul";
  child.line = 7;
  child.parent = 0;
  DebugContextRecord unicode = child;
  unicode.id = 2;
  unicode.name = "résumé ✓";
  unicode.path = "mlp/matmul/résumé ✓";
  unicode.parent = 1;
  unicode.line = 0;
  return {root, child, unicode};
}

} // namespace

TEST_CASE("debug.cbor holds the contexts in the documented layout", "[debug]") {
  test::ScratchDir dir;
  const fs::path path = dir / "report" / "debug.cbor";
  const auto contexts = sampleContexts();
  writeDebugInfo(path, "0123456789abcdef0123456789abcdef", contexts);
  CHECK_FALSE(fs::exists(path.string() + ".partial"));

  const Item root = load(path);
  REQUIRE(cbor_map_size(root.get()) == 4);
  CHECK(str(get(root.get(), keys::format)) == schema::kDebugFormatName);
  CHECK(str(get(root.get(), keys::version)) == schema::toString(schema::kDebugFormatVersion));
  CHECK(str(get(root.get(), keys::reportId)) == "0123456789abcdef0123456789abcdef");
  const cbor_item_t* list = get(root.get(), keys::contexts);
  REQUIRE(cbor_isa_array(list));
  REQUIRE(cbor_array_size(list) == contexts.size());
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    INFO("context " << i);
    const DebugContextRecord& c = contexts[i];
    cbor_item_t* item = cbor_array_get(list, i); // a new reference
    const Item owned(item);
    CHECK(cbor_map_size(item) == 7);
    CHECK(unsignedOf(get(item, keys::id)) == c.id);
    CHECK(str(get(item, keys::name)) == c.name);
    CHECK(str(get(item, keys::path)) == c.path);
    CHECK(str(get(item, keys::layer)) == c.layer);
    CHECK(str(get(item, keys::opType)) == c.opType);
    const cbor_item_t* parent = get(item, keys::parent);
    if (c.parent)
      CHECK(unsignedOf(parent) == *c.parent);
    else
      CHECK(cbor_is_null(parent));
    const cbor_item_t* location = get(item, keys::location);
    CHECK(cbor_map_size(location) == 3);
    CHECK(str(get(location, keys::file)) == c.file);
    CHECK(str(get(location, keys::function)) == c.function);
    CHECK(unsignedOf(get(location, keys::line)) == c.line);
  }
}

TEST_CASE("debug.cbor with no contexts replaces an earlier one", "[debug]") {
  test::ScratchDir dir;
  const fs::path path = dir / "debug.cbor";
  writeDebugInfo(path, "a", sampleContexts());
  writeDebugInfo(path, "b", {});
  const Item root = load(path);
  CHECK(str(get(root.get(), keys::reportId)) == "b");
  CHECK(cbor_array_size(get(root.get(), keys::contexts)) == 0);
}

TEST_CASE("debug.cbor to an unwritable path gives a ReportError naming it", "[debug][errors]") {
  test::ScratchDir dir;
  std::ofstream(dir / "blocker") << "a regular file";
  const fs::path path = dir / "blocker" / "debug.cbor";
  CHECK_THAT(test::messageOf<ReportError>([&] { writeDebugInfo(path, "x", {}); }),
             Catch::Contains(path.string()));
  fs::create_directories(dir / "debug.cbor.partial" /
                         "x"); // a directory in the way of the partial file
  CHECK_THAT(test::messageOf<ReportError>([&] { writeDebugInfo(dir / "debug.cbor", "x", {}); }),
             Catch::Contains((dir / "debug.cbor").string()));
}
