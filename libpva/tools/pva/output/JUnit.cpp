#include "output/JUnit.hpp"

#include <ostream>

namespace pvacli {

std::string xmlEscape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') break;
      out += c;
    }
  }
  return out;
}

void writeJUnit(std::ostream& out, const std::string& name, const std::vector<GateCheck>& checks) {
  std::size_t failures = 0, skipped = 0;
  for (const GateCheck& g : checks) {
    if (!g.passed) ++failures;
    if (g.skipped) ++skipped;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"pva compare\" tests=\"" << checks.size() << "\" failures=\""
      << failures << "\">\n";
  out << "  <testsuite name=\"" << xmlEscape(name) << "\" tests=\"" << checks.size()
      << "\" failures=\"" << failures << "\" errors=\"0\" skipped=\"" << skipped << "\">\n";
  for (const GateCheck& g : checks) {
    out << "    <testcase classname=\"pva.compare\" name=\"" << xmlEscape(g.id) << "\"";
    if (g.passed && !g.skipped) {
      out << ">\n      <system-out>" << xmlEscape(g.message) << "</system-out>\n    </testcase>\n";
      continue;
    }
    out << ">\n";
    if (!g.passed)
      out << "      <failure message=\"" << xmlEscape(g.message) << "\" type=\"threshold\">"
          << xmlEscape(g.message) << "</failure>\n";
    else
      out << "      <skipped message=\"" << xmlEscape(g.message) << "\"/>\n";
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

} // namespace pvacli
