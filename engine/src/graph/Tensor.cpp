#include "GraphState.hpp"
#include "TensorData.hpp"

#include <algorithm>
#include <numeric>
#include <poplar/exceptions.hpp>
#include <sstream>

namespace poplar {
namespace {

std::size_t product(const std::vector<std::size_t>& v, std::size_t from = 0,
                    std::size_t to = std::size_t(-1)) {
  std::size_t p = 1;
  for (std::size_t i = from; i < std::min(to, v.size()); ++i)
    p *= v[i];
  return p;
}

std::string shapeString(const std::vector<std::size_t>& s) {
  std::ostringstream os;
  os << '{';
  for (std::size_t i = 0; i < s.size(); ++i)
    os << (i ? "," : "") << s[i];
  os << '}';
  return os.str();
}

/// Copies elements [begin, end) of the flattened tensor `d` as regions onto `out`.
void appendRange(const detail::TensorData& d, std::size_t begin, std::size_t end,
                 std::vector<detail::VarRegion>& out) {
  if (begin >= end) return;
  for (std::size_t r = d.regionOf(begin); begin < end; ++r) {
    const auto& reg = d.regions[r];
    const std::size_t offset = begin - d.start(r);
    const std::size_t n = std::min(end - begin, reg.size() - offset);
    detail::graph::appendRegion(out, reg.var, reg.begin + offset, reg.begin + offset + n);
    begin += n;
  }
}

} // namespace

std::size_t detail::TensorData::regionOf(std::size_t element) const {
  if (starts.empty()) return 0;
  return static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), element) -
                                  starts.begin() - 1);
}

namespace {

std::shared_ptr<detail::TensorData> makeData(const void* graph, Type type,
                                             std::vector<std::size_t> shape,
                                             std::vector<detail::VarRegion> regions) {
  auto d = std::make_shared<detail::TensorData>();
  d->graph = graph;
  d->type = type;
  d->shape = std::move(shape);
  d->regions = std::move(regions);
  std::size_t n = 0;
  if (d->regions.size() > 1) {
    d->starts.reserve(d->regions.size());
    for (const auto& r : d->regions) {
      d->starts.push_back(n);
      n += r.size();
    }
  } else if (!d->regions.empty()) {
    n = d->regions.front().size();
  }
  d->numElements = n;
  if (n != product(d->shape))
    throw index_error("internal: tensor regions hold " + std::to_string(n) +
                      " elements but shape " + shapeString(d->shape) + " needs " +
                      std::to_string(product(d->shape)));
  return d;
}

/// A view whose element at multi-index i is source element offset + sum(i[k] * strides[k]).
/// The innermost dimension is copied as one range when its stride is 1.
std::vector<detail::VarRegion> affineView(const detail::TensorData& d,
                                          const std::vector<std::size_t>& shape,
                                          const std::vector<long long>& strides, long long offset) {
  std::vector<detail::VarRegion> out;
  if (product(shape) == 0) return out;
  if (shape.empty()) {
    appendRange(d, std::size_t(offset), std::size_t(offset) + 1, out);
    return out;
  }
  const std::size_t rank = shape.size(), inner = shape.back();
  const long long innerStride = strides.back();
  std::vector<std::size_t> idx(rank - 1, 0);
  while (true) {
    long long base = offset;
    for (std::size_t k = 0; k + 1 < rank; ++k)
      base += static_cast<long long>(idx[k]) * strides[k];
    if (innerStride == 1) {
      appendRange(d, std::size_t(base), std::size_t(base) + inner, out);
    } else {
      for (std::size_t j = 0; j < inner; ++j) {
        const auto e = std::size_t(base + static_cast<long long>(j) * innerStride);
        appendRange(d, e, e + 1, out);
      }
    }
    std::size_t k = rank - 1;
    while (k > 0 && ++idx[k - 1] == shape[k - 1])
      idx[--k] = 0;
    if (k == 0) break;
  }
  return out;
}

/// Elements [offset, offset + count) of the flattened tensor `d`, as a tensor of `shape`. A slice
/// of the outermost dimension (or of any, when those before it have size 1) and an index are
/// such a range: building it directly skips the general view's stride vectors and per-row walk,
/// which matters when a graph takes millions of slices (the regions are the same either way,
/// appendRegion merging adjacent ones).
Tensor contiguousRange(const detail::TensorData& d, std::size_t offset, std::size_t count,
                       std::vector<std::size_t> shape) {
  std::vector<detail::VarRegion> regions;
  appendRange(d, offset, offset + count, regions);
  return Tensor(d.graph, d.type, std::move(shape), std::move(regions));
}

std::vector<long long> rowMajorStrides(const std::vector<std::size_t>& shape) {
  std::vector<long long> s(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;)
    s[i - 1] = s[i] * static_cast<long long>(shape[i]);
  return s;
}

} // namespace

Tensor::Tensor(const void* graphId, Type type, std::vector<std::size_t> shape,
               std::vector<detail::VarRegion> regions)
    : d_(makeData(graphId, type, std::move(shape), std::move(regions))) {}

const detail::TensorData& Tensor::data() const {
  if (!d_) throw poplar_error("use of an invalid (default-constructed) Tensor");
  return *d_;
}

const void* Tensor::graphId() const {
  return data().graph;
}
Type Tensor::elementType() const {
  return data().type;
}
const std::vector<std::size_t>& Tensor::shape() const {
  return data().shape;
}
std::size_t Tensor::numElements() const {
  return data().numElements;
}
const std::vector<detail::VarRegion>& Tensor::getVarRegions() const {
  return data().regions;
}
Tensor Tensor::dimShufflePartial(ArrayRef<unsigned> source, ArrayRef<unsigned> destination) const {
  const unsigned n = rank();
  auto list = [](ArrayRef<unsigned> a) {
    std::string p;
    for (auto x : a)
      p += (p.empty() ? "" : ",") + std::to_string(x);
    return "{" + p + "}";
  };
  auto fail = [&](const std::string& why) {
    throw index_error("dimShufflePartial(" + list(source) + ", " + list(destination) +
                      ") on a tensor of shape " + shapeToString() + ": " + why);
  };
  if (source.size() != destination.size())
    fail("the source and destination lists have different lengths");
  constexpr unsigned kFree = ~0u;
  std::vector<unsigned> perm(n, kFree);
  std::vector<bool> moved(n, false);
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source[i] >= n || destination[i] >= n) fail("a dimension is out of range");
    if (moved[source[i]] || perm[destination[i]] != kFree) fail("a dimension is listed twice");
    moved[source[i]] = true;
    perm[destination[i]] = source[i];
  }
  unsigned next = 0;
  for (auto& p : perm) {
    if (p != kFree) continue;
    while (moved[next])
      ++next;
    p = next++;
  }
  return dimShuffle(perm);
}

std::string Tensor::getDebugStr() const {
  if (!valid()) return "Tensor (invalid)";
  std::string s = elementType().toString() + shapeToString() + ":";
  for (const auto& r : getVarRegions())
    s += " var" + std::to_string(r.var) + "[" + std::to_string(r.begin) + ":" +
         std::to_string(r.end) + ")";
  return s;
}

std::string Tensor::shapeToString() const {
  return shapeString(shape());
}

std::size_t Tensor::dim(unsigned i) const {
  if (i >= rank())
    throw index_error("dimension " + std::to_string(i) + " of a rank-" + std::to_string(rank()) +
                      " tensor");
  return shape()[i];
}

Tensor Tensor::slice(std::size_t begin, std::size_t end, unsigned d) const {
  const auto& s = shape();
  if (d >= s.size() || begin > end || end > s[d])
    throw index_error("slice [" + std::to_string(begin) + ", " + std::to_string(end) +
                      ") of dimension " + std::to_string(d) + " of a tensor of shape " +
                      shapeToString());
  if (begin == 0 && end == s[d]) return *this;
  if (product(s, 0, d) == 1) {
    const std::size_t inner = product(s, d + 1);
    std::vector<std::size_t> shape = s;
    shape[d] = end - begin;
    return contiguousRange(data(), begin * inner, (end - begin) * inner, std::move(shape));
  }
  std::vector<std::size_t> b(s.size(), 0), e = s;
  b[d] = begin;
  e[d] = end;
  return slice(b, e);
}

Tensor Tensor::slice(ArrayRef<std::size_t> begin, ArrayRef<std::size_t> end) const {
  const auto& s = shape();
  if (begin.size() != s.size() || end.size() != s.size())
    throw index_error("slice bounds of rank " + std::to_string(begin.size()) + "/" +
                      std::to_string(end.size()) + " for a tensor of shape " + shapeToString());
  std::vector<std::size_t> outShape(s.size());
  long long offset = 0;
  const auto strides = rowMajorStrides(s);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (begin[i] > end[i] || end[i] > s[i])
      throw index_error("slice [" + std::to_string(begin[i]) + ", " + std::to_string(end[i]) +
                        ") of dimension " + std::to_string(i) + " of a tensor of shape " +
                        shapeToString());
    outShape[i] = end[i] - begin[i];
    offset += static_cast<long long>(begin[i]) * strides[i];
  }
  if (outShape == s) return *this;
  return Tensor(data().graph, elementType(), outShape,
                affineView(data(), outShape, strides, offset));
}

std::vector<Tensor> Tensor::slices(ArrayRef<Interval> intervals, unsigned d) const {
  std::vector<Tensor> parts;
  parts.reserve(intervals.size());
  for (const auto& i : intervals)
    parts.push_back(slice(i, d));
  return parts;
}

std::vector<Tensor> Tensor::slices(const std::vector<std::vector<Interval>>& intervals,
                                   unsigned d) const {
  std::vector<Tensor> out;
  out.reserve(intervals.size());
  for (const auto& group : intervals) {
    // An empty group is an empty slice of the dimension, so every entry stays a tensor.
    out.push_back(group.empty() ? slice(0, 0, d) : concat(slices(group, d), d));
  }
  return out;
}

std::vector<Tensor> Tensor::slices(ArrayRef<unsigned> indices, unsigned d) const {
  if (d >= rank())
    throw index_error("slices of dimension " + std::to_string(d) + " of a tensor of shape " +
                      shapeToString());
  std::vector<Tensor> out;
  out.reserve(indices.size());
  for (unsigned i : indices)
    out.push_back(slice(i, i + 1, d).squeeze({d}));
  return out;
}

Tensor Tensor::index(ArrayRef<std::size_t> indices) const {
  const auto& s = shape();
  if (indices.size() > s.size())
    throw index_error(std::to_string(indices.size()) + " indices into a tensor of shape " +
                      shapeToString());
  // Fixing the leading indices of a row-major tensor selects one contiguous block.
  const std::size_t inner = product(s, indices.size());
  std::size_t offset = 0;
  for (std::size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] >= s[i])
      throw index_error("index " + std::to_string(indices[i]) + " of dimension " +
                        std::to_string(i) + " of a tensor of shape " + shapeToString());
    offset = offset * s[i] + indices[i];
  }
  return contiguousRange(data(), offset * inner, inner,
                         std::vector<std::size_t>(s.begin() + indices.size(), s.end()));
}

Tensor Tensor::reshape(ArrayRef<std::size_t> shapeRef) const {
  const std::vector<std::size_t> newShape = shapeRef.cloneAsVector();
  if (product(newShape) != numElements())
    throw index_error("reshape of a tensor of shape " + shapeToString() + " (" +
                      std::to_string(numElements()) + " elements) to " + shapeString(newShape));
  return Tensor(data().graph, elementType(), newShape, data().regions);
}

Tensor Tensor::flatten(unsigned dimBegin, unsigned dimEnd) const {
  const auto& s = shape();
  if (dimBegin >= dimEnd || dimEnd > s.size())
    throw index_error("flatten of dimensions [" + std::to_string(dimBegin) + ", " +
                      std::to_string(dimEnd) + ") of a tensor of shape " + shapeToString());
  std::vector<std::size_t> ns(s.begin(), s.begin() + dimBegin);
  ns.push_back(product(s, dimBegin, dimEnd));
  ns.insert(ns.end(), s.begin() + dimEnd, s.end());
  return reshape(ns);
}

Tensor Tensor::dimShuffle(ArrayRef<unsigned> perm) const {
  const auto& s = shape();
  std::vector<bool> seen(s.size(), false);
  bool valid = perm.size() == s.size(), identity = true;
  for (std::size_t i = 0; valid && i < perm.size(); ++i) {
    valid = perm[i] < s.size() && !seen[perm[i]];
    if (valid) seen[perm[i]] = true;
    identity = identity && perm[i] == i;
  }
  if (!valid) {
    std::string p;
    for (auto x : perm)
      p += (p.empty() ? "" : ",") + std::to_string(x);
    throw index_error("dimShuffle {" + p + "} is not a permutation of the " +
                      std::to_string(s.size()) + " dimensions of a tensor of shape " +
                      shapeToString());
  }
  if (identity) return *this;
  const auto strides = rowMajorStrides(s);
  std::vector<std::size_t> ns(s.size());
  std::vector<long long> nstrides(s.size());
  for (std::size_t i = 0; i < perm.size(); ++i) {
    ns[i] = s[perm[i]];
    nstrides[i] = strides[perm[i]];
  }
  return Tensor(data().graph, elementType(), ns, affineView(data(), ns, nstrides, 0));
}

Tensor Tensor::dimRoll(unsigned dimIdx, unsigned newIdx) const {
  if (dimIdx >= rank() || newIdx >= rank())
    throw index_error("dimRoll(" + std::to_string(dimIdx) + ", " + std::to_string(newIdx) +
                      ") of a tensor of shape " + shapeToString());
  std::vector<unsigned> perm;
  for (unsigned i = 0; i < rank(); ++i)
    if (i != dimIdx) perm.push_back(i);
  perm.insert(perm.begin() + newIdx, dimIdx);
  return dimShuffle(perm);
}

Tensor Tensor::transpose() const {
  if (rank() != 2)
    throw index_error("transpose of a tensor of shape " + shapeToString() + ": needs a matrix");
  return dimShuffle({1, 0});
}

Tensor Tensor::broadcast(unsigned N, unsigned d) const {
  if (d >= rank())
    throw index_error("broadcast along dimension " + std::to_string(d) + " of a tensor of shape " +
                      shapeToString());
  if (N == 1) return *this;
  return concat(std::vector<Tensor>(N, *this), d);
}

Tensor Tensor::expand(ArrayRef<std::size_t> indices) const {
  std::vector<std::size_t> ns = shape();
  for (std::size_t k = indices.size(); k-- > 0;) {
    if (indices[k] > ns.size())
      throw index_error("expand at position " + std::to_string(indices[k]) +
                        " of a tensor of shape " + shapeToString());
    ns.insert(ns.begin() + indices[k], 1);
  }
  return reshape(ns);
}

Tensor Tensor::squeeze(ArrayRef<std::size_t> dims) const {
  const auto& s = shape();
  std::vector<bool> drop(s.size(), false);
  for (auto d : dims) {
    if (d >= s.size() || s[d] != 1)
      throw index_error("squeeze of dimension " + std::to_string(d) + " of a tensor of shape " +
                        shapeToString() + ": only dimensions of size 1 can be removed");
    drop[d] = true;
  }
  std::vector<std::size_t> ns;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (!drop[i]) ns.push_back(s[i]);
  return reshape(ns);
}

Tensor Tensor::reverse(unsigned d) const {
  if (d >= rank())
    throw index_error("reverse of dimension " + std::to_string(d) + " of a tensor of shape " +
                      shapeToString());
  auto strides = rowMajorStrides(shape());
  const long long offset = static_cast<long long>(shape()[d] ? shape()[d] - 1 : 0) * strides[d];
  strides[d] = -strides[d];
  return Tensor(data().graph, elementType(), shape(), affineView(data(), shape(), strides, offset));
}

Tensor Tensor::subSample(unsigned stride, unsigned d) const {
  if (d >= rank() || stride == 0)
    throw index_error("subSample with stride " + std::to_string(stride) + " of dimension " +
                      std::to_string(d) + " of a tensor of shape " + shapeToString());
  auto strides = rowMajorStrides(shape());
  auto ns = shape();
  ns[d] = (ns[d] + stride - 1) / stride;
  strides[d] *= stride;
  return Tensor(data().graph, elementType(), ns, affineView(data(), ns, strides, 0));
}

Tensor Tensor::reinterpret(Type type) const {
  if (type.size() != elementType().size())
    throw type_error("reinterpret of " + elementType().toString() + " as " + type.toString() +
                     ": element sizes differ");
  return Tensor(data().graph, type, shape(), data().regions);
}

bool Tensor::isContiguous() const {
  return data().regions.size() <= 1;
}

std::vector<Interval> Tensor::getContiguousRegions() const {
  std::vector<Interval> out;
  const auto& d = data();
  for (std::size_t r = 0; r < d.regions.size(); ++r)
    out.emplace_back(d.start(r), d.start(r) + d.regions[r].size());
  return out;
}

namespace {
std::vector<detail::VarRegion> sortedRegions(const std::vector<detail::VarRegion>& regions) {
  auto r = regions;
  std::sort(r.begin(), r.end(), [](const auto& a, const auto& b) {
    return a.var < b.var || (a.var == b.var && a.begin < b.begin);
  });
  return r;
}
} // namespace

bool Tensor::containsAliases() const {
  const auto r = sortedRegions(data().regions);
  for (std::size_t i = 1; i < r.size(); ++i)
    if (r[i].var == r[i - 1].var && r[i].begin < r[i - 1].end) return true;
  return false;
}

bool Tensor::containsConstant() const {
  // A tensor's graph id is the state of the graph that made it (Graph::addVariable).
  const auto* g = static_cast<const detail::GraphState*>(data().graph);
  for (const auto& r : data().regions)
    if (g->variables[r.var].isConstant) return true;
  return false;
}

bool Tensor::elementsAreEqual(const Tensor& o) const {
  return data().graph == o.data().graph && data().regions == o.data().regions;
}

bool Tensor::intersectsWith(const Tensor& o) const {
  if (data().graph != o.data().graph) return false;
  const auto a = sortedRegions(data().regions), b = sortedRegions(o.data().regions);
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].var == b[j].var && a[i].begin < b[j].end && b[j].begin < a[i].end) return true;
    const bool aFirst = a[i].var < b[j].var || (a[i].var == b[j].var && a[i].end <= b[j].end);
    aFirst ? ++i : ++j;
  }
  return false;
}

Tensor concat(ArrayRef<Tensor> ts, unsigned d) {
  if (ts.empty()) throw index_error("concat of no tensors");
  const auto& first = ts.front().data();
  if (d >= first.shape.size())
    throw index_error("concat along dimension " + std::to_string(d) + " of tensors of shape " +
                      shapeString(first.shape));
  auto outShape = first.shape;
  outShape[d] = 0;
  for (const auto& t : ts) {
    const auto& td = t.data();
    if (td.graph != first.graph) throw index_error("concat of tensors from different graphs");
    if (td.type != first.type)
      throw type_error("concat of " + first.type.toString() + " and " + td.type.toString() +
                       " tensors");
    bool same = td.shape.size() == first.shape.size();
    for (std::size_t i = 0; same && i < td.shape.size(); ++i)
      same = i == d || td.shape[i] == first.shape[i];
    if (!same)
      throw index_error("concat along dimension " + std::to_string(d) + " of shapes " +
                        shapeString(first.shape) + " and " + shapeString(td.shape));
    outShape[d] += td.shape[d];
  }
  const std::size_t outer = product(first.shape, 0, d);
  std::vector<detail::VarRegion> regions;
  for (std::size_t o = 0; o < outer; ++o)
    for (const auto& t : ts) {
      const auto& td = t.data();
      const std::size_t chunk = product(td.shape, d);
      appendRange(td, o * chunk, (o + 1) * chunk, regions);
    }
  return Tensor(first.graph, first.type, outShape, std::move(regions));
}

} // namespace poplar
