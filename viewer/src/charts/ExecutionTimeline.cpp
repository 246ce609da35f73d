// The execution timeline: view state, layout of rows, hit testing and interaction (painting is
// in ExecutionTimelinePaint.cpp).
#include "charts/ExecutionTimeline.hpp"

#include "core/ExecutionBlocks.hpp"
#include "core/Format.hpp"
#include "core/TimelineLod.hpp"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace tessera::viewer {

namespace {

QString kindTip(const ExecutionIndex& index, std::uint64_t step) {
  const std::uint32_t program = index.stepProgram(step);
  const auto& programs = index.header().programs;
  if (program >= programs.size()) return QObject::tr("step %1").arg(step);
  return QStringLiteral("%1 — %2").arg(programs[program].name,
                                       stepKindName(programs[program].kind));
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Data and view state

void ExecutionTimeline::setTracks(std::vector<Track> tracks) {
  tracks_ = std::move(tracks);
  bspCache_.assign(tracks_.size(), {});
  highlightEntries_.clear(); // entries of the former index; the programs stay highlighted
  highlightScanned_.clear();
  selectedStep_ = -1;
  hasSelectedBlock_ = false;
  limit0_ = 0;
  limit1_ = -1;
  tile0_ = 0;
  tile1_ = -1;
  fit();
}

void ExecutionTimeline::setFlame(std::size_t track, std::shared_ptr<const FlameRows> flame) {
  if (track >= tracks_.size()) return;
  tracks_[track].flame = std::move(flame);
  update();
}

void ExecutionTimeline::setTileCycles(std::size_t track, std::shared_ptr<const TileCycles> tiles) {
  if (track >= tracks_.size()) return;
  tracks_[track].tiles = std::move(tiles);
  bspCache_[track] = {};
  update();
}

void ExecutionTimeline::setMessage(const QString& message) {
  message_ = message;
  update();
}

void ExecutionTimeline::setMode(Mode mode) {
  if (mode == mode_) return;
  mode_ = mode;
  update();
  emit modeChanged(mode);
  if (mode == Mode::Bsp) emit tileCyclesWanted();
}

double ExecutionTimeline::fullEnd() const {
  double end = 0;
  for (const Track& t : tracks_)
    if (t.index) end = std::max(end, double(t.index->loadedEnd()));
  return std::max(end, 1.0);
}

void ExecutionTimeline::updateRange() {
  window_.setRange(limit0_, limit1_ >= 0 ? limit1_ : fullEnd());
}

void ExecutionTimeline::emitView() {
  update();
  emit viewChanged(window_.from(), window_.to());
  if (mode_ == Mode::Bsp) emit tileCyclesWanted();
}

void ExecutionTimeline::setView(double from, double to) {
  fitted_ = false;
  window_.show(from, to);
  emitView();
}

void ExecutionTimeline::fit() {
  fitted_ = true;
  // Fit is everything: every tile of the BSP view too.
  tile0_ = 0;
  tile1_ = -1;
  updateRange();
  window_.fit();
  emitView();
}

void ExecutionTimeline::zoomBy(double factor, double anchorX) {
  fitted_ = false;
  window_.zoom(factor, xToTime(std::clamp<double>(anchorX, plotRect().left(), plotRect().right())));
  emitView();
}

void ExecutionTimeline::setLimits(double from, double to) {
  limit0_ = std::max(0.0, from);
  limit1_ = to;
  fit();
}

void ExecutionTimeline::dataGrew() {
  bspCache_.assign(tracks_.size(), {});
  if (fitted_) return fit(); // fit() takes the new range itself
  updateRange();
  update();
}

void ExecutionTimeline::selectStep(std::size_t track, std::int64_t step) {
  selectedTrack_ = track;
  selectedStep_ = step;
  hasSelectedBlock_ = false;
  update();
}

void ExecutionTimeline::selectBlock(const FlameBlock& block) {
  selectedBlock_ = block;
  hasSelectedBlock_ = true;
  selectedStep_ = -1;
  update();
}

void ExecutionTimeline::setBspTiles(int first, int last) {
  tile0_ = std::max(0, first);
  tile1_ = last;
  update();
}

unsigned ExecutionTimeline::flameDepth(std::size_t track) const {
  const auto& f = tracks_[track].flame;
  return f && !f->truncated ? f->depth : 0;
}

unsigned ExecutionTimeline::numTiles(std::size_t track) const {
  const Track& t = tracks_[track];
  if (t.tiles && t.tiles->numTiles) return t.tiles->numTiles;
  return t.index ? t.index->header().numIpus * t.index->header().tilesPerIpu : 0;
}

// ---------------------------------------------------------------------------------------------
// Layout

QRect ExecutionTimeline::plotRect() const {
  return QRect(kLabelWidth, kAxisHeight, std::max(1, width() - kLabelWidth - 6),
               std::max(1, height() - kAxisHeight - 4));
}

double ExecutionTimeline::timeToX(double t) const {
  const QRect plot = plotRect();
  return plot.left() + (t - window_.from()) * plot.width() / (window_.span());
}

double ExecutionTimeline::xToTime(double x) const {
  const QRect plot = plotRect();
  return window_.from() + (x - plot.left()) * (window_.span()) / plot.width();
}

std::vector<ExecutionTimeline::Row> ExecutionTimeline::layoutRows() const {
  std::vector<Row> rows;
  const QRect plot = plotRect();
  const bool headers = tracks_.size() > 1;
  const int headerSpace = headers ? int(tracks_.size()) * kTrackHeader : 0;
  if (mode_ == Mode::Bsp) {
    const int each = (plot.height() - headerSpace - kLaneGap * int(tracks_.size())) /
                     std::max<int>(1, int(tracks_.size()));
    int y = plot.top();
    for (std::size_t t = 0; t < tracks_.size(); ++t) {
      if (headers) y += kTrackHeader;
      rows.push_back(
          {t, 0, 0, RowKind::Bsp, QRect(plot.left(), y, plot.width(), std::max(8, each))});
      y += each + kLaneGap;
    }
    return rows;
  }
  // Rows in weight units: a steps row is 1, flame rows 0.75, a blocks row 0.6. Flame rows stop
  // growing at kFlameRowMax (a line of text): the steps take the rest of the height.
  double weight = 0, flameRows = 0;
  int gaps = 0;
  for (std::size_t t = 0; t < tracks_.size(); ++t) {
    if (!tracks_[t].index) continue;
    const auto& h = tracks_[t].index->header();
    const double flame = mode_ == Mode::Flame ? flameDepth(t) : 0.0;
    weight += h.numIpus * (1.0 + 0.6 * blockRowsOf(h));
    flameRows += h.numIpus * flame;
    gaps += int(h.numIpus);
  }
  if (weight <= 0) return rows;
  const double room = plot.height() - headerSpace - gaps * kLaneGap;
  double unit = std::clamp(room / (weight + 0.75 * flameRows), 5.0, 90.0);
  double flameHeight = 0.75 * unit;
  if (flameHeight > kFlameRowMax) {
    flameHeight = kFlameRowMax;
    unit = std::clamp((room - flameRows * flameHeight) / weight, 5.0, 90.0);
  }
  double y = plot.top();
  for (std::size_t t = 0; t < tracks_.size(); ++t) {
    if (headers) y += kTrackHeader;
    if (!tracks_[t].index) continue;
    const auto& h = tracks_[t].index->header();
    for (unsigned lane = 0; lane < h.numIpus; ++lane) {
      if (mode_ == Mode::Flame)
        for (unsigned d = 0; d < flameDepth(t); ++d) {
          const double hgt = flameHeight;
          rows.push_back({t, lane, d, RowKind::Flame,
                          QRect(plot.left(), int(y), plot.width(), std::max(3, int(hgt) - 1))});
          y += hgt;
        }
      rows.push_back({t, lane, 0, RowKind::Steps,
                      QRect(plot.left(), int(y), plot.width(), std::max(3, int(unit) - 1))});
      y += unit;
      // The recording tile's blocks (depth 0), then the I/O tiles' stream copies (depth 1).
      for (unsigned d = 0; d < 2; ++d) {
        if (!hasBlockRow(h, d)) continue;
        rows.push_back(
            {t, lane, d, RowKind::Blocks,
             QRect(plot.left(), int(y), plot.width(), std::max(3, int(0.6 * unit) - 1))});
        y += 0.6 * unit;
      }
      y += kLaneGap;
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Queries

std::vector<ExecutionTimeline::FlameBlock>
ExecutionTimeline::flameBlocksInView(std::size_t track, unsigned lane, unsigned depth) const {
  std::vector<FlameBlock> out;
  if (track >= tracks_.size() || !tracks_[track].index || !tracks_[track].flame ||
      mode_ != Mode::Flame)
    return out;
  const FlameRows& flame = *tracks_[track].flame;
  if (flame.truncated || lane >= flame.lanes.size() || depth >= flame.lanes[lane].size())
    return out;
  const ExecutionIndex& index = *tracks_[track].index;
  const auto& runs = flame.lanes[lane][depth];
  const std::uint32_t none = flame.operations ? kNoOperation : kNoProgram;
  for (const Row& row : layoutRows()) {
    if (row.track != track || row.lane != lane || row.depth != depth || row.kind != RowKind::Flame)
      continue;
    const std::size_t loaded = index.entries(lane);
    for (const TimelineSpan& s :
         reduceFlameRow(index, lane, runs, window_.from(), window_.to(), row.rect.width())) {
      if (s.merged() || runs[s.first].id == none) continue;
      FlameBlock b;
      b.track = track;
      b.lane = lane;
      b.depth = depth;
      b.run = s.first;
      b.firstEntry = runs[s.first].firstEntry;
      b.lastEntry = FlameRows::runEnd(runs, s.first, loaded) - 1;
      b.id = runs[s.first].id;
      b.rect = QRect(row.rect.left() + s.x0, row.rect.top(), s.x1 - s.x0, row.rect.height());
      out.push_back(b);
    }
  }
  return out;
}

bool ExecutionTimeline::flameBlockAt(std::size_t track, unsigned lane, unsigned depth, double t,
                                     FlameBlock* block) const {
  const Track& tk = tracks_[track];
  if (!tk.index || !tk.flame || tk.flame->truncated || lane >= tk.flame->lanes.size() ||
      depth >= tk.flame->lanes[lane].size())
    return false;
  const ExecutionIndex& index = *tk.index;
  const auto& runs = tk.flame->lanes[lane][depth];
  const std::size_t n = index.entries(lane);
  if (n == 0) return false;
  std::size_t e = index.lowerBound(lane, n, t);
  if (e > 0 && (e == n || double(index.begin(lane, e)) > t)) --e;
  const auto it =
      std::upper_bound(runs.begin(), runs.end(), e,
                       [](std::size_t v, const FlameRun& r) { return v < r.firstEntry; });
  if (it == runs.begin()) return false;
  const std::size_t r = std::size_t(it - runs.begin()) - 1;
  if (runs[r].id == (tk.flame->operations ? kNoOperation : kNoProgram)) return false;
  if (tk.flame->operations ? runs[r].id >= index.header().pathNodes.size()
                           : runs[r].id >= index.header().programs.size())
    return false;
  block->track = track;
  block->lane = lane;
  block->depth = depth;
  block->run = r;
  block->firstEntry = runs[r].firstEntry;
  block->lastEntry = FlameRows::runEnd(runs, r, n) - 1;
  block->id = runs[r].id;
  const double x0 = timeToX(double(index.begin(lane, block->firstEntry))),
               x1 = timeToX(double(index.end(lane, block->lastEntry)));
  block->rect = QRect(int(std::floor(x0)), 0, std::max(1, int(std::ceil(x1 - x0))), 0);
  return true;
}

QRect ExecutionTimeline::bspRowRect(std::size_t track) const {
  for (const Row& row : layoutRows())
    if (row.track == track && row.kind == RowKind::Bsp) return row.rect;
  return {};
}

QRect ExecutionTimeline::blockRowRect(std::size_t track, unsigned ipu, unsigned row) const {
  for (const Row& r : layoutRows())
    if (r.track == track && r.kind == RowKind::Blocks && r.lane == ipu && r.depth == row)
      return r.rect;
  return {};
}

QString ExecutionTimeline::toolTipAt(const QPoint& at) const {
  return hitTest(at).text;
}

QRect ExecutionTimeline::stepRect(std::size_t track, std::uint64_t step) const {
  if (track >= tracks_.size() || !tracks_[track].index) return {};
  const ExecutionIndex& index = *tracks_[track].index;
  for (const Row& row : layoutRows()) {
    if (row.track != track || row.kind != RowKind::Steps) continue;
    const std::int64_t e = index.entryOfStep(row.lane, step);
    if (e < 0) continue;
    const double x0 = timeToX(double(index.begin(row.lane, std::size_t(e))));
    const double x1 = timeToX(double(index.end(row.lane, std::size_t(e))));
    QRect r(int(std::floor(x0)), row.rect.top(), std::max(1, int(std::ceil(x1 - x0))),
            row.rect.height());
    r = r.intersected(row.rect);
    if (!r.isEmpty()) return r;
  }
  return {};
}

bool ExecutionTimeline::stepsInView(std::size_t track, std::uint64_t* first,
                                    std::uint64_t* last) const {
  *first = *last = 0;
  if (track >= tracks_.size() || !tracks_[track].index) return false;
  const ExecutionIndex& index = *tracks_[track].index;
  std::uint64_t a = ~std::uint64_t(0), b = 0;
  for (unsigned lane = 0; lane < index.numLanes(); ++lane) {
    const std::size_t n = index.entries(lane);
    std::size_t i0 = index.lowerBound(lane, n, window_.from());
    if (i0 > 0 && double(index.end(lane, i0 - 1)) > window_.from()) --i0;
    const std::size_t i1 = index.lowerBound(lane, n, window_.to());
    if (i1 <= i0) continue;
    a = std::min<std::uint64_t>(a, index.step(lane, i0));
    b = std::max<std::uint64_t>(b, index.step(lane, i1 - 1) + 1);
  }
  if (b <= a) return false;
  *first = a;
  *last = b;
  return true;
}

bool ExecutionTimeline::bspStepsNeeded(std::size_t track, std::uint64_t* first,
                                       std::uint64_t* last) const {
  if (!stepsInView(track, first, last)) return false;
  const std::uint64_t a = *first, b = *last;
  const unsigned tiles = std::max(1u, numTiles(track));
  if ((b - a) * tiles > bspCellLimit_) return false; // too many: the view asks to zoom in
  const auto& t = tracks_[track].tiles;
  return !t || t->firstStep > a || t->lastStep < b;
}

bool ExecutionTimeline::narrowViewForBsp() {
  // The earliest time at which some track has shown all the steps it can: the view ends there.
  double end = -1;
  for (std::size_t track = 0; track < tracks_.size(); ++track) {
    std::uint64_t a = 0, b = 0;
    if (!stepsInView(track, &a, &b)) continue;
    const std::uint64_t cap =
        std::max<std::uint64_t>(1, bspCellLimit_ / std::max(1u, numTiles(track)));
    if (b - a <= cap) continue;
    const ExecutionIndex& index = *tracks_[track].index;
    const std::uint64_t lastShown = a + cap - 1;
    double stepEnd = -1; // the step's end on the IPUs that ran it
    for (unsigned lane = 0; lane < index.numLanes(); ++lane) {
      const std::int64_t e = index.entryOfStep(lane, lastShown);
      if (e >= 0)
        stepEnd = std::max(stepEnd, double(index.begin(lane, std::size_t(e))) +
                                        index.duration(lane, std::size_t(e)));
    }
    if (stepEnd > window_.from()) end = end < 0 ? stepEnd : std::min(end, stepEnd);
  }
  if (end < 0) return false;
  setView(window_.from(), end);
  return true;
}

ExecutionTimeline::Hit ExecutionTimeline::hitTest(const QPoint& pos) const {
  Hit hit;
  for (const Row& row : layoutRows()) {
    if (!row.rect.adjusted(0, -1, 0, 1).contains(pos)) continue;
    const Track& track = tracks_[row.track];
    if (!track.index) return hit;
    const ExecutionIndex& index = *track.index;
    hit.track = row.track;
    const double t = xToTime(pos.x());
    const double slack = 3 * (window_.span()) / std::max(1, row.rect.width()); // 3 pixels
    if (row.kind == RowKind::Steps || row.kind == RowKind::Bsp) {
      unsigned lane = row.lane;
      int tile = -1;
      if (row.kind == RowKind::Bsp) {
        const unsigned tiles = numTiles(row.track);
        const int t0 = std::max(0, tile0_),
                  t1 = tile1_ < 0 ? int(tiles) : std::min<int>(tile1_, int(tiles));
        if (t1 <= t0) return hit;
        tile = t0 + int(std::int64_t(t1 - t0) * (pos.y() - row.rect.top()) /
                        std::max(1, row.rect.height()));
        lane = unsigned(tile) / std::max(1u, index.header().tilesPerIpu);
        if (lane >= index.numLanes()) return hit;
      }
      const std::size_t n = index.entries(lane);
      // The step under the pointer, or the nearest within 3 pixels.
      std::size_t i = index.lowerBound(lane, n, t - slack);
      if (i > 0) --i;
      std::int64_t best = -1;
      double bestDist = slack;
      for (std::size_t k = i; k < n && double(index.begin(lane, k)) <= t + slack; ++k) {
        const double b = double(index.begin(lane, k)), e = double(index.end(lane, k));
        const double d = t < b ? b - t : t > e ? t - e : 0;
        if (d <= bestDist && (best < 0 || d < bestDist || k - std::size_t(best) > 0)) {
          best = std::int64_t(k);
          bestDist = d;
          if (d == 0) break;
        }
      }
      if (best < 0) return hit;
      const std::size_t e = std::size_t(best);
      hit.step = index.step(lane, e);
      hit.text = tr("%1<br>step %2, IPU %3<br>%4 cycles from %5")
                     .arg(kindTip(index, std::uint64_t(hit.step)).toHtmlEscaped(),
                          formatCount(std::uint64_t(hit.step)))
                     .arg(lane)
                     .arg(formatCount(index.duration(lane, e)), formatCount(index.begin(lane, e)));
      if (tile >= 0 && track.tiles && std::uint64_t(hit.step) >= track.tiles->firstStep &&
          std::uint64_t(hit.step) < track.tiles->lastStep && unsigned(tile) < track.tiles->numTiles)
        hit.text += tr("<br>tile %1: %2 cycles")
                        .arg(tile)
                        .arg(formatCount(track.tiles->at(std::uint64_t(hit.step), unsigned(tile))));
      return hit;
    }
    if (row.kind == RowKind::Flame && track.flame) {
      FlameBlock block;
      if (!flameBlockAt(row.track, row.lane, row.depth, t, &block)) return hit;
      block.rect = QRect(block.rect.left(), row.rect.top(), block.rect.width(), row.rect.height())
                       .intersected(row.rect);
      const ExecutionHeader& h = index.header();
      const std::uint64_t first = index.step(row.lane, block.firstEntry),
                          last = index.step(row.lane, block.lastEntry);
      const QString steps = first == last
                                ? tr("step %1").arg(formatCount(first))
                                : tr("steps %1 – %2").arg(formatCount(first), formatCount(last));
      const QString onIpu =
          tr("%1 on IPU %2").arg(formatCount(block.lastEntry - block.firstEntry + 1)).arg(row.lane);
      if (track.flame->operations) {
        const ExecPathNode& node = h.pathNodes[block.id];
        QString what;
        if (node.operation < h.operations.size()) {
          const ExecOperationInfo& op = h.operations[node.operation];
          what = tr("operation, layer %1%2")
                     .arg(op.layer.toHtmlEscaped(),
                          op.type.isEmpty() ? QString()
                                            : QStringLiteral(", ") + op.type.toHtmlEscaped());
        } else {
          what = tr("operations under this path");
        }
        hit.text = tr("<b>%1</b><br>%2<br>%3 (%4)<br>click for its cycles")
                       .arg(node.path.toHtmlEscaped(), what, steps, onIpu);
      } else if (block.id < h.programs.size()) {
        const ExecProgramInfo& p = h.programs[block.id];
        hit.text =
            tr("%1<br>%2, depth %3<br>%4 (%5)")
                .arg(p.name.toHtmlEscaped(), QString::fromStdString(pva::Program::typeName(p.type)))
                .arg(row.depth)
                .arg(steps, onIpu);
      }
      hit.isBlock = true;
      hit.block = block;
      return hit;
    }
    if (row.kind == RowKind::Blocks) {
      const ExecutionHeader& h = index.header();
      for (const ExecBlockInfo& b : blockRow(h, row.lane, row.depth))
        if (double(b.from) <= t + slack && double(b.to) >= t - slack) {
          hit.text = blockToolTip(h, b, row.depth);
          return hit;
        }
    }
    return hit;
  }
  return hit;
}

// ---------------------------------------------------------------------------------------------
// Interaction

void ExecutionTimeline::resizeEvent(QResizeEvent* event) {
  ChartWidget::resizeEvent(event);
  if (mode_ == Mode::Bsp) emit tileCyclesWanted();
}

void ExecutionTimeline::wheelEvent(QWheelEvent* event) {
  const double notches = event->angleDelta().y() / 120.0;
  if (notches == 0) return;
  if (mode_ == Mode::Bsp && (event->modifiers() & Qt::ControlModifier) && !tracks_.empty()) {
    // Vertical zoom into tiles around the pointer.
    const unsigned tiles = numTiles(0);
    const QRect plot = plotRect();
    const int t0 = tile0_, t1 = tile1_ < 0 ? int(tiles) : tile1_;
    const double frac =
        std::clamp(double(event->position().y() - plot.top()) / plot.height(), 0.0, 1.0);
    const double anchor = t0 + frac * (t1 - t0);
    const double span =
        std::clamp((t1 - t0) * std::pow(AxisWindow::kWheelZoom, notches), 1.0, double(tiles));
    const int a = std::clamp(int(std::lround(anchor - frac * span)), 0, int(tiles) - 1);
    setBspTiles(a, std::min<int>(int(tiles), a + std::max(1, int(std::lround(span)))));
    event->accept();
    return;
  }
  zoomBy(std::pow(AxisWindow::kWheelZoom, notches), event->position().x());
  event->accept();
}

void ExecutionTimeline::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return ChartWidget::mousePressEvent(event);
  setFocus(Qt::MouseFocusReason);
  pressed_ = true;
  dragging_ = false;
  pressPos_ = event->pos();
  pressT0_ = window_.from();
  pressT1_ = window_.to();
}

void ExecutionTimeline::mouseMoveEvent(QMouseEvent* event) {
  if (!pressed_) return;
  const int dx = event->pos().x() - pressPos_.x();
  if (!dragging_ && std::abs(dx) < 4) return;
  dragging_ = true;
  setCursor(Qt::ClosedHandCursor);
  const double shift = dx * (pressT1_ - pressT0_) / plotRect().width();
  setView(pressT0_ - shift, pressT1_ - shift);
}

void ExecutionTimeline::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || !pressed_) return ChartWidget::mouseReleaseEvent(event);
  pressed_ = false;
  unsetCursor();
  if (dragging_) {
    dragging_ = false;
    return;
  }
  const Hit hit = hitTest(event->pos());
  if (hit.isBlock) {
    selectBlock(hit.block);
    emit flameBlockClicked(hit.block);
    return;
  }
  if (hit.step >= 0) {
    selectStep(hit.track, hit.step);
    emit stepClicked(hit.track, std::uint64_t(hit.step));
  }
}

void ExecutionTimeline::keyPressEvent(QKeyEvent* event) {
  const double centre = plotRect().center().x(), pan = AxisWindow::kKeyPan * window_.span();
  switch (event->key()) {
  case Qt::Key_Plus:
  case Qt::Key_Equal:
    zoomBy(AxisWindow::kKeyZoom, centre);
    break;
  case Qt::Key_Minus:
  case Qt::Key_Underscore:
    zoomBy(1 / AxisWindow::kKeyZoom, centre);
    break;
  case Qt::Key_Left:
    setView(window_.from() - pan, window_.to() - pan);
    break;
  case Qt::Key_Right:
    setView(window_.from() + pan, window_.to() + pan);
    break;
  case Qt::Key_0:
  case Qt::Key_Home:
    fit();
    if (mode_ == Mode::Bsp) setBspTiles(0, -1);
    break;
  case Qt::Key_Up:
  case Qt::Key_Down:
    if (mode_ == Mode::Bsp && !tracks_.empty()) {
      const int tiles = int(numTiles(0));
      const int t0 = tile0_, t1 = tile1_ < 0 ? tiles : tile1_;
      const int d = std::max(1, (t1 - t0) / 10) * (event->key() == Qt::Key_Up ? -1 : 1);
      const int a = std::clamp(t0 + d, 0, std::max(0, tiles - (t1 - t0)));
      setBspTiles(a, a + (t1 - t0));
      break;
    }
    return ChartWidget::keyPressEvent(event);
  default:
    return ChartWidget::keyPressEvent(event);
  }
  event->accept();
}

bool ExecutionTimeline::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const Hit hit = hitTest(help->pos());
    if (hit.text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), hit.text, this);
    return true;
  }
  return ChartWidget::event(event);
}

void ExecutionTimeline::addContextActions(QMenu& menu) {
  menu.addAction(tr("Zoom to fit"), this, [this] { fit(); });
  menu.addAction(tr("Flat view"), this, [this] { setMode(Mode::Flat); });
  menu.addAction(tr("Flame view"), this, [this] { setMode(Mode::Flame); });
  menu.addAction(tr("BSP view (per tile)"), this, [this] { setMode(Mode::Bsp); });
}

} // namespace tessera::viewer
