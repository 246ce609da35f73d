// The Liveness page's Cycle estimates tab: for each selected step, its program's compile-time
// cycle estimate on the scope's tiles summarised (max, mean, total, active tiles).
//
// Threads: GUI thread, over an immutable StepDetailsData. Cost: data() is O(1).
#pragma once

#include "core/LivenessData.hpp"
#include "models/TableModel.hpp"

namespace tessera::viewer {

class StepCyclesModel : public RowsModel<StepCyclesRow> {
public:
  enum Column {
    StepColumn,
    ProgramColumn,
    TypeColumn,
    MaxColumn,
    MeanColumn,
    TotalColumn,
    ActiveTilesColumn
  };
  explicit StepCyclesModel(QObject* parent = nullptr);

protected:
  QVariant cell(const StepCyclesRow& row, int column, int role) const override;
};

} // namespace tessera::viewer
