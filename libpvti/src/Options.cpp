#include "Options.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>

namespace pvti::detail {

namespace {

// Each key is read on its own: a bad value costs that key only, and says so.
void readEnable(const nlohmann::json& j, Options& o) {
  if (j.is_boolean())
    o.enable = j.get<bool>();
  else if (j.is_string() && (j == "true" || j == "false"))
    o.enable = j == "true";
  else
    o.warning += "'enable' must be true or false (got " + j.dump() + "); ";
}

void readDirectory(const nlohmann::json& j, Options& o) {
  if (j.is_string())
    o.directory = j.get<std::string>();
  else
    o.warning += "'directory' must be a string (got " + j.dump() + "); ";
}

void readChannels(const nlohmann::json& j, Options& o) {
  bool ok = j.is_array();
  if (ok)
    for (const auto& c : j)
      ok = ok && c.is_string();
  if (!ok) {
    o.warning += "'channels' must be a list of channel names (got " + j.dump() + "); ";
    return;
  }
  for (const auto& c : j)
    o.channels.push_back(c.get<std::string>());
}

void readDuration(const nlohmann::json& j, Options& o) {
  double d = -1;
  if (j.is_number())
    d = j.get<double>();
  else if (j.is_string()) {
    try {
      std::size_t used = 0;
      const std::string s = j.get<std::string>();
      d = std::stod(s, &used);
      if (used != s.size()) d = -1;
    } catch (const std::exception&) {
      d = -1;
    }
  }
  // NaN fails both comparisons; infinity and anything beyond kMaxDurationSeconds would
  // overflow the deadline in nanoseconds (a float-to-integer overflow), so they are refused
  // like a negative number: the default (no limit) applies, and the warning says why.
  if (d >= 0 && d <= kMaxDurationSeconds)
    o.durationSeconds = d;
  else
    o.warning += "'duration' must be a number of seconds from 0 to " +
                 std::to_string(std::uint64_t(kMaxDurationSeconds)) + " (got " + j.dump() + "); ";
}

} // namespace

Options parseOptions(const std::string& text) {
  Options o;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    o.warning =
        "PVTI_OPTIONS is not a JSON object ('" + text + "'); tracing with the default options";
    return o;
  }
  for (const auto& [key, value] : j.items()) {
    if (key == "enable")
      readEnable(value, o);
    else if (key == "directory")
      readDirectory(value, o);
    else if (key == "channels")
      readChannels(value, o);
    else if (key == "duration")
      readDuration(value, o);
    else
      o.warning += "unknown key '" + key + "' (known: enable, directory, channels, duration); ";
  }
  if (!o.warning.empty()) {
    o.warning.resize(o.warning.size() - 2); // the last "; "
    o.warning = "PVTI_OPTIONS: " + o.warning + "; using the defaults for those";
  }
  return o;
}

std::optional<std::string> optionsFromEnvironment() {
  const char* env = std::getenv("PVTI_OPTIONS");
  if (!env) return std::nullopt;
  return std::string(env);
}

} // namespace pvti::detail
