#include "TestUtil.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <string>

namespace test {

std::vector<std::size_t> elementIndices(const poplar::Tensor& t) {
  std::vector<std::size_t> out;
  for (const auto& r : t.getVarRegions())
    for (std::size_t e = r.begin; e < r.end; ++e)
      out.push_back(e);
  return out;
}

void mapRoundRobin(poplar::Graph& g, const poplar::Tensor& t, std::size_t block) {
  const auto flat = t.flatten();
  const unsigned tiles = g.getTarget().getNumTiles();
  for (std::size_t b = 0, i = 0; b < flat.numElements(); b += block, ++i)
    g.setTileMapping(flat.slice(b, std::min(b + block, flat.numElements())), unsigned(i % tiles));
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

std::vector<std::vector<std::vector<Value>>>
stepsPerThreadCount(const std::filesystem::path& dir,
                    const std::function<void(const poplar::OptionFlags&)>& run) {
  std::vector<std::vector<std::vector<Value>>> steps;
  for (const char* threads : {"1", "2", "8"}) {
    INFO("tessera.threads = " << threads);
    const auto reportDir = dir / (std::string("t") + threads);
    run({{"tessera.threads", threads},
         {"autoReport.outputExecutionProfile", "true"},
         {"autoReport.directory", reportDir.string()}});
    RawDb db(reportDir / "profile.pop");
    steps.push_back(db.query("SELECT * FROM steps ORDER BY id"));
    REQUIRE(!steps.back().empty());
  }
  return steps;
}

} // namespace test
