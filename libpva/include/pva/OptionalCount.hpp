// pva::OptionalCount: a count, or none ("no estimate"), shaped like std::optional<std::uint64_t>
// because public headers stay C++11 (Poplar-style programs build with -std=c++11).
#pragma once

#include <cstdint>

namespace pva {

/// Test it before use (`if (x)`, has_value()); value() and `*` throw InvalidArgumentError when
/// there is none. Python sees an int or None.
class OptionalCount {
public:
  OptionalCount() = default;
  explicit OptionalCount(std::uint64_t value) : value_(value), has_(true) {}
  bool has_value() const { return has_; }
  explicit operator bool() const { return has_; }
  std::uint64_t value() const;
  std::uint64_t operator*() const { return value(); }
  std::uint64_t value_or(std::uint64_t none) const { return has_ ? value_ : none; }
  bool operator==(const OptionalCount& o) const {
    return has_ == o.has_ && (!has_ || value_ == o.value_);
  }
  bool operator!=(const OptionalCount& o) const { return !(*this == o); }
  /// As std::optional: equal to a value when it holds that value.
  friend bool operator==(const OptionalCount& a, std::uint64_t v) {
    return a.has_ && a.value_ == v;
  }
  friend bool operator==(std::uint64_t v, const OptionalCount& a) { return a == v; }
  friend bool operator!=(const OptionalCount& a, std::uint64_t v) { return !(a == v); }
  friend bool operator!=(std::uint64_t v, const OptionalCount& a) { return !(a == v); }

private:
  std::uint64_t value_ = 0;
  bool has_ = false;
};

} // namespace pva
