#include "ReportTestUtil.hpp"

namespace test {

poplar::Device tinyDevice(unsigned tilesPerIPU, unsigned numIPUs, unsigned bytesPerTile) {
  poplar::IPUModel m;
  m.tilesPerIPU = tilesPerIPU;
  m.numIPUs = numIPUs;
  m.memoryBytesPerTile = bytesPerTile;
  poplar::Device d = m.createDevice();
  d.attach();
  return d;
}

poplar::Graph tinyGraph(const poplar::Device& d) {
  poplar::Graph g(d.getTarget());
  g.addCodelets("ReportCodelets.cpp");
  return g;
}

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
  for (const auto& r : db_.query(sql)) out.push_back(r.at(0).i);
  return out;
}

std::vector<std::string> Report::texts(const std::string& sql) {
  std::vector<std::string> out;
  for (const auto& r : db_.query(sql)) out.push_back(r.at(0).bytes);
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

namespace test {

RemoteSum::RemoteSum() {
  using namespace poplar;
  a = graph.addVariable(FLOAT, {8}, "a");
  graph.setTileMapping(a.slice(0, 4), 0);
  graph.setTileMapping(a.slice(4, 8), 1);
  std::vector<float> init(8, 1.0f);
  graph.setInitialValue(a, init);
  out = graph.addVariable(FLOAT, {1}, "out");
  graph.setTileMapping(out, 0);
  ComputeSet cs = graph.addComputeSet("sum");
  VertexRef v = graph.addVertex(cs, "RSum", {{"in", a}, {"out", out[0]}});
  graph.setTileMapping(v, 0);
  program = program::Execute(cs);
}

} // namespace test
