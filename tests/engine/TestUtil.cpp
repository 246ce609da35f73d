#include "TestUtil.hpp"

namespace test {

std::vector<std::size_t> elementIndices(const poplar::Tensor& t) {
  std::vector<std::size_t> out;
  for (const auto& r : t.getVarRegions())
    for (std::size_t e = r.begin; e < r.end; ++e) out.push_back(e);
  return out;
}

void mapRoundRobin(poplar::Graph& g, const poplar::Tensor& t, std::size_t block) {
  const auto flat = t.flatten();
  const unsigned tiles = g.getTarget().getNumTiles();
  for (std::size_t b = 0, i = 0; b < flat.numElements(); b += block, ++i)
    g.setTileMapping(flat.slice(b, std::min(b + block, flat.numElements())), unsigned(i % tiles));
}

} // namespace test
