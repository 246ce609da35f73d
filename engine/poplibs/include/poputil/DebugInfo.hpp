// The debug context of a PopLibs operation: a child of the caller's context, named after the
// op, that marks everything the op creates as layer "poplibs" with the op's type (shown by the
// profile's debug information and the viewer's Operations view).
#pragma once

#include <poplar/DebugContext.hpp>
#include <string>

namespace poputil {

class PoplibsOpDebugInfo : public poplar::DebugContext {
public:
  PoplibsOpDebugInfo(const poplar::DebugContext& parent, const std::string& opType,
                     poplar::SourceLocation loc = poplar::SourceLocation::Current())
      : poplar::DebugContext(parent, opType, loc) {
    setOp("poplibs", opType);
  }
};

} // namespace poputil
