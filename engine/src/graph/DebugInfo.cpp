#include <atomic>
#include <poplar/DebugInfo.hpp>

namespace poplar {

namespace {

DebugId nextDebugInfoId() {
  static std::atomic<DebugId> counter{0};
  return ++counter;
}

// DebugContext keeps its layer and op type settable by derived classes only.
struct LayerContext : DebugContext {
  LayerContext(const DebugContext& base, std::string layer, std::string opType)
      : DebugContext(base) {
    setOp(std::move(layer), std::move(opType));
  }
};

} // namespace

DebugInfo::DebugInfo(const DebugContext& debugContext, std::string layer)
    : context_(LayerContext(debugContext, std::move(layer), debugContext.getOpType())),
      id_(nextDebugInfoId()) {}

DebugInfo::DebugInfo(const DebugContext& parent, std::string layer, std::string opType,
                     SourceLocation loc)
    : context_(LayerContext(DebugContext(parent, opType, loc), std::move(layer), opType)),
      id_(nextDebugInfoId()) {}

DebugInfo::~DebugInfo() = default;

bool DebugInfo::setValue(std::string name, ProfileValue value) {
  return values_.emplace(std::move(name), std::move(value)).second;
}

} // namespace poplar
