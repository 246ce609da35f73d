// Pairing rows of two reports (Matching.hpp).
#include "Matching.hpp"

#include "../model/Saturating.hpp"

#include <algorithm>
#include <set>

namespace pva::detail {

std::vector<NamedComparison> matchByName(const NamedValues& base, const NamedValues& current) {
  std::map<std::string, NamedComparison> all;
  for (const auto& [name, v] : base) {
    auto& n = all[name];
    n.name = name;
    n.inBase = true;
    n.value.base = v;
  }
  for (const auto& [name, v] : current) {
    auto& n = all[name];
    n.name = name;
    n.inCurrent = true;
    n.value.current = v;
  }
  std::vector<NamedComparison> out;
  out.reserve(all.size());
  for (auto& [name, n] : all)
    out.push_back(std::move(n));
  return out;
}

ComparedValue totalOf(const std::vector<NamedComparison>& rows) {
  ComparedValue t;
  for (const NamedComparison& n : rows) {
    detail::addTo(t.base, n.value.base);
    detail::addTo(t.current, n.value.current);
  }
  return t;
}

std::vector<RunComparison> matchRuns(const std::vector<RunFigures>& base,
                                     const std::vector<RunFigures>& current) {
  constexpr std::size_t none = ~std::size_t(0);
  std::vector<std::size_t> partner(base.size(), none);
  std::vector<bool> taken(current.size(), false);
  std::vector<RunComparison::Match> how(base.size(), RunComparison::Match::OnlyInBase);
  // By name: the k-th base run called X pairs with the k-th current run called X.
  for (std::size_t b = 0; b < base.size(); ++b)
    for (std::size_t c = 0; c < current.size(); ++c)
      if (!taken[c] && current[c].name == base[b].name) {
        partner[b] = c;
        taken[c] = true;
        how[b] = RunComparison::Match::ByName;
        break;
      }
  // By run number, among the runs left.
  for (std::size_t b = 0; b < base.size(); ++b) {
    if (partner[b] != none) continue;
    for (std::size_t c = 0; c < current.size(); ++c)
      if (!taken[c] && current[c].index == base[b].index) {
        partner[b] = c;
        taken[c] = true;
        how[b] = RunComparison::Match::ByPosition;
        break;
      }
  }
  std::vector<RunComparison> out;
  auto add = [&](const RunFigures* b, const RunFigures* c, RunComparison::Match m) {
    RunComparison r;
    r.match = m;
    if (b) {
      r.baseName = b->name;
      r.baseIndex = b->index;
      r.cycles.base = b->cycles;
      r.steps.base = b->steps;
    }
    if (c) {
      r.currentName = c->name;
      r.currentIndex = c->index;
      r.cycles.current = c->cycles;
      r.steps.current = c->steps;
    }
    out.push_back(std::move(r));
  };
  for (std::size_t b = 0; b < base.size(); ++b)
    add(&base[b], partner[b] == none ? nullptr : &current[partner[b]], how[b]);
  for (std::size_t c = 0; c < current.size(); ++c)
    if (!taken[c]) add(nullptr, &current[c], RunComparison::Match::OnlyInCurrent);
  return out;
}

std::vector<OperationComparison> matchOperations(const std::vector<OperationRow>& base,
                                                 const std::vector<OperationRow>& current) {
  // The current report's operations of each name, in order, waiting for a partner.
  std::map<std::string, std::vector<std::size_t>> waiting;
  for (std::size_t c = current.size(); c-- > 0;)
    waiting[current[c].name].push_back(c);
  std::vector<bool> taken(current.size(), false);
  std::vector<OperationComparison> out;
  auto setSide = [](OperationComparison& o, const OperationRow& row,
                    std::uint64_t ComparedValue::*side) {
    o.cycles.*side = row.cycles;
    o.estimatedCycles.*side = row.estimatedCycles;
    o.alwaysLiveBytes.*side = row.alwaysLiveBytes;
    o.peakNotAlwaysLiveBytes.*side = row.peakNotAlwaysLiveBytes;
    o.codeBytes.*side = row.codeBytes;
  };
  for (std::size_t i = 0; i < base.size(); ++i) {
    const OperationRow& b = base[i];
    OperationComparison o;
    o.name = b.name;
    o.inBase = true;
    o.baseIndex = i;
    setSide(o, b, &ComparedValue::base);
    auto w = waiting.find(b.name);
    if (w != waiting.end() && !w->second.empty()) {
      const std::size_t c = w->second.back();
      w->second.pop_back();
      taken[c] = true;
      o.inCurrent = true;
      o.currentIndex = c;
      setSide(o, current[c], &ComparedValue::current);
    }
    out.push_back(std::move(o));
  }
  for (std::size_t c = 0; c < current.size(); ++c)
    if (!taken[c]) {
      OperationComparison o;
      o.name = current[c].name;
      o.inCurrent = true;
      o.currentIndex = c;
      setSide(o, current[c], &ComparedValue::current);
      out.push_back(std::move(o));
    }
  return out;
}

ProgramsInCommon programsInCommon(const std::vector<std::string>& base,
                                  const std::vector<std::string>& current) {
  std::set<std::string> a, b;
  for (const std::string& n : base)
    if (!n.empty()) a.insert(n);
  for (const std::string& n : current)
    if (!n.empty()) b.insert(n);
  ProgramsInCommon p;
  p.namesBase = a.size();
  p.namesCurrent = b.size();
  for (const std::string& n : a)
    p.namesInCommon += b.count(n);
  const std::uint64_t smaller = std::min(p.namesBase, p.namesCurrent);
  p.share = smaller ? double(p.namesInCommon) / double(smaller) : 1.0;
  p.related = p.share >= ProgramsInCommon::relatedShare;
  return p;
}

} // namespace pva::detail
