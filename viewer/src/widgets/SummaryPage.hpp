// Summary: the report's files and versions, target, graph counts, memory and cycle totals, runs
// and engine options, with a filter box (it filters engine options and every other row).
#pragma once

#include "core/Background.hpp"
#include "widgets/Page.hpp"

class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace tessera::viewer {

class SummaryModel;

class SummaryPage : public Page {
  Q_OBJECT
public:
  explicit SummaryPage(QWidget* parent = nullptr);
  QString title() const override { return tr("Summary"); }
  QString viewKey() const override { return QStringLiteral("summary"); }
  void setDocument(std::shared_ptr<const Document> doc) override;

  SummaryModel* model() const { return model_; }
  QTreeView* view() const { return view_; }
  QLineEdit* filter() const { return filter_; }

private:
  /// Columns as wide as their contents; comparing, the base and current values at most a quarter
  /// of the width each.
  void fitColumns(bool compared);
  SummaryModel* model_;
  QSortFilterProxyModel* proxy_;
  QTreeView* view_;
  QLineEdit* filter_;
  TaskHandle task_;
};

} // namespace tessera::viewer
