#include "BucketProduct.hpp"

#include "poplibs_support/TileWork.hpp"

#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popsparse {
namespace detail {

void addBucketVertex(poplar::Graph& graph, const poplar::ComputeSet& cs, const poplar::Type& type,
                     const poplar::Tensor& meta, const poplar::Tensor& nz,
                     const std::vector<poplar::Tensor>& rhsRows,
                     const std::vector<poplar::Tensor>& outRows, bool transposed, unsigned tile) {
  const auto v = graph.addVertex(
      cs, poputil::templateVertex("popsparse::SparseDenseMatMulBucket", type, transposed));
  graph.connect(v["meta"], meta);
  graph.connect(v["nz"], nz);
  graph.connect(v["rhs"], rhsRows);
  graph.connect(v["out"], outRows);
  graph.setTileMapping(v, tile);
}

void checkSparseOptions(const poplar::OptionFlags& options, const std::string& op) {
  poplibs_support::checkOptions(options,
                                {"availableMemoryProportion", "metaInfoBucketOversizeProportion",
                                 "partialsType", "sharedBuckets", "doGradAPass", "doGradWPass",
                                 "partitioner.optimiseForSpeed", "partitioner.forceBucketSpills",
                                 "partitioner.useActualWorkerSplitCosts", "planConstraints"},
                                op);
  for (const char* name : {"availableMemoryProportion", "metaInfoBucketOversizeProportion"}) {
    for (const auto& [key, value] : options) {
      if (key != name) continue;
      double d = -1;
      try {
        std::size_t used = 0;
        d = std::stod(value, &used);
        if (used != value.size()) d = -1;
      } catch (const std::exception&) {
      }
      if (!(d >= 0.0 && d <= 1.0))
        throw poplar::invalid_option(op + ": option " + key + " must be a number in [0, 1], not '" +
                                     value + "'");
    }
  }
}

} // namespace detail
} // namespace popsparse
