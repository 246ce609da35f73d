// How Graph::addVariable maps a new variable to tiles. Its own header, as in Poplar.
#pragma once

namespace poplar {

/// NONE: the caller maps it (setTileMapping); LINEAR: spread evenly over the graph's tiles.
enum class VariableMappingMethod { NONE, LINEAR };

} // namespace poplar
