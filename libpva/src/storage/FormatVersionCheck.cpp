#include "FormatVersionCheck.hpp"

#include <profiler/FormatVersionRule.hpp>
#include <pva/Exception.hpp>

namespace pva::storage {

namespace S = tessera::profiler::schema;

void checkFormatVersion(const std::string& shown, std::string_view what, std::string_view found,
                        S::FormatVersion ours) {
  const auto v = S::parseFormatVersion(found);
  if (!v)
    throw InvalidReportError(shown + ": corrupted " + std::string(what) + " (format version '" +
                             std::string(found) + "' is not major.minor.point)");
  const S::VersionVerdict verdict = S::versionVerdict(*v, ours);
  if (verdict == S::VersionVerdict::read) return;
  const bool newer = verdict == S::VersionVerdict::newerMajor;
  throw UnsupportedVersionError(
      shown + ": " + std::string(what) + " format " + std::string(found) + " is " +
      (newer ? "newer" : "older") + " than this libpva reads (format " +
      std::to_string(ours.major) + ".x; it writes " + S::toString(ours) + ")" +
      (newer ? "; update Tessera to read it" : "; write it again with this Tessera"));
}

} // namespace pva::storage
