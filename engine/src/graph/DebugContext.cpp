#include <poplar/DebugContext.hpp>
#include <vector>

namespace poplar {

std::string DebugContext::getPathName() const {
  std::vector<const std::string*> names;
  for (const DebugContext* c = this; c; c = c->getParent())
    if (!c->name_.empty()) names.push_back(&c->name_);
  std::string path;
  for (auto it = names.rbegin(); it != names.rend(); ++it) {
    if (!path.empty()) path += '/';
    path += **it;
  }
  return path;
}

} // namespace poplar
