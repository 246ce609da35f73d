// Tensors: views onto graph variables. A view (slice, reshape, transpose, broadcast, concat...)
// never copies storage; it is an ordered list of variable regions plus a shape.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <iostream>
#include <memory>
#include <ostream>
#include <poplar/ArrayRef.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Type.hpp>
#include <string>
#include <vector>

namespace poplar {

namespace detail {
/// Elements [begin, end) of variable `var`, in the tensor's row-major order.
struct VarRegion {
  unsigned var;
  std::size_t begin, end;
  std::size_t size() const { return end - begin; }
  bool operator==(const VarRegion& o) const {
    return var == o.var && begin == o.begin && end == o.end;
  }
};
struct TensorData;
} // namespace detail

/// How Tensor::upsample fills the new elements.
enum class UpsampleMethod {
  REPEAT ///< each element repeated `scale` times
};

class Tensor {
public:
  Tensor() = default; ///< an invalid tensor; using it throws

  bool valid() const { return static_cast<bool>(d_); }
  Type elementType() const;
  const std::vector<std::size_t>& shape() const;
  unsigned rank() const { return static_cast<unsigned>(shape().size()); }
  std::size_t dim(unsigned i) const;
  std::size_t numElements() const;
  std::string shapeToString() const;

  /// Elements [begin, end) of dimension `dim`.
  Tensor slice(std::size_t begin, std::size_t end, unsigned dim = 0) const;
  Tensor slice(const Interval& region, unsigned dim = 0) const {
    return slice(region.begin(), region.end(), dim);
  }
  /// A box: begin[i] <= index[i] < end[i] in every dimension.
  Tensor slice(ArrayRef<std::size_t> begin, ArrayRef<std::size_t> end) const;
  /// One slice of dimension `dim` per interval, as Poplar returns them (callers concatenate
  /// them with `concat(t.slices(intervals))` or connect them as a list of edges).
  std::vector<Tensor> slices(ArrayRef<Interval> intervals, unsigned dim = 0) const;
  /// One tensor per inner list: its intervals' slices of dimension `dim`, concatenated.
  std::vector<Tensor> slices(const std::vector<std::vector<Interval>>& intervals,
                             unsigned dim = 0) const;
  /// The slices at `indices` of dimension `dim`, each with that dimension dropped.
  std::vector<Tensor> slices(ArrayRef<unsigned> indices, unsigned dim = 0) const;
  /// Index into the first dimension, dropping it.
  Tensor operator[](std::size_t i) const { return index({i}); }
  Tensor index(ArrayRef<std::size_t> indices) const;
  Tensor reshape(ArrayRef<std::size_t> shape) const;
  Tensor flatten() const { return reshape({numElements()}); }
  /// Merges dimensions [dimBegin, dimEnd) into one.
  Tensor flatten(unsigned dimBegin, unsigned dimEnd) const;
  /// Dimension i of the result is dimension permutation[i] of this tensor.
  Tensor dimShuffle(ArrayRef<unsigned> permutation) const;
  /// Moves dimension source[i] to position destination[i]; the other dimensions keep their
  /// order in the positions left.
  Tensor dimShufflePartial(ArrayRef<unsigned> source, ArrayRef<unsigned> destination) const;
  /// Moves dimension `dimIdx` to position `newIdx`.
  Tensor dimRoll(unsigned dimIdx, unsigned newIdx = 0) const;
  /// Swaps the two dimensions of a matrix.
  Tensor transpose() const;
  /// This tensor repeated N times along `dim` (size becomes N * dim(dim)).
  Tensor broadcast(unsigned N, unsigned dim) const;
  /// Inserts singleton dimensions before the given positions.
  Tensor expand(ArrayRef<std::size_t> indices) const;
  /// Removes the given singleton dimensions.
  Tensor squeeze(ArrayRef<std::size_t> dims) const;
  Tensor reverse(unsigned dim) const;
  /// Every `stride`-th element of `dim`, starting at the first.
  Tensor subSample(unsigned stride, unsigned dim) const;
  /// Each element of `dim` repeated `scale` times in place (size becomes scale * dim(dim));
  /// scale 0 gives an empty dimension.
  Tensor upsample(unsigned scale, unsigned dim,
                  UpsampleMethod method = UpsampleMethod::REPEAT) const {
    (void)method; // REPEAT is the only method
    if (scale == 0) return slice(0, 0, dim);
    std::vector<std::size_t> upsampled = shape();
    if (dim < upsampled.size()) upsampled[dim] *= scale;
    return expand({std::size_t(dim) + 1}).broadcast(scale, dim + 1).reshape(upsampled);
  }
  /// Reinterprets the elements as another type of the same size.
  Tensor reinterpret(Type type) const;

  /// True when the tensor is one region of one variable, in order.
  bool isContiguous() const;
  /// True when some element of a variable appears more than once.
  bool containsAliases() const;
  /// True when any element is a constant (Graph::addConstant, or a replication index).
  bool containsConstant() const;
  /// Intervals of the flattened tensor that are contiguous in their variable.
  std::vector<Interval> getContiguousRegions() const;
  /// A one-line description for debugging: element type, shape and the variable regions.
  std::string getDebugStr() const;
  /// The variable regions this tensor is made of, in order (Tessera extension).
  const std::vector<detail::VarRegion>& getVarRegions() const;
  /// True when both tensors are made of the same variable elements in the same order.
  bool elementsAreEqual(const Tensor& o) const;
  /// True when the tensors share at least one variable element.
  bool intersectsWith(const Tensor& o) const;

  // Internal: construction from regions (used by Graph and concat).
  Tensor(const void* graphId, Type type, std::vector<std::size_t> shape,
         std::vector<detail::VarRegion> regions);
  const void* graphId() const;

private:
  const detail::TensorData& data() const;
  friend Tensor concat(ArrayRef<Tensor>, unsigned);

  std::shared_ptr<const detail::TensorData> d_;
};

/// Joins tensors along `dim`; the other dimensions must match.
Tensor concat(ArrayRef<Tensor> ts, unsigned dim = 0);
inline Tensor concat(const Tensor& a, const Tensor& b, unsigned dim = 0) {
  return concat({a, b}, dim);
}
inline Tensor append(const Tensor& a, const Tensor& b, unsigned dim) {
  return concat({a, b.expand({dim})}, dim);
}

} // namespace poplar
