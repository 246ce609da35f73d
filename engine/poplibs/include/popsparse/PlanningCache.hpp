// Caches of sparse operation plans. Optional: Tessera's plans are cheap to compute, so the caches
// only hold what was planned for reuse by later calls with the same parameters.
#pragma once

#include <memory>

namespace poplin {
class PlanningCache;
} // namespace poplin

namespace popsparse {
namespace dynamic {

class PlanningCacheImpl;

class PlanningCache {
public:
  PlanningCache();
  /// Tessera's sparse plans use no poplin plans; the argument is accepted and not kept.
  PlanningCache(poplin::PlanningCache* planningCache);
  ~PlanningCache();
  std::unique_ptr<PlanningCacheImpl> impl;
};

} // namespace dynamic

namespace static_ {

class PlanningCacheImpl;

class PlanningCache {
public:
  PlanningCache();
  PlanningCache(poplin::PlanningCache* planningCache);
  ~PlanningCache();
  std::unique_ptr<PlanningCacheImpl> impl;
};

} // namespace static_
} // namespace popsparse
