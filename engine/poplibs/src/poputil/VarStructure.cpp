#include <numeric>
#include <poputil/VarStructure.hpp>
#include <poputil/exceptions.hpp>
#include <set>

namespace poputil {
namespace {

/// Start of part i when n elements are cut into parts of ceil(n / parts).
std::size_t partBegin(std::size_t n, std::size_t parts, std::size_t i) {
  const std::size_t size = (n + parts - 1) / parts;
  return std::min(n, i * size);
}

void checkPartitions(const std::vector<std::size_t>& shape, const std::vector<std::size_t>& parts,
                     const char* op) {
  if (parts.size() != shape.size())
    throw poplibs_error(std::string(op) + ": nPartitions has " + std::to_string(parts.size()) +
                        " entries but the shape has rank " + std::to_string(shape.size()));
  for (std::size_t d = 0; d < parts.size(); ++d)
    if (parts[d] == 0)
      throw poplibs_error(std::string(op) + ": nPartitions[" + std::to_string(d) +
                          "] is 0; every dimension needs at least one partition");
}

/// Largest divisor of `n` dividing every cut point.
unsigned groupingOf(const poplar::Graph& graph, const poplar::Tensor& t) {
  if (t.rank() == 0 || t.numElements() == 0) return 1;
  const std::size_t inner = t.dim(t.rank() - 1);
  std::set<std::size_t> cuts;
  for (const auto& r : t.getContiguousRegions()) {
    cuts.insert(r.begin());
    cuts.insert(r.end());
  }
  const auto mapping = graph.getTileMapping(t, false);
  for (const auto& tile : mapping)
    for (const auto& iv : tile) {
      cuts.insert(iv.begin());
      cuts.insert(iv.end());
    }
  std::size_t g = inner;
  for (std::size_t c : cuts)
    g = std::gcd(g, c);
  return unsigned(std::max<std::size_t>(g, 1));
}

} // namespace

unsigned detectInnermostGrouping(const poplar::Graph& graph, const poplar::Tensor& t) {
  if (!t.valid()) throw poplibs_error("poputil::detectInnermostGrouping: t is an invalid tensor");
  if (t.rank() == 0)
    throw poplibs_error("poputil::detectInnermostGrouping: t is a scalar; it needs a dimension");
  return groupingOf(graph, t);
}

std::vector<GroupingInfo> detectDimGroupings(const poplar::Graph& graph, const poplar::Tensor& t) {
  if (!t.valid()) throw poplibs_error("poputil::detectDimGroupings: t is an invalid tensor");
  if (t.rank() == 0)
    throw poplibs_error("poputil::detectDimGroupings: t is a scalar; it needs a dimension");
  std::vector<GroupingInfo> out;
  for (unsigned d = unsigned(t.rank()); d-- > 0;) {
    const unsigned g = groupingOf(graph, t.dimRoll(d, unsigned(t.rank() - 1)));
    if (g > 1) out.emplace_back(d, g);
  }
  return out;
}

poplar::Tensor createPartitionableTensor(poplar::Graph& graph, const poplar::Type& type,
                                         const std::vector<std::size_t>& shape,
                                         const std::vector<std::size_t>& nPartitions,
                                         const poplar::DebugContext& debugContext) {
  checkPartitions(shape, nPartitions, "poputil::createPartitionableTensor");
  const std::size_t total =
      std::accumulate(shape.begin(), shape.end(), std::size_t(1), std::multiplies<std::size_t>());
  const poplar::Tensor flat = graph.addVariable(type, {total}, debugContext);
  if (shape.empty() || total == 0) return flat.reshape(shape);
  std::size_t offset = 0;
  // Parts are laid out one after another in row-major order of their indices; the tensor is
  // assembled by concatenating them back along each dimension.
  std::function<poplar::Tensor(std::size_t, std::vector<std::size_t>&)> build =
      [&](std::size_t d, std::vector<std::size_t>& idx) -> poplar::Tensor {
    if (d == shape.size()) {
      std::vector<std::size_t> partShape(shape.size());
      std::size_t n = 1;
      for (std::size_t k = 0; k < shape.size(); ++k) {
        partShape[k] = partBegin(shape[k], nPartitions[k], idx[k] + 1) -
                       partBegin(shape[k], nPartitions[k], idx[k]);
        n *= partShape[k];
      }
      const poplar::Tensor part = flat.slice(offset, offset + n).reshape(partShape);
      offset += n;
      return part;
    }
    std::vector<poplar::Tensor> pieces;
    for (std::size_t i = 0; i < nPartitions[d]; ++i) {
      idx.push_back(i);
      const poplar::Tensor p = build(d + 1, idx);
      idx.pop_back();
      if (partBegin(shape[d], nPartitions[d], i + 1) > partBegin(shape[d], nPartitions[d], i))
        pieces.push_back(p);
    }
    return poplar::concat(pieces, unsigned(d));
  };
  std::vector<std::size_t> idx;
  return build(0, idx);
}

void iterateTensorPartitions(
    const poplar::Tensor& t, const std::vector<std::size_t>& nPartitions,
    const std::function<void(const std::vector<std::size_t>&, const poplar::Tensor&)>& f) {
  checkPartitions(t.shape(), nPartitions, "poputil::iterateTensorPartitions");
  std::vector<std::size_t> i(t.rank(), 0);
  if (t.rank() == 0) {
    f(i, t);
    return;
  }
  while (true) {
    poplar::Tensor s = t;
    bool empty = false;
    for (unsigned d = 0; d < t.rank(); ++d) {
      const std::size_t b = partBegin(t.dim(d), nPartitions[d], i[d]);
      const std::size_t e = partBegin(t.dim(d), nPartitions[d], i[d] + 1);
      if (b == e) empty = true;
      s = s.slice(b, e, d);
    }
    if (!empty) f(i, s);
    std::size_t d = t.rank();
    while (d > 0) {
      --d;
      if (++i[d] < nPartitions[d]) break;
      i[d] = 0;
      if (d == 0) return;
    }
  }
}

} // namespace poputil
