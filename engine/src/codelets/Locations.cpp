#include "Locations.hpp"

#include <dlfcn.h>
#include <filesystem>

namespace fs = std::filesystem;

namespace poplar::detail::codelets {

std::string popcPath() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&popcPath), &info) && info.dli_fname) {
    std::error_code ec;
    const fs::path lib = fs::canonical(info.dli_fname, ec);
    const fs::path installed = (lib.parent_path() / TESSERA_LIB_TO_BIN / "popc").lexically_normal();
    if (!ec && fs::exists(installed, ec)) return installed.string();
  }
  return TESSERA_BUILD_POPC;
}

std::string executableDirectory() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec).parent_path().string();
}

} // namespace poplar::detail::codelets
