// Liveness over the compiled schedule: which variables are always live, and for the others the
// steps [from, to) during which their value must be kept. A variable is always live when the
// host or another engine program can see its value (constants, initial values, host read/write
// handles, use in several engine programs) or when some step reads it before any step writes it
// (its value carries over from the previous run, like weights). Otherwise it lives from its
// first write to its last access; a value live into a loop body stays live to the body's end,
// since the next iteration may need it.
#pragma once

#include "ProgramModel.hpp"

namespace poplar::detail::models {

struct VariableLiveness {
  bool alwaysLive = false;
  unsigned from = 0, to = 0; ///< not always live: schedule steps [from, to); empty when unused
};

/// One entry per variable of the graph, then one per message buffer of the model.
std::vector<VariableLiveness> computeLiveness(const compiler::CompiledGraph& g,
                                              const ProgramModel& m);

} // namespace poplar::detail::models
