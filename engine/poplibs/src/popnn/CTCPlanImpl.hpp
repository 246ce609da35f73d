// What a ctc::Plan holds: the parameters it was made for and the tile of each batch entry.
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Type.hpp>
#include <popnn/CTCPlan.hpp>
#include <string>
#include <tuple>

namespace popnn {
namespace ctc {

class Plan::Impl {
public:
  enum class Kind { Loss, Inference };

  Kind kind = Kind::Loss;
  poplar::Type inType = poplar::FLOAT;
  poplar::Type partialsType = poplar::FLOAT;
  poplar::Type outType = poplar::FLOAT; ///< loss plans only
  unsigned batchSize = 0, maxTime = 0, maxLabelLength = 0, numClasses = 0;
  unsigned beamwidth = 0; ///< inference plans only
  double availableMemoryProportion = 0.6;
  unsigned numTiles = 1; ///< tiles per IPU of the graph planned for

  /// Batch entries cycle over the tiles, spread evenly when there are fewer entries than tiles.
  unsigned tileOf(std::size_t batchEntry) const;

  auto key() const {
    return std::make_tuple(int(kind), inType, partialsType, outType, batchSize, maxTime,
                           maxLabelLength, numClasses, beamwidth, availableMemoryProportion,
                           numTiles);
  }

  /// The loss plan, or a poplibs_error naming `op` if this is an inference plan.
  const Impl& asLoss(const std::string& op) const;
  /// The inference plan, or a poplibs_error naming `op` if this is a loss plan.
  const Impl& asInference(const std::string& op) const;
};

/// partialsType and availableMemoryProportion from options (PopLibs' CTC plan options).
void parsePlanOptions(const poplar::OptionFlags& options, Plan::Impl& impl, const std::string& op);

/// A [maxTime, batchSize, numClasses] variable of `type`, batch entry b on plan.tileOf(b).
poplar::Tensor createPlannedData(poplar::Graph& graph, const poplar::Type& type,
                                 std::size_t batchSize, std::size_t maxTime, std::size_t numClasses,
                                 const Plan::Impl& plan, const poplar::DebugContext& debugContext,
                                 const std::string& op);

} // namespace ctc
} // namespace popnn
