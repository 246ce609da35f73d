// Loss and accuracy vertices. Each handles a group of rows of model outputs (probabilities) with
// their labels; a label outside [0, classes) makes the vertex fail, stopping the run.
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

/// Cycles for `rows` rows of `classes` elements: a pass over each row plus per-row overhead.
std::uint64_t rowsCycles(const poplar::VertexIntrospector& v, const poplar::Target& target,
                         poplar::Type type, unsigned perRow) {
  const auto probs = v.getFieldInfo("probs");
  const std::size_t width = target.getVectorWidth(type);
  std::uint64_t cycles = 10;
  for (std::size_t r = 0; r < probs.size(); ++r)
    cycles += perRow + 2 * ((probs.getSizeAtIndex(r) + width - 1) / width);
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
    return rowsCycles(v, target, poplar::TypeOf<T>::value, 20);
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
                                        const poplar::Target& target) {
    return rowsCycles(v, target, poplar::TypeOf<T>::value, 8);
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
