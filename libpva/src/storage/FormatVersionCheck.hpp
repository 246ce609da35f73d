// Applies the one format-version rule (profiler/FormatVersionRule.hpp) for every file libpva
// reads, with the same wording for each: profile.pop, debug.cbor and .pvti.
#pragma once

#include <profiler/Schema.hpp>
#include <string>
#include <string_view>

namespace pva::storage {

/// Checks the version text `found` of a file shown as `shown`; `what` names its format
/// ("report", "debug information", "trace"). Throws InvalidReportError when `found` is not
/// major.minor.point, UnsupportedVersionError (naming the file and both versions) when the
/// rule says not to read it; returns when the file is to be read.
void checkFormatVersion(const std::string& shown, std::string_view what, std::string_view found,
                        tessera::profiler::schema::FormatVersion ours);

} // namespace pva::storage
