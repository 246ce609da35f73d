// Reads serialized_graph.capnp (message SerializedGraph of profiler/schema/profile.capnp, one
// unpacked Cap'n Proto message as the engine writes it) into pva::SerializedGraph. The only
// place libpva decodes that file; every malformation becomes an InvalidReportError naming it.
#pragma once

#include "OpenFile.hpp"

#include <pva/SerializedGraph.hpp>

namespace pva::storage {

/// Throws FileNotFoundError or InvalidReportError (empty, truncated, corrupted, trailing bytes,
/// a region or mapping that points outside the graph).
SerializedGraph readSerializedGraph(const Source& source, SerializedGraphDetail detail);

} // namespace pva::storage
