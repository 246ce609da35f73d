// The .pvti descriptors are consistent, event block records and heatmap bins round-trip (and
// malformed blocks are errors), and docs/formats.md carries the rendered trace schema between its
// trace markers.
#include "DocSection.hpp"

#include <catch2/catch.hpp>
#include <profiler/TraceBlock.hpp>
#include <profiler/TraceSchema.hpp>
#include <set>
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
  CHECK(tables.size() == 12);
  CHECK(trace::createTraceTablesSql().size() == 12);
  CHECK(trace::insertRowSql(trace::EventBlocks::table) ==
        "INSERT INTO \"event_blocks\" VALUES (?,?,?,?,?,?)");
  CHECK(trace::name(trace::BlockRecordKind::end) == "end");
}

namespace {

using Kind = trace::BlockRecordKind;

std::vector<trace::BlockRecord> decodeAll(const trace::BlockEncoder& e) {
  std::vector<trace::BlockRecord> out;
  trace::BlockDecoder d(e.data(), e.size(), e.firstNs());
  trace::BlockRecord r{};
  while (d.next(r))
    out.push_back(r);
  CHECK(d.lastNs() == e.lastNs());
  return out;
}

std::vector<trace::BlockRecord> decodeBytes(const std::vector<std::uint8_t>& bytes,
                                            std::int64_t firstNs = 0) {
  std::vector<trace::BlockRecord> out;
  trace::BlockDecoder d(bytes.data(), bytes.size(), firstNs);
  trace::BlockRecord r{};
  while (d.next(r))
    out.push_back(r);
  return out;
}

bool same(const trace::BlockRecord& a, const trace::BlockRecord& b) {
  return a.kind == b.kind && a.tsNs == b.tsNs && a.channel == b.channel && a.label == b.label &&
         a.metadata == b.metadata;
}

} // namespace

TEST_CASE("Event block records round-trip through the encoder and decoder",
          "[schema][trace][block]") {
  const std::vector<trace::BlockRecord> records{
      {Kind::begin, 1000, 1, 7, 0},            // first record: ids written out
      {Kind::end, 1040, 1, 7, 0},              // the two-byte common case
      {Kind::begin, 1040, 1, 7, 3},            // same ids, metadata
      {Kind::instant, 5'000'000'000, 2, 9, 0}, // long gap, new channel and label
      {Kind::end, 5'000'000'100, 2, 7, 0},     // label changes only
      {Kind::begin, 5'000'000'100, 0xffffffffu, 0xffffffffu, 0xffffffffu}, // largest ids
      {Kind::end, std::int64_t(1) << 62, 0xffffffffu, 0xffffffffu, 0},
  };
  trace::BlockEncoder e;
  for (const auto& r : records)
    e.add(r.kind, r.tsNs, r.channel, r.label, r.metadata);
  CHECK(e.count() == records.size());
  CHECK(e.firstNs() == 1000);
  CHECK(e.lastNs() == std::int64_t(1) << 62);
  const auto back = decodeAll(e);
  REQUIRE(back.size() == records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    INFO("record " << i);
    CHECK(same(back[i], records[i]));
  }

  // An end never carries metadata; a time that goes back is stored at its predecessor's time.
  e.clear();
  e.add(Kind::begin, 50, 1, 1, 0);
  e.add(Kind::end, 60, 1, 1, 4);
  e.add(Kind::instant, 40, 1, 1, 0);
  const auto clamped = decodeAll(e);
  REQUIRE(clamped.size() == 3);
  CHECK(clamped[1].metadata == 0);
  CHECK(clamped[2].tsNs == 60);

  // Thousands of records grow the buffer as needed; a begin/end pair takes 4 bytes.
  e.clear();
  for (int i = 0; i < 10000; ++i)
    e.add(i % 2 ? Kind::end : Kind::begin, 100 + i * 50, 3, 5, 0);
  CHECK(e.size() < 2 * 10000 + 16);
  CHECK(decodeAll(e).size() == 10000);
}

TEST_CASE("A flush of many ring arrays grows the block a few times, not once per array",
          "[schema][trace][block]") {
  // libpvti's writer reserves worst-case room for each spilled array it packs (32,768 records)
  // while most records take two bytes: growing to the bare need reallocated and copied the
  // block once per array, quadratic in a long flush (issue 38).
  trace::BlockEncoder e;
  constexpr std::size_t kArray = 32768, kArrays = 64;
  std::size_t growths = 0, capacity = e.capacity();
  std::int64_t ts = 0;
  for (std::size_t a = 0; a < kArrays; ++a) {
    e.reserve(kArray);
    if (e.capacity() != capacity) {
      ++growths;
      CHECK(e.capacity() >= 2 * capacity); // geometric
      capacity = e.capacity();
    }
    for (std::size_t i = 0; i < kArray; ++i)
      e.add(i % 2 ? Kind::end : Kind::begin, ts += 20, 1, 1, 0);
  }
  CHECK(e.count() == kArray * kArrays);
  CHECK(growths <= 4);
  CHECK(decodeAll(e).size() == kArray * kArrays);
}

TEST_CASE("Malformed event block records are errors, never read past the end",
          "[schema][trace][block]") {
  // begin, channel 1, label 2, 10 ns after first_ns
  CHECK(decodeBytes({0x00, 10, 1, 2}, 5).at(0).tsNs == 15);
  const std::pair<std::vector<std::uint8_t>, const char*> bad[] = {
      {{0x00}, "truncated record (time delta cut short)"},
      {{0x00, 0x80}, "truncated record (time delta cut short)"},
      {{0x00, 0, 1}, "truncated record (label cut short)"},
      {{0x10, 0, 1, 2}, "truncated record (metadata cut short)"},
      {{0x03, 0, 1, 2}, "unknown record kind 3"},
      {{0x20, 0, 1, 2}, "header 0x20 has reserved bits set"},
      {{0x04, 0, 2}, "first record of a block refers to a previous record"},
      {{0x11, 0, 1, 2, 3}, "an end record carries metadata"},
      {{0x00, 0, 0x80, 0x80, 0x80, 0x80, 0x10}, "channel id above 2^32-1"},
      {{0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 1, 2},
       "time delta varint longer than 64 bits"},
      {{0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 1, 2},
       "time overflows 64 bits"},
  };
  for (const auto& [bytes, message] : bad) {
    INFO(message);
    CHECK_THROWS_WITH(decodeBytes(bytes), Catch::Contains(message));
  }
  CHECK_THROWS_WITH(decodeBytes({0x00, 0, 1, 2}, -1), Catch::Contains("before the trace started"));
  CHECK(decodeBytes({}).empty());
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
  test::checkDocSection("trace-schema", "trace schema", trace::renderTraceSchemaMarkdown(),
                        "Regenerate it with the output of build/bin/tessera-schema-doc --trace.");
}
