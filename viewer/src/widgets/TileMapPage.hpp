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

  TileMapWidget* map() const { return m_map; }
  QComboBox* figureBox() const { return m_figure; }
  QLabel* summaryLabel() const { return m_summary; }

private:
  void updateSummary();
  TaskHandle m_task;
  QString m_scope; ///< comparing: says that the page shows the current report only
  TileMapWidget* m_map;
  QComboBox* m_figure;
  QLabel* m_summary;
};

} // namespace tessera::viewer
