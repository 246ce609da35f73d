// Helpers of the report tests: small devices, engines that write their reports into a scratch
// directory, and typed reads of the report with raw SQLite.
#pragma once

#include "TestUtil.hpp"

#include <poplar/Engine.hpp>
#include <poplar/exceptions.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <profiler/Blob.hpp>

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace test {

/// An IPU Model device with few tiles (so per-tile arrays are short and easy to spell out).
poplar::Device tinyDevice(unsigned tilesPerIPU = 4, unsigned numIPUs = 1, unsigned bytesPerTile = 638976);
/// A graph with the report test codelets.
poplar::Graph tinyGraph(const poplar::Device& d);

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

namespace test {

/// The hand-computed example of the report tests, on a 4-tile IPU:
///   a   float[8], elements 0-3 on tile 0, 4-7 on tile 1, with an initial value (always live)
///   out float[1] on tile 0
///   compute set "sum": one RSum vertex on tile 0, in = a, out = out
///   program: Execute(sum)
/// Expected steps: Sync "sum/Sync", DoExchange "sum/Exchange" (a[4..8) from tile 1 to tile 0,
/// 16 bytes), OnTileExecute "sum".
struct RemoteSum {
  poplar::Device device = tinyDevice();
  poplar::Graph graph = tinyGraph(device);
  poplar::Tensor a, out;
  poplar::program::Program program;
  RemoteSum();
};

} // namespace test
