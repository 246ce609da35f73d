#include <atomic>
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

namespace {
DebugId nextDebugInfoId() {
  static std::atomic<DebugId> counter{0};
  return ++counter;
}
} // namespace

DebugInfo::DebugInfo(const DebugContext& debugContext, std::string layer)
    : context_(debugContext), id_(nextDebugInfoId()) {
  context_.layer_ = std::move(layer);
}

DebugInfo::DebugInfo(const DebugContext& parent, std::string layer, std::string opType,
                     SourceLocation loc)
    : context_(parent, opType, loc), id_(nextDebugInfoId()) {
  context_.setOp(std::move(layer), std::move(opType));
}

DebugInfo::~DebugInfo() = default;

bool DebugInfo::setValue(std::string name, ProfileValue value) {
  return values_.emplace(std::move(name), std::move(value)).second;
}

} // namespace poplar
