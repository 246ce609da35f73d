#include <poplar/Version.hpp>

namespace poplar {

std::string packageHash() {
  return std::string(TESSERA_CODELET_ABI_HASH).substr(0, 10);
}

std::string versionString() {
  return std::string(TESSERA_VERSION) + " (" + packageHash() + ")";
}

} // namespace poplar
