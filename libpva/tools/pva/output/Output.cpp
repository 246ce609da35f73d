#include "output/Output.hpp"

#include "output/Format.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace pvacli {

TableFormat parseTableFormat(const std::string& s) {
  if (s == "csv") return TableFormat::Csv;
  if (s == "json") return TableFormat::JsonObject;
  return TableFormat::Text;
}

std::string plainText(const Json& v) {
  if (v.is_null()) return "";
  // Text from a report (names chosen by user programs, or a damaged file) may not be UTF-8:
  // CSV and text get it with invalid bytes replaced by U+FFFD, as JSON output does.
  if (v.is_string())
    return Json::parse(v.dump(-1, ' ', false, Json::error_handler_t::replace)).get<std::string>();
  return v.dump(-1, ' ', false, Json::error_handler_t::replace); // file text may not be UTF-8
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void writeJson(std::ostream& out, const Json& j) {
  // Report names come from user programs: replace invalid UTF-8 instead of throwing mid-output.
  out << j.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

namespace {

std::string cellText(const Json& v, Column::Kind kind) {
  if (v.is_null()) return "-";
  switch (kind) {
  case Column::Kind::Count:
    if (v.is_number_unsigned()) return withCommas(v.get<std::uint64_t>());
    if (v.is_number_integer()) { // a value, not a change: no "+" on positive ones
      const std::int64_t n = v.get<std::int64_t>();
      return n < 0 ? signedWithCommas(n) : withCommas(std::uint64_t(n));
    }
    break;
  case Column::Kind::Percent:
    if (v.is_number()) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.1f%%", v.get<double>() * 100);
      return buf;
    }
    break;
  case Column::Kind::Text:
    break;
  }
  return plainText(v);
}

} // namespace

void Table::writeText(std::ostream& out) const {
  out << title_ << "\n";
  for (const auto& [key, value] : meta.items())
    out << "  " << key << ": " << plainText(value) << "\n";
  if (rows_.empty()) {
    out << "  (none)\n";
    return;
  }
  std::vector<std::vector<std::string>> cells;
  std::vector<std::size_t> widths;
  for (const Column& c : columns_)
    widths.push_back(c.name.size());
  for (const auto& row : rows_) {
    cells.emplace_back();
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      cells.back().push_back(i < row.size() ? cellText(row[i], columns_[i].kind) : "");
      widths[i] = std::max(widths[i], cells.back().back().size());
    }
  }
  auto line = [&](const std::vector<std::string>& values) {
    std::string s = " ";
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::string pad(widths[i] - values[i].size(), ' ');
      // Numbers right-aligned so that digits line up; the last text column is not padded.
      if (columns_[i].kind == Column::Kind::Text)
        s += " " + values[i] + (i + 1 < values.size() ? pad : "");
      else
        s += " " + pad + values[i];
      if (i + 1 < values.size()) s += " ";
    }
    out << s << "\n";
  };
  std::vector<std::string> header;
  for (const Column& c : columns_)
    header.push_back(c.name);
  line(header);
  for (const auto& row : cells)
    line(row);
}

void Table::writeCsv(std::ostream& out) const {
  for (std::size_t i = 0; i < columns_.size(); ++i)
    out << (i ? "," : "") << csvField(columns_[i].name);
  out << "\n";
  for (const auto& row : rows_) {
    for (std::size_t i = 0; i < columns_.size(); ++i)
      out << (i ? "," : "") << csvField(i < row.size() ? plainText(row[i]) : "");
    out << "\n";
  }
}

Json Table::toJson() const {
  Json j;
  j["title"] = title_;
  for (const auto& [key, value] : meta.items())
    j[key] = value;
  Json rows = Json::array();
  for (const auto& row : rows_) {
    Json o = Json::object();
    for (std::size_t i = 0; i < columns_.size(); ++i)
      o[columns_[i].name] = i < row.size() ? row[i] : nullptr;
    rows.push_back(std::move(o));
  }
  j["rows"] = std::move(rows);
  return j;
}

void Table::write(std::ostream& out, TableFormat format) const {
  switch (format) {
  case TableFormat::Text:
    writeText(out);
    break;
  case TableFormat::Csv:
    writeCsv(out);
    break;
  case TableFormat::JsonObject:
    writeJson(out, toJson());
    break;
  }
}

} // namespace pvacli
