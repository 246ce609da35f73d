// Painting one figure of an operation per tile.
#include "charts/OperationTilesChart.hpp"

#include "core/Settings.hpp"

#include <QPainter>
#include <algorithm>

namespace tessera::viewer {

OperationTilesChart::OperationTilesChart(QWidget* parent) : IndexChart(parent) {
  setObjectName(QStringLiteral("operationTiles"));
  connect(&Settings::instance(), &Settings::changed, this, [this] { update(); });
}

QColor OperationTilesChart::figureColor(OperationTilesData::Figure figure) {
  switch (figure) {
  case OperationTilesData::CodeBytes:
    return QColor(0x4e79a7);
  case OperationTilesData::Vertices:
    return QColor(0x59a14f);
  case OperationTilesData::EstimatedCycles:
    return QColor(0xb07aa1);
  case OperationTilesData::EstimatedFlops:
    return QColor(0xf28e2b);
  default:
    return QColor(0xe15759);
  }
}

void OperationTilesChart::setData(std::shared_ptr<const OperationTilesData> data) {
  data_ = std::move(data);
  setSelection({});
  // Every figure but FLOPs (empty without estimates) has a value for each tile.
  setDomain(0, data_ ? data_->of(OperationTilesData::CodeBytes).size() : 0);
  update();
  emit dataChanged();
}

void OperationTilesChart::setFigure(OperationTilesData::Figure figure) {
  figure_ = figure;
  update();
  emit dataChanged();
}

double OperationTilesChart::valueAt(std::size_t tile) const {
  if (!data_) return 0;
  const std::vector<std::uint64_t>& v = data_->of(figure_);
  return tile < v.size() ? double(v[tile]) : 0.0;
}

double OperationTilesChart::overviewValue(std::size_t item) const {
  return valueAt(item);
}

std::pair<double, double> OperationTilesChart::yRange(std::size_t first, std::size_t last) const {
  double hi = 0;
  for (std::size_t t = first; t < last; ++t)
    hi = std::max(hi, valueAt(t));
  return {0.0, hi > 0 ? hi : 1.0};
}

void OperationTilesChart::paintData(QPainter& p, const QRectF&, std::size_t first,
                                    std::size_t last) {
  std::vector<double> values(last - first);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = valueAt(first + i);
  paintColumns(p, values, first, figureColor(figure_));
}

QString OperationTilesChart::tooltip(std::size_t item) const {
  if (!data_) return {};
  const unsigned ipu = data_->tilesPerIpu ? unsigned(item / data_->tilesPerIpu) : 0;
  QString text = tr("<b>Tile %1</b> (IPU %2)<table>").arg(item).arg(ipu);
  for (int f = 0; f < OperationTilesData::FigureCount; ++f) {
    const auto figure = OperationTilesData::Figure(f);
    if (figure == OperationTilesData::ExecutedCycles && !data_->profiled) continue;
    if (figure == OperationTilesData::EstimatedFlops && !data_->hasFlops) continue;
    const std::vector<std::uint64_t>& v = data_->of(figure);
    const std::uint64_t value = item < v.size() ? v[item] : 0;
    text += QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2</td></tr>")
                .arg(OperationTilesData::figureName(figure).toHtmlEscaped(),
                     OperationTilesData::isBytes(figure)
                         ? formatBytes(value, Settings::instance().memoryUnits())
                         : formatCount(value));
  }
  return text + QStringLiteral("</table>");
}

std::vector<IndexChart::LegendEntry> OperationTilesChart::legend() const {
  if (!data_) return {};
  std::vector<LegendEntry> out{
      {tr("%1 of %2").arg(OperationTilesData::figureName(figure_), data_->operation),
       figureColor(figure_), false}};
  if (sharesPixels())
    out.push_back({tr("pale: a pixel's tiles above its lowest tile"),
                   rangeColor(figureColor(figure_)), false});
  return out;
}

QStringList OperationTilesChart::legendNames() const {
  QStringList names;
  for (const LegendEntry& e : legend())
    names << e.name;
  return names;
}

QString OperationTilesChart::xAxisTitle() const {
  return tr("Tile (one replica)");
}

QString OperationTilesChart::yAxisTitle() const {
  switch (figure_) {
  case OperationTilesData::CodeBytes:
    return tr("Code per tile");
  case OperationTilesData::Vertices:
    return tr("Vertices per tile");
  case OperationTilesData::EstimatedCycles:
    return tr("Estimated cycles per tile");
  case OperationTilesData::EstimatedFlops:
    return tr("Estimated FLOPs per tile");
  default:
    return tr("Executed cycles per tile");
  }
}

QString OperationTilesChart::emptyMessage() const {
  if (!data_) return tr("Select an operation to chart its figures per tile.");
  if (figure_ == OperationTilesData::ExecutedCycles && !data_->profiled)
    return tr("The report has no execution.");
  if (figure_ == OperationTilesData::EstimatedFlops && !data_->hasFlops)
    return tr("No FLOP estimates per tile: the report was written without the engine option "
              "profiler.includeFlopEstimates, or before report format 1.4.");
  const std::vector<std::uint64_t>& v = data_->of(figure_);
  if (std::all_of(v.begin(), v.end(), [](std::uint64_t x) { return x == 0; }))
    return tr("%1: none on any tile for %2.")
        .arg(OperationTilesData::figureName(figure_), data_->operation);
  return {};
}

AxisTicks OperationTilesChart::valueAxisTicks(double lo, double hi, int targetTicks) const {
  if (OperationTilesData::isBytes(figure_)) return IndexChart::valueAxisTicks(lo, hi, targetTicks);
  AxisTicks t = indexAxisTicks(lo, hi + 1, targetTicks); // [lo, hi]: counts include hi
  for (int i = 0; i < t.labels.size(); ++i)
    t.labels[i] = formatCount(std::uint64_t(std::max(0.0, t.values[std::size_t(i)])));
  return t;
}

} // namespace tessera::viewer
