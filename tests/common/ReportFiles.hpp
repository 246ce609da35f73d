// Reports written by the engine into a directory, and typed reads of a profile.pop with raw
// SQLite (blobs decoded with the profiler's decoders).
#pragma once

#include "common/RawDb.hpp"

#include <cstdint>
#include <filesystem>
#include <poplar/OptionFlags.hpp>
#include <profiler/Blob.hpp>
#include <string>
#include <vector>

namespace test {

/// Engine options writing every report file into `dir`.
poplar::OptionFlags reportOptions(const std::filesystem::path& dir);

/// Typed reads of one report.
class Report {
public:
  explicit Report(const std::filesystem::path& profilePop) : db_(profilePop) {}
  RawDb& db() { return db_; }
  std::vector<std::vector<Value>> rows(const std::string& sql) { return db_.query(sql); }
  long long integer(const std::string& sql);
  std::string text(const std::string& sql);
  std::vector<long long> integers(const std::string& sql);
  std::vector<std::string> texts(const std::string& sql);
  /// A TileValues blob from the first row and column of `sql`.
  std::vector<std::uint64_t> tileValues(const std::string& sql);
  /// A StepIpus blob from the first row and column of `sql`.
  std::vector<tessera::profiler::StepIpu> stepIpus(const std::string& sql);

private:
  RawDb db_;
};

} // namespace test
