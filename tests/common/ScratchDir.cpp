#include "common/ScratchDir.hpp"

#include <atomic>
#include <unistd.h>

namespace test {

namespace fs = std::filesystem;

ScratchDir::ScratchDir() {
  static std::atomic<int> counter{0};
  path_ = fs::path(TESSERA_TEST_TMP_DIR) /
          ("case-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::remove_all(path_);
  fs::create_directories(path_);
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

} // namespace test
