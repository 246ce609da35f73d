// Compare (two reports open with --compare or File > Compare): the base and current reports'
// targets, memory, variables, cycles and operations side by side with differences and totals, as
// `pva compare` counts them; the Memory, Liveness and Execution pages show the same comparison
// as charts.
#pragma once

#include "core/Background.hpp"
#include "widgets/Page.hpp"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace tessera::viewer {

class ComparisonModel;

class ComparePage : public Page {
  Q_OBJECT
public:
  explicit ComparePage(QWidget* parent = nullptr);
  QString title() const override { return tr("Compare"); }
  QString viewKey() const override { return QStringLiteral("compare"); }
  bool accepts(const Document& doc) const override { return doc.isReport() && doc.base(); }
  void setDocument(std::shared_ptr<const Document> doc) override;

  ComparisonModel* model() const { return model_; }
  QTreeView* view() const { return view_; }
  QLineEdit* filter() const { return filter_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  /// The warnings above the tables ("The targets differ", "Unrelated reports"); hidden when none.
  QLabel* warnings() const { return warnings_; }
  QLabel* header() const { return header_; }

private:
  ComparisonModel* model_;
  QSortFilterProxyModel* proxy_;
  QTreeView* view_;
  QLineEdit* filter_;
  QLabel* header_;
  QLabel* warnings_;
  TaskHandle task_;
};

} // namespace tessera::viewer
