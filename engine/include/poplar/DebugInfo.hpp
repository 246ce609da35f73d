// A debug record made by a software layer ("poplibs" for PopLibs ops): a context with that
// layer, and named values (the op's arguments and outputs) set on it as the layer goes.
// Differs from Poplar: declared here rather than in DebugContext.hpp (poputil/DebugInfo.hpp
// includes it), it converts to the DebugContext its objects are made under (`{di}`,
// `{di, "child"}`) instead of DebugContext having a constructor from it, and the values stay in
// memory (getValues) rather than being written to debug.cbor; the layer and op type reach the
// report through the contexts made from it.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/ProfileValue.hpp>
#include <string>

namespace poplar {

class DebugInfo {
public:
  DebugInfo(const DebugContext& debugContext, std::string layer);
  DebugInfo& operator=(const DebugInfo&) = delete;
  DebugInfo(const DebugInfo&) = delete;
  virtual ~DebugInfo();

  DebugId getId() const { return id_; }
  std::string getPathName() const { return context_.getPathName(); }
  /// Adds a value; false (and the value unchanged) when `name` is already set.
  bool setValue(std::string name, ProfileValue value);

  /// Tessera: the values set so far, and the context the layer's objects are made under.
  const ProfileValue::Map& getValues() const { return values_; }
  const DebugContext& getContext() const { return context_; }
  operator const DebugContext&() const { return context_; } // NOLINT: `{di}` as in Poplar

protected:
  /// Tessera: a child context named after the op, with the op's type (the Operations view
  /// groups by it).
  DebugInfo(const DebugContext& parent, std::string layer, std::string opType, SourceLocation loc);

private:
  DebugContext context_;
  DebugId id_;
  ProfileValue::Map values_;
};

} // namespace poplar
