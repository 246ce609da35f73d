// The pva Python module (pva.pva_core): declarations only, one file per area of libpva. The
// spellings follow shared/api/libpva.md: properties for accessors, methods where an argument is
// taken, cyclesFrom/cyclesTo for C++'s from/to, numpy arrays for per-tile values.
#pragma once

#include "CachedCaster.hpp"
#include "NativeSlots.hpp"
#include "StepIterator.hpp"

#include <pva/pva.hpp>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

// pva::OptionalCount (a C++11 stand-in for std::optional<std::uint64_t>) is an int or None.
namespace pybind11 {
namespace detail {
template <> struct type_caster<pva::OptionalCount> {
  PYBIND11_TYPE_CASTER(pva::OptionalCount, const_name("Optional[int]"));
  bool load(handle src, bool) {
    if (src.is_none()) {
      value = pva::OptionalCount();
      return true;
    }
    if (!PyLong_Check(src.ptr())) return false;
    value = pva::OptionalCount(src.cast<std::uint64_t>());
    return true;
  }
  static handle cast(const pva::OptionalCount& v, return_value_policy, handle) {
    return v ? handle(PyLong_FromUnsignedLongLong(*v)) : none().release();
  }
};
} // namespace detail
} // namespace pybind11

// The classes made once per step when iterating execution steps (see CachedCaster.hpp).
PVAPY_CACHED_CASTER(pva::ExecutionStep)
PVAPY_CACHED_CASTER(pva::IpuExecutions)
PVAPY_CACHED_CASTER(pva::IpuExecution)
PVAPY_CACHED_CASTER(pvapy::StepIterator)

namespace pvapy {

namespace py = pybind11;

/// A per-tile array handed to numpy without copying (the vector moves into the array's owner).
inline py::array_t<std::uint64_t> toNumpy(std::vector<std::uint64_t>&& v) {
  auto* owner = new std::vector<std::uint64_t>(std::move(v));
  py::capsule free(owner, [](void* p) { delete static_cast<std::vector<std::uint64_t>*>(p); });
  return py::array_t<std::uint64_t>({owner->size()}, {sizeof(std::uint64_t)}, owner->data(), free);
}

/// Python holds programs as shared_ptr<Program>; libpva hands out shared_ptr<const Program>.
inline std::shared_ptr<pva::Program> mutableProgram(const pva::ProgramPtr& p) {
  return std::const_pointer_cast<pva::Program>(p);
}
inline std::vector<std::shared_ptr<pva::Program>>
mutablePrograms(const std::vector<pva::ProgramPtr>& ps) {
  std::vector<std::shared_ptr<pva::Program>> out;
  out.reserve(ps.size());
  for (const auto& p : ps)
    out.push_back(mutableProgram(p));
  return out;
}
inline std::shared_ptr<pva::DebugContext>
mutableContext(const std::shared_ptr<const pva::DebugContext>& c) {
  return std::const_pointer_cast<pva::DebugContext>(c);
}

/// How many items the repr of a long list (execution steps) shows: Report.listPrintLength(n).
inline std::size_t& listPrintLength() {
  static std::size_t n = 10;
  return n;
}

void bindErrors(py::module_& m);
void bindReport(py::module_& m);
void bindCompilation(py::module_& m);
void bindPrograms(py::module_& m);
void bindExecution(py::module_& m);
void bindDebug(py::module_& m);
void bindCompare(py::module_& m);
void bindAnalysis(py::module_& m);
void bindInsights(py::module_& m);
void bindTrace(py::module_& m);
void bindJob(py::module_& m);

} // namespace pvapy
