// What the fuzz targets share: reading a seed file in LLVMFuzzerInitialize, and running one
// part of a walk so that an expected error (pva::Exception) ends that part only and the rest
// of the object model is still read.
#pragma once

#include <cstdint>
#include <fstream>
#include <iterator>
#include <pva/Exception.hpp>
#include <string>

namespace fuzz {

/// The whole file, or an empty string (the target then skips what needs it).
inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// Runs f; a pva::Exception is the expected answer to a bad input. Anything else escapes and
/// libFuzzer reports it (an uncaught exception aborts): that is a finding.
template <class F> void part(F&& f) {
  try {
    f();
  } catch (const pva::Exception&) {
  }
}

/// At most this many items of any collection are walked: inputs are small, and a walk that
/// visits every one of a few thousand tiles would make each execution slow for no new code.
constexpr std::size_t kMaxItems = 64;

} // namespace fuzz
