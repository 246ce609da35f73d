// Conversions for the classes made once per execution step (a step, its IPU list, one IPU entry,
// the step iterator). pybind11 finds a class's Python type by hashing the C++ type's name on
// every conversion, twice when the type is not module-local, and a loop over a million steps
// converts several objects per step: profiling the steps loop showed these look-ups at about a
// third of its time. These casters look the type up once and keep it; otherwise they do what
// pybind11's own caster does (the classes are not polymorphic, so no derived-type look-up).
// Two shortcuts more (issue 38: these were a fifth of the loop's time): an object of exactly the
// class is read straight from its value slot, and a value moved into Python becomes its own
// object without pybind11's instance registry (see makeOwned).
// Included by every binding file (through Bind.hpp), as pybind11 requires of a specialization.
#pragma once

#include <memory>
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

  /// An object of exactly the class, with pybind11's simple layout (one value, one holder), is
  /// read from its value slot; anything else takes pybind11's general path.
  bool load(pybind11::handle src, bool convert) {
    const auto* type = info();
    if (src && Py_TYPE(src.ptr()) == type->type) {
      auto* inst = reinterpret_cast<pybind11::detail::instance*>(src.ptr());
      if (inst->simple_layout) {
        value = inst->simple_value_holder[0];
        return value != nullptr;
      }
    }
    return type_caster_generic::load(src, convert);
  }

  static pybind11::handle cast(const T& src, pybind11::return_value_policy policy,
                               pybind11::handle parent) {
    if (policy == pybind11::return_value_policy::automatic ||
        policy == pybind11::return_value_policy::automatic_reference)
      policy = pybind11::return_value_policy::copy;
    return cast(&src, policy, parent);
  }
  static pybind11::handle cast(T&& src, pybind11::return_value_policy, pybind11::handle) {
    return makeOwned(std::move(src));
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
  /// A new Python object owning `src` (moved), as pybind11's move policy makes it, but not
  /// entered in pybind11's registry of instances by C++ address: that registry only serves to
  /// give back the same Python object for a C++ object returned by reference, which a value
  /// just moved out of C++ never is, and entering and removing it was two hash-table updates per
  /// object. pybind11's deallocation skips the registry for an instance not marked registered.
  static pybind11::handle makeOwned(T&& src) {
    const auto* type = info();
    auto* inst = reinterpret_cast<pybind11::detail::instance*>(
        pybind11::detail::make_new_instance(type->type));
    if (!inst) return pybind11::handle();
    auto v_h = inst->get_value_and_holder(type);
    try {
      v_h.value_ptr() = new T(std::move(src));
    } catch (...) {
      Py_DECREF(reinterpret_cast<PyObject*>(inst)); // no value, no holder: nothing else to free
      throw;
    }
    inst->owned = true;
    // The class's holder: pybind11's default, std::unique_ptr (as class_ makes it in init_holder).
    new (std::addressof(v_h.template holder<std::unique_ptr<T>>()))
        std::unique_ptr<T>(v_h.template value_ptr<T>());
    v_h.set_holder_constructed();
    return pybind11::handle(reinterpret_cast<PyObject*>(inst));
  }

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
