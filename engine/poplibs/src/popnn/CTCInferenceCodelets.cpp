// CTC beam search for one batch entry: prefix beam search in the log domain. Each beam is an
// output prefix with the probability of the data so far ending in a blank (pb) and in its last
// symbol (pnb); each step extends every beam by each class, merges candidates with the same
// prefix, and keeps the beamwidth most probable (earlier candidates first among equals).
#include "poplibs_support/CtcCycleEstimators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>
#include <vector>

namespace popnn {
namespace {

using poplar::half;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

constexpr double minusInf = -std::numeric_limits<double>::infinity();
/// PopLibs' log-domain zero, reported for paths no beam reached.
constexpr double logZero = -65504.0;

double logAdd(double a, double b) {
  if (a == minusInf) return b;
  if (b == minusInf) return a;
  const double hi = std::max(a, b);
  return hi + std::log1p(std::exp(std::min(a, b) - hi));
}

struct Beam {
  std::vector<unsigned> prefix;
  double pb = minusInf, pnb = minusInf;
  double total() const { return logAdd(pb, pnb); }
};

/// The candidates of one step, merged by prefix, in order of first appearance.
class Candidates {
public:
  Beam& at(const std::vector<unsigned>& prefix) {
    const auto [it, added] = index_.emplace(prefix, beams_.size());
    if (added) beams_.push_back(Beam{prefix});
    return beams_[it->second];
  }
  /// The `width` most probable with non-zero probability, most probable first.
  std::vector<Beam> best(std::size_t width) {
    std::stable_sort(beams_.begin(), beams_.end(),
                     [](const Beam& a, const Beam& b) { return a.total() > b.total(); });
    std::vector<Beam> out;
    for (const Beam& b : beams_)
      if (out.size() < width && b.total() != minusInf) out.push_back(b);
    return out;
  }

private:
  std::map<std::vector<unsigned>, std::size_t> index_;
  std::vector<Beam> beams_;
};

template <typename InType, typename PartialsType>
class CTCBeamSearchDecoder : public poplar::Vertex {
public:
  Input<Vector<InType>> probabilities; ///< [maxTime * numClasses] log probabilities
  Input<unsigned> validTime;
  Output<Vector<PartialsType>> labelProbs; ///< [topPaths]
  Output<Vector<unsigned>> labelLengths;   ///< [topPaths]
  Output<Vector<unsigned>> decodedLabels;  ///< [topPaths * maxTime]
  unsigned numClasses;
  unsigned blankClass;
  unsigned beamwidth;

  bool compute() {
    const std::size_t maxTime = numClasses ? probabilities.size() / numClasses : 0;
    const unsigned T = validTime;
    if (T > maxTime || blankClass >= numClasses || beamwidth == 0) return false;
    std::vector<Beam> beams(1);
    beams[0].pb = 0.0; // the empty prefix, certain before any data
    for (unsigned t = 0; t < T; ++t) {
      auto lp = [&](unsigned c) { return double(probabilities[t * numClasses + c]); };
      Candidates next;
      for (const Beam& beam : beams) {
        // Copy: a blank, or the prefix's last symbol again, keeps the prefix.
        Beam& same = next.at(beam.prefix);
        same.pb = logAdd(same.pb, beam.total() + lp(blankClass));
        if (!beam.prefix.empty()) same.pnb = logAdd(same.pnb, beam.pnb + lp(beam.prefix.back()));
        // Extend by each symbol; a repeat of the last one needs a blank between.
        for (unsigned c = 0; c < numClasses; ++c) {
          if (c == blankClass) continue;
          std::vector<unsigned> longer = beam.prefix;
          longer.push_back(c);
          const bool repeat = !beam.prefix.empty() && beam.prefix.back() == c;
          Beam& ext = next.at(longer);
          ext.pnb = logAdd(ext.pnb, (repeat ? beam.pb : beam.total()) + lp(c));
        }
      }
      beams = next.best(beamwidth);
    }
    const std::size_t topPaths = labelLengths.size();
    for (std::size_t i = 0; i < decodedLabels.size(); ++i)
      decodedLabels[i] = 0;
    for (std::size_t p = 0; p < topPaths; ++p) {
      if (p >= beams.size()) {
        labelProbs[p] = PartialsType(float(logZero));
        labelLengths[p] = 0;
        continue;
      }
      labelProbs[p] = PartialsType(float(std::max(beams[p].total(), logZero)));
      labelLengths[p] = unsigned(beams[p].prefix.size());
      for (std::size_t i = 0; i < beams[p].prefix.size(); ++i)
        decodedLabels[p * maxTime + i] = beams[p].prefix[i];
    }
    return true;
  }

  /// PopLibs' per-step vertex estimates (rank, reduce, update) for each planned step.
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    const std::uint64_t classes = std::max(1u, v.getInitialValue<unsigned>("numClasses"));
    const std::uint64_t steps = v.getFieldInfo("probabilities").size() / classes;
    return steps * poplibs_support::ctcBeamSearchStepCycles(
                       target, v.getInitialValue<unsigned>("beamwidth"), classes);
  }
};

#define POPNN_CTC_BEAM_SEARCH(In, P)                                                               \
  using CTCBeamSearchDecoder_##In##_##P = CTCBeamSearchDecoder<In, P>;                             \
  TESSERA_VERTEX_IN("popnn", "popnn::CTCBeamSearchDecoder<" #In "," #P ",unsigned int>",           \
                    CTCBeamSearchDecoder_##In##_##P, probabilities, validTime, labelProbs,         \
                    labelLengths, decodedLabels, numClasses, blankClass, beamwidth)

POPNN_CTC_BEAM_SEARCH(float, float);
POPNN_CTC_BEAM_SEARCH(half, half);
POPNN_CTC_BEAM_SEARCH(half, float);

} // namespace
} // namespace popnn
