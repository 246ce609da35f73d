// Helpers of the codelet tests: codelet sources written into a scratch directory, a private
// codelet cache per test case, and reads of the cache's entries.
#pragma once

#include "common/ScratchDir.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace test {

/// A codelet with one vertex, Sum: out = the sum of in. codelet_runner runs it.
extern const char* const kSumCodelet;

/// Sets an environment variable for the lifetime of the object, then restores it.
class ScopedEnv {
public:
  ScopedEnv(const char* name, const std::string& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
  std::string name_, old_;
  bool had_ = false;
};

/// A scratch directory whose cache/ is this process's codelet cache (TESSERA_CODELET_CACHE).
class CodeletScratch {
public:
  CodeletScratch();
  std::filesystem::path operator/(const std::string& name) const { return dir_ / name; }
  std::filesystem::path cache() const { return dir_ / "cache"; }
  /// Writes `text` to `name` in the scratch directory; returns its path.
  std::filesystem::path write(const std::string& name, const std::string& text) const;
  /// The compiled entries (*.gp) in the cache.
  std::vector<std::filesystem::path> entries() const;
  /// Runs codelet_runner on `codelet` (its output into `output`); returns its exit status.
  int run(const std::filesystem::path& codelet, const std::filesystem::path& output) const;

private:
  ScratchDir dir_;
  ScopedEnv env_;
};

std::string readFile(const std::filesystem::path& p);
void writeFile(const std::filesystem::path& p, const std::string& bytes);

} // namespace test
