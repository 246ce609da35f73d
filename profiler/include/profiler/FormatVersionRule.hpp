// The one rule for reading a file of another format version, shared by every reader of
// profile.pop, debug.cbor and .pvti (libpva's storage/FormatVersionCheck.cpp applies it and
// words the errors; docs/formats.md, "Format versions", documents it):
//
//   same major version  -> read it. A newer minor or point version only adds things (tables,
//                          columns, keys, enum values) that an older reader ignores; an older
//                          minor version lacks nothing a reader of the same major needs.
//   another major       -> do not read it: a newer major changed the meaning of something that
//                          is there, an older one is a layout this reader no longer reads.
#pragma once

#include <optional>
#include <profiler/Schema.hpp>
#include <string_view>

namespace tessera::profiler::schema {

/// "major.minor.point" (three unsigned decimal numbers, nothing else); nullopt otherwise.
std::optional<FormatVersion> parseFormatVersion(std::string_view text);

enum class VersionVerdict { read, newerMajor, olderMajor };

/// What a reader that understands `reader` does with a file of version `file`.
constexpr VersionVerdict versionVerdict(FormatVersion file, FormatVersion reader) {
  return file.major == reader.major  ? VersionVerdict::read
         : file.major > reader.major ? VersionVerdict::newerMajor
                                     : VersionVerdict::olderMajor;
}

} // namespace tessera::profiler::schema
