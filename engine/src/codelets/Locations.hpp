// Where Tessera's own files are, found from libpoplar's location (dladdr), so an installed tree
// works from any prefix and the build tree works in place.
#pragma once

#include <string>

namespace poplar::detail::codelets {

/// The popc program next to this libpoplar (install: <libdir>/../bin; build tree: its bin/).
std::string popcPath();
/// The directory of the running program (/proc/self/exe), where Poplar also looks for codelets.
std::string executableDirectory();

} // namespace poplar::detail::codelets
