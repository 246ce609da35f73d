#include "widgets/OperationTilesPanel.hpp"

#include "charts/OperationTilesChart.hpp"
#include "charts/RangeOverview.hpp"
#include "core/Format.hpp"
#include "core/Settings.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>

namespace tessera::viewer {

OperationTilesPanel::OperationTilesPanel(QWidget* parent)
    : QWidget(parent), figure_(new QComboBox(this)), summary_(new QLabel(this)),
      chart_(new OperationTilesChart(this)) {
  setObjectName(QStringLiteral("operationTilesPanel"));
  for (int f = 0; f < OperationTilesData::FigureCount; ++f)
    figure_->addItem(OperationTilesData::figureName(OperationTilesData::Figure(f)));
  figure_->setCurrentIndex(chart_->figure());
  figure_->setToolTip(tr("The figure charted per tile for the selected operation"));
  connect(figure_, &QComboBox::currentIndexChanged, this, [this](int f) {
    chart_->setFigure(OperationTilesData::Figure(f));
    updateSummary();
  });
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  overview_ = new RangeOverview(chart_, this);
  overview_->setItemNoun(tr("tile"));
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Per tile:"), this));
  bar->addWidget(figure_);
  bar->addWidget(summary_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(chart_, 1);
  layout->addWidget(overview_);
  connect(&Settings::instance(), &Settings::changed, this, [this] { updateSummary(); });
  updateSummary();
}

void OperationTilesPanel::setOperation(std::shared_ptr<const Document> doc,
                                       std::optional<std::size_t> index) {
  if (doc == doc_ && index == index_ && !pending_ && chart_->data()) return;
  doc_ = std::move(doc);
  index_ = index;
  task_ = TaskHandle();
  chart_->setData(nullptr);
  updateSummary();
  pending_ = true;
  if (isVisible()) load();
}

void OperationTilesPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (pending_) load();
}

void OperationTilesPanel::load() {
  pending_ = false;
  if (!doc_ || !index_) {
    emit loaded();
    return;
  }
  const auto doc = doc_;
  const std::size_t index = *index_;
  task_ = runInBackground<OperationTilesData>(
      this, tr("Reading the operation's figures per tile"),
      [doc, index](Progress& p) { return loadOperationTiles(*doc, index, p); },
      [this](std::shared_ptr<const OperationTilesData> d) {
        task_ = TaskHandle();
        chart_->setData(std::move(d));
        updateSummary();
        emit loaded();
      },
      [this](const QString& message) { emit errorOccurred(message); });
  updateSummary();
}

void OperationTilesPanel::updateSummary() {
  const auto& d = chart_->data();
  if (!d) {
    summary_->setText(task_.active() ? tr("Reading…")
                      : index_       ? QString()
                                     : tr("No operation selected."));
    return;
  }
  const auto figure = OperationTilesData::Figure(figure_->currentIndex());
  if (figure == OperationTilesData::EstimatedFlops && !d->hasFlops) {
    summary_->setText(tr("No FLOP estimates per tile in this report."));
    return;
  }
  const std::vector<std::uint64_t>& v = d->of(figure);
  std::uint64_t total = 0, highest = 0;
  std::size_t used = 0, busiest = 0;
  for (std::size_t t = 0; t < v.size(); ++t) {
    total += v[t];
    used += v[t] > 0 ? 1 : 0;
    if (v[t] > highest) {
      highest = v[t];
      busiest = t;
    }
  }
  auto fmt = [&](std::uint64_t x) {
    return OperationTilesData::isBytes(figure) ? formatBytes(x, Settings::instance().memoryUnits())
                                               : formatCount(x);
  };
  QString text = tr("On %1 of %2 tiles; total %3, highest %4 on tile %5")
                     .arg(formatCount(used), formatCount(v.size()), fmt(total), fmt(highest))
                     .arg(busiest);
  if (figure == OperationTilesData::ExecutedCycles)
    text += d->profiled ? tr(" (over its %1 executed steps)").arg(formatCount(d->executedSteps))
                        : tr(" (no execution)");
  if (figure == OperationTilesData::EstimatedFlops && d->verticesWithoutFlopEstimate > 0)
    text += tr(" (%1 vertices without a FLOP model not counted)")
                .arg(formatCount(d->verticesWithoutFlopEstimate));
  summary_->setText(text);
}

} // namespace tessera::viewer
