// framework.json and app.json beside a report (pva/Application.hpp): read, checked and
// flattened to text here, the one place that parses them.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <pva/Application.hpp>
#include <pva/Exception.hpp>
#include <sstream>

namespace pva {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json; // members in file order, as the program wrote them

constexpr std::uintmax_t kMaxBytes = 1u << 20; // a description, not data

std::string scalarText(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "null";
  return v.dump();
}

bool allScalars(const Json& array) {
  for (const Json& e : array)
    if (e.is_object() || e.is_array()) return false;
  return true;
}

void flatten(const std::string& name, const Json& v, ApplicationFile& out) {
  if (v.is_object()) {
    if (v.empty()) out.entries.emplace_back(name, "");
    for (auto it = v.begin(); it != v.end(); ++it)
      flatten(name.empty() ? it.key() : name + "." + it.key(), it.value(), out);
  } else if (v.is_array() && allScalars(v)) {
    std::string text;
    for (const Json& e : v)
      text += (text.empty() ? "" : " ") + scalarText(e);
    out.entries.emplace_back(name, text);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i)
      flatten(name + "[" + std::to_string(i) + "]", v[i], out);
  } else {
    out.entries.emplace_back(name, scalarText(v));
  }
}

} // namespace

std::string ApplicationFile::value(const std::string& name) const {
  for (const auto& e : entries)
    if (e.first == name) return e.second;
  return {};
}

ApplicationFile readApplicationFile(const std::string& path) {
  ApplicationFile f;
  f.path = path;
  std::error_code ec;
  if (!fs::exists(path, ec) || fs::is_directory(path, ec))
    throw FileNotFoundError(
        path + ": " +
        (fs::is_directory(path, ec) ? "is a directory, not a JSON file" : "no such file"));
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw FileNotFoundError(path + ": cannot be read (" + ec.message() + ")");
  if (size > kMaxBytes)
    throw InvalidReportError(path + ": " + std::to_string(size) +
                             " bytes, more than the 1 MiB an application description may take");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileNotFoundError(path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  Json json;
  try {
    json = Json::parse(text.str());
  } catch (const Json::parse_error& e) {
    throw InvalidReportError(path + ": not valid JSON (at byte " + std::to_string(e.byte) + ")");
  }
  if (!json.is_object())
    throw InvalidReportError(path + ": a JSON " + std::string(json.type_name()) +
                             ", not the object of members an application description is");
  f.present = true;
  flatten("", json, f);
  return f;
}

ApplicationInfo readApplicationInfo(const std::string& reportDirectoryOrProfile) {
  std::error_code ec;
  fs::path dir(reportDirectoryOrProfile);
  if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
  ApplicationInfo info;
  auto read = [&](const char* name, ApplicationFile& out) {
    const fs::path p = dir / name;
    out.path = p.string();
    if (fs::exists(p, ec)) out = readApplicationFile(p.string());
  };
  read("framework.json", info.framework);
  read("app.json", info.app);
  return info;
}

} // namespace pva
