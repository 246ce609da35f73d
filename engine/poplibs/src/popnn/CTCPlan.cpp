// ctc::Plan: a value type over its Impl (copying copies the Impl), compared and printed by its
// parameters, plus the option parsing and data mapping both CTC operations share.
#include "CTCPlanImpl.hpp"

#include <poputil/OptionParsing.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>

namespace popnn {
namespace ctc {

Plan::Plan() = default;
Plan::~Plan() = default;
Plan::Plan(const Plan& other) : impl(other.impl ? std::make_unique<Impl>(*other.impl) : nullptr) {}
Plan::Plan(Plan&& other) = default;
Plan& Plan::operator=(const Plan& other) {
  if (this != &other) impl = other.impl ? std::make_unique<Impl>(*other.impl) : nullptr;
  return *this;
}
Plan& Plan::operator=(Plan&& other) = default;
Plan::Plan(std::unique_ptr<Impl> i) : impl(std::move(i)) {}

Plan::Impl& Plan::checkedImpl() const {
  if (!impl)
    throw poputil::poplibs_error("popnn::ctc::Plan: the plan is empty (default-constructed or "
                                 "moved from); make one with ctc::plan or ctc_infer::plan");
  return *impl;
}

// An empty plan orders before any other and equals only another empty plan.
bool operator<(const Plan& a, const Plan& b) {
  if (!a.impl || !b.impl) return !a.impl && b.impl;
  return a.impl->key() < b.impl->key();
}
bool operator==(const Plan& a, const Plan& b) {
  if (!a.impl || !b.impl) return !a.impl && !b.impl;
  return a.impl->key() == b.impl->key();
}
bool operator!=(const Plan& a, const Plan& b) {
  return !(a == b);
}

std::ostream& operator<<(std::ostream& o, const Plan& p) {
  if (!p.impl) return o << "CTC plan: empty\n";
  const Plan::Impl& i = *p.impl;
  const bool loss = i.kind == Plan::Impl::Kind::Loss;
  o << (loss ? "CTCLoss plan:\n" : "CTCInference plan:\n");
  o << "  inType                       " << i.inType << "\n";
  o << "  partialsType                 " << i.partialsType << "\n";
  if (loss) o << "  outType                      " << i.outType << "\n";
  o << "  batchSize                    " << i.batchSize << "\n";
  o << "  maxTime                      " << i.maxTime << "\n";
  if (loss) o << "  maxLabelLength               " << i.maxLabelLength << "\n";
  o << "  numClasses                   " << i.numClasses << "\n";
  if (!loss) o << "  beamwidth                    " << i.beamwidth << "\n";
  o << "  availableMemoryProportion    " << i.availableMemoryProportion << "\n";
  o << "  partition                    one batch entry per tile over " << i.numTiles << " tiles\n";
  return o;
}

unsigned Plan::Impl::tileOf(std::size_t batchEntry) const {
  if (batchSize == 0 || numTiles == 0) return 0;
  if (batchSize >= numTiles) return unsigned(batchEntry % numTiles);
  return unsigned(batchEntry * numTiles / batchSize);
}

const Plan::Impl& Plan::Impl::asLoss(const std::string& op) const {
  if (kind != Kind::Loss)
    throw poputil::poplibs_error(op + ": the plan is a CTC inference plan (ctc_infer::plan); "
                                      "CTC loss needs one made by ctc::plan");
  return *this;
}

const Plan::Impl& Plan::Impl::asInference(const std::string& op) const {
  if (kind != Kind::Inference)
    throw poputil::poplibs_error(op + ": the plan is a CTC loss plan (ctc::plan); beam search "
                                      "needs one made by ctc_infer::plan");
  return *this;
}

void parsePlanOptions(const poplar::OptionFlags& options, Plan::Impl& impl, const std::string& op) {
  const std::map<std::string, poplar::Type> types{{"half", poplar::HALF}, {"float", poplar::FLOAT}};
  const poplibs::OptionSpec spec{
      {"partialsType", poplibs::OptionHandler::createWithEnum(impl.partialsType, types)},
      {"availableMemoryProportion",
       poplibs::OptionHandler::createWithDouble(impl.availableMemoryProportion, 0.)}};
  try {
    for (const auto& entry : options)
      spec.parse(entry.first, entry.second);
  } catch (const poplar::invalid_option& e) {
    throw poplar::invalid_option(op + ": " + e.what());
  }
  if (impl.partialsType == poplar::HALF && impl.inType == poplar::FLOAT)
    throw poputil::poplibs_error(op + ": partials type HALF unsupported with input tensor type "
                                      "FLOAT");
}

poplar::Tensor createPlannedData(poplar::Graph& graph, const poplar::Type& type,
                                 std::size_t batchSize, std::size_t maxTime, std::size_t numClasses,
                                 const Plan::Impl& plan, const poplar::DebugContext& debugContext,
                                 const std::string& op) {
  if (type != poplar::HALF && type != poplar::FLOAT)
    throw poputil::poplibs_error(op + ": data tensor must be of type HALF or FLOAT, not " +
                                 type.toString());
  if (batchSize != plan.batchSize || maxTime != plan.maxTime || numClasses != plan.numClasses)
    throw poputil::poplibs_error(
        op + ": [maxTime, batchSize, numClasses] = [" + std::to_string(maxTime) + ", " +
        std::to_string(batchSize) + ", " + std::to_string(numClasses) +
        "] differs from the plan's [" + std::to_string(plan.maxTime) + ", " +
        std::to_string(plan.batchSize) + ", " + std::to_string(plan.numClasses) + "]");
  // Batch-major so each entry's [maxTime, numClasses] block is contiguous on its tile.
  const poplar::Tensor data =
      graph.addVariable(type, {batchSize, maxTime, numClasses}, {debugContext, "data"});
  for (std::size_t b = 0; b < batchSize; ++b)
    graph.setTileMapping(data[b], plan.tileOf(b));
  return data.dimShuffle({1, 0, 2});
}

} // namespace ctc
} // namespace popnn

namespace poputil {
template <> poplar::ProfileValue toProfileValue(const popnn::ctc::Plan& p) {
  std::ostringstream s;
  s << p;
  return poplar::ProfileValue(s.str());
}
} // namespace poputil
