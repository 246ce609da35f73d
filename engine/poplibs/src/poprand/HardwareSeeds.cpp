#include "HardwareSeeds.hpp"

#include "Generator.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

namespace poprand {
namespace detail {
namespace {

/// One variable per graph (and virtual graph): found again by the graph's shared state, held
/// weakly so a destroyed graph's entry is dropped, never matched by a new graph.
struct Entry {
  std::weak_ptr<poplar::detail::GraphState> state;
  unsigned tileOffset, tiles;
  poplar::Tensor seeds;
};
std::mutex registryMutex;
std::vector<Entry> registry;

} // namespace

poplar::Tensor hardwareSeeds(poplar::Graph& graph) {
  const unsigned tiles = graph.getTarget().getNumTiles();
  std::lock_guard<std::mutex> lock(registryMutex);
  registry.erase(std::remove_if(registry.begin(), registry.end(),
                                [](const Entry& e) { return e.state.expired(); }),
                 registry.end());
  for (const Entry& e : registry)
    if (e.state.lock() == graph.state() && e.tileOffset == graph.tileOffset() && e.tiles == tiles)
      return e.seeds;

  poplar::Tensor seeds = graph.addVariable(poplar::UNSIGNED_INT, {tiles, 4}, "poprand/hwSeeds");
  Generator start(kLoadSeed);
  unsigned words[4];
  start.store(words);
  std::vector<unsigned> initial;
  initial.reserve(tiles * 4);
  for (unsigned t = 0; t < tiles; ++t) {
    graph.setTileMapping(seeds[t], t);
    initial.insert(initial.end(), words, words + 4); // every tile starts from the same state
  }
  graph.setInitialValue(seeds, initial);
  registry.push_back({graph.state(), graph.tileOffset(), tiles, seeds});
  return seeds;
}

} // namespace detail
} // namespace poprand
