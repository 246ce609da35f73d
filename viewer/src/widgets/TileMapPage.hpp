// The Tile Map view: the device's tiles as a floor plan (charts/TileMapWidget, software order:
// core/TileMapData) coloured by memory or compute cycles; a click on a tile selects it in the
// Memory view too (through MainWindow, as the Graph view does).
#pragma once

#include "core/Background.hpp"
#include "core/TileMapData.hpp"
#include "widgets/Page.hpp"

class QComboBox;
class QLabel;

namespace tessera::viewer {

class TileMapWidget;

class TileMapPage : public Page {
  Q_OBJECT
public:
  explicit TileMapPage(QWidget* parent = nullptr);
  QString title() const override { return tr("Tile map"); }
  QString viewKey() const override { return QStringLiteral("tilemap"); }
  void setDocument(std::shared_ptr<const Document> doc) override;
  QWidget* imageWidget() override;

  TileMapWidget* map() const { return map_; }
  QComboBox* figureBox() const { return figure_; }
  QLabel* summaryLabel() const { return summary_; }

private:
  void updateSummary();
  TaskHandle task_;
  QString scope_; ///< comparing: says that the page shows the current report only
  TileMapWidget* map_;
  QComboBox* figure_;
  QLabel* summary_;
};

} // namespace tessera::viewer
