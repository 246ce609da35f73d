// Host references for the CTC tests, independent of the forward-backward recursion: the loss by
// summing over every path of the data (feasible for small alphabets and few steps), its
// gradient by central differences, and a prefix beam search.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <map>
#include <vector>

namespace test {
namespace ctc {

/// log softmax of each row of `classes` values.
inline std::vector<double> logSoftmaxRows(const std::vector<double>& x, std::size_t classes) {
  std::vector<double> out(x.size());
  for (std::size_t r = 0; r < x.size() / classes; ++r) {
    const double* row = &x[r * classes];
    const double m = *std::max_element(row, row + classes);
    double sum = 0;
    for (std::size_t c = 0; c < classes; ++c)
      sum += std::exp(row[c] - m);
    for (std::size_t c = 0; c < classes; ++c)
      out[r * classes + c] = row[c] - m - std::log(sum);
  }
  return out;
}

/// A path with repeats merged and blanks removed.
inline std::vector<unsigned> collapse(const std::vector<unsigned>& path, unsigned blank) {
  std::vector<unsigned> out;
  for (std::size_t t = 0; t < path.size(); ++t)
    if (path[t] != blank && (t == 0 || path[t] != path[t - 1])) out.push_back(path[t]);
  return out;
}

/// -log of the summed probability of every path of `steps` steps (logProbs row-major
/// [steps][classes]) that collapses to `label`; +inf if none does.
inline double bruteForceLoss(const std::vector<double>& logProbs, std::size_t classes,
                             std::size_t steps, const std::vector<unsigned>& label,
                             unsigned blank) {
  std::vector<unsigned> path(steps, 0);
  double total = 0;
  bool any = false;
  for (;;) {
    if (collapse(path, blank) == label) {
      double lp = 0;
      for (std::size_t t = 0; t < steps; ++t)
        lp += logProbs[t * classes + path[t]];
      total += std::exp(lp);
      any = true;
    }
    std::size_t t = 0;
    while (t < steps && ++path[t] == classes)
      path[t++] = 0;
    if (t == steps) break;
  }
  if (steps == 0) return label.empty() ? 0.0 : std::numeric_limits<double>::infinity();
  return any ? -std::log(total) : std::numeric_limits<double>::infinity();
}

/// d f / d x[i] for every i, by central differences of step h.
inline std::vector<double>
numericGradient(const std::function<double(const std::vector<double>&)>& f, std::vector<double> x,
                double h = 1e-4) {
  std::vector<double> g(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double keep = x[i];
    x[i] = keep + h;
    const double up = f(x);
    x[i] = keep - h;
    const double down = f(x);
    x[i] = keep;
    g[i] = (up - down) / (2 * h);
  }
  return g;
}

} // namespace ctc
} // namespace test

namespace test {
namespace ctc {

/// A decoded path and its log probability.
struct Path {
  std::vector<unsigned> labels;
  double logProb;
};

/// Prefix beam search over logProbs [steps][classes] on the host, in linear probabilities
/// (the device works in the log domain): beams keyed by prefix, the most probable `width`
/// kept after each step, ties kept in order of first appearance.
inline std::vector<Path> beamSearch(const std::vector<double>& logProbs, std::size_t classes,
                                    std::size_t steps, unsigned blank, std::size_t width) {
  using Prefix = std::vector<unsigned>;
  std::vector<std::pair<Prefix, std::pair<double, double>>> beams = {{{}, {1.0, 0.0}}};
  for (std::size_t t = 0; t < steps; ++t) {
    std::vector<std::pair<Prefix, std::pair<double, double>>> next;
    auto slot = [&](const Prefix& p) -> std::pair<double, double>& {
      for (auto& n : next)
        if (n.first == p) return n.second;
      next.push_back({p, {0.0, 0.0}});
      return next.back().second;
    };
    for (const auto& [prefix, prob] : beams) {
      const auto [pb, pnb] = prob;
      auto y = [&](unsigned c) { return std::exp(logProbs[t * classes + c]); };
      slot(prefix).first += (pb + pnb) * y(blank);
      if (!prefix.empty()) slot(prefix).second += pnb * y(prefix.back());
      for (unsigned c = 0; c < classes; ++c) {
        if (c == blank) continue;
        Prefix longer = prefix;
        longer.push_back(c);
        const bool repeat = !prefix.empty() && prefix.back() == c;
        slot(longer).second += (repeat ? pb : pb + pnb) * y(c);
      }
    }
    std::stable_sort(next.begin(), next.end(), [](const auto& a, const auto& b) {
      return a.second.first + a.second.second > b.second.first + b.second.second;
    });
    if (next.size() > width) next.resize(width);
    beams = next;
  }
  std::vector<Path> out;
  for (const auto& [prefix, prob] : beams)
    out.push_back({prefix, std::log(prob.first + prob.second)});
  return out;
}

/// Best-path decoding: the most probable class at each step, collapsed.
inline std::vector<unsigned> greedy(const std::vector<double>& logProbs, std::size_t classes,
                                    std::size_t steps, unsigned blank) {
  std::vector<unsigned> path;
  for (std::size_t t = 0; t < steps; ++t) {
    const auto row = logProbs.begin() + std::ptrdiff_t(t * classes);
    path.push_back(unsigned(std::max_element(row, row + std::ptrdiff_t(classes)) - row));
  }
  return collapse(path, blank);
}

} // namespace ctc
} // namespace test
