#include "output/Progress.hpp"

#include "output/Format.hpp"

#include <cstdio>
#include <unistd.h>

namespace pvacli {

namespace {
bool stderrIsTerminal() {
  return isatty(fileno(stderr)) != 0;
}
} // namespace

Progress::Progress(std::string what, std::uint64_t total, bool forced)
    : what_(std::move(what)), total_(total), enabled_(forced || stderrIsTerminal()),
      tty_(stderrIsTerminal()), stepsOf100_(tty_ ? 100 : 10) {
  if (!enabled_) return;
  if (total_ == 0)
    std::fprintf(stderr, "%s...\n", what_.c_str());
  else
    show(0);
}

Progress::~Progress() {
  if (!enabled_) return;
  if (total_ != 0 && lastShown_ != stepsOf100_) show(total_);
  if (tty_ && total_ != 0) std::fprintf(stderr, "\n");
  std::fflush(stderr);
}

void Progress::show(std::uint64_t done) {
  lastShown_ = done * stepsOf100_ / total_;
  const unsigned percent = static_cast<unsigned>(done * 100 / total_);
  if (tty_)
    std::fprintf(stderr, "\r%s... %3u%%", what_.c_str(), percent);
  else
    std::fprintf(stderr, "%s: %u%%\n", what_.c_str(), percent);
  std::fflush(stderr);
}

void Progress::note(const std::string& message, bool forced) {
  if (forced || stderrIsTerminal()) {
    std::fprintf(stderr, "%s\n", message.c_str());
    std::fflush(stderr);
  }
}

} // namespace pvacli
