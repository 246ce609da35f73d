#include "common/ReportFiles.hpp"

#include <catch2/catch.hpp>

namespace test {

poplar::OptionFlags reportOptions(const std::filesystem::path& dir) {
  return {{"autoReport.all", "true"}, {"autoReport.directory", dir.string()}};
}

namespace {
const Value& first(const std::vector<std::vector<Value>>& rows, const std::string& sql) {
  if (rows.empty() || rows[0].empty()) FAIL("no rows for: " << sql);
  return rows[0][0];
}
} // namespace

long long Report::integer(const std::string& sql) {
  const auto rows = db_.query(sql);
  const Value& v = first(rows, sql);
  if (v.type != Value::Integer) FAIL("not an integer: " << sql);
  return v.i;
}

std::string Report::text(const std::string& sql) {
  const auto rows = db_.query(sql);
  return first(rows, sql).bytes;
}

std::vector<long long> Report::integers(const std::string& sql) {
  std::vector<long long> out;
  for (const auto& r : db_.query(sql))
    out.push_back(r.at(0).i);
  return out;
}

std::vector<std::string> Report::texts(const std::string& sql) {
  std::vector<std::string> out;
  for (const auto& r : db_.query(sql))
    out.push_back(r.at(0).bytes);
  return out;
}

std::vector<std::uint64_t> Report::tileValues(const std::string& sql) {
  const auto rows = db_.query(sql);
  const Value& v = first(rows, sql);
  return tessera::profiler::decodeTileValues(v.bytes.data(), v.bytes.size());
}

std::vector<tessera::profiler::StepIpu> Report::stepIpus(const std::string& sql) {
  const auto rows = db_.query(sql);
  const Value& v = first(rows, sql);
  return tessera::profiler::decodeStepIpus(v.bytes.data(), v.bytes.size());
}

} // namespace test
