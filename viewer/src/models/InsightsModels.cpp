#include "models/InsightsModels.hpp"

#include "core/Format.hpp"
#include "core/Settings.hpp"

#include <QColor>

namespace tessera::viewer {

namespace {

template <class Row>
std::shared_ptr<const std::vector<Row>> alias(const std::shared_ptr<const InsightsData>& d,
                                              const std::vector<Row>& rows) {
  return d ? std::shared_ptr<const std::vector<Row>>(d, &rows) : nullptr;
}

QVariant percentCell(double fraction, int role) {
  if (role == TableModel::SortRole) return fraction;
  if (role == Qt::DisplayRole) return formatPercent(fraction);
  if (role == Qt::TextAlignmentRole) return QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
  return {};
}

QVariant stepCell(const pva::LivenessSplit& s, int role) {
  if (!s.stepKnown) return role == Qt::DisplayRole ? QVariant(QStringLiteral("-")) : QVariant();
  if (role == Qt::DisplayRole || role == TableModel::SortRole) return qulonglong(s.step);
  if (role == Qt::TextAlignmentRole) return QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
  return {};
}

} // namespace

WorstTilesModel::WorstTilesModel(QObject* parent) : RowsModel(parent) {
  setHeaders({tr("Tile"), tr("IPU"), tr("Memory"), tr("Of the tile"), tr("Over by (or free)"),
              tr("Always live"), tr("Not always live at its peak"), tr("Its peak step"),
              tr("Largest category")});
}

void WorstTilesModel::setData(std::shared_ptr<const InsightsData> d) {
  bytesPerTile = d ? d->insights.bytesPerTile : 0;
  setRows(d ? alias(d, d->insights.worstTiles) : nullptr);
}

QVariant WorstTilesModel::cell(const pva::TileInsight& t, int column, int role) const {
  switch (column) {
  case 0:
    return idCell(t.tile, role);
  case 1:
    return idCell(t.ipu, role);
  case 2:
    return bytesCell(t.includingGapsBytes, role);
  case 3:
    return percentCell(bytesPerTile ? double(t.includingGapsBytes) / double(bytesPerTile) : 0.0,
                       role);
  case 4:
    if (role == Qt::ForegroundRole) return t.overBytes ? QColor(200, 30, 30) : QColor(30, 130, 50);
    if (role == Qt::DisplayRole && !t.overBytes)
      return tr("(free %1)").arg(formatBytes(t.freeBytes, Settings::instance().memoryUnits()));
    return bytesCell(t.overBytes, role);
  case 5:
    return bytesCell(t.atTilePeak.alwaysLiveBytes, role);
  case 6:
    return bytesCell(t.atTilePeak.notAlwaysLiveBytes, role);
  case 7:
    return stepCell(t.atTilePeak, role);
  case 8:
    return textCell(
        t.categories.empty() ? QString() : QString::fromStdString(t.categories.front().name), role);
  }
  return {};
}

LivenessSplitModel::LivenessSplitModel(QObject* parent) : RowsModel(parent) {
  setHeaders({tr("Where"), tr("Always live"), tr("Model's peak step"), tr("Not always live there"),
              tr("Total there"), tr("Its own peak step"), tr("Not always live there"),
              tr("Total there")});
}

void LivenessSplitModel::setData(std::shared_ptr<const InsightsData> d) {
  setRows(d ? alias(d, d->liveness) : nullptr);
}

QVariant LivenessSplitModel::cell(const LivenessRow& r, int column, int role) const {
  switch (column) {
  case 0:
    return textCell(r.scope, role);
  case 1:
    return bytesCell(r.atModelPeak.alwaysLiveBytes, role);
  case 2:
    return stepCell(r.atModelPeak, role);
  case 3:
    return bytesCell(r.atModelPeak.notAlwaysLiveBytes, role);
  case 4:
    return bytesCell(r.atModelPeak.total(), role);
  case 5:
    return stepCell(r.atOwnPeak, role);
  case 6:
    return bytesCell(r.atOwnPeak.notAlwaysLiveBytes, role);
  case 7:
    return bytesCell(r.atOwnPeak.total(), role);
  }
  return {};
}

VertexTypesModel::VertexTypesModel(By by, QObject* parent) : RowsModel(parent), by_(by) {
  if (by == By::State)
    setHeaders({tr("Vertex type"), tr("State"), tr("Instances"), tr("Each")});
  else
    setHeaders({tr("Vertex type"), tr("Code"), tr("Tiles"), tr("Each")});
}

void VertexTypesModel::setData(std::shared_ptr<const InsightsData> d) {
  if (!d) return setRows(nullptr);
  setRows(
      alias(d, by_ == By::State ? d->insights.largestVertexState : d->insights.largestVertexCode));
}

QVariant VertexTypesModel::cell(const pva::VertexTypeInsight& v, int column, int role) const {
  const bool state = by_ == By::State;
  switch (column) {
  case 0:
    return textCell(QString::fromStdString(v.name), role);
  case 1:
    return bytesCell(state ? v.stateBytes : v.codeBytes, role);
  case 2:
    return countCell(state ? v.instances : v.tiles, role);
  case 3:
    return bytesCell(state ? v.stateBytesEach : v.codeBytesEach, role);
  }
  return {};
}

ExchangesModel::ExchangesModel(QObject* parent) : RowsModel(parent) {
  setHeaders({tr("Exchange"), tr("Code"), tr("Moves"), tr("Largest tile"), tr("For compute sets")});
}

void ExchangesModel::setData(std::shared_ptr<const InsightsData> d) {
  setRows(d ? alias(d, d->insights.largestExchanges) : nullptr);
}

QVariant ExchangesModel::cell(const pva::ExchangeInsight& x, int column, int role) const {
  switch (column) {
  case 0:
    if (role == Qt::ToolTipRole) return QString::fromStdString(x.name + " (" + x.type + ")");
    return textCell(QString::fromStdString(x.name), role);
  case 1:
    return bytesCell(x.codeBytes, role);
  case 2:
    return bytesCell(x.dataBytes, role);
  case 3:
    if (role == Qt::DisplayRole)
      return tr("tile %1: %2")
          .arg(x.maxTile)
          .arg(formatBytes(x.maxTileCodeBytes, Settings::instance().memoryUnits()));
    return role == SortRole ? QVariant(qulonglong(x.maxTileCodeBytes)) : QVariant();
  case 4: {
    QStringList sets;
    for (const std::string& s : x.computeSets)
      sets << QString::fromStdString(s);
    return textCell(sets.join(QStringLiteral(", ")), role);
  }
  }
  return {};
}

SuggestionsModel::SuggestionsModel(QObject* parent) : RowsModel(parent) {
  setHeaders({tr("Saves about"), tr("Suggestion"), tr("Where"), tr("Enough to fit")});
}

void SuggestionsModel::setData(std::shared_ptr<const InsightsData> d) {
  setRows(d ? alias(d, d->insights.suggestions) : nullptr);
}

QVariant SuggestionsModel::cell(const pva::Suggestion& s, int column, int role) const {
  if (role == Qt::ToolTipRole) {
    QString tip = QString::fromStdString(s.title + ".\n" + s.detail);
    for (const pva::NamedBytes& n : s.subjects)
      tip += QStringLiteral("\n  %1: %2")
                 .arg(QString::fromStdString(n.name),
                      formatBytes(n.bytes, Settings::instance().memoryUnits()));
    return tip;
  }
  switch (column) {
  case 0:
    return bytesCell(s.savingBytes, role);
  case 1:
    return textCell(QString::fromStdString(s.title), role);
  case 2:
    return textCell(QString::fromStdString(s.scope), role);
  case 3:
    if (s.scope.rfind("tile ", 0) == 0) return textCell(s.wouldFit ? tr("yes") : tr("no"), role);
    // The whole model: how many of the tiles over their memory it would bring within it.
    if (s.tilesOver > 0)
      return textCell(tr("%1 of the %2 tiles over")
                          .arg(formatCount(s.tilesThatWouldFit), formatCount(s.tilesOver)),
                      role);
    return textCell(QStringLiteral("-"), role);
  }
  return {};
}

} // namespace tessera::viewer
