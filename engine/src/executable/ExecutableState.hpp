// What a poplar::Executable holds: the compiled graph, the engine options it was compiled with,
// and, once written or read, the codelet objects its vertex types come from.
#pragma once

#include "compiler/CompiledGraph.hpp"

#include <iosfwd>
#include <poplar/Executable.hpp>
#include <poplar/OptionFlags.hpp>
#include <string>

namespace poplar::core {

class Executable {
public:
  detail::compiler::CompiledGraph compiled;
  OptionFlags options; ///< engine options given to compileGraph (POPLAR_ENGINE_OPTIONS merged)
  std::string name;    ///< the debug context's path name: names the report directory
  /// Read by Executable::deserialize: `options` are those of the program that compiled it,
  /// recorded but never applied (docs/engine.md, "Executables").
  bool fromFile = false;
};

} // namespace poplar::core

namespace poplar::detail::executable {

/// The executable file format (docs/engine.md, "Executables"):
///   magic "TSREXE\r\n", format version (u32), Tessera version, codelet ABI hash,
///   payload size (u64), payload checksum (32 hex digits), payload: one unpacked Cap'n Proto
///   message of profiler/schema/executable.capnp.
/// Throws poplar_error naming the problem (`what` names the stream in messages).
void writeExecutable(const core::Executable& exe, std::ostream& out);
std::unique_ptr<core::Executable> readExecutable(std::istream& in, bool checkPackageHash);

/// The current format version (the version rule: profiler/schema/executable.capnp).
constexpr std::uint32_t kExecutableFormatVersion = 3; ///< 3: the Cap'n Proto schema
/// Format versions 1 and 2 had a hand-written payload: refused as "written by an older Tessera".
constexpr std::uint32_t kLastHandWrittenFormatVersion = 2;

} // namespace poplar::detail::executable
