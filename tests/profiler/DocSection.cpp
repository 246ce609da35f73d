#include "DocSection.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <sstream>

namespace test {

void checkDocSection(const std::string& marker, const std::string& what,
                     const std::string& rendered, const std::string& regenerate) {
  const std::string docPath = std::string(TESSERA_SOURCE_DIR) + "/docs/formats.md";
  std::ifstream in(docPath);
  REQUIRE(in.good());
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string begin = "<!-- " + marker + ":begin -->\n", end = "<!-- " + marker + ":end -->";
  const auto b = doc.find(begin);
  const auto e = doc.find(end);
  INFO(docPath << " must hold the " << what << " between the lines '<!-- " << marker
               << ":begin -->' and '<!-- " << marker << ":end -->'");
  REQUIRE(b != std::string::npos);
  REQUIRE(e != std::string::npos);
  REQUIRE(b + begin.size() <= e);
  const std::string section = doc.substr(b + begin.size(), e - b - begin.size());
  // Point at the first differing line: the whole section is long.
  std::istringstream have(section), want(rendered);
  std::string h, w;
  for (int line = 1;; ++line) {
    const bool moreH = static_cast<bool>(std::getline(have, h));
    const bool moreW = static_cast<bool>(std::getline(want, w));
    if (!moreH && !moreW) break;
    if (!moreH || !moreW || h != w)
      FAIL("The " << what << " section of " << docPath << " is out of date (line " << line
                  << " of the section:\n"
                  << "  docs have:  " << (moreH ? h : "<end of section>") << "\n"
                  << "  schema has: " << (moreW ? w : "<end of section>") << ").\n"
                  << regenerate);
  }
  CHECK(section == rendered);
}

} // namespace test
