// The executable file's payload as a Cap'n Proto message (profiler/schema/executable.capnp): the
// compiled graph turned into a message (ExecutableWrite.cpp) and back (ExecutableRead.cpp). The
// file's header, checksum and the limits a hostile message is read under are ExecutableFile.cpp's.
#pragma once

#include "ExecutableState.hpp"

#include <map>
#include <profiler/schema/executable.capnp.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace poplar::detail::executable {

namespace exefile = tessera::profiler::capnp::exe;

/// A message that Cap'n Proto reads but that is not a graph this Tessera wrote: readExecutable
/// reports it as "the executable is corrupted: <what>".
struct FormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Fills `out` with `exe`; reads the codelet objects its vertex types were loaded from.
void buildExecutableMessage(const core::Executable& exe, exefile::Executable::Builder out);

/// The message's name, options, vertex type names and codelet objects, read but not acted on.
struct MessageHead {
  std::string name;
  std::vector<std::pair<std::string, std::string>> options;
  std::vector<std::pair<std::string, std::string>> typeNames; ///< name, codelet source
  std::map<std::string, std::string> objects;                 ///< codelet source -> .gp bytes
};
MessageHead readMessageHead(exefile::Executable::Reader in);

/// The compiled graph of the message, every index and memory run checked against the graph.
/// `types` are the vertex types by index; null entries (a first reading, before the codelet
/// objects are loaded) skip the checks that need a vertex type's fields.
compiler::CompiledGraph readCompiledGraph(exefile::Executable::Reader in,
                                          const std::vector<const VertexTypeDescriptor*>& types);

} // namespace poplar::detail::executable
