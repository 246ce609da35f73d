#include "StepClock.hpp"

#include <algorithm>

namespace poplar::detail::profile {

StepClock::StepClock(const ProgramModel& model, const Target& target)
    : model_(model), target_(target), clock_(target.getNumIPUs(), 0), stats_(model.programs.size()),
      ready_(model.programs.size(), false) {}

template <class Values>
void StepClock::computeStats(const ProfileProgram& p, const Values& cycles,
                             std::vector<IpuStats>& out) {
  out.clear();
  byTile_.assign(target_.getNumTiles(), 0);
  for (const auto& tv : cycles)
    byTile_[tv.tile] = tv.value;
  const unsigned perIpu = target_.getTilesPerIPU();
  for (unsigned ipu : p.ipus) {
    IpuStats st{ipu, 0, 0, ~std::uint64_t(0), 0};
    for (unsigned t = ipu * perIpu; t < (ipu + 1) * perIpu; ++t)
      if (byTile_[t]) {
        ++st.activeTiles;
        st.maxCycles = std::max(st.maxCycles, byTile_[t]);
        st.minActiveCycles = std::min(st.minActiveCycles, byTile_[t]);
        st.sumCycles += byTile_[t];
      }
    if (!st.activeTiles) st.minActiveCycles = 0;
    out.push_back(st);
  }
}

const std::vector<StepClock::IpuStats>& StepClock::stats(unsigned program) {
  auto& s = stats_[program];
  if (ready_[program]) return s;
  computeStats(model_.programs[program], model_.programs[program].cycles, s);
  ready_[program] = true;
  return s;
}

const std::vector<StepClock::IpuStep>& StepClock::advance(unsigned program) {
  return lay(model_.programs[program], stats(program));
}

const std::vector<StepClock::IpuStep>& StepClock::advance(unsigned program,
                                                          const std::vector<TileValue>& cycles,
                                                          std::vector<IpuStats>& stats) {
  computeStats(model_.programs[program], cycles, stats);
  return lay(model_.programs[program], stats);
}

const std::vector<StepClock::IpuStep>& StepClock::lay(const ProfileProgram& p,
                                                      const std::vector<IpuStats>& st) {
  std::uint64_t alignedStart = 0;
  if (p.aligned)
    for (unsigned ipu : p.ipus)
      alignedStart = std::max(alignedStart, clock_[ipu]);
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

void StepClock::advanceTo(std::uint64_t cycle) {
  for (auto& c : clock_)
    c = std::max(c, cycle);
}

} // namespace poplar::detail::profile
