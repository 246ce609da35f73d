// The execution trace: one or two reports' steps over time (compare mode stacks the base above
// the current report on a shared time axis, each measured from its own execution start), one
// lane per IPU. Three modes:
//   Flat   steps coloured by kind (compute, internal/global exchange, stream copy, sync);
//   Flame  lanes above each IPU's steps naming what they belong to: the levels of the step's
//          operation path from debug.cbor ("fwd" > "layer1" > "matmul" > "MatMul"), or, for a
//          report without debug information, its ancestors in the program tree; adjacent steps
//          under the same one merged into one block, never across two runs;
//   BSP    per tile (rows) and time: compute or exchange, tiles still busy, and idle (waiting
//          for the sync), from the visible steps' per-tile cycles; tiles aggregated per pixel
//          row, Ctrl+wheel zooms into tiles.
// Lightweight-profiling blocks get a lane under their IPU when the report has them.
//
// Cost: each lane is reduced to its pixel width (core/TimelineLod.hpp) and filled into an
// image scanline by scanline, so a repaint costs O(pixels * log steps) whatever the zoom. The
// index may still be filling (another thread): the widget paints what is published.
//
// Interaction: wheel zooms at the pointer, drag pans, +/- zoom, arrows pan, 0/Home fit; click
// selects a step (stepClicked), hover shows a tooltip. GUI thread only.
#pragma once

#include "charts/ChartWidget.hpp"
#include "core/AxisWindow.hpp"
#include "core/ExecutionDetails.hpp"
#include "core/ExecutionIndex.hpp"

#include <QImage>
#include <memory>
#include <vector>

namespace tessera::viewer {

class ExecutionTimeline : public ChartWidget {
  Q_OBJECT
public:
  enum class Mode { Flat, Flame, Bsp };
  struct Track {
    QString label; ///< "Base: …" / "Current: …"; empty for a single report
    std::shared_ptr<const ExecutionIndex> index;
    std::shared_ptr<const FlameRows> flame;  ///< null until the index is complete
    std::shared_ptr<const TileCycles> tiles; ///< per-tile cycles of some steps (BSP), or null
  };

  /// A block of a flame row: consecutive entries of one lane under the same operation path
  /// level (or program), FlameRows::lanes[lane][depth][run].
  struct FlameBlock {
    std::size_t track = 0;
    unsigned lane = 0, depth = 0;
    std::size_t run = 0;                       ///< its index in the row
    std::size_t firstEntry = 0, lastEntry = 0; ///< entries [first, last] of the lane
    std::uint32_t id = kNoProgram;             ///< path node or program (FlameRows::operations)
    QRect rect;                                ///< where it is drawn, clipped to the plot
  };

  explicit ExecutionTimeline(QWidget* parent = nullptr);

  /// One track per report (base first). Resets the view to fit and clears the selection.
  void setTracks(std::vector<Track> tracks);
  const std::vector<Track>& tracks() const { return tracks_; }
  void setFlame(std::size_t track, std::shared_ptr<const FlameRows> flame);
  void setTileCycles(std::size_t track, std::shared_ptr<const TileCycles> tiles);
  /// A message instead of the timeline (no execution, errors); empty to show the data.
  void setMessage(const QString& message);
  const QString& message() const { return message_; }

  Mode mode() const { return mode_; }
  void setMode(Mode mode);

  /// The visible time range, in cycles from the execution start.
  double viewFrom() const { return window_.from(); }
  double viewTo() const { return window_.to(); }
  void setView(double from, double to);
  /// Zooms out to everything loaded (within the limits). Later loading keeps the fit.
  void fit();
  void zoomBy(double factor, double anchorX);
  /// The range the view may show: a run's span, or everything (to < 0).
  void setLimits(double from, double to);
  /// Called when the index published more steps: refits while the view is fitted, repaints.
  void dataGrew();

  /// The selected step (and its track), or -1.
  std::int64_t selectedStep() const { return selectedStep_; }
  std::size_t selectedTrack() const { return selectedTrack_; }
  void selectStep(std::size_t track, std::int64_t step);

  /// Steps of these programs (program ids of the current report: the last track) stand out: a
  /// bright bar along the top of their lane, in every column holding one of them however far
  /// out the view is zoomed. The Program tree's and the Operations view's selection; empty
  /// clears it.
  void setHighlightedPrograms(const std::vector<std::uint32_t>& programs);
  /// Entries of a lane of the current report highlighted so far (the index may still be
  /// loading): the page's line and tests.
  std::size_t highlightedEntries(unsigned lane) const;
  bool hasHighlight() const { return !highlightPrograms_.empty(); }

  /// The flame blocks of a row drawn one by one in the current view (blocks narrower than a
  /// pixel merge into columns and are not listed). For tests and the page.
  std::vector<FlameBlock> flameBlocksInView(std::size_t track, unsigned lane, unsigned depth) const;
  /// The clicked flame block (outlined), if any; selecting a step clears it.
  const FlameBlock* selectedBlock() const { return hasSelectedBlock_ ? &selectedBlock_ : nullptr; }
  void selectBlock(const FlameBlock& block);
  /// The labels of bars drawn by the last paint (their text before eliding, and where): tests.
  std::vector<std::pair<QRect, QString>> drawnLabels() const {
    std::vector<std::pair<QRect, QString>> out;
    for (const Label& l : labels_)
      out.emplace_back(l.rect, l.text);
    return out;
  }
  /// The flame rows' name for a block: the path level's or program's name.
  QString flameBlockName(const FlameBlock& block) const;

  /// Where a step is drawn (the first lane it is in), for tests; empty when not visible.
  QRect stepRect(std::size_t track, std::uint64_t step) const;
  /// Where the BSP view draws a track's tiles (empty outside BSP mode).
  QRect bspRowRect(std::size_t track) const;
  /// Where an IPU's lightweight-profiling row is drawn (row 0: its recording tile's blocks, 1:
  /// its I/O tiles' stream copies); empty when the report has none there.
  QRect blockRowRect(std::size_t track, unsigned ipu, unsigned row) const;
  /// The tooltip the timeline shows at a point (empty where there is nothing).
  QString toolTipAt(const QPoint& at) const;
  /// The BSP view's visible step range of a track [first, last), and whether it needs per-tile
  /// data it does not have (the page loads it and calls setTileCycles).
  bool bspStepsNeeded(std::size_t track, std::uint64_t* first, std::uint64_t* last) const;
  /// Tiles shown by the BSP view [first, last).
  int bspTileFrom() const { return tile0_; }
  int bspTileTo() const { return tile1_; }
  void setBspTiles(int first, int last);
  /// Most (step, tile) cells the BSP view reads at once (kMaxTileCells; lower in tests).
  std::uint64_t bspCellLimit() const { return bspCellLimit_; }
  void setBspCellLimit(std::uint64_t cells) { bspCellLimit_ = std::max<std::uint64_t>(1, cells); }
  /// When more steps are in view than the BSP view can show per tile (All runs of a long
  /// report), narrows the view to as many steps as it can show from the view's start, so that
  /// BSP opens on something rather than a request to zoom in. Returns whether it narrowed.
  bool narrowViewForBsp();
  /// BSP colours (from the palette): a tile waiting for the sync, and a row of tiles of which
  /// some still work on a step of `kind` while others wait. The page's legend shows them.
  QColor bspIdleColor() const;
  QColor bspStillBusyColor(StepKind kind) const;

  QSize sizeHint() const override { return {900, 420}; }

signals:
  void viewChanged(double from, double to);
  void stepClicked(std::size_t track, std::uint64_t step);
  void flameBlockClicked(const tessera::viewer::ExecutionTimeline::FlameBlock& block);
  void modeChanged(Mode mode);
  /// The BSP view needs per-tile cycles it does not have.
  void tileCyclesWanted();

protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool event(QEvent* event) override;
  void addContextActions(QMenu& menu) override;

private:
  static constexpr int kLabelWidth = 92; ///< left column: "IPU 12", "tile 1471"
  static constexpr int kAxisHeight = 36; ///< run names above, tick labels below
  static constexpr int kTrackHeader = 18;
  static constexpr int kLaneGap = 3;
  static constexpr double kFlameRowMax = 22; ///< px: a flame row is a line of text at most
  static constexpr double kMinSpan = 8;      ///< cycles: the deepest zoom

  enum class RowKind { Steps, Flame, Blocks, Bsp };
  struct Row {
    std::size_t track = 0;
    unsigned lane = 0, depth = 0;
    RowKind kind = RowKind::Steps;
    QRect rect;
  };
  struct Hit {
    std::size_t track = 0;
    std::int64_t step = -1;
    QString text;
    bool isBlock = false; ///< a flame block: `block`
    FlameBlock block;
  };

  QRect plotRect() const;
  std::vector<Row> layoutRows() const;
  double fullEnd() const;
  double xToTime(double x) const;
  double timeToX(double t) const;
  /// The window's range: the limits, or everything loaded.
  void updateRange();
  void emitView();
  Hit hitTest(const QPoint& pos) const;

  void paintAxis(class QPainter& p, const QRect& plot);
  // Fill raster_ and queue bar labels (drawn over it with QPainter).
  void paintSteps(const Row& row);
  void paintFlame(const Row& row);
  void paintBlocks(const Row& row);
  void paintBsp(const Row& row);
  /// BSP without per-tile cycles: each IPU's steps across its tiles' rows, in the "still busy"
  /// shade of their kind, so that every step in view is drawn whatever was read per tile.
  void paintBspSteps(const Row& row, int t0, int t1);
  void paintRowLabels(class QPainter& p, const std::vector<Row>& rows);
  void fill(int x0, int x1, int y0, int y1, QRgb color);
  void label(int x0, int x1, const QRect& row, const QString& text, QColor background);
  unsigned flameDepth(std::size_t track) const;
  /// The block of a flame row holding the entry nearest time t, if any.
  bool flameBlockAt(std::size_t track, unsigned lane, unsigned depth, double t,
                    FlameBlock* block) const;
  QColor flameColor(const FlameRows& flame, const ExecutionHeader& header, std::uint32_t id,
                    bool merged) const;
  unsigned numTiles(std::size_t track) const;

  std::vector<Track> tracks_;
  QString message_;
  Mode mode_ = Mode::Flat;
  AxisWindow window_{kMinSpan}; ///< in cycles from the execution start
  double limit0_ = 0, limit1_ = -1;
  bool fitted_ = true;
  std::int64_t selectedStep_ = -1;
  std::size_t selectedTrack_ = 0;
  FlameBlock selectedBlock_;
  bool hasSelectedBlock_ = false;
  int tile0_ = 0, tile1_ = -1;
  QImage raster_; ///< the plot's bars, filled by scanline
  QPoint rasterOrigin_;
  struct Label {
    QRect rect;
    QString text;
    QColor color;
  };
  std::vector<Label> labels_;
  /// Highlighted programs (by id) and, per lane of the last track, the sorted entries that run
  /// them, extended as the index loads (updateHighlight).
  std::vector<bool> highlightPrograms_;
  mutable std::vector<std::vector<std::uint32_t>> highlightEntries_;
  mutable std::vector<std::size_t> highlightScanned_;
  void updateHighlight() const;
  bool anyHighlighted(std::size_t track, unsigned lane, std::size_t first, std::size_t count) const;
  QPoint pressPos_;
  double pressT0_ = 0, pressT1_ = 0;
  bool dragging_ = false, pressed_ = false;
  // BSP: per (pixel row, step) mean and max cycles over the row's tiles, for one layout.
  struct BspCache {
    const TileCycles* tiles = nullptr;
    int tile0 = -1, tile1 = -1, height = -1;
    std::vector<std::uint32_t> mean, max; ///< [(step - first) * height + row]
  };
  std::vector<BspCache> bspCache_;
  std::uint64_t bspCellLimit_ = kMaxTileCells;
  /// The steps a track has in view [first, last); false when none.
  bool stepsInView(std::size_t track, std::uint64_t* first, std::uint64_t* last) const;
};

/// The colour of a step kind in every execution chart.
QColor stepKindColor(StepKind kind);

} // namespace tessera::viewer
