// autoReport.outputSerializedGraph: the graph as the program built it (variables with their tile
// mappings, compute sets, vertices and their edges), as one Cap'n Proto message
// (SerializedGraph in profiler/schema/profile.capnp).
#pragma once

#include "../CompiledGraph.hpp"

#include <string>

namespace poplar::detail::report {

/// Writes the message to `path` (via "<path>.partial" and a rename). Throws profiling_error
/// naming the file on failure.
void writeSerializedGraph(const std::string& path, const CompiledGraph& g);

} // namespace poplar::detail::report
