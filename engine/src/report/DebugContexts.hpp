// Interns debug contexts into the numbered list that debug.cbor stores and profile.pop refers to.
// Contexts are equal when they have the same parent, name and source location, so the many
// copies a graph holds of one context become one record.
#pragma once

#include <map>
#include <optional>
#include <poplar/DebugContext.hpp>
#include <profiler/DebugInfoWriter.hpp>
#include <tuple>
#include <vector>

namespace poplar::detail::report {

class DebugContexts {
public:
  /// The id of `dc`, adding it (and its parents) when new. Unnamed roots without a location
  /// have no id.
  std::optional<std::uint32_t> intern(const DebugContext& dc);
  const std::vector<tessera::profiler::DebugContextRecord>& records() const { return records_; }

private:
  using Key =
      std::tuple<std::int64_t, std::string, std::string, std::string, unsigned, std::string>;
  std::map<Key, std::uint32_t> ids_;
  std::vector<tessera::profiler::DebugContextRecord> records_;
};

} // namespace poplar::detail::report
