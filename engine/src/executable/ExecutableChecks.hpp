// The checks an executable file passes after its fields are read one by one: what each field
// says must agree with the others and with the memory this process can give, because the
// runtime trusts the compiled graph as the compiler made it (a vertex field bound to its bytes,
// a control scalar inside its variable, a printed shape no larger than its elements, buffers
// that fit the host). A file that breaks one is refused before anything is allocated or run.
// Kept apart from the file format itself (ExecutableFile.cpp) so that either can change alone.
#pragma once

#include "compiler/CompiledGraph.hpp"

#include <poplar/OptionFlags.hpp>
#include <stdexcept>

namespace poplar::detail::executable {

/// A field of the executable that contradicts another or the host: readExecutable reports it
/// as "the executable is corrupted: <what>".
struct ExecutableFieldError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Everything the runtime and the models rely on, checked on a graph read from a file. Vertex
/// types must be resolved (types loaded) before it is called.
void checkLoadedGraph(const compiler::CompiledGraph& g);

/// The engine options stored in the file: known names with values of the right kind.
void checkStoredOptions(const OptionFlags& options);

} // namespace poplar::detail::executable
