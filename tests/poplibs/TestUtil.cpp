#include "TestUtil.hpp"

#include "common/Devices.hpp"

#include <cmath>
#include <cstring>
#include <poplin/codelets.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poprand/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <random>

namespace test {
namespace {

/// Host bytes of `values` in `type`.
std::vector<unsigned char> encode(poplar::Type type, const std::vector<float>& values) {
  std::vector<unsigned char> bytes(values.size() * type.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    unsigned char* p = bytes.data() + i * type.size();
    if (type == poplar::FLOAT)
      std::memcpy(p, &values[i], 4);
    else if (type == poplar::HALF) {
      const auto bits = poplar::half(values[i]).bits();
      std::memcpy(p, &bits, 2);
    } else if (type == poplar::INT) {
      const int v = int(values[i]);
      std::memcpy(p, &v, 4);
    } else if (type == poplar::UNSIGNED_INT) {
      const unsigned v = unsigned(values[i]);
      std::memcpy(p, &v, 4);
    } else if (type == poplar::BOOL) {
      const bool v = values[i] != 0.0f;
      std::memcpy(p, &v, 1);
    } else if (type == poplar::UNSIGNED_CHAR) {
      *p = static_cast<unsigned char>(values[i]);
    } else if (type == poplar::UNSIGNED_SHORT) {
      const auto v = static_cast<unsigned short>(values[i]);
      std::memcpy(p, &v, 2);
    } else
      FAIL("test harness: unsupported type " << type);
  }
  return bytes;
}

std::vector<float> decode(poplar::Type type, const std::vector<unsigned char>& bytes) {
  std::vector<float> values(bytes.size() / type.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const unsigned char* p = bytes.data() + i * type.size();
    if (type == poplar::FLOAT)
      std::memcpy(&values[i], p, 4);
    else if (type == poplar::HALF) {
      std::uint16_t bits;
      std::memcpy(&bits, p, 2);
      values[i] = poplar::half::toFloat(bits);
    } else if (type == poplar::INT) {
      int v;
      std::memcpy(&v, p, 4);
      values[i] = float(v);
    } else if (type == poplar::UNSIGNED_INT) {
      unsigned v;
      std::memcpy(&v, p, 4);
      values[i] = float(v);
    } else if (type == poplar::BOOL) {
      bool v;
      std::memcpy(&v, p, 1);
      values[i] = v ? 1.0f : 0.0f;
    } else if (type == poplar::UNSIGNED_CHAR) {
      values[i] = float(*p);
    } else if (type == poplar::UNSIGNED_SHORT) {
      unsigned short v;
      std::memcpy(&v, p, 2);
      values[i] = float(v);
    } else if (type == poplar::SHORT) {
      short v;
      std::memcpy(&v, p, 2);
      values[i] = float(v);
    } else if (type == poplar::SIGNED_CHAR) {
      signed char v;
      std::memcpy(&v, p, 1);
      values[i] = float(v);
    } else
      FAIL("test harness: unsupported type " << type);
  }
  return values;
}

} // namespace

Harness::Harness(unsigned tiles) : device_(smallDevice(tiles)), graph_(device_.getTarget()) {
  popops::addCodelets(graph_);
  poplin::addCodelets(graph_);
  popnn::addCodelets(graph_);
  poprand::addCodelets(graph_);
}

poplar::Tensor Harness::input(const std::string& name, poplar::Type type,
                              const std::vector<std::size_t>& shape,
                              const std::vector<float>& values) {
  const poplar::Tensor t = graph_.addVariable(type, shape, name);
  poputil::mapTensorLinearly(graph_, t);
  write(name, t, values);
  return t;
}

void Harness::write(const std::string& name, const poplar::Tensor& t,
                    const std::vector<float>& values) {
  REQUIRE(values.size() == t.numElements());
  graph_.createHostWrite(name, t);
  writes_[name] = {t.elementType(), values};
}

void Harness::read(const std::string& name, const poplar::Tensor& t) {
  graph_.createHostRead(name + ".out", t);
  reads_[name] = t;
}

void Harness::run(const poplar::OptionFlags& engineOptions) {
  poplar::Engine engine(graph_, prog_, engineOptions);
  engine.load(device_);
  for (const auto& [name, w] : writes_) {
    const auto bytes = encode(w.first, w.second);
    engine.writeTensor(name, bytes.data(), bytes.data() + bytes.size());
  }
  engine.run(0);
  for (const auto& [name, t] : reads_) {
    std::vector<unsigned char> bytes(t.numElements() * t.elementType().size());
    engine.readTensor(name + ".out", bytes.data(), bytes.data() + bytes.size());
    results_[name] = decode(t.elementType(), bytes);
  }
}

std::vector<float> hostMatMul(const std::vector<float>& a, const std::vector<float>& b,
                              std::size_t G, std::size_t M, std::size_t K, std::size_t N) {
  std::vector<float> c(G * M * N);
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t i = 0; i < M; ++i)
      for (std::size_t j = 0; j < N; ++j) {
        double s = 0;
        for (std::size_t k = 0; k < K; ++k)
          s += double(a[(g * M + i) * K + k]) * b[(g * K + k) * N + j];
        c[(g * M + i) * N + j] = float(s);
      }
  return c;
}

std::vector<float> randomValues(std::size_t n, float lo, float hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v)
    x = dist(rng);
  return v;
}

bool CloseTo::match(const std::vector<float>& got) const {
  if (got.size() != expected_.size()) {
    mismatch_ = "has " + std::to_string(got.size()) + " elements, expected " +
                std::to_string(expected_.size());
    return false;
  }
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const float e = expected_[i];
    const bool ok = got[i] == e || (std::isnan(got[i]) && std::isnan(e)) ||
                    std::abs(got[i] - e) <= absTol_ + relTol_ * std::abs(e);
    if (!ok && bad++ == 0) first = i;
  }
  if (bad)
    mismatch_ = std::to_string(bad) + " of " + std::to_string(got.size()) +
                " elements differ; the first is [" + std::to_string(first) +
                "]: " + Catch::Detail::stringify(got[first]) + " where " +
                Catch::Detail::stringify(expected_[first]) + " was expected";
  return bad == 0;
}

std::string CloseTo::describe() const {
  return "is within " + Catch::Detail::stringify(absTol_) + " + " +
         Catch::Detail::stringify(relTol_) + " * |expected| of the expected values (" + mismatch_ +
         ")";
}

} // namespace test
