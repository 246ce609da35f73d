// Parsing of "major.minor.point" for the format-version rule (FormatVersionRule.hpp).
#include <charconv>
#include <profiler/FormatVersionRule.hpp>

namespace tessera::profiler::schema {

std::optional<FormatVersion> parseFormatVersion(std::string_view text) {
  unsigned parts[3] = {0, 0, 0};
  const char* p = text.data();
  const char* end = text.data() + text.size();
  for (int i = 0; i < 3; ++i) {
    if (i > 0) {
      if (p == end || *p != '.') return std::nullopt;
      ++p;
    }
    // from_chars takes no sign and no spaces: "1.-1.0" and " 1.0.0" are malformed, as they should
    // be.
    const auto [next, ec] = std::from_chars(p, end, parts[i]);
    if (ec != std::errc() || next == p) return std::nullopt;
    p = next;
  }
  if (p != end) return std::nullopt;
  return FormatVersion{parts[0], parts[1], parts[2]};
}

} // namespace tessera::profiler::schema
