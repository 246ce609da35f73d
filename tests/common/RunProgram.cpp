#include "common/RunProgram.hpp"

#include <cstdlib>
#include <sys/wait.h>

namespace test {

int runProgram(const std::string& command) {
  const int status = std::system((command + " > /dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace test
