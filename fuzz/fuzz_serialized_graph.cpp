// openSerializedGraph on a fuzzed serialized_graph.capnp (from memory), read both ways a client
// can ask for it (every vertex, and the outline), and everything in it walked. The two readings
// must agree, and what the reader promises (tiles and variables in range, ascending, distinct)
// must hold: a broken promise aborts, so libFuzzer reports it like a crash.
#include "FromMemory.hpp"
#include "common/FuzzUtil.hpp"

#include <cstdlib>
#include <string_view>

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

/// Strictly ascending and below `limit`.
void checkIndices(const std::vector<unsigned>& v, std::uint64_t limit) {
  for (std::size_t i = 0; i < v.size(); ++i)
    check(v[i] < limit && (i == 0 || v[i - 1] < v[i]));
}

/// Reads every field as a client would (the viewer's graph view, the CLI, the Python bindings),
/// so that a value left uninitialised or a dangling string is found by the sanitizers.
std::uint64_t walk(const pva::SerializedGraph& g) {
  const std::uint64_t tiles = std::uint64_t(g.numIpus) * g.tilesPerIpu;
  check(tiles > 0);
  std::uint64_t sum = g.path.size();
  for (const pva::SerializedVariable& v : g.variables) {
    sum += v.name.size() + v.elementType.size() + v.shape.size() + v.isConstant;
    for (std::uint64_t d : v.shape)
      sum += d;
    for (const pva::SerializedInterval& m : v.mapping) {
      check(m.tile < tiles && m.begin <= m.end);
      sum += m.end - m.begin;
    }
  }
  for (const pva::SerializedComputeSet& cs : g.computeSets) {
    sum += cs.name.size() + cs.vertexCount;
    checkIndices(cs.tiles, tiles);
    checkIndices(cs.variables, g.variables.size());
    for (const pva::SerializedVertex& vx : cs.vertices) {
      check(vx.tile < tiles);
      sum += vx.type.size();
      for (const pva::SerializedField& f : vx.fields) {
        sum += f.name.size();
        for (const auto& edge : f.edges)
          for (const pva::SerializedRegion& r : edge) {
            check(r.variable < g.variables.size() && r.begin <= r.end);
            sum += r.end - r.begin;
          }
      }
    }
  }
  return sum;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::string name = "fuzz/serialized_graph.capnp";
  bool fullRead = false;
  pva::SerializedGraph full;
  fuzz::part([&] {
    full = pva::detail::openSerializedGraphImage(name, bytes, pva::SerializedGraphDetail::Vertices);
    fullRead = true;
    volatile std::uint64_t sink = walk(full);
    (void)sink;
  });
  bool outlineRead = false;
  fuzz::part([&] {
    const pva::SerializedGraph outline =
        pva::detail::openSerializedGraphImage(name, bytes, pva::SerializedGraphDetail::Outline);
    outlineRead = true;
    volatile std::uint64_t sink = walk(outline);
    (void)sink;
    // The whole file is checked whatever the detail: both readings accept the same files and
    // agree on everything the outline keeps.
    check(fullRead);
    check(outline.numIpus == full.numIpus && outline.tilesPerIpu == full.tilesPerIpu);
    check(outline.variables.size() == full.variables.size());
    check(outline.computeSets.size() == full.computeSets.size());
    for (std::size_t i = 0; i < full.computeSets.size(); ++i) {
      const pva::SerializedComputeSet& a = outline.computeSets[i];
      const pva::SerializedComputeSet& b = full.computeSets[i];
      check(a.vertices.empty() && a.name == b.name && a.vertexCount == b.vertices.size() &&
            b.vertexCount == b.vertices.size() && a.tiles == b.tiles && a.variables == b.variables);
    }
  });
  check(fullRead == outlineRead);
  return 0;
}
