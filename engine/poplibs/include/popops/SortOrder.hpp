// The order sorting operations (topK) leave their results in.
#pragma once

#include <iosfwd>

namespace popops {

enum class SortOrder {
  NONE,      ///< any order
  ASCENDING, ///< smallest first
  DESCENDING ///< largest first
};

std::ostream& operator<<(std::ostream& os, const SortOrder& o);

} // namespace popops
