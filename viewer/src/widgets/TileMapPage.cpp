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
    : Page(parent), map_(new TileMapWidget(this)), figure_(new QComboBox(this)),
      summary_(new QLabel(this)) {
  for (int f = 0; f < TileMapData::FigureCount; ++f)
    figure_->addItem(TileMapData::figureName(TileMapData::Figure(f)));
  connect(figure_, &QComboBox::currentIndexChanged, this, [this](int f) {
    map_->setFigure(TileMapData::Figure(f));
    updateSummary();
  });
  connect(map_, &TileMapWidget::tileSelected, this, [this] { updateSummary(); });
  connect(&Settings::instance(), &Settings::changed, this, [this] { updateSummary(); });
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Colour by:"), this));
  bar->addWidget(figure_);
  bar->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(summary_);
  layout->addWidget(map_, 1);
}

QWidget* TileMapPage::imageWidget() {
  return map_;
}

void TileMapPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  task_ = TaskHandle();
  map_->setData(nullptr);
  scope_ =
      doc && doc->base() ? tr("Current report (%1) only: ").arg(doc->displayName()) : QString();
  updateSummary();
  if (!doc) return;
  task_ = runInBackground<TileMapData>(
      this, tr("Reading tiles"), [doc](Progress& p) { return loadTileMap(*doc, p); },
      [this](std::shared_ptr<const TileMapData> d) {
        map_->setData(std::move(d));
        updateSummary();
        setReady(true);
      },
      reportError());
}

void TileMapPage::updateSummary() {
  const auto& d = map_->data();
  if (!d) {
    summary_->clear();
    return;
  }
  QString text =
      scope_ +
      tr("%1 tiles (%2 × %3 tiles), in software order: a block per IPU (IPU 0 first, four to a row "
         "of blocks), tile numbers left to right and top to bottom, %4 to a row. More is darker.")
          .arg(formatCount(d->numTiles))
          .arg(d->numIpus == 1 ? tr("1 IPU") : tr("%1 IPUs").arg(d->numIpus))
          .arg(formatCount(d->tilesPerIpu))
          .arg(d->columns());
  if (const auto t = map_->selectedTile()) {
    const MemoryUnits u = Settings::instance().memoryUnits();
    text += tr("<br><b>Tile %1</b> (IPU %2): %3 of memory")
                .arg(*t)
                .arg(*t / std::max(1u, d->tilesPerIpu))
                .arg(formatBytes(d->memory[*t], u));
    if (d->profiled) text += tr(", %1 compute cycles").arg(formatCount(d->cycles[*t]));
    text += QLatin1Char('.');
  }
  summary_->setText(text);
}

} // namespace tessera::viewer
