// The planning caches. Tessera's sparse plans are computed directly from the parameters (see
// SparseLayout.hpp), so there is nothing worth caching; the classes exist so that code passing
// a cache compiles and runs.
#include <popsparse/PlanningCache.hpp>

namespace popsparse {
namespace dynamic {
class PlanningCacheImpl {};
PlanningCache::PlanningCache() : impl(std::make_unique<PlanningCacheImpl>()) {}
PlanningCache::PlanningCache(poplin::PlanningCache*) : PlanningCache() {}
PlanningCache::~PlanningCache() = default;
} // namespace dynamic

namespace static_ {
class PlanningCacheImpl {};
PlanningCache::PlanningCache() : impl(std::make_unique<PlanningCacheImpl>()) {}
PlanningCache::PlanningCache(poplin::PlanningCache*) : PlanningCache() {}
PlanningCache::~PlanningCache() = default;
} // namespace static_
} // namespace popsparse
