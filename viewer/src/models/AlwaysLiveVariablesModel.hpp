// The Liveness page's always-live variables of the chosen scope (whole replica, IPU or tile):
// name, size, category. Code and state appear as pseudo-variables named after their category.
//
// Threads: GUI thread, over an immutable LivenessData. Cost: data() is O(1).
#pragma once

#include "core/LivenessData.hpp"
#include "models/TableModel.hpp"

namespace tessera::viewer {

class AlwaysLiveVariablesModel : public RowsModel<AlwaysLiveRow> {
public:
  enum Column { NameColumn, SizeColumn, CategoryColumn };
  explicit AlwaysLiveVariablesModel(QObject* parent = nullptr);

protected:
  QVariant cell(const AlwaysLiveRow& row, int column, int role) const override;
};

} // namespace tessera::viewer
