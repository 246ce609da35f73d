// A read-only view of a contiguous run of elements, as Poplar's API takes shapes, index lists
// and program lists: a braced list, a std::vector, a std::array, a C array or a pointer and a
// length all convert to it. It does not own the elements: a braced list lives until the end of
// the full expression that passes it, which is as long as any call taking an ArrayRef needs.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <ostream>
#include <vector>

namespace poplar {

template <typename T> class ArrayRef {
public:
  using value_type = T;
  using const_iterator = const T*;
  using iterator = const T*;
  using size_type = std::size_t;

  ArrayRef() : data_(nullptr), size_(0) {}
  ArrayRef(const T* data, std::size_t size) : data_(data), size_(size) {}
  ArrayRef(const T* begin, const T* end) : data_(begin), size_(std::size_t(end - begin)) {}
  template <typename Alloc>
  ArrayRef(const std::vector<T, Alloc>& v) : data_(v.data()), size_(v.size()) {} // NOLINT
  template <std::size_t N>
  ArrayRef(const std::array<T, N>& a) : data_(a.data()), size_(N) {}         // NOLINT
  template <std::size_t N> ArrayRef(const T (&a)[N]) : data_(a), size_(N) {} // NOLINT
  // The list's array lives until the end of the full expression that passes the braced list,
  // as long as a call that takes an ArrayRef needs it; GCC warns of the shorter life anyway.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  ArrayRef(std::initializer_list<T> list) // NOLINT: braced lists are the common spelling
      : data_(list.size() ? list.begin() : nullptr), size_(list.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  const T* data() const {
    return data_;
  }
  std::size_t size() const {
    return size_;
  }
  bool empty() const {
    return size_ == 0;
  }
  const T& operator[](std::size_t i) const {
    assert(i < size_);
    return data_[i];
  }
  const T& front() const {
    return (*this)[0];
  }
  const T& back() const {
    return (*this)[size_ - 1];
  }
  const T* begin() const {
    return data_;
  }
  const T* end() const {
    return data_ + size_;
  }
  const T* cbegin() const {
    return begin();
  }
  const T* cend() const {
    return end();
  }

  /// An owning copy of the elements.
  std::vector<T> cloneAsVector() const {
    return std::vector<T>(begin(), end());
  }
  operator std::vector<T>() const {
    return cloneAsVector();
  } // NOLINT: as Poplar's

private:
  const T* data_;
  std::size_t size_;
};

template <typename T> bool operator==(ArrayRef<T> a, ArrayRef<T> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}
template <typename T> bool operator!=(ArrayRef<T> a, ArrayRef<T> b) {
  return !(a == b);
}

template <typename T> std::ostream& operator<<(std::ostream& os, ArrayRef<T> a) {
  os << '{';
  for (std::size_t i = 0; i < a.size(); ++i)
    os << (i ? "," : "") << a[i];
  return os << '}';
}

/// Makes an ArrayRef where the element type must be deduced.
template <typename T> ArrayRef<T> makeArrayRef(const T* data, std::size_t size) {
  return {data, size};
}
template <typename T> ArrayRef<T> makeArrayRef(const std::vector<T>& v) {
  return v;
}

} // namespace poplar

// SDK 3 programs name the view gccs::ArrayRef (Poplar's ArrayRef comes from Graphcore's common
// support library there); it is the same class, so `gccs::ArrayRef(vector)` deduces as here.
namespace gccs {
using poplar::ArrayRef;
} // namespace gccs
