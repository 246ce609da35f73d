#include "StepClock.hpp"

#include <algorithm>

namespace poplar::detail::profile {

StepClock::StepClock(const ProgramModel& model, const Target& target)
    : model_(model), target_(target), clock_(target.getNumIPUs(), 0), stats_(model.programs.size()),
      ready_(model.programs.size(), false) {}

const std::vector<StepClock::IpuStats>& StepClock::stats(unsigned program) {
  auto& s = stats_[program];
  if (ready_[program]) return s;
  const ProfileProgram& p = model_.programs[program];
  std::vector<std::uint64_t> byTile(target_.getNumTiles(), 0);
  for (const auto& tv : p.cycles) byTile[tv.tile] = tv.value;
  const unsigned perIpu = target_.getTilesPerIPU();
  for (unsigned ipu : p.ipus) {
    IpuStats st{ipu, 0, 0, ~std::uint64_t(0), 0};
    for (unsigned t = ipu * perIpu; t < (ipu + 1) * perIpu; ++t)
      if (byTile[t]) {
        ++st.activeTiles;
        st.maxCycles = std::max(st.maxCycles, byTile[t]);
        st.minActiveCycles = std::min(st.minActiveCycles, byTile[t]);
        st.sumCycles += byTile[t];
      }
    if (!st.activeTiles) st.minActiveCycles = 0;
    s.push_back(st);
  }
  ready_[program] = true;
  return s;
}

const std::vector<StepClock::IpuStep>& StepClock::advance(unsigned program) {
  const ProfileProgram& p = model_.programs[program];
  const auto& st = stats(program);
  std::uint64_t alignedStart = 0;
  if (p.aligned)
    for (unsigned ipu : p.ipus) alignedStart = std::max(alignedStart, clock_[ipu]);
  last_.clear();
  for (const IpuStats& s : st) {
    const std::uint64_t start = p.aligned ? alignedStart : clock_[s.ipu];
    const std::uint64_t busy = std::max(s.maxCycles, p.ipuCycles);
    last_.push_back({clock_[s.ipu], start, busy});
    clock_[s.ipu] = start + busy;
  }
  return last_;
}

std::uint64_t StepClock::synchronise() {
  const std::uint64_t latest = *std::max_element(clock_.begin(), clock_.end());
  std::fill(clock_.begin(), clock_.end(), latest);
  return latest;
}

} // namespace poplar::detail::profile
