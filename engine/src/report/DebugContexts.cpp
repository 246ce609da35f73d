#include "DebugContexts.hpp"

namespace poplar::detail::report {

std::optional<std::uint32_t> DebugContexts::intern(const DebugContext& dc) {
  std::optional<std::uint32_t> parent;
  if (dc.getParent()) parent = intern(*dc.getParent());
  const auto& loc = dc.getLocation();
  if (dc.getName().empty() && !parent && !loc.getLineNumber()) return std::nullopt;
  Key key{parent ? std::int64_t(*parent) : -1,
          dc.getName(),
          loc.getFileName(),
          loc.getFunctionName(),
          loc.getLineNumber(),
          dc.getOpType()};
  auto [it, inserted] = ids_.emplace(key, static_cast<std::uint32_t>(records_.size()));
  if (inserted) {
    tessera::profiler::DebugContextRecord r;
    r.id = it->second;
    r.name = dc.getName();
    r.path = dc.getPathName();
    r.layer = dc.getLayer();
    r.opType = dc.getOpType();
    r.file = std::get<2>(key);
    r.function = std::get<3>(key);
    r.line = loc.getLineNumber();
    r.parent = parent;
    records_.push_back(std::move(r));
  }
  return it->second;
}

} // namespace poplar::detail::report
