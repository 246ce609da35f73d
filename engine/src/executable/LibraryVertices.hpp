// The vertices of the PopLibs libraries for an executable that runs them in a process that
// does not link those libraries: the SDK's executables carry their vertex code, Tessera's name
// the library, which is loaded from the installation this libpoplar belongs to.
#pragma once

#include <string>

namespace poplar::detail::executable {

/// Loads the library whose vertices register under codelet source `source` ("popops",
/// "poplin", ...), so that they register. Returns false when `source` is no such library;
/// throws poplar_error naming the library and why it could not be loaded.
bool loadVertexLibrary(const std::string& source);

} // namespace poplar::detail::executable
