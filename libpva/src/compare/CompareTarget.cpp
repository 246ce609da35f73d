// compare(): the targets, property by property.
#include "Parts.hpp"

#include <cmath>

namespace pva::detail {

TargetComparison compareTargets(const Target& base, const Target& current) {
  TargetComparison t;
  t.base = base;
  t.current = current;
  t.sameType = base.type() == current.type();
  t.sameArchitecture = base.architecture() == current.architecture();
  t.ipus = {base.numIPUs(), current.numIPUs()};
  t.tilesPerIpu = {base.tilesPerIpu(), current.tilesPerIpu()};
  t.bytesPerTile = {base.bytesPerTile(), current.bytesPerTile()};
  t.replicas = {base.numReplicas(), current.numReplicas()};
  auto hz = [](double f) {
    return f > 0 && std::isfinite(f) ? std::uint64_t(std::llround(f)) : std::uint64_t(0);
  };
  t.clockHz = {hz(base.clockFrequency()), hz(current.clockFrequency())};
  if (!t.sameType) t.differences.push_back("type");
  if (!t.sameArchitecture) t.differences.push_back("architecture");
  if (t.ipus.delta()) t.differences.push_back("IPUs");
  if (t.tilesPerIpu.delta()) t.differences.push_back("tiles per IPU");
  if (t.bytesPerTile.delta()) t.differences.push_back("memory per tile");
  if (t.replicas.delta()) t.differences.push_back("replicas");
  if (t.clockHz.delta()) t.differences.push_back("clock");
  return t;
}

} // namespace pva::detail
