// The library's version, as Poplar reports it (visible from <poplar/Graph.hpp>, as in Poplar).
#pragma once

#include <string>

namespace poplar {

/// "<version> (<package hash>)": Tessera's version and build, in the SDK's form.
std::string versionString();
/// An identifier of this build (Tessera: the hash of its codelet ABI).
std::string packageHash();

} // namespace poplar
