// The fused expression vertices (popops::map::<expression>). The vertex's code is the same for
// every expression: it reads its program (the compiled expression) by the id in its state and
// runs it over its elements. The field layout is fixed, so one class per output type serves
// every expression; the type names differ so that profiles name each expression.
#include "poplibs_support/ElementWiseCycleEstimators.hpp"
#include "popops/expr/MapVertex.hpp"

#include <mutex>
#include <poplar/Vertex.hpp>
#include <set>

namespace popops::mapexpr {
namespace {

using poplar::half;
using poplar::InOut;
using poplar::Input;
using poplar::Output;
using poplar::Vector;
using poplar::VectorList;

/// The slots' data pointers, from the typed edge lists (slot order within each type).
template <typename V> void slotPointers(const Program& p, const V& v, const void** ptrs) {
  std::size_t f = 0, h = 0, i = 0, u = 0, b = 0;
  for (std::size_t s = 0; s < p.inputs.size(); ++s) {
    const auto& t = p.inputs[s].type;
    if (p.inputs[s].isOutput)
      ptrs[s] = nullptr;
    else if (t == poplar::FLOAT)
      ptrs[s] = v.inFloat[f++].data();
    else if (t == poplar::HALF)
      ptrs[s] = v.inHalf[h++].data();
    else if (t == poplar::INT)
      ptrs[s] = v.inInt[i++].data();
    else if (t == poplar::UNSIGNED_INT)
      ptrs[s] = v.inUnsigned[u++].data();
    else
      ptrs[s] = v.inBool[b++].data();
  }
}

std::uint64_t estimate(const poplar::VertexIntrospector& vi, const poplar::Target& target,
                       const char* outField) {
  const Program& p = program(vi.getInitialValue<unsigned>("program"));
  const std::size_t n = vi.getFieldInfo(outField).size();
  // One named operation runs as PopLibs' UnaryOp1D/BinaryOp1D and is estimated as PopLibs
  // estimates it; other expressions by their own operation count.
  if (const auto cycles = poplibs_support::elementWise1DWorkerCycles(target, p.name, n))
    return *cycles;
  return mapCycles(p, n, target);
}

template <typename T> class MapExpr : public poplar::Vertex {
public:
  Input<VectorList<float>> inFloat;
  Input<VectorList<half>> inHalf;
  Input<VectorList<int>> inInt;
  Input<VectorList<unsigned>> inUnsigned;
  Input<VectorList<bool>> inBool;
  Output<Vector<T>> out;
  unsigned program;
  unsigned flopsPerElement; ///< read by the engine's FLOP model, not by compute()

  bool compute() {
    if (!program_) program_ = &mapexpr::program(program);
    const void* ptrs[64];
    std::vector<const void*> many;
    const void** slots = ptrs;
    if (program_->inputs.size() > 64) {
      many.resize(program_->inputs.size());
      slots = many.data();
    }
    slotPointers(*program_, *this, slots);
    run(*program_, slots, out.data(), out.size());
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& vi,
                                        const poplar::Target& target) {
    return estimate(vi, target, "out");
  }

private:
  const Program* program_ = nullptr; // looked up once per loaded vertex
};

template <typename T> class MapExprInPlace : public poplar::Vertex {
public:
  Input<VectorList<float>> inFloat;
  Input<VectorList<half>> inHalf;
  Input<VectorList<int>> inInt;
  Input<VectorList<unsigned>> inUnsigned;
  Input<VectorList<bool>> inBool;
  InOut<Vector<T>> in1;
  unsigned program;
  unsigned flopsPerElement; ///< read by the engine's FLOP model, not by compute()

  bool compute() {
    if (!program_) program_ = &mapexpr::program(program);
    const void* ptrs[64];
    std::vector<const void*> many;
    const void** slots = ptrs;
    if (program_->inputs.size() > 64) {
      many.resize(program_->inputs.size());
      slots = many.data();
    }
    slotPointers(*program_, *this, slots);
    run(*program_, slots, in1.data(), in1.size());
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& vi,
                                        const poplar::Target& target) {
    return estimate(vi, target, "in1");
  }

private:
  const Program* program_ = nullptr;
};

template <typename T> void registerOut(const std::string& name) {
  using C = MapExpr<T>;
  poplar::detail::VertexRegistrar<C>(name.c_str(), "popops",
                                     {TESSERA_FIELDS(C, inFloat, inHalf, inInt, inUnsigned, inBool,
                                                     out, program, flopsPerElement)});
}
template <typename T> void registerInPlace(const std::string& name) {
  using C = MapExprInPlace<T>;
  poplar::detail::VertexRegistrar<C>(name.c_str(), "popops",
                                     {TESSERA_FIELDS(C, inFloat, inHalf, inInt, inUnsigned, inBool,
                                                     in1, program, flopsPerElement)});
}

} // namespace

void ensureVertexType(const Program& p) {
  static std::mutex mutex;
  static std::set<std::string> registered;
  std::lock_guard<std::mutex> lock(mutex);
  if (!registered.insert(p.name).second) return;
  const auto& t = p.outType;
  if (p.inPlace) {
    if (t == poplar::FLOAT)
      registerInPlace<float>(p.name);
    else if (t == poplar::HALF)
      registerInPlace<half>(p.name);
    else if (t == poplar::INT)
      registerInPlace<int>(p.name);
    else if (t == poplar::UNSIGNED_INT)
      registerInPlace<unsigned>(p.name);
    else
      registerInPlace<bool>(p.name);
  } else {
    if (t == poplar::FLOAT)
      registerOut<float>(p.name);
    else if (t == poplar::HALF)
      registerOut<half>(p.name);
    else if (t == poplar::INT)
      registerOut<int>(p.name);
    else if (t == poplar::UNSIGNED_INT)
      registerOut<unsigned>(p.name);
    else
      registerOut<bool>(p.name);
  }
}

std::uint64_t mapCycles(const Program& p, std::size_t n, const poplar::Target& target) {
  const std::size_t width = p.floatingPoint ? target.getVectorWidth(poplar::FLOAT) : 1;
  const std::uint64_t vectors = (n + width - 1) / width;
  return 20 + vectors * p.cyclesPerVector;
}

} // namespace popops::mapexpr
