// poprand vertices: one supervisor vertex per tile fills that tile's part of the output from the
// tile's generator (see Generator.hpp). Every vertex has the seed fields:
//   hwSeeds       the tile's 4-word generator state (read, and advanced by unseeded calls)
//   seed          the call's seed pair (read when useSeed), seedModifier, and the vertex's tile.
// Cycle estimates follow PopLibs' poprand cycle estimators (per-worker set-up, then a vector of
// results per few cycles, a tail for a partial vector).
#include "Generator.hpp"

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

// ---- cycle estimates (PopLibs' formulas) --------------------------------------------------------

struct Shape {
  std::uint64_t n, vectors, tail, workers;
};
Shape shapeOf(const poplar::VertexIntrospector& v, const poplar::Target& t, bool isFloat) {
  const std::uint64_t n = v.getFieldInfo("out").size();
  const std::uint64_t width = t.getDataPathWidth() / (isFloat ? 32 : 16);
  return {n, (n + width - 1) / width, n % width != 0, t.getNumWorkerContexts()};
}
template <typename T> constexpr bool isFloat() {
  return sizeof(T) == 4;
}

std::uint64_t uniformCycles(const poplar::VertexIntrospector& v, const poplar::Target& t,
                            bool isFloat) {
  const Shape s = shapeOf(v, t, isFloat);
  return 4 + 4 * s.vectors + (isFloat ? 22 * s.workers + s.tail * 4 : 24 * s.workers + s.tail * 12);
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
    return uniformCycles(v, t, isFloat<T>());
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
    const std::uint64_t n = v.getFieldInfo("out").size();
    return 4 + 22 * t.getNumWorkerContexts() + 6 * (n / 2) + (n % 2) * 2;
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
    const bool isHalf = sizeof(T) == 2;
    const std::uint64_t n = v.getFieldInfo("out").size();
    const std::uint64_t width = t.getDataPathWidth() / (isHalf ? 16 : 32);
    const std::uint64_t tail = n % width != 0;
    return 4 + (n + width - 1) / width +
           (isHalf ? 21 * t.getNumWorkerContexts() + tail * 9
                   : 23 * t.getNumWorkerContexts() + tail);
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
    const Shape s = shapeOf(v, t, isFloat<T>());
    return 4 + 4 * s.vectors +
           (isFloat<T>() ? 22 * s.workers + s.tail * 3 : 24 * s.workers + s.tail * 12);
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
    const Shape s = shapeOf(v, t, isFloat<T>());
    const std::uint64_t it = v.getInitialValue<unsigned>("iterations");
    return isFloat<T>() ? 4 + 26 * s.workers + (11 * it + 5) * s.vectors + s.tail * (13 * it + 2)
                        : 4 + 28 * s.workers + (12 * it + 5) * s.vectors + s.tail * (12 * it + 10);
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
    const Shape s = shapeOf(v, t, isFloat<T>());
    return 6 + 24 * s.workers + 2 * s.vectors + s.tail * (isFloat<T>() ? 1 : 9);
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
    return 14 + 27 * std::uint64_t(t.getNumWorkerContexts());
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
