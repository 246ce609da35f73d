// Tables of results written as aligned text, CSV or JSON. Cells are JSON values so that CSV and
// JSON keep exact numbers while the text form adds separators and units.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pvacli {

/// Keys in the order they are written: summaries read top to bottom like the text form.
using Json = nlohmann::ordered_json;

enum class TableFormat { Text, Csv, JsonObject };

/// Parses "table", "csv" or "json" (CLI11 has already checked the spelling).
TableFormat parseTableFormat(const std::string& s);

struct Column {
  enum class Kind {
    Text,    ///< left-aligned as is
    Count,   ///< integer with thousands separators
    Percent, ///< a fraction (0.25) shown as "25.0%"
  };
  std::string name; ///< also the JSON key and the CSV header
  Kind kind = Kind::Text;
};

class Table {
public:
  Table(std::string title, std::vector<Column> columns)
      : title_(std::move(title)), columns_(std::move(columns)) {}
  /// One value per column.
  void add(std::vector<Json> row) { rows_.push_back(std::move(row)); }
  std::size_t size() const { return rows_.size(); }
  /// Facts about the whole table (the peak step of live-at-peak...): caption lines in the text
  /// form, fields beside "rows" in JSON, left out of CSV so that it stays one table.
  Json meta = Json::object();

  void write(std::ostream& out, TableFormat format) const;
  void writeText(std::ostream& out) const;
  void writeCsv(std::ostream& out) const;
  Json toJson() const;

private:
  std::string title_;
  std::vector<Column> columns_;
  std::vector<std::vector<Json>> rows_;
};

/// A JSON value as CSV or text shows it ("" for null).
std::string plainText(const Json& v);
/// RFC 4180 quoting: fields with commas, quotes or line breaks are quoted, quotes doubled.
std::string csvField(const std::string& s);
/// Pretty JSON with a final newline. Infinity and NaN must already be null (JSON has neither).
void writeJson(std::ostream& out, const Json& j);

} // namespace pvacli
