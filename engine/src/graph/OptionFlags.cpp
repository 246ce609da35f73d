#include <nlohmann/json.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/exceptions.hpp>

namespace poplar {

const std::string& OptionFlags::at(const std::string& option) const {
  auto it = map_.find(option);
  if (it == map_.end()) throw invalid_option("option '" + option + "' is not set");
  return it->second;
}

OptionFlags parseOptionFlagsJson(const std::string& text, const std::string& origin) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    // parse_error, and out_of_range for a number JSON allows but a double cannot hold (1e400):
    // found by fuzz_engine_options, it escaped as nlohmann's own exception.
    throw invalid_option(origin + ": not valid JSON (" + e.what() + ")");
  }
  if (!j.is_object())
    throw invalid_option(origin + ": expected a JSON object such as {\"option\": \"value\"}");
  OptionFlags flags;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const auto& v = it.value();
    if (v.is_string())
      flags.set(it.key(), v.get<std::string>());
    else if (v.is_boolean())
      flags.set(it.key(), v.get<bool>() ? "true" : "false");
    else if (v.is_number())
      flags.set(it.key(), v.dump());
    else
      throw invalid_option(origin + ": option '" + it.key() +
                           "' must be a string, a boolean or a number");
  }
  return flags;
}

} // namespace poplar
