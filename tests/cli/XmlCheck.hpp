// A strict little XML reader for the JUnit output: enough of XML 1.0 to reject what CI systems
// would reject (unbalanced or mismatched tags, unquoted or duplicate attributes, bare '&' or '<',
// text outside the root), and a tree to query. No DTDs, no namespaces, no CDATA.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cli {

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes; ///< values with entities decoded
  std::vector<XmlElement> children;
  std::string text; ///< character data directly inside, entities decoded

  /// Every descendant (not this element) with this name, in document order.
  std::vector<const XmlElement*> findAll(const std::string& name) const;
};

/// Parses a whole document; throws std::runtime_error saying where it is not well formed.
XmlElement parseXml(const std::string& document);

} // namespace cli
