// poprand vertices: one supervisor vertex per tile fills that tile's part of the output from the
// tile's generator (see Generator.hpp). Every vertex has the seed fields:
//   hwSeeds       the tile's 4-word generator state (read, and advanced by unseeded calls)
//   seed          the call's seed pair (read when useSeed), seedModifier, and the vertex's tile.
// Cycle estimates are PopLibs' published poprand estimators (RandomCycleEstimators.hpp).
#include "Generator.hpp"
#include "poplibs_support/RandomCycleEstimators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace poprand {
namespace {

using detail::Generator;
using poplar::half;
using poplar::InOut;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

#define POPRAND_SEED_FIELDS                                                                        \
  InOut<Vector<unsigned>> hwSeeds;                                                                 \
  Input<Vector<unsigned>> seed;                                                                    \
  unsigned seedModifier;                                                                           \
  unsigned useSeed;                                                                                \
  unsigned tile

/// The vertex's generator; commit() stores an unseeded call's advanced state.
template <class V> Generator generatorOf(V& v) {
  if (v.useSeed) return detail::seededGenerator(v.seed[0], v.seed[1], v.seedModifier, v.tile);
  const unsigned words[4] = {v.hwSeeds[0], v.hwSeeds[1], v.hwSeeds[2], v.hwSeeds[3]};
  return Generator(words);
}
template <class V> void commit(V& v, const Generator& g) {
  if (v.useSeed) return; // a seeded call leaves the tile's generator as it was
  unsigned words[4];
  g.store(words);
  for (unsigned i = 0; i < 4; ++i)
    v.hwSeeds[i] = words[i];
}

// Cycle estimates: PopLibs' published poprand estimators
// (poplibs_support/RandomCycleEstimators.hpp).
template <typename T> constexpr bool isFloat() {
  return sizeof(T) == 4;
}
template <typename T> poplar::Type typeOf() {
  return poplar::TypeOf<T>::value;
}
inline std::uint64_t outSize(const poplar::VertexIntrospector& v) {
  return v.getFieldInfo("out").size();
}

// ---- vertices ----------------------------------------------------------------------------------

/// out = offset + scale · u, u uniform in [0, 1).
template <typename T> class UniformSupervisor : public poplar::SupervisorVertex {
public:
  Output<Vector<T>> out;
  POPRAND_SEED_FIELDS;
  float offset;
  float scale;
  bool compute() {
    Generator g = generatorOf(*this);
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = T(float(double(offset) + double(scale) * g.uniform()));
    commit(*this, g);
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return poplibs_support::uniformCycles(t, typeOf<T>(), outSize(v));
  }
};

/// out = offset + (r mod range) for 32 random bits r; range 0 stands for 2^32.
class UniformIntSupervisor : public poplar::SupervisorVertex {
public:
  Output<Vector<int>> out;
  POPRAND_SEED_FIELDS;
  int offset;
  unsigned range;
  bool compute() {
    Generator g = generatorOf(*this);
    for (std::size_t i = 0; i < out.size(); ++i) {
      const std::uint32_t r = g.next32();
      out[i] = int(std::uint32_t(offset) + (range ? r % range : r));
    }
    commit(*this, g);
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    // A range of 0 (all 32 bits) is PopLibs' scale 0.
    const bool fullRange = v.getInitialValue<unsigned>("range") == 0;
    return poplibs_support::uniformIntCycles(t, fullRange, outSize(v));
  }
};

/// out = 1 with probability prob, else 0.
template <typename T> class BernoulliSupervisor : public poplar::SupervisorVertex {
public:
  Output<Vector<T>> out;
  POPRAND_SEED_FIELDS;
  float prob;
  bool compute() {
    Generator g = generatorOf(*this);
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = T(g.uniform() < double(prob) ? 1 : 0);
    commit(*this, g);
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return poplibs_support::bernoulliCycles(t, typeOf<T>(), outSize(v));
  }
};

/// out = mean + stdDev · z, z standard normal.
template <typename T> class NormalSupervisor : public poplar::SupervisorVertex {
public:
  Output<Vector<T>> out;
  POPRAND_SEED_FIELDS;
  float mean;
  float stdDev;
  bool compute() {
    Generator g = generatorOf(*this);
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = T(float(double(mean) + double(stdDev) * g.normal()));
    commit(*this, g);
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return poplibs_support::normalCycles(t, typeOf<T>(), outSize(v));
  }
};

/// out = mean + stdDev · z, z standard normal redrawn up to `iterations` times while |z| > alpha,
/// then (rarely) replaced by a uniform value in [-alpha, alpha].
template <typename T> class TruncatedNormalSupervisor : public poplar::SupervisorVertex {
public:
  Output<Vector<T>> out;
  POPRAND_SEED_FIELDS;
  float mean;
  float stdDev;
  float alpha;
  unsigned iterations;
  bool compute() {
    Generator g = generatorOf(*this);
    for (std::size_t i = 0; i < out.size(); ++i) {
      double z = g.normal();
      for (unsigned k = 0; k < iterations && std::fabs(z) > alpha; ++k)
        z = g.normal();
      if (std::fabs(z) > alpha) z = (2.0 * g.uniform() - 1.0) * alpha;
      // Rounding to half may step just past the bound: keep the result inside it.
      const double lo = double(mean) - double(alpha) * stdDev,
                   hi = double(mean) + double(alpha) * stdDev;
      out[i] = T(float(std::min(hi, std::max(lo, double(mean) + double(stdDev) * z))));
    }
    commit(*this, g);
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return poplibs_support::truncatedNormalCycles(t, typeOf<T>(), outSize(v),
                                                  v.getInitialValue<unsigned>("iterations"));
  }
};

/// out = in · scale with probability prob, else 0.
template <typename T> class DropoutSupervisor : public poplar::SupervisorVertex {
public:
  Input<Vector<T>> in;
  Output<Vector<T>> out;
  POPRAND_SEED_FIELDS;
  float prob;
  float scale;
  bool compute() {
    Generator g = generatorOf(*this);
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = g.uniform() < double(prob) ? T(float(in[i]) * scale) : T(0.0f);
    commit(*this, g);
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return poplibs_support::dropoutCycles(t, typeOf<T>(), outSize(v));
  }
};

/// Would load the tile's generator from the master seed; the IPU Model does not model seeding,
/// so it reads the seed and leaves the generator as it is (costed as PopLibs estimates it).
class SetSeedSupervisor : public poplar::SupervisorVertex {
public:
  Input<Vector<unsigned>> seed;
  unsigned seedModifier;
  bool compute() { return seed.size() == 2; }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector&,
                                        const poplar::Target& t) {
    return poplibs_support::setSeedCycles(t);
  }
};

#define POPRAND_SEEDS hwSeeds, seed, seedModifier, useSeed, tile
using Uniform_float = UniformSupervisor<float>;
using Uniform_half = UniformSupervisor<half>;
TESSERA_VERTEX_IN("poprand", "poprand::UniformSupervisor<float>", Uniform_float, out, POPRAND_SEEDS,
                  offset, scale);
TESSERA_VERTEX_IN("poprand", "poprand::UniformSupervisor<half>", Uniform_half, out, POPRAND_SEEDS,
                  offset, scale);
TESSERA_VERTEX_IN("poprand", "poprand::UniformSupervisor<int>", UniformIntSupervisor, out,
                  POPRAND_SEEDS, offset, range);
using Bernoulli_float = BernoulliSupervisor<float>;
using Bernoulli_half = BernoulliSupervisor<half>;
using Bernoulli_int = BernoulliSupervisor<int>;
TESSERA_VERTEX_IN("poprand", "poprand::BernoulliSupervisor<float>", Bernoulli_float, out,
                  POPRAND_SEEDS, prob);
TESSERA_VERTEX_IN("poprand", "poprand::BernoulliSupervisor<half>", Bernoulli_half, out,
                  POPRAND_SEEDS, prob);
TESSERA_VERTEX_IN("poprand", "poprand::BernoulliSupervisor<int>", Bernoulli_int, out, POPRAND_SEEDS,
                  prob);
using Normal_float = NormalSupervisor<float>;
using Normal_half = NormalSupervisor<half>;
TESSERA_VERTEX_IN("poprand", "poprand::NormalSupervisor<float>", Normal_float, out, POPRAND_SEEDS,
                  mean, stdDev);
TESSERA_VERTEX_IN("poprand", "poprand::NormalSupervisor<half>", Normal_half, out, POPRAND_SEEDS,
                  mean, stdDev);
using Truncated_float = TruncatedNormalSupervisor<float>;
using Truncated_half = TruncatedNormalSupervisor<half>;
TESSERA_VERTEX_IN("poprand", "poprand::TruncatedNormalSupervisor<float>", Truncated_float, out,
                  POPRAND_SEEDS, mean, stdDev, alpha, iterations);
TESSERA_VERTEX_IN("poprand", "poprand::TruncatedNormalSupervisor<half>", Truncated_half, out,
                  POPRAND_SEEDS, mean, stdDev, alpha, iterations);
using Dropout_float = DropoutSupervisor<float>;
using Dropout_half = DropoutSupervisor<half>;
TESSERA_VERTEX_IN("poprand", "poprand::DropoutSupervisor<float>", Dropout_float, in, out,
                  POPRAND_SEEDS, prob, scale);
TESSERA_VERTEX_IN("poprand", "poprand::DropoutSupervisor<half>", Dropout_half, in, out,
                  POPRAND_SEEDS, prob, scale);
TESSERA_VERTEX_IN("poprand", "poprand::SetSeedSupervisor", SetSeedSupervisor, seed, seedModifier);

} // namespace
} // namespace poprand
