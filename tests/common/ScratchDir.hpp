// Scratch directories: a fresh, empty directory for one test case, removed when it ends.
#pragma once

#include <filesystem>
#include <string>

namespace test {

/// A fresh, empty directory for one test case (under the build tree), removed afterwards.
class ScratchDir {
public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
  std::filesystem::path path_;
};

} // namespace test
