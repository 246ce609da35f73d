// Variables live at the selected steps, one column per step.
#include "models/LiveVariablesModel.hpp"

namespace tessera::viewer {

LiveVariablesModel::LiveVariablesModel(QObject* parent) : RowsModel(parent) {
  setHeaders({tr("Variable"), tr("Category")});
}

void LiveVariablesModel::setDetails(std::shared_ptr<const StepDetailsData> details) {
  // The columns change with the steps: the headers change inside the reset.
  beginResetModel();
  details_ = details;
  QStringList headers{tr("Variable"), tr("Category")};
  if (details) {
    headers << details->stepLabels;
    if (details->steps.size() >= 2)
      headers << tr("Change %1 → %2").arg(details->steps.front()).arg(details->steps.back());
  }
  setHeaders(headers);
  std::vector<Total> totals{Total::None, Total::None};
  if (details) {
    totals.resize(totals.size() + details->steps.size(), Total::Bytes);
    if (details->steps.size() >= 2) totals.push_back(Total::BytesDelta);
  }
  setColumnTotals(std::move(totals));
  replaceRows(details ? std::shared_ptr<const std::vector<LiveVariableRow>>(details,
                                                                            &details->liveVariables)
                      : nullptr);
  endResetModel();
}

QVariant LiveVariablesModel::cell(const LiveVariableRow& row, int column, int role) const {
  if (column == NameColumn) return textCell(row.name, role);
  if (column == CategoryColumn) return textCell(row.category, role);
  const int step = column - FirstStepColumn;
  if (step >= 0 && std::size_t(step) < row.bytes.size())
    return bytesCell(row.bytes[std::size_t(step)], role);
  if (std::size_t(step) == row.bytes.size() && row.bytes.size() >= 2)
    return bytesDeltaCell(std::int64_t(row.bytes.back()) - std::int64_t(row.bytes.front()), role);
  return {};
}

} // namespace tessera::viewer
