// Program Tree: the compiled control program as a tree with executed cycles, a search box that
// steps through matches (Enter / Shift+Enter), and the selected program's details below.
#pragma once

#include "core/Background.hpp"
#include "widgets/Page.hpp"

#include <cstdint>
#include <vector>

class QLabel;
class QLineEdit;
class QTableView;
class QTreeView;

namespace tessera::viewer {

class KeyValueModel;
class ProgramTreeModel;
struct ProgramTreeData;

class ProgramTreePage : public Page {
  Q_OBJECT
public:
  explicit ProgramTreePage(QWidget* parent = nullptr);
  QString title() const override { return tr("Program tree"); }
  QString viewKey() const override { return QStringLiteral("programs"); }
  void setDocument(std::shared_ptr<const Document> doc) override;

  ProgramTreeModel* model() const { return model_; }
  KeyValueModel* details() const { return details_; }
  QTreeView* tree() const { return tree_; }
  QLineEdit* search() const { return search_; }
  QLabel* matchLabel() const { return matchLabel_; }
  /// Selects the next (or previous) match of the search text; false when nothing matches.
  bool findNext(bool backwards = false);
  /// Selects the first place of a program (the Execution trace's clicked step); false when the
  /// tree is not loaded or has no such program.
  bool selectProgram(std::uint32_t programId);
  /// The programs of the selected place with everything under it (each once), as the
  /// Execution trace highlights them.
  static std::vector<std::uint32_t> programsUnder(const ProgramTreeData& tree, std::uint32_t node);

signals:
  /// The selection changed: the programs of the selected place and all under it.
  void programsSelected(const std::vector<std::uint32_t>& programIds);

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  /// The base's cycles and the difference, beside the current's, when comparing.
  void showCompareColumns(bool compared);
  void showDetails(const QModelIndex& index);
  ProgramTreeModel* model_;
  KeyValueModel* details_;
  QTreeView* tree_;
  QTableView* detailsView_;
  QLineEdit* search_;
  QLabel* matchLabel_;
  std::shared_ptr<const Document> doc_;
  QMetaObject::Connection selectionLink_; ///< to the document's SelectionModel
  std::vector<std::uint32_t> matches_;
  int match_ = -1;
  TaskHandle treeTask_, cyclesTask_;
  bool cyclesLoaded_ = false;
};

} // namespace tessera::viewer
