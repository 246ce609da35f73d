// The .pvti format: heatmap bin encoding, the SQL built from the descriptors, and the markdown
// reference held in docs/formats.md.
#include <profiler/TraceSchema.hpp>

#include "SchemaMarkdown.hpp"
#include "SchemaSql.hpp"

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
      if (i == size) throw std::invalid_argument("heatmap bins: truncated varint at byte " + std::to_string(i));
      const std::uint8_t b = p[i++];
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) break;
      shift += 7;
      // A uint32 takes at most 5 groups of 7 bits.
      if (shift >= 35) throw std::invalid_argument("heatmap bins: varint longer than 5 bytes at byte " + std::to_string(i));
    }
    if (v > 0xffffffffu) throw std::invalid_argument("heatmap bins: count above 2^32-1 at byte " + std::to_string(i));
    counts.push_back(static_cast<std::uint32_t>(v));
  }
  return counts;
}

std::vector<std::string> createTraceTablesSql() {
  std::vector<std::string> sql;
  forEachTraceTable([&](const auto& t) { sql.push_back(createTableSql(t)); });
  return sql;
}

std::string insertRowSql(std::string_view table, std::size_t columns) { return insertSql(table, columns); }

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

} // namespace

std::string renderTraceSchemaMarkdown() {
  std::string md;
  md += "### Version\n\n";
  md += "- .pvti: format " + code(kTraceFormatName) + ", version " + toString(kTraceFormatVersion) + "\n\n";
  md += "### Tables of a .pvti\n\n";
  forEachTraceTable([&](const auto& t) { renderTable(md, t); });
  md += "### Trace meta keys\n\n";
  renderKeys(md, "key", kMetaKeys, std::size(kMetaKeys));
  md += "### Enumerations stored as text\n\n";
  renderEnum(md, "InstantKind", columnRef(InstantEvents::table, InstantEvents::kind), kInstantKindNames);
  md += "- **value_type** (" + columnRef(Heatmaps::table, Heatmaps::valueType) + "): " + code(kHeatmapDouble) + ", " +
        code(kHeatmapInt64) + "\n\n";
  md += "### Heatmap bins\n\n";
  md += "`n` ascending edges `e[0..n-1]` make `n+1` bins: bin 0 counts values below `e[0]`, bin `i` "
        "(1 to n-1) values in `[e[i-1], e[i])`, bin `n` values at or above `e[n-1]`; NaN is not counted. "
        "Each sample's " + code(HeatmapSamples::binQuantities.name) +
        " holds the `n+1` counts as unsigned LEB128 varints (7 bits per byte, low group first, high bit set "
        "on all but the last byte of a count).\n";
  trimTrailingBlankLines(md);
  return md;
}

} // namespace tessera::profiler::schema::trace
