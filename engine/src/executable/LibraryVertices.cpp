#include "LibraryVertices.hpp"

#include <algorithm>
#include <dlfcn.h>
#include <filesystem>
#include <iterator>
#include <poplar/exceptions.hpp>

namespace poplar::detail::executable {
namespace {

/// The directory of the shared library holding this code (libpoplar), or empty.
std::filesystem::path ownDirectory() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&loadVertexLibrary), &info) || !info.dli_fname) return {};
  std::error_code ec;
  auto path = std::filesystem::canonical(info.dli_fname, ec);
  return ec ? std::filesystem::path() : path.parent_path();
}

} // namespace

bool loadVertexLibrary(const std::string& source) {
  // Tessera's PopLibs libraries, each registering its vertices under its own name.
  static const char* const libraries[] = {"poputil", "popops", "poplin", "popnn", "poprand", "gcl"};
  if (std::find(std::begin(libraries), std::end(libraries), source) == std::end(libraries))
    return false;
  const std::string file = "lib" + source + ".so";
  std::string errors;
  // The installation this libpoplar came from first (its PopLibs match it), then the loader's
  // search path (LD_LIBRARY_PATH, as enable.sh sets it).
  std::vector<std::string> candidates;
  if (const auto dir = ownDirectory(); !dir.empty()) candidates.push_back((dir / file).string());
  candidates.push_back(file);
  for (const auto& candidate : candidates) {
    // Kept loaded for the life of the process: the registered vertices point into it.
    if (dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL)) return true;
    if (const char* e = dlerror()) errors += std::string("\n  ") + e;
  }
  throw poplar_error("Executable::deserialize: the executable runs vertices of " + source +
                     " and " + file + " could not be loaded (link the program with -l" + source +
                     ", or put Tessera's lib directory on LD_LIBRARY_PATH):" + errors);
}

} // namespace poplar::detail::executable
