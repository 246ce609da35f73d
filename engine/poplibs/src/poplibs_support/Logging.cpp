#include "poplibs_support/Logging.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <unistd.h>

namespace poplibs_support {

namespace {

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return char(std::toupper(c)); });
  return s;
}

/// True if `level` (PopLibs' names) lets warnings through.
bool showsWarnings(const char* level) {
  if (!level) return false;
  const std::string l = upper(level);
  return l == "TRACE" || l == "DEBUG" || l == "INFO" || l == "WARN";
}

} // namespace

void logWarning(const std::string& module, const std::string& message) {
  const std::string moduleVar = "POPLIBS_" + upper(module) + "_LOG_LEVEL";
  const char* own = std::getenv(moduleVar.c_str());
  if (!showsWarnings(own ? own : std::getenv("POPLIBS_LOG_LEVEL"))) return;
  // One line as PopLibs' logger prints it: the module, the process and the level.
  const std::string line =
      "PL:" + upper(module) + " " + std::to_string(getpid()) + " W: " + message + "\n";
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  const char* dest = std::getenv("POPLIBS_LOG_DEST");
  const std::string d = dest ? dest : "stderr";
  if (d == "stderr") {
    std::cerr << line << std::flush;
  } else if (d == "stdout") {
    std::cout << line << std::flush;
  } else {
    std::ofstream out(d, std::ios::app);
    out << line;
  }
}

} // namespace poplibs_support
