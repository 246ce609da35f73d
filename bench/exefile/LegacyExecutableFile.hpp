// The hand-written executable format (format version 2), the baseline of bench_executable_file.
#pragma once

#include "executable/ExecutableState.hpp"

#include <iosfwd>
#include <memory>

namespace poplar::detail::executable {

void legacyWriteExecutable(const core::Executable& exe, std::ostream& out);
/// `checkGraph` false skips ExecutableChecks (to look at a file those checks refuse).
std::unique_ptr<core::Executable> legacyReadExecutable(std::istream& in, bool checkPackageHash,
                                                       bool checkGraph = true);

} // namespace poplar::detail::executable
