// The Execution trace page: run selector, Flat / Flame / BSP modes, kind legend, an overview
// strip, the timeline, and below it a Summary tab and a Details tab (the clicked step). The
// Summary tab shows, side by side, the selected run's figures (or all runs'), its figures per IPU
// (both from pva::analyseExecution), and the visible range's cycles by kind (base and change in
// compare mode).
//
// Loading (never on the GUI thread): each report's header (programs, runs, blocks) first, then
// its step index fills in the background while the page repaints what has arrived every
// 100 ms; the page is ready once every index is complete. Per-tile cycles for the BSP view and
// a clicked step's or flame block's details are read on demand, newer requests cancelling older
// ones.
#pragma once

#include "charts/ExecutionTimeline.hpp"
#include "core/Background.hpp"
#include "widgets/Page.hpp"

#include <QThreadPool>
#include <QTimer>
#include <array>

class QAbstractButton;
class QComboBox;
class QLabel;
class QTabWidget;
class QTableView;

namespace tessera::viewer {

class FittingPanels;

class ExecutionOverview;
class ExecutionSummaryModel;
class IpuFiguresModel;
class RunFiguresModel;
struct ExecutionFigures;
class StepDetailsModel;

class ExecutionPage : public Page {
  Q_OBJECT
public:
  explicit ExecutionPage(QWidget* parent = nullptr);
  QString title() const override { return tr("Execution trace"); }
  QString viewKey() const override { return QStringLiteral("execution"); }
  void setDocument(std::shared_ptr<const Document> doc) override;
  QWidget* imageWidget() override;

  ExecutionTimeline::Mode mode() const { return timeline_->mode(); }
  void setMode(ExecutionTimeline::Mode mode);
  /// "flat", "flame" or "bsp" (the --execution-mode option); false when unknown.
  static bool parseMode(const QString& text, ExecutionTimeline::Mode* mode);

  /// Restricts the view to one run (-1: all runs). Takes effect once the runs are indexed.
  void selectRun(int run);
  /// The run shown (-1: all runs). A report of several runs opens on its first: "All runs" of a
  /// long report is millions of steps in one view.
  int selectedRun() const { return run_; }
  /// The run to show when the next document's runs are known (--run NAME), instead of the
  /// default; applied once. A name the report does not have emits unknownRun.
  void setWantedRun(const QString& name) { wantedRun_ = name; }
  /// Names of the runs of the report shown (the current one in compare mode).
  QStringList runNames() const;

  ExecutionTimeline* timeline() const { return timeline_; }
  ExecutionOverview* overview() const { return overview_; }
  ExecutionSummaryModel* summaryModel() const { return summaryModel_; }
  /// The selected run's (or all runs') figures and per-IPU figures, from pva::analyseExecution.
  RunFiguresModel* runFiguresModel() const { return runFiguresModel_; }
  IpuFiguresModel* ipuFiguresModel() const { return ipuFiguresModel_; }
  /// The heading above them: which run, which report.
  QLabel* figuresHeading() const { return figuresHeading_; }
  StepDetailsModel* detailsModel() const { return detailsModel_; }
  QComboBox* runSelector() const { return runs_; }
  QLabel* bspLegend() const { return bspLegend_; }
  /// The line beside the controls: steps indexed, lightweight-profiling blocks (or none).
  QLabel* status() const { return status_; }
  QTabWidget* tabs() const { return tabs_; }
  /// Whether any index is still filling.
  bool loading() const;

  /// Highlights the steps of these programs of the current report (the Program tree's
  /// selection: a place and everything under it); empty clears. The line above the figures says
  /// how many steps of the shown lanes that is.
  void highlightPrograms(const std::vector<std::uint32_t>& programIds);

signals:
  /// A step of the current report was clicked: its program, for the Program tree to select.
  void stepProgramClicked(std::uint32_t programId);
  /// The run asked for with setWantedRun is not in the report; `runs` are the ones it has.
  void unknownRun(const QString& name, const QStringList& runs);

private:
  struct Source {
    std::shared_ptr<const Document> doc;
    std::shared_ptr<ExecutionIndex> index;
    bool headerDone = false, filled = false;
    bool tilesPending = false;                ///< a per-tile read for the BSP view is under way
    std::uint64_t tilesFrom = 0, tilesTo = 0; ///< the steps it reads
    QString noExecution;
    TaskHandle header, fill, tiles;
  };

  void headerArrived(std::size_t k, std::shared_ptr<const ExecutionHeader> header);
  void allHeadersArrived();
  void poll();
  void updateSummary();
  void addSummaryPanels();
  void loadFigures();
  /// loadFigures() once every index is filled (their pass derives the figures), if not yet.
  void loadFiguresOnceFilled();
  void showFigures();
  void applyRun();
  void loadTiles();
  void showDetails(std::size_t track, std::uint64_t step);
  void showBlockDetails(const ExecutionTimeline::FlameBlock& block);
  const Source* sourceOfTrack(std::size_t track) const;
  void finishIfDone();

  ExecutionTimeline* timeline_;
  ExecutionOverview* overview_;
  QComboBox* runs_;
  std::array<QAbstractButton*, 3> modeButtons_{};
  QLabel* status_;
  QLabel* bspLegend_ = nullptr;
  QTabWidget* tabs_;
  QTableView* summaryView_;
  QTableView* detailsView_;
  QLabel* detailsHint_;
  ExecutionSummaryModel* summaryModel_;
  StepDetailsModel* detailsModel_;
  RunFiguresModel* runFiguresModel_;
  IpuFiguresModel* ipuFiguresModel_;
  QLabel* figuresHeading_;
  QLabel* ipuHeading_ = nullptr;
  QTableView* runFiguresView_;
  QTableView* ipuFiguresView_;
  FittingPanels* summaryPanels_ = nullptr; ///< the three tables side by side, or some in tabs
  QTimer pollTimer_, summaryTimer_, tilesTimer_;
  /// The page's own threads: indexing streams for seconds and must neither wait behind other
  /// pages' loads nor hold a shared thread. Declared before the tasks, so it is destroyed after
  /// their handles have cancelled them (its destructor waits for them to return).
  QThreadPool pool_;
  std::shared_ptr<const Document> doc_;
  std::vector<Source> sources_; ///< base first in compare mode
  int run_ = -1;
  bool runApplied_ = true;
  QString wantedRun_;
  TaskHandle detailsTask_;
  std::shared_ptr<const ExecutionFigures> figures_;
  QMetaObject::Connection selectionLink_; ///< to the document's SelectionModel
  bool figuresPending_ = false;           ///< pva::analyseExecution is running
  TaskHandle figuresTask_;
};

} // namespace tessera::viewer
