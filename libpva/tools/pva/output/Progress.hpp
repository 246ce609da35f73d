// Progress of long work on stderr ("reading 1,000,000 steps... 42%"), so that a big report does
// not look like a hang. On a terminal the line is redrawn in place; elsewhere (CI logs, with
// --progress) a line is printed every 10% instead. stdout is never touched: it holds results.
#pragma once

#include <cstdint>
#include <string>

namespace pvacli {

class Progress {
public:
  /// Shown when stderr is a terminal or `forced`; `total` 0 shows no percentage.
  Progress(std::string what, std::uint64_t total, bool forced);
  ~Progress(); ///< ends the line
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// `done` items so far; cheap enough to call on every step (prints only when the shown
  /// percentage changes).
  void update(std::uint64_t done) {
    if (enabled_ && total_ != 0 && done * stepsOf100_ / total_ != lastShown_) show(done);
  }
  bool enabled() const { return enabled_; }
  /// A one-off message under the same rules ("comparing 2 reports...").
  static void note(const std::string& message, bool forced);

private:
  void show(std::uint64_t done);
  std::string what_;
  std::uint64_t total_;
  bool enabled_, tty_;
  std::uint64_t stepsOf100_; ///< 100 on a terminal, 10 otherwise
  std::uint64_t lastShown_ = ~std::uint64_t{0};
};

} // namespace pvacli
