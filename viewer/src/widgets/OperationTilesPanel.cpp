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
    : QWidget(parent), m_figure(new QComboBox(this)), m_summary(new QLabel(this)), m_chart(new OperationTilesChart(this)) {
  setObjectName(QStringLiteral("operationTilesPanel"));
  for (int f = 0; f < OperationTilesData::FigureCount; ++f)
    m_figure->addItem(OperationTilesData::figureName(OperationTilesData::Figure(f)));
  m_figure->setCurrentIndex(m_chart->figure());
  m_figure->setToolTip(tr("The figure charted per tile for the selected operation"));
  connect(m_figure, &QComboBox::currentIndexChanged, this, [this](int f) {
    m_chart->setFigure(OperationTilesData::Figure(f));
    updateSummary();
  });
  m_summary->setWordWrap(true);
  m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_overview = new RangeOverview(m_chart, this);
  m_overview->setItemNoun(tr("tile"));
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Per tile:"), this));
  bar->addWidget(m_figure);
  bar->addWidget(m_summary, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(m_chart, 1);
  layout->addWidget(m_overview);
  connect(&Settings::instance(), &Settings::changed, this, [this] { updateSummary(); });
  updateSummary();
}

void OperationTilesPanel::setOperation(std::shared_ptr<const Document> doc, std::optional<std::size_t> index) {
  if (doc == m_doc && index == m_index && !m_pending && m_chart->data()) return;
  m_doc = std::move(doc);
  m_index = index;
  m_task = TaskHandle();
  m_chart->setData(nullptr);
  updateSummary();
  m_pending = true;
  if (isVisible()) load();
}

void OperationTilesPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (m_pending) load();
}

void OperationTilesPanel::load() {
  m_pending = false;
  if (!m_doc || !m_index) {
    emit loaded();
    return;
  }
  const auto doc = m_doc;
  const std::size_t index = *m_index;
  m_task = runInBackground<OperationTilesData>(
      this, tr("Reading the operation's figures per tile"),
      [doc, index](Progress& p) { return loadOperationTiles(*doc, index, p); },
      [this](std::shared_ptr<const OperationTilesData> d) {
        m_task = TaskHandle();
        m_chart->setData(std::move(d));
        updateSummary();
        emit loaded();
      },
      [this](const QString& message) { emit errorOccurred(message); });
  updateSummary();
}

void OperationTilesPanel::updateSummary() {
  const auto& d = m_chart->data();
  if (!d) {
    m_summary->setText(m_task.active() ? tr("Reading…") : m_index ? QString() : tr("No operation selected."));
    return;
  }
  const auto figure = OperationTilesData::Figure(m_figure->currentIndex());
  if (figure == OperationTilesData::EstimatedFlops && !d->hasFlops) {
    m_summary->setText(tr("No FLOP estimates per tile in this report."));
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
    return OperationTilesData::isBytes(figure) ? formatBytes(x, Settings::instance().memoryUnits()) : formatCount(x);
  };
  QString text = tr("On %1 of %2 tiles; total %3, highest %4 on tile %5")
                     .arg(formatCount(used), formatCount(v.size()), fmt(total), fmt(highest))
                     .arg(busiest);
  if (figure == OperationTilesData::ExecutedCycles)
    text += d->profiled ? tr(" (over its %1 executed steps)").arg(formatCount(d->executedSteps)) : tr(" (no execution)");
  if (figure == OperationTilesData::EstimatedFlops && d->verticesWithoutFlopEstimate > 0)
    text += tr(" (%1 vertices without a FLOP model not counted)").arg(formatCount(d->verticesWithoutFlopEstimate));
  m_summary->setText(text);
}

} // namespace tessera::viewer
