#include <poplar/Version.hpp>

namespace poplar {

std::string packageHash() {
  return std::string(TESSERA_CODELET_ABI_HASH).substr(0, 10);
}

// As the SDK's "3.4.0 (b9d0b5a4d6)": the release whose API Tessera follows, as `popc --version`
// prints it, then Tessera's own version and the build's codelet ABI hash.
std::string versionString() {
  return std::string(TESSERA_POPLAR_SDK_VERSION) + " (tessera-" TESSERA_VERSION " " +
         packageHash() + ")";
}

} // namespace poplar
