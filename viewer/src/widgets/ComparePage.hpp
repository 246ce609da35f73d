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

  ComparisonModel* model() const { return m_model; }
  QTreeView* view() const { return m_view; }
  QLineEdit* filter() const { return m_filter; }
  QSortFilterProxyModel* proxy() const { return m_proxy; }
  /// The warnings above the tables ("The targets differ", "Unrelated reports"); hidden when none.
  QLabel* warnings() const { return m_warnings; }

private:
  ComparisonModel* m_model;
  QSortFilterProxyModel* m_proxy;
  QTreeView* m_view;
  QLineEdit* m_filter;
  QLabel* m_header;
  QLabel* m_warnings;
  TaskHandle m_task;
};

} // namespace tessera::viewer
