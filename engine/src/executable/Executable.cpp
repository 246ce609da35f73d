#include "ExecutableState.hpp"

#include <istream>
#include <poplar/exceptions.hpp>

namespace poplar {

Executable::Executable() = default;
Executable::~Executable() = default;
Executable::Executable(Executable&& other) noexcept = default;
Executable& Executable::operator=(Executable&& other) noexcept = default;
Executable::Executable(std::unique_ptr<core::Executable> state) : impl(std::move(state)) {}

void Executable::serialize(std::ostream& out) const {
  if (!impl)
    throw poplar_error(
        "Executable::serialize: the executable is empty (moved into an Engine, or default-made)");
  detail::executable::writeExecutable(*impl, out);
}

Executable Executable::deserialize(std::istream& in, bool checkPackageHash) {
  return Executable(detail::executable::readExecutable(in, checkPackageHash));
}

Executable Executable::deserialize(std::unique_ptr<std::istream> in, bool checkPackageHash) {
  if (!in) throw poplar_error("Executable::deserialize: the stream is null");
  return deserialize(*in, checkPackageHash);
}

} // namespace poplar
