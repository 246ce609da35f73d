// CTC loss vertices: for one batch entry, the forward variables (CTCAlpha: the log probability
// of every prefix of the blank-extended label ending at each time step), then the backward
// variables, the loss and the gradient (CTCGradGivenAlpha). Everything is in the log domain; the
// arithmetic is in double, the stored alphas and gradient in the partials type. A label or
// length out of range makes the vertex fail, stopping the run.
#include "poplibs_support/CtcCycleEstimators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
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
/// PopLibs' "infinite" CTC loss: minus its log-domain zero, the largest half.
constexpr double infiniteLoss = 65504.0;

double logAdd(double a, double b) {
  if (a == minusInf) return b;
  if (b == minusInf) return a;
  const double hi = std::max(a, b);
  return hi + std::log1p(std::exp(std::min(a, b) - hi));
}

/// The blank-extended label (blank, l0, blank, l1, ..., blank) of one entry, checked: false if a
/// length exceeds its field or a symbol is out of range or the blank.
template <typename LabelField>
bool extendedLabel(const LabelField& label, unsigned validLabel, unsigned validTime,
                   std::size_t maxTime, unsigned numClasses, unsigned blank,
                   std::vector<unsigned>& ext) {
  if (validLabel > label.size() || validTime > maxTime || blank >= numClasses) return false;
  ext.assign(2 * validLabel + 1, blank);
  for (unsigned i = 0; i < validLabel; ++i) {
    if (label[i] >= numClasses || label[i] == blank) return false;
    ext[2 * i + 1] = label[i];
  }
  return true;
}

/// Whether a path may skip the blank before extended position s (s is a symbol unlike the one
/// two positions back).
bool canSkip(const std::vector<unsigned>& ext, std::size_t s) {
  return s >= 2 && s % 2 == 1 && ext[s] != ext[s - 2];
}

/// log p(label | data) from the last step's alphas, -inf when no alignment fits.
template <typename Alphas>
double logLikelihood(const Alphas& alphas, std::size_t stride, std::size_t S, unsigned T,
                     unsigned validLabel) {
  if (T == 0) return validLabel == 0 ? 0.0 : minusInf;
  const std::size_t row = std::size_t(T - 1) * stride;
  double p = double(alphas[row + S - 1]);
  if (S > 1) p = logAdd(p, double(alphas[row + S - 2]));
  return p;
}

bool isInfinite(double logP, float relTolerance) {
  return logP == minusInf || -logP >= (1.0 - relTolerance) * infiniteLoss;
}

/// Cycles of a vertex over its whole entry: PopLibs' formula for the region {maxTime,
/// maxLabelLength}, with the last blank.
template <typename F> std::uint64_t entryCycles(const poplar::VertexIntrospector& v, F formula) {
  const std::uint64_t classes = std::max(1u, v.getInitialValue<unsigned>("numClasses"));
  const std::uint64_t t = v.getFieldInfo("probabilities").size() / classes;
  const std::uint64_t l = v.getFieldInfo("label").size();
  return formula(t, l, true);
}

/// alphas[t * (2 maxLabel + 1) + s]: log probability of the extended label's first s + 1
/// positions over steps 0..t; -inf where unreachable and beyond the entry's lengths. loss =
/// -log p(label), 65504 when no alignment fits (0 with zeroInfinity).
template <typename InType, typename PartialsType> class CTCAlpha : public poplar::Vertex {
public:
  Input<Vector<InType>> probabilities; ///< [maxTime * numClasses] log probabilities
  Input<Vector<unsigned>> label;       ///< [maxLabelLength]
  Input<unsigned> validLabel;
  Input<unsigned> validTime;
  Output<Vector<PartialsType>> alphas; ///< [maxTime * (2 maxLabelLength + 1)]
  Output<PartialsType> loss;
  unsigned numClasses;
  unsigned blankClass;
  bool zeroInfinity;
  float zeroInfinityRelTolerance;

  bool compute() {
    const std::size_t maxTime = numClasses ? probabilities.size() / numClasses : 0;
    const unsigned T = validTime, L = validLabel;
    std::vector<unsigned> ext;
    if (!extendedLabel(label, L, T, maxTime, numClasses, blankClass, ext)) return false;
    const std::size_t stride = 2 * label.size() + 1, S = ext.size();
    for (std::size_t i = 0; i < alphas.size(); ++i)
      alphas[i] = PartialsType(float(minusInf));
    auto lp = [&](std::size_t t, std::size_t s) {
      return double(probabilities[t * numClasses + ext[s]]);
    };
    std::vector<double> prev(S, minusInf), cur(S);
    for (unsigned t = 0; t < T; ++t) {
      for (std::size_t s = 0; s < S; ++s) {
        double sum;
        if (t == 0)
          sum = s < 2 ? 0.0 : minusInf;
        else {
          sum = prev[s];
          if (s >= 1) sum = logAdd(sum, prev[s - 1]);
          if (canSkip(ext, s)) sum = logAdd(sum, prev[s - 2]);
        }
        cur[s] = sum == minusInf ? minusInf : sum + lp(t, s);
        alphas[t * stride + s] = PartialsType(float(cur[s]));
      }
      std::swap(prev, cur);
    }
    const double logP = logLikelihood(alphas, stride, S, T, L);
    const bool inf = isInfinite(logP, zeroInfinityRelTolerance);
    *loss = PartialsType(float(inf ? (zeroInfinity ? 0.0 : infiniteLoss) : -logP));
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return entryCycles(v, poplibs_support::ctcAlphaCycles);
  }
};

/// The backward variables from the last step down, each step's gradient with them and the
/// alphas: grad[t * numClasses + k] = exp(lp[t][k]) - sum over positions s holding k of
/// exp(alpha[t][s] + beta[t][s] - lp[t][k] - log p(label)), the gradient with respect to the
/// logits (PopLibs' includeSoftmaxGradient). Steps at or beyond validTime get exp(lp); all is 0
/// for an entry no alignment fits when zeroInfinity is set.
template <typename InType, typename PartialsType> class CTCGradGivenAlpha : public poplar::Vertex {
public:
  Input<Vector<InType>> probabilities;
  Input<Vector<unsigned>> label;
  Input<unsigned> validLabel;
  Input<unsigned> validTime;
  Input<Vector<PartialsType>> alphas;
  Output<Vector<PartialsType>> grad; ///< [maxTime * numClasses]
  unsigned numClasses;
  unsigned blankClass;
  bool zeroInfinity;
  float zeroInfinityRelTolerance;

  bool compute() {
    const std::size_t maxTime = numClasses ? probabilities.size() / numClasses : 0;
    const unsigned T = validTime, L = validLabel;
    std::vector<unsigned> ext;
    if (!extendedLabel(label, L, T, maxTime, numClasses, blankClass, ext)) return false;
    const std::size_t stride = 2 * label.size() + 1, S = ext.size();
    const double logP = logLikelihood(alphas, stride, S, T, L);
    const bool inf = isInfinite(logP, zeroInfinityRelTolerance);
    if (inf && zeroInfinity) {
      for (std::size_t i = 0; i < grad.size(); ++i)
        grad[i] = PartialsType(0.0f);
      return true;
    }
    for (std::size_t i = 0; i < grad.size(); ++i)
      grad[i] = PartialsType(float(std::exp(double(probabilities[i]))));
    if (inf) return true; // no alignment: nothing to subtract
    auto lp = [&](std::size_t t, std::size_t s) {
      return double(probabilities[t * numClasses + ext[s]]);
    };
    std::vector<double> next(S, minusInf), beta(S), posterior(numClasses);
    for (unsigned i = 0; i < T; ++i) {
      const unsigned t = T - 1 - i;
      for (std::size_t s = 0; s < S; ++s) {
        double sum;
        if (i == 0)
          sum = s + 2 >= S ? 0.0 : minusInf;
        else {
          sum = next[s];
          if (s + 1 < S) sum = logAdd(sum, next[s + 1]);
          if (s + 2 < S && canSkip(ext, s + 2)) sum = logAdd(sum, next[s + 2]);
        }
        beta[s] = sum == minusInf ? minusInf : sum + lp(t, s);
      }
      std::fill(posterior.begin(), posterior.end(), minusInf);
      for (std::size_t s = 0; s < S; ++s) {
        const double a = double(alphas[t * stride + s]);
        if (a == minusInf || beta[s] == minusInf) continue;
        posterior[ext[s]] = logAdd(posterior[ext[s]], a + beta[s] - lp(t, s));
      }
      for (unsigned k = 0; k < numClasses; ++k)
        if (posterior[k] != minusInf) {
          const std::size_t at = t * numClasses + k;
          const double p = std::exp(double(probabilities[at]));
          grad[at] = PartialsType(float(p - std::exp(posterior[k] - logP)));
        }
      std::swap(next, beta);
    }
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return entryCycles(v, poplibs_support::ctcGradGivenAlphaCycles);
  }
};

#define POPNN_CTC_LOSS(In, P)                                                                      \
  using CTCAlpha_##In##_##P = CTCAlpha<In, P>;                                                     \
  TESSERA_VERTEX_IN("popnn", "popnn::CTCAlpha<" #In "," #P ",unsigned int,true>",                  \
                    CTCAlpha_##In##_##P, probabilities, label, validLabel, validTime, alphas,      \
                    loss, numClasses, blankClass, zeroInfinity, zeroInfinityRelTolerance);         \
  using CTCGradGivenAlpha_##In##_##P = CTCGradGivenAlpha<In, P>;                                   \
  TESSERA_VERTEX_IN("popnn", "popnn::CTCGradGivenAlpha<" #In "," #P ",unsigned int,true>",         \
                    CTCGradGivenAlpha_##In##_##P, probabilities, label, validLabel, validTime,     \
                    alphas, grad, numClasses, blankClass, zeroInfinity, zeroInfinityRelTolerance)

POPNN_CTC_LOSS(float, float);
POPNN_CTC_LOSS(half, half);
POPNN_CTC_LOSS(half, float);

} // namespace
} // namespace popnn
