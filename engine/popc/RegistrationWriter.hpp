// Writes the translation unit popc compiles: the codelet source itself (#include) followed by
// the registration of each vertex class the scanner found, in the .gp's entry point.
#pragma once

#include "Scanner.hpp"

#include <string>
#include <vector>

namespace popc {

/// One wrapper per source; `part` numbers them. Part 0 also defines the entry point, which
/// calls every part's registration function (parts = how many sources there are). With
/// `counting`, the part carries the execution-counting support (ExecutionCounting.hpp).
std::string registrationSource(const std::string& sourcePath,
                               const std::vector<ScannedVertex>& vertices, unsigned part,
                               unsigned parts, bool counting);

} // namespace popc
