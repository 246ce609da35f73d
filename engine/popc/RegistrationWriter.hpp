// Writes the translation unit popc compiles: the codelet source itself (#include) followed by
// the registration of each vertex class the scanner found, in the .gp's entry point.
#pragma once

#include "Scanner.hpp"

#include <string>
#include <vector>

namespace popc {

/// One wrapper per source. `part` (letters and digits) names its registration function and
/// its helper types: unique across every .gp that may be linked with it, as separately compiled
/// parts meet in one shared object. With `counting`, the part counts the instructions it
/// executes (ExecutionCounting.hpp) into the counter the entry source defines.
std::string registrationSource(const std::string& sourcePath,
                               const std::vector<ScannedVertex>& vertices, const std::string& part,
                               bool counting);

/// The registration function of part `part`.
std::string partFunction(const std::string& part);

/// The .gp's entry points, compiled last: the registration symbol Graph::addCodelets calls,
/// which calls every part's, and with `counting` the instruction counter and its accessor.
std::string entrySource(const std::vector<std::string>& parts, bool counting);

} // namespace popc
