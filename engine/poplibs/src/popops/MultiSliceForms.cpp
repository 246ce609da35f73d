// multiSlice / multiUpdateAdd with offsets known when the graph is built, and the multi-slice
// forms the MultiSlice vertices do not cover (several dimensions, or several entries per
// offset), built from other popops operations as PopLibs builds them.
#include "MultiSliceForms.hpp"

#include "poplibs_support/TileWork.hpp"

#include <map>
#include <popops/DynamicSlice.hpp>
#include <popops/Loop.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;
using poputil::poplibs_error;

namespace {

/// Offsets up to this many are sliced one dynamicSlice each; more run in a counted loop, whose
/// code does not grow with the number of offsets.
constexpr std::size_t kInlineOffsets = 3;

/// The static forms' options: remapOutOfBoundIndices maps an out-of-range offset to 0 (true)
/// instead of giving zeros / being ignored; paddingIndexUsed (an offset equal to the size is
/// padding: zeros) is what they do anyway.
bool remapOutOfBounds(const OptionFlags& options, const std::string& op) {
  poplibs_support::checkOptions(options, {"remapOutOfBoundIndices", "paddingIndexUsed"}, op);
  bool remap = false;
  for (const auto& [name, value] : options) {
    if (value != "true" && value != "false")
      throw poplar::invalid_option(op + ": option " + name + " is '" + value +
                                   "'; allowed: true, false");
    if (name == "remapOutOfBoundIndices") remap = value == "true";
  }
  return remap;
}

void checkStaticDim(const Tensor& t, std::size_t dim, const std::string& op) {
  poplibs_support::checkValid(t, op, "t");
  if (dim >= t.rank())
    throw poplibs_error(op + ": dim " + std::to_string(dim) +
                        " is not a dimension of t, of shape " + t.shapeToString());
}

/// A shape as Tensor::shapeToString writes it.
std::string shapeString(const std::vector<std::size_t>& shape) {
  std::string s = "{";
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "}";
}

/// The entry of `dim` an offset selects: itself, 0 when out of range and remapped, or -1 when
/// out of range and not remapped.
long entryFor(unsigned offset, std::size_t size, bool remap) {
  if (offset < size) return long(offset);
  return remap ? 0 : -1;
}

/// Offset row `index` (a one-element tensor) of `offsets`, read in a loop body: the offsets of
/// one slice, as dynamicSlice and dynamicUpdate take them.
Tensor offsetRow(Graph& graph, const Tensor& offsets, const Tensor& index, std::size_t numDims,
                 program::Sequence& body, const DebugContext& di) {
  return dynamicSlice(graph, offsets, index, {0}, {1}, body, {di, "offset"}).reshape({numDims});
}

} // namespace

namespace detail {

Tensor genericMultiSlice(Graph& graph, const Tensor& t, const Tensor& offsets,
                         const std::vector<std::size_t>& dims,
                         const std::vector<std::size_t>& sizes, program::Sequence& prog,
                         const DebugContext& di) {
  const std::size_t n = offsets.dim(0);
  const Tensor out = createSliceTensor(graph, t, dims, sizes, n, {di, "output"});
  if (n <= kInlineOffsets) {
    for (std::size_t i = 0; i < n; ++i)
      dynamicSliceWithOutput(graph, out[i], t, offsets[i], dims, sizes, prog, {di, "slice"});
    return out;
  }
  prog.add(
      countedLoop(graph, n,
                  [&](const Tensor& i) {
                    program::Sequence body;
                    const Tensor index = i.reshape({1});
                    const Tensor row = offsetRow(graph, offsets, index, dims.size(), body, di);
                    const Tensor s = dynamicSlice(graph, t, row, dims, sizes, body, {di, "slice"});
                    dynamicUpdate(graph, out, s.expand({0}), index, {0}, {1}, body, {di, "store"});
                    return body;
                  },
                  {di, "loop"}));
  return out;
}

void genericMultiUpdate(Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offsets,
                        const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                        program::Sequence& prog, const DebugContext& di, const std::string& op) {
  const std::size_t n = offsets.dim(0);
  std::vector<std::size_t> expected = t.shape();
  for (std::size_t k = 0; k < dims.size(); ++k)
    expected[dims[k]] = sizes[k];
  expected.insert(expected.begin(), n);
  poplibs_support::checkValid(s, op, "s");
  if (s.shape() != expected)
    throw poplibs_error(op + ": s has shape " + s.shapeToString() + "; it must be " +
                        shapeString(expected) + " for " + std::to_string(n) +
                        " offsets into t of shape " + t.shapeToString());
  if (s.elementType() != t.elementType())
    throw poplibs_error(op + ": s has element type " + s.elementType().toString() + " but t has " +
                        t.elementType().toString());
  if (n <= kInlineOffsets) {
    for (std::size_t i = 0; i < n; ++i)
      dynamicUpdate(graph, t, s[i], offsets[i], dims, sizes, prog, {di, "update"});
    return;
  }
  prog.add(
      countedLoop(graph, n,
                  [&](const Tensor& i) {
                    program::Sequence body;
                    const Tensor index = i.reshape({1});
                    const Tensor row = offsetRow(graph, offsets, index, dims.size(), body, di);
                    const Tensor slice =
                        dynamicSlice(graph, s, index, {0}, {1}, body, {di, "load"}).squeeze({0});
                    dynamicUpdate(graph, t, slice, row, dims, sizes, body, {di, "update"});
                    return body;
                  },
                  {di, "loop"}));
}

} // namespace detail

Tensor multiSlice(Graph& graph, const Tensor& t, ArrayRef<unsigned> offsets, std::size_t dim,
                  program::Sequence& prog, const DebugContext& debugContext,
                  const OptionFlags& optionFlags) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "multiSlice");
  const std::string op = "popops::multiSlice";
  const bool remap = remapOutOfBounds(optionFlags, op);
  checkStaticDim(t, dim, op);
  const std::size_t n = offsets.size();
  const Tensor out = createSliceTensor(graph, t, {dim}, {1}, n, {di, "output"});
  // One copy gathers every selected entry; the rest of the result is zeros.
  std::vector<Tensor> from, to, zeros;
  for (std::size_t i = 0; i < n; ++i) {
    const long e = entryFor(offsets[i], t.dim(dim), remap);
    if (e < 0)
      zeros.push_back(out[i].flatten());
    else {
      from.push_back(t.slice(std::size_t(e), std::size_t(e) + 1, unsigned(dim)).flatten());
      to.push_back(out[i].flatten());
    }
  }
  if (!from.empty()) prog.add(program::Copy(concat(from), concat(to), false, di));
  if (!zeros.empty()) zero(graph, concat(zeros), prog, {di, "padding"});
  return out;
}

void multiUpdateAdd(Graph& graph, const Tensor& t, const Tensor& s, ArrayRef<unsigned> offsets,
                    const Tensor& scale, std::size_t dim, program::Sequence& prog,
                    const DebugContext& debugContext, const OptionFlags& optionFlags) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "multiUpdateAdd");
  const std::string op = "popops::multiUpdateAdd";
  const bool remap = remapOutOfBounds(optionFlags, op);
  checkStaticDim(t, dim, op);
  poplibs_support::checkValid(s, op, "s");
  poplibs_support::checkValid(scale, op, "scale");
  const std::size_t n = offsets.size();
  std::vector<std::size_t> expected = t.shape();
  expected[dim] = 1;
  expected.insert(expected.begin(), n);
  if (s.shape() != expected)
    throw poplibs_error(op + ": s has shape " + s.shapeToString() + "; it must be " +
                        shapeString(expected) + " for " + std::to_string(n) +
                        " offsets into t of shape " + t.shapeToString());
  if (s.elementType() != t.elementType())
    throw poplibs_error(op + ": s has element type " + s.elementType().toString() + " but t has " +
                        t.elementType().toString());
  if (scale.numElements() != 1)
    throw poplibs_error(op + ": scale has shape " + scale.shapeToString() +
                        "; it must hold one element");
  if (scale.elementType() != t.elementType() &&
      !(t.elementType() == HALF && scale.elementType() == FLOAT))
    throw poplibs_error(op + ": scale has element type " + scale.elementType().toString() +
                        "; it must be " + t.elementType().toString() +
                        (t.elementType() == HALF ? " or float" : ""));
  // A repeated offset accumulates every one of its slices: round k adds the k-th slice of each
  // offset, so no round writes one entry twice.
  std::map<long, std::size_t> seen;
  std::vector<std::vector<std::pair<long, std::size_t>>> rounds;
  for (std::size_t i = 0; i < n; ++i) {
    const long e = entryFor(offsets[i], t.dim(dim), remap);
    if (e < 0) continue;
    const std::size_t k = seen[e]++;
    if (rounds.size() <= k) rounds.resize(k + 1);
    rounds[k].emplace_back(e, i);
  }
  const Tensor k = scale.reshape({});
  for (const auto& round : rounds) {
    std::vector<Tensor> dst, src;
    for (const auto& [e, i] : round) {
      dst.push_back(t.slice(std::size_t(e), std::size_t(e) + 1, unsigned(dim)).flatten());
      src.push_back(s[i].flatten());
    }
    scaledAddTo(graph, concat(dst), concat(src), k, prog, di);
  }
}

} // namespace popops
