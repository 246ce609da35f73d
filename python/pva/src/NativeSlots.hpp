// Native CPython entry points for the calls made once per step in a loop over execution steps
// (`for step in report.execution.steps: step.ipus[0].cycles`). pybind11 routes every call, even a
// one-line accessor, through its general dispatcher: an argument tuple, a bound-method or
// property call, an overload loop with argument vectors, a life-support frame. Profiling that loop
// showed the machinery costing more than the work it dispatched. These helpers install the same
// C++ calls as CPython type slots and getset descriptors on the pybind11 classes, so Python calls
// them directly. Arguments and results still go through pybind11's casters, and C++ exceptions
// through pybind11's registered translators (pva.InvalidReportError etc.), as with any binding.
#pragma once

#include <cstddef>
#include <pybind11/pybind11.h>
#include <stdexcept>
#include <utility>

namespace pvapy {
namespace native {

namespace py = pybind11;

/// Sets the Python error for the exception being handled, as pybind11's dispatcher does.
inline void setPythonError() {
  try {
    throw;
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (...) {
    if (py::detail::apply_exception_translators(
            py::detail::get_local_internals().registered_exception_translators))
      return;
    if (py::detail::apply_exception_translators(
            py::detail::get_internals().registered_exception_translators))
      return;
    PyErr_SetString(PyExc_SystemError, "exception escaped from pybind11's exception translators");
  }
}

/// The C++ object behind `self` (an instance of the pybind11 class of T).
template <class T> const T& self(PyObject* self) {
  py::detail::make_caster<T> caster;
  if (!caster.load(self, false)) throw py::type_error("expected a " + py::type_id<T>() + " object");
  return py::detail::cast_op<const T&>(caster);
}

template <class R> PyObject* toPython(R&& value) {
  return py::cast(std::forward<R>(value), py::return_value_policy::move).release().ptr();
}

/// The class of a member function pointer.
template <class M> struct ClassOf;
template <class T, class R, class... A> struct ClassOf<R (T::*)(A...)> { using type = T; };
template <class T, class R, class... A> struct ClassOf<R (T::*)(A...) const> { using type = T; };
template <auto Member> using ClassOfT = typename ClassOf<decltype(Member)>::type;

template <auto Get> PyObject* getter(PyObject* obj, void*) {
  try {
    return toPython((self<ClassOfT<Get>>(obj).*Get)());
  } catch (...) {
    setPythonError();
    return nullptr;
  }
}

/// `cls.name`: a read-only attribute calling the const member function Get, as a getset
/// descriptor.
template <auto Get, class Class> void property(Class& cls, const char* name, const char* doc) {
  // The definition must live as long as the class, which lives as long as the process.
  auto* def = new PyGetSetDef{name, &getter<Get>, nullptr, doc, nullptr};
  py::object descriptor = py::reinterpret_steal<py::object>(
      PyDescr_NewGetSet(reinterpret_cast<PyTypeObject*>(cls.ptr()), def));
  if (!descriptor || PyObject_SetAttrString(cls.ptr(), name, descriptor.ptr()) != 0)
    throw py::error_already_set();
}

template <auto Next> PyObject* iterNext(PyObject* obj) {
  try {
    using T = ClassOfT<Next>;
    return toPython((const_cast<T&>(self<T>(obj)).*Next)());
  } catch (py::stop_iteration&) {
    return nullptr; // no error set: the iteration is over
  } catch (...) {
    setPythonError();
    return nullptr;
  }
}

/// next(it) calls the member function Next, which returns the next value or throws
/// py::stop_iteration.
template <auto Next, class Class> void iterNextSlot(Class& cls) {
  reinterpret_cast<PyTypeObject*>(cls.ptr())->tp_iternext = &iterNext<Next>;
}

template <auto Get, auto Size> PyObject* subscript(PyObject* obj, PyObject* key) {
  try {
    const auto& list = self<ClassOfT<Get>>(obj);
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) return nullptr;
    const auto n = static_cast<Py_ssize_t>((list.*Size)());
    if (i < 0) i += n;
    if (i < 0 || i >= n) {
      PyErr_SetString(PyExc_IndexError, "index out of range");
      return nullptr;
    }
    return toPython((list.*Get)(static_cast<std::size_t>(i)));
  } catch (...) {
    setPythonError();
    return nullptr;
  }
}

/// obj[i] (a negative i counts from the end) calls Get(i) after checking i against Size(). The
/// class must define __getitem__ (so that it has a mapping slot); this replaces the slot.
template <auto Get, auto Size, class Class> void subscriptSlot(Class& cls) {
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  if (!type->tp_as_mapping) throw std::logic_error("subscriptSlot: define __getitem__ first");
  type->tp_as_mapping->mp_subscript = &subscript<Get, Size>;
}

} // namespace native
} // namespace pvapy
