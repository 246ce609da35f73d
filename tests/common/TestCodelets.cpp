// The vertices tests run, with simple cycle estimates (10 + elements for the vector ones) that
// hand-computed expectations follow. A graph gets them with test::addTestCodelets (or
// addCodelets("TestCodelets.cpp")); calling that function is also what links this file's
// registrations into a test program from the static library.
#include "common/TestCodelets.hpp"

#include <cmath>
#include <cstdint>
#include <poplar/Vertex.hpp>
#include <stdexcept>

using namespace poplar;

namespace {
std::uint64_t perElement(const VertexIntrospector& v, const char* field) {
  return 10 + v.getFieldInfo(field).size();
}
} // namespace

namespace test {

void addTestCodelets(Graph& g) {
  g.addCodelets("TestCodelets.cpp");
}

Graph makeGraph(const Device& device, unsigned replicationFactor) {
  Graph g(device.getTarget(), replicationFactor);
  addTestCodelets(g);
  return g;
}

} // namespace test

/// out = sum(in)
class SumVertex : public Vertex {
public:
  Input<Vector<float>> in;
  Output<float> out;
  bool compute() {
    float s = 0;
    for (float x : in)
      s += x;
    *out = s;
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector& v, const Target&) {
    return perElement(v, "in");
  }
};
TESSERA_VERTEX(SumVertex, in, out);

/// out[i] = i
class IotaVertex : public Vertex {
public:
  Output<Vector<float>> out;
  bool compute() {
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = float(i);
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector& v, const Target&) {
    return perElement(v, "out");
  }
};
TESSERA_VERTEX(IotaVertex, out);

/// data *= factor (state member)
class ScaleVertex : public Vertex {
public:
  InOut<Vector<float>> data;
  float factor;
  void compute() {
    for (auto& x : data)
      x *= factor;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector& v, const Target&) {
    return perElement(v, "data");
  }
};
TESSERA_VERTEX(ScaleVertex, data, factor);

/// counter += 1
class IncrementVertex : public Vertex {
public:
  InOut<unsigned> counter;
  bool compute() {
    *counter += 1;
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector&, const Target&) { return 5; }
};
TESSERA_VERTEX(IncrementVertex, counter);

/// result = a < b
class LessThanVertex : public Vertex {
public:
  Input<unsigned> a, b;
  Output<bool> result;
  bool compute() {
    *result = *a < *b;
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector&, const Target&) { return 4; }
};
TESSERA_VERTEX(LessThanVertex, a, b, result);

/// out = concatenation of the edges of `in` (an edge list)
class GatherVertex : public Vertex {
public:
  Vector<Input<Vector<float>>> in;
  Output<Vector<float>> out;
  bool compute() {
    std::size_t k = 0;
    for (const auto& edge : in)
      for (float x : edge)
        out[k++] = x;
    return k == out.size();
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector& v, const Target&) {
    return 10 + v.getFieldInfo("in").totalElements();
  }
};
TESSERA_VERTEX(GatherVertex, in, out);

/// data = data * 2 in half precision
class DoubleHalfVertex : public Vertex {
public:
  InOut<Vector<half>> data;
  bool compute() {
    for (auto& x : data)
      x = float(x) * 2.0f;
    return true;
  }
};
TESSERA_VERTEX(DoubleHalfVertex, data); // no estimate of its own: tests use setPerfEstimate

/// Always fails, as a vertex detecting bad input would.
class FailingVertex : public Vertex {
public:
  Input<float> in;
  bool compute() { return false; }
  static std::uint64_t getCycleEstimate(const VertexIntrospector&, const Target&) { return 1; }
};
TESSERA_VERTEX(FailingVertex, in);

/// Throws from compute().
class ThrowingVertex : public Vertex {
public:
  Input<float> in;
  bool compute() { throw std::out_of_range("index 7 out of range"); }
  static std::uint64_t getCycleEstimate(const VertexIntrospector&, const Target&) { return 1; }
};
TESSERA_VERTEX(ThrowingVertex, in);

/// out = log(in): writes NaN for negative input.
class LogVertex : public Vertex {
public:
  Input<Vector<float>> in;
  Output<Vector<float>> out;
  bool compute() {
    for (std::size_t i = 0; i < in.size(); ++i)
      out[i] = std::log(in[i]);
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector& v, const Target&) {
    return perElement(v, "in");
  }
};
TESSERA_VERTEX(LogVertex, in, out);

/// A supervisor vertex: total = sum of counts.
class TotalSupervisor : public SupervisorVertex {
public:
  Input<Vector<int>> counts;
  Output<int> total;
  bool compute() {
    int s = 0;
    for (int c : counts)
      s += c;
    *total = s;
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector& v, const Target&) {
    return perElement(v, "counts");
  }
};
TESSERA_VERTEX(TotalSupervisor, counts, total);

/// offset = where `in` starts within its 64-byte line of host memory (the engine lines variables
/// up with the host's cache lines: compiler::kArenaAlignment).
class LineOffsetVertex : public Vertex {
public:
  Input<Vector<float>> in;
  Output<unsigned> offset;
  bool compute() {
    *offset = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(in.data()) % 64);
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector&, const Target&) { return 1; }
};
TESSERA_VERTEX(LineOffsetVertex, in, offset);
