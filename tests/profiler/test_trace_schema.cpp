// The .pvti descriptors are consistent, heatmap bins round-trip, and docs/formats.md carries the
// rendered trace schema between its trace markers.
#include "TestUtil.hpp"

#include <profiler/TraceSchema.hpp>

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <stdexcept>

namespace trace = tessera::profiler::schema::trace;

TEST_CASE("Trace table and column names are unique and documented", "[schema][trace]") {
  std::set<std::string_view> tables;
  trace::forEachTraceTable([&](const auto& table) {
    INFO("table " << table.name);
    CHECK(tables.insert(table.name).second);
    CHECK_FALSE(table.doc.empty());
    std::set<std::string_view> own;
    for (const auto& c : table.columns) {
      CHECK(own.insert(c.name).second);
      CHECK_FALSE(c.sqlType.empty());
      CHECK_FALSE(c.doc.empty());
    }
  });
  CHECK(tables.size() == 13);
  CHECK(trace::createTraceTablesSql().size() == 13);
  CHECK(trace::insertRowSql(trace::Events::table) == "INSERT INTO \"events\" VALUES (?,?,?,?,?,?,?,?,?)");
  CHECK(trace::name(trace::InstantKind::unmatchedEnd) == "unmatched_end");
}

TEST_CASE("Heatmap bins round-trip through their varint encoding", "[schema][trace]") {
  const std::vector<std::uint32_t> counts{0, 1, 127, 128, 300, 16384, 0xffffffffu, 0};
  const auto bytes = trace::encodeHeatmapBins(counts);
  CHECK(bytes.size() == 1 + 1 + 1 + 2 + 2 + 3 + 5 + 1);
  CHECK(trace::decodeHeatmapBins(bytes.data(), bytes.size()) == counts);
  CHECK(trace::decodeHeatmapBins(nullptr, 0).empty());
  // A count cut in the middle, and a varint too long for 32 bits, are errors, not garbage.
  const std::uint8_t truncated[] = {0x05, 0x80};
  CHECK_THROWS_AS(trace::decodeHeatmapBins(truncated, sizeof truncated), std::invalid_argument);
  const std::uint8_t overlong[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  CHECK_THROWS_AS(trace::decodeHeatmapBins(overlong, sizeof overlong), std::invalid_argument);
  const std::uint8_t tooBig[] = {0xff, 0xff, 0xff, 0xff, 0x1f};
  CHECK_THROWS_AS(trace::decodeHeatmapBins(tooBig, sizeof tooBig), std::invalid_argument);
}

TEST_CASE("docs/formats.md holds exactly the rendered trace schema", "[schema][trace][docs]") {
  const std::string docPath = std::string(TESSERA_SOURCE_DIR) + "/docs/formats.md";
  std::ifstream in(docPath);
  REQUIRE(in.good());
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string begin = "<!-- trace-schema:begin -->\n", end = "<!-- trace-schema:end -->";
  const auto b = doc.find(begin);
  const auto e = doc.find(end);
  INFO(docPath << " must hold the trace schema between '<!-- trace-schema:begin -->' and '<!-- trace-schema:end -->'");
  REQUIRE(b != std::string::npos);
  REQUIRE(e != std::string::npos);
  REQUIRE(b + begin.size() <= e);
  const std::string section = doc.substr(b + begin.size(), e - b - begin.size());
  const std::string expected = trace::renderTraceSchemaMarkdown();
  std::istringstream have(section), want(expected);
  std::string h, w;
  for (int line = 1;; ++line) {
    const bool moreH = static_cast<bool>(std::getline(have, h));
    const bool moreW = static_cast<bool>(std::getline(want, w));
    if (!moreH && !moreW) break;
    if (!moreH || !moreW || h != w)
      FAIL("The trace schema section of " << docPath << " is out of date (line " << line << " of the section:\n"
           << "  docs have:  " << (moreH ? h : "<end of section>") << "\n"
           << "  schema has: " << (moreW ? w : "<end of section>") << ").\n"
           << "Regenerate it with the output of build/bin/tessera-schema-doc --trace.");
  }
  CHECK(section == expected);
}
