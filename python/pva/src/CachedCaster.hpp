// Conversions for the classes made once per execution step (a step, its IPU list, one IPU entry,
// the step iterator). pybind11 finds a class's Python type by hashing the C++ type's name on
// every conversion, twice when the type is not module-local, and a loop over a million steps
// converts several objects per step: profiling the steps loop showed these look-ups at about a
// third of its time. These casters look the type up once and keep it; otherwise they do what
// pybind11's own caster does (the classes are not polymorphic, so no derived-type look-up).
// Included by every binding file (through Bind.hpp), as pybind11 requires of a specialization.
#pragma once

#include <new>
#include <pybind11/pybind11.h>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace pvapy {

template <class T> class CachedCaster : public pybind11::detail::type_caster_generic {
  static_assert(!std::is_polymorphic<T>::value,
                "a polymorphic class needs pybind11's derived-type look-up");

public:
  static constexpr auto name = pybind11::detail::const_name<T>();

  CachedCaster() : type_caster_generic(info()) {}

  static pybind11::handle cast(const T& src, pybind11::return_value_policy policy,
                               pybind11::handle parent) {
    if (policy == pybind11::return_value_policy::automatic ||
        policy == pybind11::return_value_policy::automatic_reference)
      policy = pybind11::return_value_policy::copy;
    return cast(&src, policy, parent);
  }
  static pybind11::handle cast(T&& src, pybind11::return_value_policy, pybind11::handle parent) {
    return cast(&src, pybind11::return_value_policy::move, parent);
  }
  static pybind11::handle cast(const T* src, pybind11::return_value_policy policy,
                               pybind11::handle parent) {
    return type_caster_generic::cast(src, policy, parent, info(), copier(), &move);
  }

  template <class U> using cast_op_type = pybind11::detail::cast_op_type<U>;
  operator T*() { return static_cast<T*>(value); }
  operator T&() {
    if (!value) throw pybind11::reference_cast_error();
    return *static_cast<T*>(value);
  }

private:
  /// The registered type, looked up on first use (after the module has registered it).
  static const pybind11::detail::type_info* info() {
    static const pybind11::detail::type_info* const registered =
        pybind11::detail::get_type_info(typeid(T), /*throw_if_missing=*/true);
    return registered;
  }
  using Constructor = void* (*)(const void*);
  static Constructor copier() {
    if constexpr (std::is_copy_constructible<T>::value)
      return [](const void* p) -> void* { return new T(*static_cast<const T*>(p)); };
    else
      return nullptr; // pybind11 refuses to copy, as with its own caster
  }
  static void* move(const void* p) {
    return new T(std::move(*const_cast<T*>(static_cast<const T*>(p))));
  }
};

} // namespace pvapy

/// Makes pybind11 convert `Type` with pvapy::CachedCaster.
#define PVAPY_CACHED_CASTER(Type)                                                                  \
  namespace pybind11::detail {                                                                     \
  template <> class type_caster<Type> : public pvapy::CachedCaster<Type> {};                       \
  }
