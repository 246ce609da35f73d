// autoReport.outputSerializedGraph: the graph as the program built it (variables with their tile
// mappings, compute sets, vertices and their edges), as one Cap'n Proto message
// (SerializedGraph in profiler/schema/profile.capnp).
#pragma once

#include "compiler/CompiledGraph.hpp"

#include <ostream>
#include <string>

namespace poplar::detail::report {

/// Writes the message to `path` (via "<path>.partial" and a rename). Throws profiling_error
/// naming the file on failure.
void writeSerializedGraph(const std::string& path, const compiler::CompiledGraph& g);

/// Graph::serialize: the same message written to a stream (Cap'n Proto's stream framing), or
/// its content as one JSON object with the same names.
void writeSerializedGraph(std::ostream& out, const compiler::CompiledGraph& g);
void writeSerializedGraphJson(std::ostream& out, const compiler::CompiledGraph& g);

} // namespace poplar::detail::report
