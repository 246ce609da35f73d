// Not-always-live variables live at the selected liveness steps: name, category, then one bytes
// column per selected step (0 where the variable is not live), and with two or more steps a last
// column with the change from the first selected step to the last.
//
// Threads: GUI thread, over an immutable StepDetailsData. Cost: data() is O(1).
#pragma once

#include "core/LivenessData.hpp"
#include "models/TableModel.hpp"

namespace tessera::viewer {

class LiveVariablesModel : public RowsModel<LiveVariableRow> {
public:
  enum Column { NameColumn, CategoryColumn, FirstStepColumn };
  explicit LiveVariablesModel(QObject* parent = nullptr);
  void setDetails(std::shared_ptr<const StepDetailsData> details);
  /// Selected steps shown as columns.
  int stepCount() const { return details_ ? int(details_->steps.size()) : 0; }

protected:
  QVariant cell(const LiveVariableRow& row, int column, int role) const override;

private:
  std::shared_ptr<const StepDetailsData> details_;
};

} // namespace tessera::viewer
