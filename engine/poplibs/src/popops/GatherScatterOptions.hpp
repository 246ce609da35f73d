// The options gather and scatter accept: PopLibs hands them on to the slices and updates it
// plans, so they are the slice planning options and dynamicSlice's. Tessera checks them; results
// do not depend on them.
#pragma once

#include "poplibs_support/TileWork.hpp"

#include <poplar/OptionFlags.hpp>
#include <string>

namespace popops {
namespace detail {

inline void checkGatherScatterOptions(const poplar::OptionFlags& options, const std::string& op) {
  poplibs_support::checkOptions(options,
                                {"usedForSlice", "usedForUpdate", "operationForUpdate",
                                 "availableMemoryProportion", "indicesDistribution",
                                 "planMinimisationTarget", "indicesAreSorted", "partialType",
                                 "remapOutOfBoundIndices", "paddingIndexUsed"},
                                op);
}

} // namespace detail
} // namespace popops
