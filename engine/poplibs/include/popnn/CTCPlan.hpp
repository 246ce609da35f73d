// The plan shared by CTC loss (popnn/CTCLoss.hpp) and CTC beam search (popnn/CTCInference.hpp):
// what the operation was planned for (types, sizes, options) and which tile works on each batch
// entry. Tessera's plans place one batch entry per tile (cycling over the tiles); PopLibs may
// also split an entry over time and label, which Tessera does not.
#pragma once

#include <memory>
#include <ostream>
#include <poputil/DebugInfo.hpp>

namespace popnn {
namespace ctc {

class Plan;

} // namespace ctc
} // namespace popnn

namespace poputil {
template <> poplar::ProfileValue toProfileValue(const popnn::ctc::Plan& p);
} // namespace poputil

namespace popnn {
namespace ctc {

/// How to map tensors and run CTC loss or CTC inference; made by ctc::plan or ctc_infer::plan.
/// A default-constructed plan is empty: passing it to an operation is an error.
class Plan {
public:
  Plan();
  ~Plan();
  Plan(const Plan& other);
  Plan(Plan&& other);
  Plan& operator=(const Plan& other);
  Plan& operator=(Plan&& other);

  friend bool operator<(const Plan& a, const Plan& b);
  friend bool operator==(const Plan& a, const Plan& b);

  /// The plan's parameters and options, one per line.
  friend std::ostream& operator<<(std::ostream& o, const Plan& p);
  friend poplar::ProfileValue poputil::toProfileValue<>(const Plan& p);

  // Internal implementation
  class Impl;
  /// The implementation; throws poputil::poplibs_error for an empty plan.
  Impl& getImpl() const { return checkedImpl(); }
  Plan(std::unique_ptr<Impl> impl);

private:
  Impl& checkedImpl() const;
  std::unique_ptr<Impl> impl;
};

bool operator<(const Plan& a, const Plan& b);
bool operator==(const Plan& a, const Plan& b);
bool operator!=(const Plan& a, const Plan& b);

} // namespace ctc
} // namespace popnn
