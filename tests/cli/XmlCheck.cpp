#include "XmlCheck.hpp"

#include <cctype>
#include <stdexcept>

namespace cli {

namespace {

class Parser {
public:
  explicit Parser(const std::string& s) : s_(s) {}

  XmlElement document() {
    skipMisc();
    if (s_.compare(i_, 5, "<?xml") == 0) {
      const auto end = s_.find("?>", i_);
      if (end == std::string::npos) fail("unterminated XML declaration");
      i_ = end + 2;
    }
    skipMisc();
    XmlElement root = element();
    skipMisc();
    if (i_ != s_.size()) fail("content after the root element");
    return root;
  }

private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("XML not well formed at offset " + std::to_string(i_) + ": " + what);
  }
  bool nameChar(char c) const {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
           c == ':';
  }
  void skipSpace() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_])))
      ++i_;
  }
  /// Whitespace and comments between elements.
  void skipMisc() {
    for (;;) {
      skipSpace();
      if (s_.compare(i_, 4, "<!--") != 0) return;
      const auto end = s_.find("-->", i_ + 4);
      if (end == std::string::npos) fail("unterminated comment");
      i_ = end + 3;
    }
  }
  std::string name() {
    const std::size_t b = i_;
    if (i_ >= s_.size() || !(std::isalpha(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_'))
      fail("expected a name");
    while (i_ < s_.size() && nameChar(s_[i_]))
      ++i_;
    return s_.substr(b, i_ - b);
  }
  /// Character data up to `stop`, entities decoded; a bare '<' or '&' is an error.
  std::string chars(char stop) {
    std::string out;
    while (i_ < s_.size() && s_[i_] != stop) {
      const char c = s_[i_];
      if (c == '<') fail("'<' in character data");
      if (c == '&') {
        const auto semi = s_.find(';', i_);
        if (semi == std::string::npos || semi - i_ > 10) fail("bare '&'");
        const std::string ent = s_.substr(i_ + 1, semi - i_ - 1);
        if (ent == "amp")
          out += '&';
        else if (ent == "lt")
          out += '<';
        else if (ent == "gt")
          out += '>';
        else if (ent == "quot")
          out += '"';
        else if (ent == "apos")
          out += '\'';
        else if (!ent.empty() && ent[0] == '#')
          out += '?'; // numeric reference: accepted
        else
          fail("unknown entity &" + ent + ";");
        i_ = semi + 1;
        continue;
      }
      out += c;
      ++i_;
    }
    return out;
  }
  XmlElement element() {
    if (i_ >= s_.size() || s_[i_] != '<') fail("expected '<'");
    ++i_;
    XmlElement e;
    e.name = name();
    for (;;) {
      skipSpace();
      if (i_ >= s_.size()) fail("unterminated start tag <" + e.name);
      if (s_.compare(i_, 2, "/>") == 0) {
        i_ += 2;
        return e;
      }
      if (s_[i_] == '>') {
        ++i_;
        break;
      }
      const std::string attr = name();
      skipSpace();
      if (i_ >= s_.size() || s_[i_] != '=') fail("attribute " + attr + " without '='");
      ++i_;
      skipSpace();
      if (i_ >= s_.size() || (s_[i_] != '"' && s_[i_] != '\''))
        fail("attribute " + attr + " not quoted");
      const char quote = s_[i_++];
      std::string value = chars(quote);
      if (i_ >= s_.size()) fail("unterminated attribute " + attr);
      ++i_;
      if (!e.attributes.emplace(attr, value).second) fail("duplicate attribute " + attr);
    }
    for (;;) {
      e.text += chars('<');
      if (i_ >= s_.size()) fail("unclosed element <" + e.name + ">");
      if (s_.compare(i_, 4, "<!--") == 0) {
        skipMisc();
        continue;
      }
      if (s_.compare(i_, 2, "</") == 0) {
        i_ += 2;
        const std::string closing = name();
        if (closing != e.name) fail("</" + closing + "> closes <" + e.name + ">");
        skipSpace();
        if (i_ >= s_.size() || s_[i_] != '>') fail("unterminated end tag");
        ++i_;
        return e;
      }
      e.children.push_back(element());
    }
  }

  const std::string& s_;
  std::size_t i_ = 0;
};

void collect(const XmlElement& e, const std::string& name, std::vector<const XmlElement*>& out) {
  for (const XmlElement& c : e.children) {
    if (c.name == name) out.push_back(&c);
    collect(c, name, out);
  }
}

} // namespace

std::vector<const XmlElement*> XmlElement::findAll(const std::string& n) const {
  std::vector<const XmlElement*> out;
  collect(*this, n, out);
  return out;
}

XmlElement parseXml(const std::string& document) {
  return Parser(document).document();
}

} // namespace cli
