// Program Tree: the compiled control program as a tree with executed cycles, a search box that
// steps through matches (Enter / Shift+Enter), and the selected program's details below.
#pragma once

#include "core/Background.hpp"
#include "widgets/Page.hpp"

class QLabel;
class QLineEdit;
class QTableView;
class QTreeView;

namespace tessera::viewer {

class KeyValueModel;
class ProgramTreeModel;

class ProgramTreePage : public Page {
  Q_OBJECT
public:
  explicit ProgramTreePage(QWidget* parent = nullptr);
  QString title() const override { return tr("Program tree"); }
  QString viewKey() const override { return QStringLiteral("programs"); }
  void setDocument(std::shared_ptr<const Document> doc) override;

  ProgramTreeModel* model() const { return m_model; }
  KeyValueModel* details() const { return m_details; }
  QTreeView* tree() const { return m_tree; }
  QLineEdit* search() const { return m_search; }
  QLabel* matchLabel() const { return m_matchLabel; }
  /// Selects the next (or previous) match of the search text; false when nothing matches.
  bool findNext(bool backwards = false);

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  /// The base's cycles and the difference, beside the current's, when comparing.
  void showCompareColumns(bool compared);
  void showDetails(const QModelIndex& index);
  ProgramTreeModel* m_model;
  KeyValueModel* m_details;
  QTreeView* m_tree;
  QTableView* m_detailsView;
  QLineEdit* m_search;
  QLabel* m_matchLabel;
  std::vector<std::uint32_t> m_matches;
  int m_match = -1;
  TaskHandle m_treeTask, m_cyclesTask;
  bool m_cyclesLoaded = false;
};

} // namespace tessera::viewer
