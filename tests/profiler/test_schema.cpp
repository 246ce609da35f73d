// The schema descriptors are consistent, and docs/formats.md carries their rendering.
#include "DocSection.hpp"

#include <catch2/catch.hpp>
#include <profiler/Schema.hpp>
#include <set>

using namespace tessera::profiler;

TEST_CASE("Table and column names are unique and indexes name real columns", "[schema]") {
  std::set<std::string_view> tables;
  std::set<std::pair<std::string_view, std::string_view>> columns;
  schema::forEachTable([&](const auto& table) {
    INFO("table " << table.name);
    CHECK(tables.insert(table.name).second);
    CHECK_FALSE(table.doc.empty());
    std::set<std::string_view> own;
    for (const schema::Column& c : table.columns) {
      CHECK(own.insert(c.name).second);
      CHECK_FALSE(c.sqlType.empty());
      CHECK_FALSE(c.doc.empty());
      columns.insert({table.name, c.name});
    }
  });
  CHECK(tables.size() == 24); // run_stream_copy_cycles since 1.7
  for (const schema::Index& index : schema::kIndexes) {
    INFO("index " << index.name);
    CHECK(columns.count({index.table, index.column}) == 1);
  }
}

TEST_CASE("Enumeration names match their enumerators", "[schema]") {
  CHECK(schema::name(schema::ProgramType::Sequence) == "Sequence");
  CHECK(schema::name(schema::ProgramType::Abort) == "Abort");
  CHECK(schema::name(schema::MemoryCategory::instrumentationResults) == "instrumentationResults");
  CHECK(schema::name(schema::CycleKind::sync) == "sync");
  CHECK(schema::name(schema::BlockKind::Overflow) == "Overflow");
  CHECK(schema::toString({1, 2, 3}) == "1.2.3");
  CHECK(schema::toString(schema::kProfileFormatVersion) == "1.7.0");
}

TEST_CASE("Stored enum names parse back to their values and unknown names do not parse",
          "[schema]") {
  CHECK(schema::parse<schema::TargetType>("IPU_MODEL") == schema::TargetType::IPU_MODEL);
  CHECK(schema::parse<schema::Architecture>("ipu21") == schema::Architecture::ipu21);
  CHECK(schema::parse<schema::SyncType>("GLOBAL") == schema::SyncType::GLOBAL);
  CHECK(schema::parse<schema::VariableAccess>("readWrite") == schema::VariableAccess::readWrite);
  CHECK(schema::parse<schema::ComputeInstrumentation>("Device") ==
        schema::ComputeInstrumentation::Device);
  CHECK(schema::parse<schema::ExternalExchangeInstrumentation>("Tile") ==
        schema::ExternalExchangeInstrumentation::Tile);
  CHECK(schema::parse<schema::ProgramType>("OnTileExecute") == schema::ProgramType::OnTileExecute);
  // Names are case-sensitive, as stored: a differently spelled value is unknown, not guessed.
  CHECK_FALSE(schema::parse<schema::TargetType>("ipu_model").has_value());
  CHECK_FALSE(schema::parse<schema::CycleKind>("").has_value());
  CHECK_FALSE(schema::parse<schema::SyncType>("INTERNAL ").has_value());
  CHECK(schema::enumSize<schema::ComputeInstrumentation>() == 5);
  CHECK(schema::name(schema::VariableAccess::write) == "write");
}

TEST_CASE("The rendered schema covers every table column enum and CBOR key", "[schema]") {
  const std::string md = schema::renderSchemaMarkdown();
  schema::forEachTable([&](const auto& table) {
    CHECK_THAT(md, Catch::Contains("#### `" + std::string(table.name) + "`"));
    for (const schema::Column& c : table.columns)
      CHECK_THAT(md, Catch::Contains("| `" + std::string(c.name) + "` |"));
  });
  for (auto n : schema::kMemoryCategoryNames)
    CHECK_THAT(md, Catch::Contains("`" + std::string(n) + "`"));
  for (auto n : schema::kTargetTypeNames)
    CHECK_THAT(md, Catch::Contains("`" + std::string(n) + "`"));
  for (auto n : schema::kVariableAccessNames)
    CHECK_THAT(md, Catch::Contains("`" + std::string(n) + "`"));
  CHECK_THAT(
      md, Catch::Contains("**SyncType** (programs.sync_type): `INTERNAL`, `EXTERNAL`, `GLOBAL`"));
  CHECK_THAT(md, Catch::Contains("`" + std::string(schema::cbor::opType) + "`"));
  CHECK_THAT(md, Catch::Contains("`" + std::string(schema::meta::reportId) + "`"));
  CHECK(md.back() == '\n');
}

TEST_CASE("docs/formats.md holds exactly the rendered schema", "[schema][docs]") {
  test::checkDocSection(
      "schema", "schema", schema::renderSchemaMarkdown(),
      "Regenerate it: build the tessera-schema-doc target and replace the text between the markers "
      "with the output of build/bin/tessera-schema-doc.");
}
