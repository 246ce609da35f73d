// File-system steps shared by the report writers: parent directories, durable atomic renames.
#pragma once

#include <filesystem>
#include <string>

namespace tessera::profiler::detail {

/// "<path>.partial": where a report is built until it is complete.
std::filesystem::path partialPath(const std::filesystem::path& path);
/// Creates the parent directory of `path`; throws ReportError naming `path`.
void createParentDirectory(const std::filesystem::path& path);
/// Removes the file if present; false (not an exception) when it cannot be removed.
bool removeQuietly(const std::filesystem::path& path) noexcept;
/// Flushes a written file to stable storage; throws ReportError naming it.
void syncFile(const std::filesystem::path& path);
/// Renames `from` over `to` (atomic on POSIX) and syncs the directory so the new name survives
/// a power loss; throws ReportError naming both.
void publishFile(const std::filesystem::path& from, const std::filesystem::path& to);

} // namespace tessera::profiler::detail
