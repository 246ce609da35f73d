// compareSerializedGraphs(): compute sets and variables of two serialized graphs paired by name.
#include <map>
#include <pva/Compare.hpp>

namespace pva {

namespace {

bool sameElement(const SerializedComputeSet& a, const SerializedComputeSet& b) {
  return a.vertexCount == b.vertexCount && a.tiles == b.tiles;
}

bool sameElement(const SerializedVariable& a, const SerializedVariable& b) {
  if (a.elementType != b.elementType || a.shape != b.shape || a.isConstant != b.isConstant)
    return false;
  if (a.mapping.size() != b.mapping.size()) return false;
  for (std::size_t i = 0; i < a.mapping.size(); ++i)
    if (a.mapping[i].begin != b.mapping[i].begin || a.mapping[i].end != b.mapping[i].end ||
        a.mapping[i].tile != b.mapping[i].tile)
      return false;
  return true;
}

/// Pairs the elements of the same name in order; the change of each current element, and the
/// names of the base's left without a partner.
template <class Element>
void pair(const std::vector<Element>& base, const std::vector<Element>& current,
          std::vector<SerializedGraphComparison::Change>& changes,
          std::vector<std::string>& onlyInBase) {
  using Change = SerializedGraphComparison::Change;
  std::map<std::string, std::vector<std::size_t>> waiting; // base elements by name, last first
  for (std::size_t b = base.size(); b-- > 0;)
    waiting[base[b].name].push_back(b);
  std::vector<bool> taken(base.size(), false);
  changes.assign(current.size(), Change::New);
  for (std::size_t c = 0; c < current.size(); ++c) {
    const auto w = waiting.find(current[c].name);
    if (w == waiting.end() || w->second.empty()) continue;
    const std::size_t b = w->second.back();
    w->second.pop_back();
    taken[b] = true;
    changes[c] = sameElement(base[b], current[c]) ? Change::Same : Change::Changed;
  }
  for (std::size_t b = 0; b < base.size(); ++b)
    if (!taken[b]) onlyInBase.push_back(base[b].name);
}

} // namespace

SerializedGraphComparison compareSerializedGraphs(const SerializedGraph& base,
                                                  const SerializedGraph& current) {
  SerializedGraphComparison c;
  pair(base.computeSets, current.computeSets, c.computeSets, c.computeSetsOnlyInBase);
  pair(base.variables, current.variables, c.variables, c.variablesOnlyInBase);
  return c;
}

} // namespace pva
