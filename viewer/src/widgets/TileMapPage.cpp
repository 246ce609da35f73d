#include "widgets/TileMapPage.hpp"

#include "charts/TileMapWidget.hpp"
#include "core/Format.hpp"
#include "core/Settings.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace tessera::viewer {

TileMapPage::TileMapPage(QWidget* parent)
    : Page(parent), m_map(new TileMapWidget(this)), m_figure(new QComboBox(this)), m_summary(new QLabel(this)) {
  for (int f = 0; f < TileMapData::FigureCount; ++f) m_figure->addItem(TileMapData::figureName(TileMapData::Figure(f)));
  connect(m_figure, &QComboBox::currentIndexChanged, this, [this](int f) {
    m_map->setFigure(TileMapData::Figure(f));
    updateSummary();
  });
  connect(m_map, &TileMapWidget::tileSelected, this, [this] { updateSummary(); });
  connect(&Settings::instance(), &Settings::changed, this, [this] { updateSummary(); });
  m_summary->setWordWrap(true);
  m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Colour by:"), this));
  bar->addWidget(m_figure);
  bar->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(m_summary);
  layout->addWidget(m_map, 1);
}

QWidget* TileMapPage::imageWidget() { return m_map; }

void TileMapPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  m_task = TaskHandle();
  m_map->setData(nullptr);
  m_scope = doc && doc->base() ? tr("Current report (%1) only: ").arg(doc->displayName()) : QString();
  updateSummary();
  if (!doc) return;
  m_task = runInBackground<TileMapData>(
      this, tr("Reading tiles"), [doc](Progress& p) { return loadTileMap(*doc, p); },
      [this](std::shared_ptr<const TileMapData> d) {
        m_map->setData(std::move(d));
        updateSummary();
        setReady(true);
      },
      reportError());
}

void TileMapPage::updateSummary() {
  const auto& d = m_map->data();
  if (!d) {
    m_summary->clear();
    return;
  }
  QString text = m_scope + tr("%1 tiles (%2 × %3 tiles), in software order: a block per IPU (IPU 0 first, four to a row "
                    "of blocks), tile numbers left to right and top to bottom, %4 to a row. More is darker.")
                     .arg(formatCount(d->numTiles))
                     .arg(d->numIpus == 1 ? tr("1 IPU") : tr("%1 IPUs").arg(d->numIpus))
                     .arg(formatCount(d->tilesPerIpu))
                     .arg(d->columns());
  if (const auto t = m_map->selectedTile()) {
    const MemoryUnits u = Settings::instance().memoryUnits();
    text += tr("<br><b>Tile %1</b> (IPU %2): %3 of memory").arg(*t).arg(*t / std::max(1u, d->tilesPerIpu)).arg(formatBytes(d->memory[*t], u));
    if (d->profiled) text += tr(", %1 compute cycles").arg(formatCount(d->cycles[*t]));
    text += QLatin1Char('.');
  }
  m_summary->setText(text);
}

} // namespace tessera::viewer
