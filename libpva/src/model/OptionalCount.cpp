#include <pva/Exception.hpp>
#include <pva/OptionalCount.hpp>

namespace pva {

std::uint64_t OptionalCount::value() const {
  if (!has_)
    throw InvalidArgumentError("no value: test has_value() first (the report has no estimate)");
  return value_;
}

} // namespace pva
