// Painting the execution timeline: each row reduced to its pixel width and filled into a raster
// scanline by scanline; labels, axis, run markers and the selection drawn over it with QPainter.
#include "charts/ExecutionTimeline.hpp"
#include "core/ExecutionBlocks.hpp"
#include "core/Format.hpp"
#include "core/TimelineAxis.hpp"
#include "core/TimelineLod.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace tessera::viewer {

namespace {

QRgb blend(QColor a, QColor b, double t) {
  return qRgb(int(a.red() * (1 - t) + b.red() * t), int(a.green() * (1 - t) + b.green() * t),
              int(a.blue() * (1 - t) + b.blue() * t));
}

} // namespace

QColor ExecutionTimeline::bspIdleColor() const {
  return QColor(blend(backgroundColor(), textColor(), 0.10));
}

QColor ExecutionTimeline::bspStillBusyColor(StepKind kind) const {
  return QColor(blend(stepKindColor(kind), backgroundColor(), 0.55));
}

QColor stepKindColor(StepKind kind) {
  switch (kind) {
  case StepKind::Compute:
    return QColor(0x4e79a7);
  case StepKind::InternalExchange:
    return QColor(0xf28e2b);
  case StepKind::GlobalExchange:
    return QColor(0xe15759);
  case StepKind::StreamCopy:
    return QColor(0x59a14f);
  case StepKind::Sync:
    return QColor(0xa0a0a0);
  case StepKind::Other:
    break;
  }
  return QColor(0xb07aa1);
}

ExecutionTimeline::ExecutionTimeline(QWidget* parent) : ChartWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(320, 160);
  setObjectName(QStringLiteral("execution"));
}

// ---------------------------------------------------------------------------------------------
// Painting

void ExecutionTimeline::fill(int x0, int x1, int y0, int y1, QRgb color) {
  x0 = std::max(x0 - rasterOrigin_.x(), 0);
  x1 = std::min(x1 - rasterOrigin_.x(), raster_.width());
  y0 = std::max(y0 - rasterOrigin_.y(), 0);
  y1 = std::min(y1 - rasterOrigin_.y(), raster_.height());
  if (x1 <= x0) return;
  for (int y = y0; y < y1; ++y) {
    auto* line = reinterpret_cast<QRgb*>(raster_.scanLine(y));
    std::fill(line + x0, line + x1, color);
  }
}

void ExecutionTimeline::label(int x0, int x1, const QRect& row, const QString& text,
                              QColor background) {
  // A label when the bar holds its name or, elided, at least its first three characters: a
  // fixed 46 px left the CNN's operations (30-45 px bars at the default size) all unnamed.
  if (row.height() < 11 || text.isEmpty()) return;
  QFont small = font(); // the labels' font (paintEvent)
  small.setPointSizeF(small.pointSizeF() * 0.85);
  const QFontMetrics fm(small);
  const int room = x1 - x0 - 6;
  const int least = text.size() <= 3 ? fm.horizontalAdvance(text)
                                     : fm.horizontalAdvance(text.left(3) + QChar(0x2026));
  if (room < std::max(least, 12)) return;
  const QColor ink = background.lightness() > 150 ? QColor(20, 20, 20) : QColor(250, 250, 250);
  labels_.push_back({QRect(x0 + 3, row.top(), x1 - x0 - 6, row.height()), text, ink});
}

void ExecutionTimeline::setHighlightedPrograms(const std::vector<std::uint32_t>& programs) {
  highlightPrograms_.clear();
  for (const std::uint32_t p : programs) {
    if (p >= highlightPrograms_.size()) highlightPrograms_.resize(std::size_t(p) + 1, false);
    highlightPrograms_[p] = true;
  }
  highlightEntries_.clear();
  highlightScanned_.clear();
  update();
}

void ExecutionTimeline::updateHighlight() const {
  if (highlightPrograms_.empty() || tracks_.empty() || !tracks_.back().index) return;
  const ExecutionIndex& index = *tracks_.back().index;
  highlightEntries_.resize(index.numLanes());
  highlightScanned_.resize(index.numLanes(), 0);
  // One look at each entry once: later paints only scan what the index loaded since.
  for (unsigned lane = 0; lane < index.numLanes(); ++lane) {
    const std::size_t n = index.entries(lane);
    for (std::size_t i = highlightScanned_[lane]; i < n; ++i) {
      const std::uint32_t program = index.stepProgram(index.step(lane, i));
      if (program < highlightPrograms_.size() && highlightPrograms_[program])
        highlightEntries_[lane].push_back(std::uint32_t(i));
    }
    highlightScanned_[lane] = n;
  }
}

std::size_t ExecutionTimeline::highlightedEntries(unsigned lane) const {
  updateHighlight();
  return lane < highlightEntries_.size() ? highlightEntries_[lane].size() : 0;
}

bool ExecutionTimeline::anyHighlighted(std::size_t track, unsigned lane, std::size_t first,
                                       std::size_t count) const {
  if (highlightPrograms_.empty() || track + 1 != tracks_.size() || lane >= highlightEntries_.size())
    return false;
  const auto& e = highlightEntries_[lane];
  const auto it = std::lower_bound(e.begin(), e.end(), std::uint32_t(first));
  return it != e.end() && *it < first + count;
}

void ExecutionTimeline::paintSteps(const Row& row) {
  const ExecutionIndex& index = *tracks_[row.track].index;
  const QRect& r = row.rect;
  const auto spans = reduceLane(index, row.lane, window_.from(), window_.to(), r.width());
  const QColor sep = backgroundColor();
  updateHighlight();
  for (const TimelineSpan& s : spans) {
    const int x0 = r.left() + s.x0, x1 = r.left() + s.x1;
    if (!s.merged()) {
      const StepKind kind = index.kind(row.lane, s.first);
      const QColor c = stepKindColor(kind);
      fill(x0, x1, r.top(), r.bottom() + 1, c.rgb());
      if (x1 - x0 >= 4)
        fill(x0, x0 + 1, r.top(), r.bottom() + 1, blend(c, sep, 0.6)); // step boundary
      const std::uint64_t step = index.step(row.lane, s.first);
      const std::uint32_t program = index.stepProgram(step);
      if (program < index.header().programs.size())
        label(x0, x1, r, index.header().programs[program].name, c);
      continue;
    }
    // Several steps in one column: the column shows their kinds' shares of cycles, stacked.
    const auto cycles = index.approximateCycles(row.lane, s.first, s.first + s.count);
    double total = 0;
    for (auto c : cycles)
      total += double(c);
    if (total <= 0) {
      fill(x0, x1, r.top(), r.bottom() + 1, stepKindColor(index.kind(row.lane, s.first)).rgb());
      continue;
    }
    double acc = 0;
    int y = r.bottom() + 1;
    for (int k = 0; k < kStepKinds; ++k) {
      if (!cycles[std::size_t(k)]) continue;
      acc += double(cycles[std::size_t(k)]);
      const int top = r.bottom() + 1 - int(std::lround(acc / total * r.height()));
      fill(x0, x1, top, y, stepKindColor(StepKind(k)).rgb());
      y = top;
    }
  }
  // The selection of the Program tree or Operations: a bright bar over the lane's top, in
  // every column holding a highlighted step (merged columns included).
  for (const TimelineSpan& s : spans)
    if (anyHighlighted(row.track, row.lane, s.first, s.count))
      fill(r.left() + s.x0, r.left() + std::max(s.x1, s.x0 + 1), r.top(),
           r.top() + std::min(5, r.height()), QColor(255, 196, 0).rgb());
}

QColor ExecutionTimeline::flameColor(const FlameRows& flame, const ExecutionHeader& header,
                                     std::uint32_t id, bool merged) const {
  // Pastel: light enough for dark text, and never mistaken for a step kind's saturated colour.
  // Operation levels take their hue from a hash of their path, so an operation keeps its colour
  // at every zoom, in every run and in both reports of a comparison; programs spread by the
  // golden ratio.
  const double hue = flame.operations
                         ? (id < header.pathNodes.size() ? header.pathNodes[id].hue : 0.0)
                         : std::fmod(id * 0.618034, 1.0);
  return QColor::fromHsvF(float(hue), merged ? 0.36f : 0.30f, merged ? 0.90f : 0.95f);
}

QString ExecutionTimeline::flameBlockName(const FlameBlock& block) const {
  if (block.track >= tracks_.size() || !tracks_[block.track].index || !tracks_[block.track].flame)
    return {};
  const ExecutionHeader& h = tracks_[block.track].index->header();
  if (tracks_[block.track].flame->operations)
    return block.id < h.pathNodes.size() ? h.pathNodes[block.id].label : QString();
  if (block.id >= h.programs.size()) return {};
  const ExecProgramInfo& p = h.programs[block.id];
  return p.name.isEmpty() ? QString::fromStdString(pva::Program::typeName(p.type)) : p.name;
}

void ExecutionTimeline::paintFlame(const Row& row) {
  const Track& track = tracks_[row.track];
  const ExecutionIndex& index = *track.index;
  const FlameRows& flame = *track.flame;
  const auto& runs = flame.lanes[row.lane][row.depth];
  const QRect& r = row.rect;
  const std::uint32_t none = flame.operations ? kNoOperation : kNoProgram;
  const auto spans = reduceFlameRow(index, row.lane, runs, window_.from(), window_.to(), r.width());
  FlameBlock block;
  block.track = row.track;
  block.lane = row.lane;
  block.depth = row.depth;
  for (const TimelineSpan& s : spans) {
    const int x0 = r.left() + s.x0, x1 = r.left() + s.x1;
    std::uint32_t id = none;
    for (std::size_t k = s.first; k < s.first + std::min<std::size_t>(s.count, 8) && id == none;
         ++k)
      id = runs[k].id;
    if (id == none) continue; // the steps here have no operation, or not that deep a one
    const QColor c = flameColor(flame, index.header(), id, s.merged());
    fill(x0, x1, r.top(), r.bottom() + 1, c.rgb());
    if (!s.merged()) {
      if (x1 - x0 >= 4) fill(x0, x0 + 1, r.top(), r.bottom() + 1, backgroundColor().rgb());
      block.id = id;
      label(x0, x1, r, flameBlockName(block), c);
    }
  }
}

void ExecutionTimeline::paintBlocks(const Row& row) {
  const ExecutionIndex& index = *tracks_[row.track].index;
  const auto& blocks = blockRow(index.header(), row.lane, row.depth);
  const QRect& r = row.rect;
  // LWP buffers hold few blocks per run: a plain pass, skipping what falls in a drawn column.
  int lastX = -1;
  for (const ExecBlockInfo& b : blocks) {
    if (double(b.to) < window_.from() || double(b.from) > window_.to()) continue;
    const int x0 = int(std::floor(timeToX(double(b.from)))),
              x1 = std::max(x0 + 1, int(std::lround(timeToX(double(b.to)))));
    if (x1 <= lastX) continue;
    QColor c = b.kind == ExecBlockInfo::StreamCopy   ? stepKindColor(StepKind::StreamCopy)
               : b.kind == ExecBlockInfo::BlockFlush ? QColor(0x9c755f)
               : b.kind == ExecBlockInfo::Overflow   ? QColor(0xd62728)
                                                     : QColor(0x76b7b2);
    fill(std::max(x0, lastX), x1, r.top(), r.bottom() + 1, c.rgb());
    lastX = x1;
    // Name and cycles while they fit, else the name alone (label() elides it).
    if (b.program < index.header().programs.size()) {
      const QString& name = index.header().programs[b.program].name;
      const QString full = tr("%1 · %2 cycles").arg(name, formatCount(b.cycles));
      label(x0, x1, r, QFontMetrics(font()).horizontalAdvance(full) + 8 <= x1 - x0 ? full : name,
            c);
    }
  }
}

void ExecutionTimeline::paintBsp(const Row& row) {
  const Track& track = tracks_[row.track];
  const ExecutionIndex& index = *track.index;
  const QRect& r = row.rect;
  std::uint64_t first = 0, last = 0;
  const unsigned tiles = numTiles(row.track);
  const bool missing = bspStepsNeeded(row.track, &first, &last);
  auto message = [&](const QString& text) {
    labels_.push_back({QRect(r.left() + 4, r.top(), r.width() - 8, 16), text, textColor()});
  };
  const std::uint64_t perTileCap = bspCellLimit_ / std::max(tiles, 1u);
  const bool haveTiles =
      track.tiles && track.tiles->numTiles > 0 && track.tiles->lastStep > track.tiles->firstStep;
  // Every step in view is drawn per IPU first; the steps read per tile are drawn over them.
  {
    const int n = int(haveTiles ? track.tiles->numTiles : std::max(tiles, 1u));
    const int a = std::clamp(tile0_, 0, n - 1);
    paintBspSteps(row, a, std::clamp(tile1_ < 0 ? n : tile1_, a + 1, n));
  }
  if (!haveTiles) {
    if ((last - first) * std::max(tiles, 1u) > bspCellLimit_)
      message(tr("%1 steps in view, drawn per IPU: zoom in to at most %2 steps to see every tile "
                 "(choosing BSP or a run "
                 "shows the first %2)")
                  .arg(formatCount(last - first))
                  .arg(formatCount(perTileCap)));
    else
      message(tr("Reading per-tile cycles…"));
    return;
  }
  const TileCycles& tc = *track.tiles;
  if (!missing && (tc.firstStep > first || tc.lastStep < last))
    message(tr("Per tile: steps %1–%2 of the %3 in view; the others drawn per IPU (zoom in to at "
               "most %4 steps to see "
               "each tile)")
                .arg(formatCount(tc.firstStep))
                .arg(formatCount(tc.lastStep - 1))
                .arg(formatCount(last - first))
                .arg(formatCount(perTileCap)));
  const int t0 = std::clamp(tile0_, 0, int(tc.numTiles) - 1);
  const int t1 = std::clamp(tile1_ < 0 ? int(tc.numTiles) : tile1_, t0 + 1, int(tc.numTiles));
  const int h = r.height();
  const std::size_t nSteps = std::size_t(tc.lastStep - tc.firstStep);
  // Per pixel row and step: mean and max cycles over the row's tiles. Recomputed only when the
  // tile range, the height or the data change: O(steps * tiles).
  BspCache& cache = bspCache_[row.track];
  if (cache.tiles != &tc || cache.tile0 != t0 || cache.tile1 != t1 || cache.height != h) {
    cache.tiles = &tc;
    cache.tile0 = t0;
    cache.tile1 = t1;
    cache.height = h;
    cache.mean.assign(nSteps * std::size_t(h), 0);
    cache.max.assign(nSteps * std::size_t(h), 0);
    for (std::size_t s = 0; s < nSteps; ++s) {
      const std::uint32_t* c = tc.cycles.data() + s * tc.numTiles;
      for (int y = 0; y < h; ++y) {
        const int a = t0 + int(std::int64_t(t1 - t0) * y / h);
        const int b = std::max(a + 1, t0 + int(std::int64_t(t1 - t0) * (y + 1) / h));
        std::uint64_t sum = 0;
        std::uint32_t mx = 0;
        for (int t = a; t < b; ++t) {
          sum += c[t];
          mx = std::max(mx, c[t]);
        }
        cache.mean[s * std::size_t(h) + std::size_t(y)] = std::uint32_t(sum / std::uint64_t(b - a));
        cache.max[s * std::size_t(h) + std::size_t(y)] = mx;
      }
    }
  }
  const QRgb idle = bspIdleColor().rgb();
  const unsigned perIpu = std::max(1u, index.header().tilesPerIpu);
  for (std::size_t s = 0; s < nSteps; ++s) {
    const std::uint64_t step = tc.firstStep + s;
    const std::uint32_t program = index.stepProgram(step);
    const StepKind kind = program < index.header().programs.size()
                              ? index.header().programs[program].kind
                              : StepKind::Other;
    const QColor c = stepKindColor(kind);
    const QRgb busy = c.rgb(), partly = bspStillBusyColor(kind).rgb();
    unsigned lastLane = ~0u;
    std::int64_t entry = -1;
    for (int y = 0; y < h; ++y) {
      const unsigned lane = unsigned(t0 + std::int64_t(t1 - t0) * y / h) / perIpu;
      if (lane != lastLane) {
        lastLane = lane;
        entry = lane < index.numLanes() ? index.entryOfStep(lane, step) : -1;
      }
      if (entry < 0) continue;
      const double b = double(index.begin(lane, std::size_t(entry)));
      const double e = b + index.duration(lane, std::size_t(entry));
      if (e < window_.from() || b > window_.to()) continue;
      const std::uint32_t mean = cache.mean[s * std::size_t(h) + std::size_t(y)];
      const std::uint32_t mx = cache.max[s * std::size_t(h) + std::size_t(y)];
      const int xb = int(std::floor(timeToX(b)));
      const int xm = int(std::lround(timeToX(b + mean)));
      const int xM = std::max(xm, int(std::lround(timeToX(b + mx))));
      const int xe = std::max(xb + 1, int(std::lround(timeToX(e))));
      const int yy = r.top() + y;
      fill(xM, xe, yy, yy + 1, idle);
      fill(xm, xM, yy, yy + 1, partly);
      fill(xb, std::max(xm, mean ? xb + 1 : xb), yy, yy + 1, busy);
    }
  }
  if (missing)
    labels_.push_back({QRect(r.left() + 4, r.top(), r.width() - 8, 16),
                       tr("Reading per-tile cycles…"), textColor()});
}

void ExecutionTimeline::paintBspSteps(const Row& row, int t0, int t1) {
  const ExecutionIndex& index = *tracks_[row.track].index;
  const QRect& r = row.rect;
  const int h = r.height();
  const unsigned perIpu = std::max(1u, index.header().tilesPerIpu);
  // The pixel rows of each IPU (rows map to tiles as paintBsp maps them), then its steps reduced
  // to the plot's columns as the Flat view reduces them.
  int y = 0;
  while (y < h) {
    const unsigned lane = unsigned(t0 + std::int64_t(t1 - t0) * y / h) / perIpu;
    int y1 = y + 1;
    while (y1 < h && unsigned(t0 + std::int64_t(t1 - t0) * y1 / h) / perIpu == lane)
      ++y1;
    if (lane < index.numLanes())
      for (const TimelineSpan& s :
           reduceLane(index, lane, window_.from(), window_.to(), r.width())) {
        const StepKind kind = index.kind(lane, s.first); // a merged column: its first step's kind
        fill(r.left() + s.x0, r.left() + s.x1, r.top() + y, r.top() + y1,
             bspStillBusyColor(kind).rgb());
      }
    y = y1;
  }
}

void ExecutionTimeline::paintAxis(QPainter& p, const QRect& plot) {
  const double span = window_.span();
  const double target = span / std::max(2.0, plot.width() / 120.0);
  const double mag = std::pow(10.0, std::floor(std::log10(std::max(target, 1.0))));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (mag * m >= target) {
      step = mag * m;
      break;
    }
  const double clock =
      tracks_.empty() || !tracks_.back().index ? 0 : tracks_.back().index->header().clockHz;
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  p.setFont(small);
  const QFontMetrics fm(small);
  std::vector<double> ticks;
  for (double t = std::ceil(window_.from() / step) * step; t <= window_.to(); t += step)
    ticks.push_back(t);
  const QStringList texts = timelineTickLabels(ticks, clock); // neighbours never read the same
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    const double t = ticks[i];
    const int x = int(std::lround(timeToX(t)));
    p.setPen(gridColor());
    p.drawLine(x, plot.top() - 4, x, plot.bottom());
    const QString& text = texts[int(i)];
    p.setPen(textColor());
    const int w = fm.horizontalAdvance(text);
    const int left = std::max(x - w / 2, plot.left()); // the first label starts at the plot's edge
    if (left + w < width() - 2)
      p.drawText(QRect(left, kAxisHeight - fm.height() - 4, w, fm.height()), Qt::AlignCenter, text);
  }
  p.drawText(QRect(2, kAxisHeight - fm.height() - 4, kLabelWidth - 6, fm.height()),
             Qt::AlignRight | Qt::AlignVCenter, tr("cycles"));
  // Runs: a marker at each run's start, its name above the ticks.
  int nextFree = plot.left();
  for (std::size_t t = 0; t < tracks_.size(); ++t) {
    if (!tracks_[t].index) continue;
    const ExecutionIndex& index = *tracks_[t].index;
    for (unsigned run = 0; run < index.header().runs.size(); ++run) {
      std::uint64_t from = 0, to = 0;
      // A run ending where the view starts (the run before a picked one) is not in view.
      if (!index.runSpan(run, &from, &to) || double(to) <= window_.from() ||
          double(from) >= window_.to())
        continue;
      const int x = std::max(plot.left(), int(std::lround(timeToX(double(from)))));
      QPen pen(QColor(0xd37295), 1, Qt::DashLine);
      p.setPen(pen);
      p.drawLine(x, 2, x, plot.bottom());
      const QString name = tracks_.size() > 1
                               ? QStringLiteral("%1 %2").arg(t == 0 ? tr("base") : tr("current"),
                                                             index.header().runs[run].name)
                               : index.header().runs[run].name;
      const int w = fm.horizontalAdvance(name) + 8;
      if (x + 2 >= nextFree && x + w < width()) {
        p.fillRect(QRect(x + 1, 2, w, fm.height()), QColor(0xd37295));
        p.setPen(Qt::white);
        p.drawText(QRect(x + 1, 2, w, fm.height()), Qt::AlignCenter, name);
        nextFree = x + w + 4;
      }
    }
  }
  p.setFont(font());
}

void ExecutionTimeline::paintRowLabels(QPainter& p, const std::vector<Row>& rows) {
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  p.setFont(small);
  p.setPen(textColor());
  const QFontMetrics fm(small);
  for (const Row& row : rows) {
    const QRect cell(2, row.rect.top(), kLabelWidth - 8, row.rect.height());
    if (row.kind == RowKind::Steps) {
      // A replicated report records replica 0: say so where the lane is named.
      const unsigned replicas =
          tracks_[row.track].index ? tracks_[row.track].index->header().replicas : 1u;
      if (replicas > 1 && row.rect.height() >= 2 * fm.height())
        p.drawText(cell, Qt::AlignRight | Qt::AlignVCenter,
                   tr("IPU %1\nreplica 0 of %2").arg(row.lane).arg(replicas));
      else
        p.drawText(cell, Qt::AlignRight | Qt::AlignVCenter,
                   replicas > 1 ? tr("R0 IPU %1").arg(row.lane) : tr("IPU %1").arg(row.lane));
    } else if (row.kind == RowKind::Blocks)
      p.drawText(cell, Qt::AlignRight | Qt::AlignVCenter,
                 row.depth == 0
                     ? tr("blocks, tile %1")
                           .arg(row.lane * tracks_[row.track].index->header().tilesPerIpu +
                                tracks_[row.track].index->header().blocksTile)
                     : tr("I/O tiles' copies"));
    else if (row.kind == RowKind::Flame && row.depth == 0 && row.rect.height() >= fm.height() - 2) {
      const auto& flame = tracks_[row.track].flame;
      p.drawText(cell, Qt::AlignRight | Qt::AlignVCenter,
                 flame && flame->operations ? tr("IPU %1 ops").arg(row.lane)
                                            : tr("IPU %1 tree").arg(row.lane));
    } else if (row.kind == RowKind::Bsp) {
      const unsigned tiles = numTiles(row.track);
      const int t0 = std::max(0, tile0_),
                t1 = tile1_ < 0 ? int(tiles) : std::min<int>(tile1_, int(tiles));
      if (t1 <= t0) continue;
      const unsigned perIpu = std::max(1u, tracks_[row.track].index->header().tilesPerIpu);
      p.drawText(QRect(2, row.rect.top(), kLabelWidth - 8, fm.height()), Qt::AlignRight,
                 tr("tile %1").arg(t0));
      p.drawText(QRect(2, row.rect.bottom() - fm.height(), kLabelWidth - 8, fm.height()),
                 Qt::AlignRight, tr("tile %1").arg(t1 - 1));
      int lastY = row.rect.top() + fm.height();
      for (unsigned ipu = unsigned(t0) / perIpu; ipu * perIpu < unsigned(t1); ++ipu) {
        const int start = std::max<int>(t0, int(ipu * perIpu));
        const int y =
            row.rect.top() + int(std::int64_t(start - t0) * row.rect.height() / (t1 - t0));
        p.setPen(gridColor());
        if (start > t0) p.drawLine(row.rect.left() - 4, y, row.rect.right(), y);
        p.setPen(textColor());
        if (y + fm.height() / 2 > lastY && y + fm.height() < row.rect.bottom() - fm.height()) {
          p.drawText(QRect(2, y, kLabelWidth - 8, fm.height()), Qt::AlignRight,
                     tr("IPU %1").arg(ipu));
          lastY = y + fm.height();
        }
      }
    }
  }
  p.setFont(font());
}

void ExecutionTimeline::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), backgroundColor());
  const bool anyIndex =
      std::any_of(tracks_.begin(), tracks_.end(), [](const Track& t) { return bool(t.index); });
  if (!message_.isEmpty() || !anyIndex) {
    p.setPen(textColor());
    p.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap,
               message_.isEmpty() ? tr("Reading the execution…") : message_);
    return;
  }
  const QRect plot = plotRect();
  if (raster_.size() != plot.size()) raster_ = QImage(plot.size(), QImage::Format_RGB32);
  raster_.fill(backgroundColor());
  rasterOrigin_ = plot.topLeft();
  labels_.clear();
  const std::vector<Row> rows = layoutRows();
  for (const Row& row : rows) {
    if (!tracks_[row.track].index) continue;
    switch (row.kind) {
    case RowKind::Steps:
      paintSteps(row);
      break;
    case RowKind::Flame:
      paintFlame(row);
      break;
    case RowKind::Blocks:
      paintBlocks(row);
      break;
    case RowKind::Bsp:
      paintBsp(row);
      break;
    }
  }
  p.drawImage(plot.topLeft(), raster_);

  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  p.setFont(small);
  for (const Label& l : labels_) {
    p.setPen(l.color);
    p.drawText(l.rect,
               Qt::AlignVCenter | Qt::AlignLeft |
                   (l.rect.height() > 40 ? Qt::AlignHCenter : Qt::AlignLeft),
               p.fontMetrics().elidedText(l.text, Qt::ElideRight, l.rect.width()));
  }
  p.setFont(font());
  paintAxis(p, plot);
  paintRowLabels(p, rows);

  // Track headers (compare mode) and loading state.
  if (tracks_.size() > 1) {
    for (std::size_t t = 0; t < tracks_.size(); ++t) {
      const auto it =
          std::find_if(rows.begin(), rows.end(), [t](const Row& r) { return r.track == t; });
      if (it == rows.end()) continue;
      QFont bold = font();
      bold.setBold(true);
      p.setFont(bold);
      p.setPen(textColor());
      p.drawText(QRect(4, it->rect.top() - kTrackHeader, width() - 8, kTrackHeader),
                 Qt::AlignLeft | Qt::AlignVCenter, tracks_[t].label);
      p.setFont(font());
    }
  }
  for (const Track& t : tracks_)
    if (t.index && !t.index->complete()) {
      p.setPen(textColor());
      p.drawText(QRect(plot.right() - 260, plot.bottom() - 18, 256, 16),
                 Qt::AlignRight | Qt::AlignVCenter,
                 tr("indexed %1 of %2 steps")
                     .arg(formatCount(t.index->loadedSteps()), formatCount(t.index->numSteps())));
      break;
    }

  // The selected step, outlined in every lane it has a part in.
  if (selectedStep_ >= 0 && selectedTrack_ < tracks_.size() && tracks_[selectedTrack_].index &&
      mode_ != Mode::Bsp) {
    const ExecutionIndex& index = *tracks_[selectedTrack_].index;
    p.setPen(QPen(palette().color(QPalette::Highlight), 2));
    p.setBrush(Qt::NoBrush);
    p.setClipRect(plot.adjusted(-2, -2, 2, 2));
    for (const Row& row : rows) {
      if (row.track != selectedTrack_ || row.kind != RowKind::Steps) continue;
      const std::int64_t e = index.entryOfStep(row.lane, std::uint64_t(selectedStep_));
      if (e < 0) continue;
      const int x0 = int(std::floor(timeToX(double(index.begin(row.lane, std::size_t(e))))));
      const int x1 =
          std::max(x0 + 2, int(std::ceil(timeToX(double(index.end(row.lane, std::size_t(e)))))));
      p.drawRect(QRect(x0 - 1, row.rect.top() - 1, x1 - x0 + 1, row.rect.height() + 1));
    }
    p.setClipping(false);
  }
  if (hasSelectedBlock_ && mode_ == Mode::Flame) {
    for (const FlameBlock& b :
         flameBlocksInView(selectedBlock_.track, selectedBlock_.lane, selectedBlock_.depth))
      if (b.run == selectedBlock_.run) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(b.rect.adjusted(0, 0, -1, -1));
      }
  }
  if (hasFocus()) {
    p.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DotLine));
    p.drawRect(rect().adjusted(0, 0, -1, -1));
  }
}

} // namespace tessera::viewer
