// Padding builds views: truncation slices, edge padding broadcasts the edge slice, reflection
// reverses slices, and constant padding joins constants (or a broadcast scalar tensor).
#include "poplibs_support/TileWork.hpp"

#include <popops/Pad.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace popops {

using namespace poplar;

namespace {

const std::string kOp = "popops::pad";

/// How padding's value is given: a number, or a scalar tensor.
struct PadValue {
  double number = 0;
  Tensor tensor;
};

void checkDim(const Tensor& t, unsigned dim) {
  poplibs_support::checkValid(t, kOp, "t");
  if (dim >= t.rank())
    throw poputil::poplibs_error(kOp + ": dim " + std::to_string(dim) + " is not a dimension of " +
                                 "a tensor of shape " + t.shapeToString());
}

/// Removes -lower / -upper elements for negative padding; returns t and the remaining padding.
Tensor truncate(const Tensor& t, std::ptrdiff_t& lower, std::ptrdiff_t& upper, unsigned dim) {
  const std::ptrdiff_t n = std::ptrdiff_t(t.dim(dim));
  const std::ptrdiff_t begin = lower < 0 ? -lower : 0, end = upper < 0 ? n + upper : n;
  if (begin > end)
    throw poputil::poplibs_error(kOp + ": paddings " + std::to_string(lower) + " and " +
                                 std::to_string(upper) + " truncate more than the " +
                                 std::to_string(n) + " elements of dimension " +
                                 std::to_string(dim));
  lower = std::max<std::ptrdiff_t>(lower, 0);
  upper = std::max<std::ptrdiff_t>(upper, 0);
  return t.slice(std::size_t(begin), std::size_t(end), dim);
}

/// `count` copies of the constant, shaped like t with `dim` of size count, next to `edge` (a
/// one-element-thick slice of t, possibly empty).
Tensor padBlock(Graph& graph, const Tensor& t, const Tensor& edge, std::size_t count, unsigned dim,
                const PadValue& value, padding::MappingMethod mapping) {
  auto shape = t.shape();
  shape[dim] = 1;
  Tensor block;
  if (value.tensor.valid()) {
    block = value.tensor.reshape(std::vector<std::size_t>(shape.size(), 1));
    for (unsigned d = 0; d < shape.size(); ++d)
      if (shape[d] != 1) block = block.broadcast(unsigned(shape[d]), d);
  } else {
    const Type type = t.elementType();
    if (type == INT)
      block = graph.addConstant(type, shape, int(value.number), "padding");
    else if (type == UNSIGNED_INT)
      block = graph.addConstant(type, shape, unsigned(value.number), "padding");
    else
      block = graph.addConstant(type, shape, float(value.number), "padding");
    if (mapping == padding::MappingMethod::ZERO) {
      graph.setTileMapping(block, 0);
    } else if (mapping == padding::MappingMethod::EDGE) {
      if (edge.numElements() == 0 && block.numElements() != 0)
        throw poputil::poplibs_error(kOp + ": mapping method EDGE needs a non-empty tensor");
      if (block.numElements() != 0)
        graph.setTileMapping(block, poplibs_support::tileMapping(graph, edge, kOp));
    }
  }
  return block.broadcast(unsigned(count), dim);
}

Tensor padConstantDim(Graph& graph, const Tensor& t, std::ptrdiff_t lower, std::ptrdiff_t upper,
                      unsigned dim, const PadValue& value, padding::MappingMethod mapping) {
  checkDim(t, dim);
  Tensor r = truncate(t, lower, upper, dim);
  const std::size_t n = r.dim(dim);
  const Tensor first = n ? r.slice(0, 1, dim) : r, last = n ? r.slice(n - 1, n, dim) : r;
  std::vector<Tensor> parts;
  if (lower > 0)
    parts.push_back(padBlock(graph, r, first, std::size_t(lower), dim, value, mapping));
  parts.push_back(r);
  if (upper > 0) parts.push_back(padBlock(graph, r, last, std::size_t(upper), dim, value, mapping));
  return parts.size() == 1 ? r : concat(parts, dim);
}

Tensor padConstant(Graph& graph, const Tensor& t, const std::vector<std::ptrdiff_t>& lower,
                   const std::vector<std::ptrdiff_t>& upper, const PadValue& value,
                   padding::MappingMethod mapping) {
  poplibs_support::checkValid(t, kOp, "t");
  if (lower.size() != t.rank() || upper.size() != t.rank())
    throw poputil::poplibs_error(kOp +
                                 ": paddingLower and paddingUpper need one entry per "
                                 "dimension of t (shape " +
                                 t.shapeToString() + ")");
  Tensor r = t;
  for (unsigned d = 0; d < t.rank(); ++d)
    r = padConstantDim(graph, r, lower[d], upper[d], d, value, mapping);
  return r;
}

PadValue tensorValue(const Tensor& t, const Tensor& val) {
  poplibs_support::checkValid(val, kOp, "val");
  if (val.numElements() != 1 || val.elementType() != t.elementType())
    throw poputil::poplibs_error(kOp + ": val (" + val.elementType().toString() + ", shape " +
                                 val.shapeToString() + ") must be one element of t's type " +
                                 t.elementType().toString());
  PadValue v;
  v.tensor = val;
  return v;
}

PadValue numberValue(double x) {
  PadValue v;
  v.number = x;
  return v;
}

} // namespace

Tensor pad(Graph& graph, const Tensor& t, const std::vector<std::ptrdiff_t>& paddingLower,
           const std::vector<std::ptrdiff_t>& paddingUpper, float val,
           padding::MappingMethod mappingMethod) {
  return padConstant(graph, t, paddingLower, paddingUpper, numberValue(val), mappingMethod);
}
Tensor pad(Graph& graph, const Tensor& t, const std::vector<std::ptrdiff_t>& paddingLower,
           const std::vector<std::ptrdiff_t>& paddingUpper, int val,
           padding::MappingMethod mappingMethod) {
  return padConstant(graph, t, paddingLower, paddingUpper, numberValue(val), mappingMethod);
}
Tensor pad(Graph& graph, const Tensor& t, const std::vector<std::ptrdiff_t>& paddingLower,
           const std::vector<std::ptrdiff_t>& paddingUpper, const Tensor& val,
           padding::MappingMethod mappingMethod) {
  poplibs_support::checkValid(t, kOp, "t");
  return padConstant(graph, t, paddingLower, paddingUpper, tensorValue(t, val), mappingMethod);
}
Tensor pad(Graph& graph, const Tensor& t, std::ptrdiff_t paddingLower, std::ptrdiff_t paddingUpper,
           unsigned dim, float val, padding::MappingMethod mappingMethod) {
  return padConstantDim(graph, t, paddingLower, paddingUpper, dim, numberValue(val), mappingMethod);
}
Tensor pad(Graph& graph, const Tensor& t, std::ptrdiff_t paddingLower, std::ptrdiff_t paddingUpper,
           unsigned dim, int val, padding::MappingMethod mappingMethod) {
  return padConstantDim(graph, t, paddingLower, paddingUpper, dim, numberValue(val), mappingMethod);
}
Tensor pad(Graph& graph, const Tensor& t, std::ptrdiff_t paddingLower, std::ptrdiff_t paddingUpper,
           unsigned dim, const Tensor& val, padding::MappingMethod mappingMethod) {
  checkDim(t, dim);
  return padConstantDim(graph, t, paddingLower, paddingUpper, dim, tensorValue(t, val),
                        mappingMethod);
}

Tensor pad(const Tensor& t, std::ptrdiff_t paddingLower, std::ptrdiff_t paddingUpper, unsigned dim,
           padding::Type type) {
  checkDim(t, dim);
  Tensor r = truncate(t, paddingLower, paddingUpper, dim);
  const std::size_t n = r.dim(dim);
  if (n == 0 && (paddingLower > 0 || paddingUpper > 0))
    throw poputil::poplibs_error(kOp + ": edge or reflect padding of an empty dimension " +
                                 std::to_string(dim));
  if (type == padding::Type::REFLECT &&
      (std::size_t(paddingLower) >= n || std::size_t(paddingUpper) >= n) &&
      (paddingLower > 0 || paddingUpper > 0))
    throw poputil::poplibs_error(kOp + ": reflect padding of " + std::to_string(paddingLower) +
                                 " and " + std::to_string(paddingUpper) +
                                 " needs more than that many elements in dimension " +
                                 std::to_string(dim) + " (it has " + std::to_string(n) + ")");
  std::vector<Tensor> parts;
  const std::size_t lo = std::size_t(paddingLower), up = std::size_t(paddingUpper);
  if (lo > 0)
    parts.push_back(type == padding::Type::EDGE ? r.slice(0, 1, dim).broadcast(unsigned(lo), dim)
                                                : r.slice(1, lo + 1, dim).reverse(dim));
  parts.push_back(r);
  if (up > 0)
    parts.push_back(type == padding::Type::EDGE
                        ? r.slice(n - 1, n, dim).broadcast(unsigned(up), dim)
                        : r.slice(n - 1 - up, n - 1, dim).reverse(dim));
  return parts.size() == 1 ? r : concat(parts, dim);
}

Tensor pad(const Tensor& t, const std::vector<std::ptrdiff_t>& paddingLower,
           const std::vector<std::ptrdiff_t>& paddingUpper, padding::Type type) {
  poplibs_support::checkValid(t, kOp, "t");
  if (paddingLower.size() != t.rank() || paddingUpper.size() != t.rank())
    throw poputil::poplibs_error(kOp +
                                 ": paddingLower and paddingUpper need one entry per "
                                 "dimension of t (shape " +
                                 t.shapeToString() + ")");
  Tensor r = t;
  for (unsigned d = 0; d < t.rank(); ++d)
    r = pad(r, paddingLower[d], paddingUpper[d], d, type);
  return r;
}

} // namespace popops
