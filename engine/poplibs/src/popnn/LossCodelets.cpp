// Loss and accuracy vertices. Each handles a group of rows of model outputs (probabilities) with
// their labels; a label outside [0, classes) makes the vertex fail, stopping the run.
#include "poplibs_support/NnCycleEstimators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>
#include <type_traits>

namespace popnn {
namespace {

using poplar::half;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

template <typename L> bool validLabel(L label, std::size_t classes) {
  if constexpr (std::is_signed_v<L>)
    if (label < 0) return false;
  return std::size_t(label) < classes;
}

// Per-class terms of the row loss, for the probability p of a class and whether it is the label.
struct CrossEntropy {
  static float term(float p, bool isLabel) {
    return isLabel ? -std::log(std::max(p, std::numeric_limits<float>::min())) : 0.0f;
  }
};
struct SumSquared {
  static float term(float p, bool isLabel) {
    const float d = p - (isLabel ? 1.0f : 0.0f);
    return 0.5f * d * d;
  }
};

/// PopLibs' estimates of the vertices this one fuses, summed over its rows
/// (poplibs_support/NnCycleEstimators.hpp): the loss vertices a loss transform and a
/// single-input reduce of the row to its loss; accuracy an arg-max of each row
/// (ReduceMaxClassSparse) and CalcAccuracy over the batch.
std::uint64_t lossRowsCycles(const poplar::VertexIntrospector& v, const poplar::Target& target,
                             poplar::Type type, bool crossEntropy) {
  const auto probs = v.getFieldInfo("probs");
  std::uint64_t cycles = 0;
  for (std::size_t r = 0; r < probs.size(); ++r) {
    const std::uint64_t classes = probs.getSizeAtIndex(r);
    cycles += poplibs_support::lossTransformCycles(type == poplar::FLOAT, crossEntropy, classes) +
              poplibs_support::reduceSingleInputCycles(target, type, type, classes);
  }
  return cycles;
}
std::uint64_t accuracyCycles(const poplar::VertexIntrospector& v) {
  const auto probs = v.getFieldInfo("probs");
  std::uint64_t cycles = poplibs_support::calcAccuracyCycles(probs.size());
  for (std::size_t r = 0; r < probs.size(); ++r)
    cycles += poplibs_support::reduceMaxClassSparseCycles(probs.getSizeAtIndex(r));
  return cycles;
}

/// loss[r] = sum over classes of Loss::term, deltas[r] = probs[r] - onehot(labels[r]).
template <typename Loss, typename T, typename L> class LossVertex : public poplar::Vertex {
public:
  Vector<Input<Vector<T>>> probs;
  Input<Vector<L>> labels;
  Vector<Output<Vector<T>>> deltas;
  Output<Vector<T>> loss;

  bool compute() {
    for (std::size_t r = 0; r < probs.size(); ++r) {
      const auto& p = probs[r];
      auto& d = deltas[r];
      const L label = labels[r];
      if (!validLabel(label, p.size())) return false;
      float sum = 0.0f;
      for (std::size_t c = 0; c < p.size(); ++c) {
        const bool isLabel = c == std::size_t(label);
        sum += Loss::term(float(p[c]), isLabel);
        d[c] = T(float(p[c]) - (isLabel ? 1.0f : 0.0f));
      }
      loss[r] = T(sum);
    }
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return lossRowsCycles(v, target, poplar::TypeOf<T>::value, std::is_same_v<Loss, CrossEntropy>);
  }
};

/// numCorrect = the number of rows whose (first) largest element is at the label.
template <typename T, typename L> class CalcAccuracy : public poplar::Vertex {
public:
  Vector<Input<Vector<T>>> probs;
  Input<Vector<L>> labels;
  Output<unsigned> numCorrect;

  bool compute() {
    unsigned correct = 0;
    for (std::size_t r = 0; r < probs.size(); ++r) {
      const auto& p = probs[r];
      if (!validLabel(labels[r], p.size())) return false;
      const auto best =
          std::max_element(p.begin(), p.end(), [](T a, T b) { return float(a) < float(b); });
      correct += std::size_t(best - p.begin()) == std::size_t(labels[r]);
    }
    *numCorrect = correct;
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return accuracyCycles(v);
  }
};

using uint = unsigned;
#define POPNN_LOSS(T, L, LName)                                                                    \
  using CrossEntropy_##T##_##L = LossVertex<CrossEntropy, T, L>;                                   \
  TESSERA_VERTEX_IN("popnn", "popnn::LossCrossEntropy<" #T "," LName ">", CrossEntropy_##T##_##L,  \
                    probs, labels, deltas, loss);                                                  \
  using SumSquared_##T##_##L = LossVertex<SumSquared, T, L>;                                       \
  TESSERA_VERTEX_IN("popnn", "popnn::LossSumSquared<" #T "," LName ">", SumSquared_##T##_##L,      \
                    probs, labels, deltas, loss);                                                  \
  using CalcAccuracy_##T##_##L = CalcAccuracy<T, L>;                                               \
  TESSERA_VERTEX_IN("popnn", "popnn::CalcAccuracy<" #T "," LName ">", CalcAccuracy_##T##_##L,      \
                    probs, labels, numCorrect)

POPNN_LOSS(float, uint, "unsigned int");
POPNN_LOSS(float, int, "int");
POPNN_LOSS(half, uint, "unsigned int");
POPNN_LOSS(half, int, "int");

} // namespace
} // namespace popnn
