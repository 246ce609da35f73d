// The .pvti format: heatmap bin encoding, the SQL built from the descriptors, and the markdown
// reference held in docs/formats.md.
#include "SchemaMarkdown.hpp"
#include "SchemaSql.hpp"

#include <cstdio>
#include <profiler/TraceSchema.hpp>
#include <stdexcept>

namespace tessera::profiler::schema::trace {

std::vector<std::uint8_t> encodeHeatmapBins(const std::vector<std::uint32_t>& counts) {
  std::vector<std::uint8_t> out;
  out.reserve(counts.size()); // most bins of a sparse histogram are one byte
  for (std::uint32_t v : counts) {
    while (v >= 0x80) {
      out.push_back(static_cast<std::uint8_t>(v | 0x80));
      v >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(v));
  }
  return out;
}

std::vector<std::uint32_t> decodeHeatmapBins(const void* data, std::size_t size) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  std::vector<std::uint32_t> counts;
  std::size_t i = 0;
  while (i < size) {
    std::uint64_t v = 0;
    unsigned shift = 0;
    while (true) {
      if (i == size)
        throw std::invalid_argument("heatmap bins: truncated varint at byte " + std::to_string(i));
      const std::uint8_t b = p[i++];
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) break;
      shift += 7;
      // A uint32 takes at most 5 groups of 7 bits.
      if (shift >= 35)
        throw std::invalid_argument("heatmap bins: varint longer than 5 bytes at byte " +
                                    std::to_string(i));
    }
    if (v > 0xffffffffu)
      throw std::invalid_argument("heatmap bins: count above 2^32-1 at byte " + std::to_string(i));
    counts.push_back(static_cast<std::uint32_t>(v));
  }
  return counts;
}

std::vector<std::string> createTraceTablesSql() {
  std::vector<std::string> sql;
  forEachTraceTable([&](const auto& t) { sql.push_back(createTableSql(t)); });
  return sql;
}

std::string insertRowSql(std::string_view table, std::size_t columns) {
  return insertSql(table, columns);
}

namespace {

using namespace markdown;

const KeyDoc kMetaKeys[] = {
    {meta::format, "always `tessera-pvti`"},
    {meta::formatVersion, "format version, `major.minor.point`"},
    {meta::tool, "`Tessera`"},
    {meta::toolVersion, "version of libpvti that wrote the trace"},
    {meta::pid, "process id of the writer (also in `processes`)"},
    {meta::clockSource, "clock of every timestamp: `steady_clock` (monotonic, nanoseconds)"},
    {meta::startSteadyNs, "steady clock reading at session start: timestamps count from it"},
    {meta::startUnixUs, "wall-clock time at session start, microseconds since the Unix epoch"},
    {meta::options, "`PVTI_OPTIONS` as given to the process"},
};

std::string hexByte(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", v);
  return buf;
}

/// The record layout of event_blocks.records, from the constants the encoder and decoder use.
void renderEventBlocks(std::string& md) {
  const std::string records = code(columnRef(EventBlocks::table, EventBlocks::records));
  md += "### Event blocks\n\n";
  md += "Each " + records + " blob holds " + code(EventBlocks::count.name) +
        " records back to back. A record is a header byte followed by unsigned LEB128 varints "
        "(7 bits per byte, low group first, high bit set on all but the last byte):\n\n";
  md += "| part | present | meaning |\n|---|---|---|\n";
  md += "| header | always | bits `" + hexByte(block::kKindMask) + "`: kind, ";
  for (std::size_t i = 0; i < kBlockRecordKindNames.size(); ++i)
    md += (i ? ", " : "") + std::to_string(i) + " " + code(kBlockRecordKindNames[i]);
  md += "; `" + hexByte(block::kSameChannel) + "`: same channel as the previous record; `" +
        hexByte(block::kSameLabel) + "`: same label as the previous record; `" +
        hexByte(block::kHasMetadata) + "`: a metadata id follows; `" +
        hexByte(block::kReservedBits) + "`: zero |\n";
  md += "| delta | always | ns since the previous record of the block; the first record counts "
        "from " +
        code(EventBlocks::firstNs.name) + " (0) |\n";
  md += "| channel | unless same channel | " + columnRef(Channels::table, Channels::id) + " |\n";
  md += "| label | unless same label | " + columnRef(Labels::table, Labels::id) + " |\n";
  md += "| metadata | if flagged (never on an end) | " + columnRef(Metadata::table, Metadata::id) +
        " |\n\n";
  md += "\"Previous record\" never crosses a block, so each block decodes on its own; the last "
        "record's time is " +
        code(EventBlocks::lastNs.name) +
        ". Nesting does cross blocks: replay a thread's blocks in " + code(EventBlocks::id.name) +
        " order with a stack of open events. A `begin` opens an event inside the innermost open "
        "one; an `end` "
        "closes the innermost open event (an end with nothing open is an *unmatched end*, one "
        "whose label "
        "differs from the event it closes a *mismatched end*: both are reported as instant "
        "events); an "
        "`instant` is a point event. Events still open after the last block had not ended when the "
        "file "
        "was last written.\n\n";
}

} // namespace

std::string renderTraceSchemaMarkdown() {
  std::string md;
  md += "### Version\n\n";
  md += "- .pvti: format " + code(kTraceFormatName) + ", version " + toString(kTraceFormatVersion) +
        "\n\n";
  md += "### Tables of a .pvti\n\n";
  forEachTraceTable([&](const auto& t) { renderTable(md, t); });
  md += "### Trace meta keys\n\n";
  renderKeys(md, "key", kMetaKeys, std::size(kMetaKeys));
  renderEventBlocks(md);
  md += "### Enumerations stored as text\n\n";
  md += "- **value_type** (" + columnRef(Heatmaps::table, Heatmaps::valueType) +
        "): " + code(kHeatmapDouble) + ", " + code(kHeatmapInt64) + "\n\n";
  md += "### Heatmap bins\n\n";
  md +=
      "`n` ascending edges `e[0..n-1]` make `n+1` bins: bin 0 counts values below `e[0]`, bin `i` "
      "(1 to n-1) values in `[e[i-1], e[i])`, bin `n` values at or above `e[n-1]`; NaN is not "
      "counted. "
      "Each sample's " +
      code(HeatmapSamples::binQuantities.name) +
      " holds the `n+1` counts as unsigned LEB128 varints (7 bits per byte, low group first, high "
      "bit set "
      "on all but the last byte of a count).\n";
  trimTrailingBlankLines(md);
  return md;
}

} // namespace tessera::profiler::schema::trace
