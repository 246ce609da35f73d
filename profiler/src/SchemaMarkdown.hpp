// Markdown rendering of schema descriptors, shared by the profile.pop and .pvti references so
// both sections of docs/formats.md look the same.
#pragma once

#include <cstddef>
#include <profiler/Schema.hpp>
#include <string>
#include <string_view>
#include <utility>

namespace tessera::profiler::schema::markdown {

/// A markdown table cell: a '|' would end the cell.
inline std::string cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

inline std::string code(std::string_view s) {
  return "`" + std::string(s) + "`";
}

/// "#### `name`", the doc line, then one row per column.
template <std::size_t N> void renderTable(std::string& md, const Table<N>& t) {
  md += "#### " + code(t.name) + "\n\n";
  md += std::string(t.doc) + "\n\n";
  md += "| column | type | description |\n|---|---|---|\n";
  for (const Column& c : t.columns)
    md += "| " + code(c.name) + " | " + code(c.sqlType) + " | " + cell(c.doc) + " |\n";
  if (!t.constraints.empty()) md += "\nTable constraint: " + code(t.constraints) + "\n";
  md += '\n';
}

/// "table.column", from the descriptors.
template <std::size_t N> std::string columnRef(const Table<N>& t, const Column& c) {
  return std::string(t.name) + "." + std::string(c.name);
}

template <std::size_t N>
void renderEnum(std::string& md, std::string_view title, const std::string& where,
                const std::array<std::string_view, N>& names) {
  md += "- **" + std::string(title) + "** (" + std::string(where) + "): ";
  for (std::size_t i = 0; i < N; ++i)
    md += (i ? ", " : "") + code(names[i]);
  md += '\n';
}

/// A key and its meaning; the key names come from the schema headers.
using KeyDoc = std::pair<std::string_view, std::string_view>;

inline void renderKeys(std::string& md, std::string_view header, const KeyDoc* keys,
                       std::size_t n) {
  md += "| " + std::string(header) + " | meaning |\n|---|---|\n";
  for (std::size_t i = 0; i < n; ++i)
    md += "| " + code(keys[i].first) + " | " + cell(keys[i].second) + " |\n";
  md += '\n';
}

/// One trailing newline only, so a section sits neatly before its end marker.
inline void trimTrailingBlankLines(std::string& md) {
  while (md.size() >= 2 && md[md.size() - 1] == '\n' && md[md.size() - 2] == '\n')
    md.pop_back();
}

} // namespace tessera::profiler::schema::markdown
