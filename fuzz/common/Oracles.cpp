#include "Oracles.hpp"

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace fuzz {

bool parsesAsJson(std::string_view text) {
  return nlohmann::json::accept(text.begin(), text.end());
}

std::string jsonError(std::string_view text) {
  try {
    const nlohmann::json parsed = nlohmann::json::parse(text.begin(), text.end());
    (void)parsed;
  } catch (const nlohmann::json::exception& e) {
    return e.what();
  }
  return "json::accept refused what json::parse reads";
}

bool wellFormedUtf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    const unsigned c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    // The length of the sequence and the range of its second byte (table 3-7).
    std::size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
      n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
      n = 3;
      if (c == 0xE0)
        lo = 0xA0; // no overlong forms
      else if (c == 0xED)
        hi = 0x9F; // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 4;
      if (c == 0xF0)
        lo = 0x90; // no overlong forms
      else if (c == 0xF4)
        hi = 0x8F; // nothing above U+10FFFF
    } else
      return false;
    if (std::size_t(end - p) < n || p[1] < lo || p[1] > hi) return false;
    for (std::size_t i = 2; i < n; ++i)
      if (p[i] < 0x80 || p[i] > 0xBF) return false;
    p += n;
  }
  return true;
}

void mustParseJson(std::string_view text, const char* what) {
  if (parsesAsJson(text)) return;
  std::fprintf(stderr, "==fuzz oracle== %s wrote JSON that does not parse: %s\n", what,
               jsonError(text).c_str());
  std::abort();
}

void mustBeUtf8(std::string_view text, const char* what) {
  if (wellFormedUtf8(text)) return;
  std::fprintf(stderr, "==fuzz oracle== %s wrote text that is not UTF-8\n", what);
  std::abort();
}

} // namespace fuzz
