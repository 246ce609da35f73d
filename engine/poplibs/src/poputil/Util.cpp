#include <cmath>
#include <limits>
#include <numeric>
#include <poplar/HalfFloat.hpp>
#include <poplar/MetadataCreation.hpp>
#include <poputil/Util.hpp>
#include <poputil/exceptions.hpp>

namespace poputil {

using poplar::Interval;

void mergeAdjacentRegions(std::vector<Interval>& regions) {
  std::vector<Interval> merged;
  for (const auto& r : regions) {
    if (r.size() == 0) continue;
    if (!merged.empty() && merged.back().end() == r.begin())
      merged.back() = Interval(merged.back().begin(), r.end());
    else
      merged.push_back(r);
  }
  regions.swap(merged);
}

void mergeAdjacentRegions(std::vector<std::vector<Interval>>& mapping) {
  for (auto& regions : mapping)
    mergeAdjacentRegions(regions);
}

namespace {

/// Elements per partition: an equal share of whole grains, within [min, max].
std::size_t partitionSize(std::size_t total, unsigned grainSize, unsigned maxPartitions,
                          unsigned minElements, unsigned maxElements, const char* op) {
  if (grainSize == 0) throw poplibs_error(std::string(op) + ": grainSize must be at least 1");
  if (maxPartitions == 0)
    throw poplibs_error(std::string(op) + ": maxPartitions must be at least 1");
  const std::size_t grains = (total + grainSize - 1) / grainSize;
  std::size_t size = (grains + maxPartitions - 1) / maxPartitions * grainSize;
  size = std::max<std::size_t>(size, minElements);
  size = std::min<std::size_t>(size, std::max(maxElements, 1u));
  return std::max<std::size_t>(size, 1);
}

/// Walks sequences of regions, cutting them into partitions of `size` elements; `emit` gets
/// (partition, sequence, interval) for each piece.
template <typename Emit>
std::size_t partition(const std::vector<std::vector<Interval>>& seqs, std::size_t size,
                      unsigned grainSize, unsigned maxPerRegion, Emit emit) {
  std::size_t part = 0, inPart = 0;
  bool any = false;
  for (std::size_t s = 0; s < seqs.size(); ++s)
    for (const auto& r : seqs[s]) {
      std::size_t pos = r.begin();
      while (pos < r.end()) {
        if (inPart == size) {
          ++part;
          inPart = 0;
        }
        std::size_t len = std::min(r.end() - pos, size - inPart);
        len = std::min<std::size_t>(len, maxPerRegion);
        // Keep cuts on grain boundaries of the region when the rest does not fit.
        if (len < r.end() - pos && len > grainSize) len -= len % grainSize;
        emit(part, s, Interval(pos, pos + len));
        any = true;
        pos += len;
        inPart += len;
      }
    }
  return any ? part + 1 : 0;
}

} // namespace

std::vector<std::vector<Interval>> splitRegions(const std::vector<Interval>& regions,
                                                unsigned grainSize, unsigned maxPartitions,
                                                unsigned minElementsPerPartition,
                                                unsigned maxElementsPerPartition,
                                                unsigned maxElementsPerRegion) {
  std::size_t total = 0;
  for (const auto& r : regions)
    total += r.size();
  const std::size_t size = partitionSize(total, grainSize, maxPartitions, minElementsPerPartition,
                                         maxElementsPerPartition, "poputil::splitRegions");
  std::vector<std::vector<Interval>> out;
  partition({regions}, size, grainSize, std::max(maxElementsPerRegion, 1u),
            [&](std::size_t p, std::size_t, const Interval& iv) {
              if (out.size() <= p) out.resize(p + 1);
              out[p].push_back(iv);
            });
  return out;
}

std::vector<std::vector<Interval>>
splitRegionsBetweenWorkers(const poplar::Target& target, const std::vector<Interval>& regions,
                           unsigned grainSize, unsigned minElementsPerPartition,
                           unsigned maxElementsPerPartition, unsigned maxElementsPerRegion) {
  return splitRegions(regions, grainSize, target.getNumWorkerContexts(), minElementsPerPartition,
                      maxElementsPerPartition, maxElementsPerRegion);
}

std::vector<std::vector<std::vector<Interval>>>
splitRegions(const std::vector<std::vector<Interval>>& regions, unsigned grainSize,
             unsigned maxPartitions, unsigned minElementsPerPartition,
             unsigned maxElementsPerPartition, unsigned maxElementsPerRegion) {
  const std::size_t total = intervalSequenceNumElements(regions);
  const std::size_t size = partitionSize(total, grainSize, maxPartitions, minElementsPerPartition,
                                         maxElementsPerPartition, "poputil::splitRegions");
  std::vector<std::vector<std::vector<Interval>>> out;
  std::size_t lastPart = SIZE_MAX, lastSeq = SIZE_MAX;
  partition(regions, size, grainSize, std::max(maxElementsPerRegion, 1u),
            [&](std::size_t p, std::size_t s, const Interval& iv) {
              if (out.size() <= p) out.resize(p + 1);
              if (p != lastPart || s != lastSeq) out[p].emplace_back(); // a new piece of sequence
              out[p].back().push_back(iv);
              lastPart = p;
              lastSeq = s;
            });
  return out;
}

std::vector<std::vector<std::vector<Interval>>>
splitRegionsBetweenWorkers(const poplar::Target& target,
                           const std::vector<std::vector<Interval>>& regions, unsigned grainSize,
                           unsigned minElementsPerPartition, unsigned maxElementsPerPartition,
                           unsigned maxElementsPerRegion) {
  return splitRegions(regions, grainSize, target.getNumWorkerContexts(), minElementsPerPartition,
                      maxElementsPerPartition, maxElementsPerRegion);
}

std::size_t intervalSequenceNumElements(const std::vector<std::vector<Interval>>& seq) {
  std::size_t n = 0;
  for (const auto& s : seq)
    for (const auto& iv : s)
      n += iv.size();
  return n;
}

poplar::Tensor duplicate(poplar::Graph& graph, const poplar::Tensor& in,
                         poplar::program::Sequence& p, const poplar::DebugContext& debugContext,
                         poplar::TensorCloneMethod method) {
  if (!in.valid()) throw poplibs_error("poputil::duplicate: in is an invalid tensor");
  poplar::Tensor out = graph.clone(in, {debugContext, "duplicate"}, method);
  p.add(poplar::program::Copy(in, out, false, {debugContext, "duplicate"}));
  return out;
}

poplar::Tensor cloneN(poplar::Graph& graph, const poplar::Tensor& t, unsigned N,
                      const poplar::DebugContext& debugContext, poplar::TensorCloneMethod method) {
  if (!t.valid()) throw poplibs_error("poputil::cloneN: t is an invalid tensor");
  std::vector<poplar::Tensor> clones;
  for (unsigned i = 0; i < N; ++i)
    clones.push_back(
        graph.clone(t, {debugContext, "clone" + std::to_string(i)}, method).expand({0}));
  if (clones.empty()) {
    std::vector<std::size_t> shape = t.shape();
    shape.insert(shape.begin(), 0);
    return graph.addVariable(t.elementType(), shape, debugContext);
  }
  return poplar::concat(clones, 0);
}

std::vector<int> balancedPartition(int rangeUpperBound, int splitCount) {
  if (splitCount <= 0)
    throw poplibs_error("poputil::balancedPartition: splitCount must be positive, not " +
                        std::to_string(splitCount));
  std::vector<int> sizes(std::size_t(splitCount), rangeUpperBound / splitCount);
  for (int i = 0; i < rangeUpperBound % splitCount; ++i)
    ++sizes[std::size_t(i)];
  return sizes;
}

bool checkAccuracyWhenCast(const poplar::Target&, double input, poplar::Type inputType,
                           poplar::Type outputType, double tolerance) {
  double converted = input;
  if (outputType == poplar::HALF) {
    if (std::fabs(input) > 65504.0) return false;
    converted = float(poplar::half(float(input)));
  } else if (outputType == poplar::FLOAT) {
    if (std::fabs(input) > double(std::numeric_limits<float>::max())) return false;
    converted = float(input);
  } else if (outputType == poplar::INT) {
    if (input < INT_MIN || input > INT_MAX) return false;
    converted = double(int(input));
  } else if (outputType == poplar::UNSIGNED_INT) {
    if (input < 0 || input > double(UINT_MAX)) return false;
    converted = double(unsigned(input));
  }
  (void)inputType;
  if (input == 0) return converted == 0;
  return std::fabs(converted - input) / std::fabs(input) <= tolerance;
}

std::vector<Interval> flattenIntervals(const std::vector<std::vector<Interval>>& intervals) {
  std::vector<Interval> flat;
  for (const auto& list : intervals)
    flat.insert(flat.end(), list.begin(), list.end());
  return flat;
}

double castToDeviceHalfValue(const poplar::Target&, double input) {
  // The device converts float to half with round-to-nearest-even, as poplar::half does.
  return double(float(poplar::half(float(input))));
}

poplar::Tensor factorDims(const poplar::Tensor& t, const std::vector<std::size_t>& factors,
                          unsigned startDim) {
  const std::size_t n = factors.size();
  if (startDim + n > t.rank())
    throw poplibs_error("poputil::factorDims: " + std::to_string(n) + " factors from dimension " +
                        std::to_string(startDim) + " do not fit a tensor of shape " +
                        t.shapeToString());
  std::vector<std::size_t> shape(t.shape().begin(), t.shape().begin() + startDim);
  for (std::size_t d = 0; d < n; ++d) {
    const std::size_t size = t.dim(unsigned(startDim + d)), f = factors[d];
    if (f == 0 || size % f != 0)
      throw poplibs_error("poputil::factorDims: dimension " + std::to_string(startDim + d) +
                          " of shape " + t.shapeToString() + " does not divide by factor " +
                          std::to_string(f));
    shape.push_back(size / f);
    shape.push_back(f);
  }
  shape.insert(shape.end(), t.shape().begin() + startDim + n, t.shape().end());
  // [.., a0, f0, a1, f1, ..] -> [.., a0, a1, .., f0, f1, ..]
  std::vector<unsigned> src(2 * n), dst(2 * n);
  for (unsigned d = 0; d < n; ++d) {
    src[d] = startDim + 2 * d;
    src[n + d] = startDim + 2 * d + 1;
  }
  std::iota(dst.begin(), dst.end(), startDim);
  return t.reshape(shape).dimShufflePartial(src, dst);
}

poplar::Tensor unfactorDims(const poplar::Tensor& t, unsigned numDims, unsigned startDim) {
  const std::size_t n = numDims;
  if (startDim + 2 * n > t.rank())
    throw poplibs_error("poputil::unfactorDims: " + std::to_string(2 * n) +
                        " factored dimensions from " + std::to_string(startDim) +
                        " do not fit a tensor of shape " + t.shapeToString());
  // [.., a0, a1, .., f0, f1, ..] -> [.., a0, f0, a1, f1, ..]
  std::vector<unsigned> src(2 * n), dst(2 * n);
  for (unsigned d = 0; d < n; ++d) {
    src[2 * d] = startDim + d;
    src[2 * d + 1] = startDim + unsigned(n) + d;
  }
  std::iota(dst.begin(), dst.end(), startDim);
  const poplar::Tensor interleaved = t.dimShufflePartial(src, dst);
  std::vector<std::size_t> shape(t.shape().begin(), t.shape().begin() + startDim);
  for (std::size_t d = 0; d < n; ++d)
    shape.push_back(interleaved.dim(unsigned(startDim + 2 * d)) *
                    interleaved.dim(unsigned(startDim + 2 * d + 1)));
  shape.insert(shape.end(), t.shape().begin() + startDim + 2 * n, t.shape().end());
  return interleaved.reshape(shape);
}

std::vector<Interval> calculateUnshufflingIntervals(const std::vector<Interval>& intervals) {
  // Where each interval landed in the shuffled tensor, then those places in source order.
  std::vector<std::pair<Interval, std::size_t>> placed;
  std::size_t pos = 0;
  for (const Interval& iv : intervals) {
    placed.push_back({iv, pos});
    pos += iv.size();
  }
  std::sort(placed.begin(), placed.end(),
            [](const auto& a, const auto& b) { return a.first.begin() < b.first.begin(); });
  std::vector<Interval> out;
  std::size_t expect = 0;
  for (const auto& [iv, at] : placed) {
    if (iv.begin() != expect)
      throw poplibs_error("poputil::calculateUnshufflingIntervals: the intervals do not cover "
                          "[0, N) exactly once (a gap or overlap at " +
                          std::to_string(iv.begin()) + ")");
    expect = iv.end();
    out.emplace_back(at, at + iv.size());
  }
  return out;
}

poplar::Tensor createConstantMetadataTensor(poplar::Graph& graph,
                                            poplar::QuarterMetadata::Format fp8Format,
                                            int fp8Scale) {
  return poplar::createConstantMetadataTensor(graph, fp8Format, fp8Scale);
}

poplar::Tensor createVariableMetadataTensor(poplar::Graph& graph,
                                            poplar::QuarterMetadata::Format fp8Format,
                                            int fp8Scale) {
  return poplar::createVariableMetadataTensor(graph, fp8Format, fp8Scale);
}

} // namespace poputil
