// Tables of vertex cycle estimators, as PopLibs' libraries register theirs (PopLibs marks this
// header internal; custom codelet libraries use it all the same). An entry pairs a templated
// vertex name with an estimator bound to the template arguments:
//
//   std::uint64_t MAKE_PERF_ESTIMATOR_NAME(MyVertex)(const poplar::VertexIntrospector& vertex,
//                                                   const poplar::Target& target,
//                                                   const poplar::Type& type) {
//     CODELET_FIELD(in);
//     return 10 + in.size();
//   }
//   poputil::internal::registerPerfFunctions(
//       graph, {CYCLE_ESTIMATOR_ENTRY(mylib, MyVertex, poplar::FLOAT)});
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <poplar/Graph.hpp>
#include <poplar/PerfEstimateFunc.hpp>
#include <poplar/Target.hpp>
#include <poplar/VertexIntrospector.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <string>
#include <utility>
#include <vector>

#define MAKE_PERF_ESTIMATOR_NAME(codelet) getPerfEstimateFor##codelet
#define CYCLE_ESTIMATOR_ENTRY_NOPARAMS(ns, codelet)                                                \
  poputil::internal::makePerfEstimatorEntry(#ns "::" #codelet, MAKE_PERF_ESTIMATOR_NAME(codelet))
#define CYCLE_ESTIMATOR_ENTRY(ns, codelet, ...)                                                    \
  poputil::internal::makePerfEstimatorEntry(#ns "::" #codelet, MAKE_PERF_ESTIMATOR_NAME(codelet),  \
                                            __VA_ARGS__)

// Inside an estimator whose introspector is named `vertex` (and target `target`): a field's
// sizes, a scalar state value, the elements of a vector state value.
#define CODELET_FIELD(field) const auto field = vertex.getFieldInfo(#field)
#define CODELET_SCALAR_VAL(field, type)                                                            \
  const auto field = vertex.getInitialValue<type>(#field);                                         \
  (void)target
#define CODELET_VECTOR_VALS(field, type)                                                           \
  const auto field = poputil::internal::stateValues<type>(vertex, #field);                         \
  (void)target
// Tessera's vertices hold no vector-of-vector state: the values come back as one row.
#define CODELET_VECTOR_2D_VALS(field, type)                                                        \
  const auto field =                                                                               \
      std::vector<std::vector<type>>{poputil::internal::stateValues<type>(vertex, #field)};        \
  (void)target

namespace poputil {
namespace internal {

using PerfEstimatorTable = std::vector<std::pair<std::string, poplar::PerfEstimateFunc>>;

// Estimators return cycles, or cycles and flops as PopLibs' newer ones do.
inline std::uint64_t cyclesOf(std::uint64_t cycles) {
  return cycles;
}
inline std::uint64_t cyclesOf(const poplar::VertexPerfEstimate& e) {
  return e.cycles;
}

/// ("ns::Codelet<args...>", the estimator with the template arguments bound after the
/// introspector and the target).
template <typename F, typename... Args>
inline std::pair<std::string, poplar::PerfEstimateFunc>
makePerfEstimatorEntry(const std::string& codelet, F f, Args&&... args) {
  using std::placeholders::_1;
  using std::placeholders::_2;
  auto bound = std::bind(f, _1, _2, args...);
  return std::make_pair(
      poputil::templateVertex(codelet, args...),
      poplar::PerfEstimateFunc([bound](const poplar::VertexIntrospector& v,
                                       const poplar::Target& t) { return cyclesOf(bound(v, t)); }));
}

inline void registerPerfFunctions(poplar::Graph& graph, const PerfEstimatorTable& table) {
  for (const auto& kv : table)
    graph.registerPerfEstimator(kv.first, kv.second);
}

/// The state value `name` read as consecutive values of T.
template <typename T>
std::vector<T> stateValues(const poplar::VertexIntrospector& vertex, const std::string& name) {
  const auto& bytes = vertex.getStateBytes(name);
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

} // namespace internal
} // namespace poputil
