// The shared layout and controls of the chart pages.
#include "widgets/ChartPageParts.hpp"

#include <QComboBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace tessera::viewer {

ChartPageParts layOutChartPage(QWidget* page, QWidget* toolbar, QWidget* message, QWidget* chart,
                               QTabWidget* tabs, QWidget* overview, QWidget* tabsHeader) {
  auto* layout = new QVBoxLayout(page);
  layout->addWidget(toolbar);
  if (message) layout->addWidget(message);
  ChartPageParts parts{new QLabel(page), nullptr};
  parts.summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
  parts.summary->setWordWrap(true); // a long line must not widen the window
  // Word wrap cannot break a long word (a tile list "0,2,4,…" of 1,000 tiles): the labels take
  // the width they are given, never ask for more.
  parts.summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  layout->addWidget(parts.summary);

  auto* splitter = new QSplitter(Qt::Vertical, page);
  if (overview) {
    // The strip stays under the chart, whatever height the splitter gives the chart.
    auto* upper = new QWidget(splitter);
    auto* upperLayout = new QVBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    upperLayout->setSpacing(2);
    chart->setParent(upper);
    upperLayout->addWidget(chart, 1);
    overview->setParent(upper);
    upperLayout->addWidget(overview);
    splitter->addWidget(upper);
  } else {
    splitter->addWidget(chart);
  }
  auto* lower = new QWidget(splitter);
  auto* lowerLayout = new QVBoxLayout(lower);
  lowerLayout->setContentsMargins(0, 0, 0, 0);
  parts.selection = new QLabel(lower);
  parts.selection->setWordWrap(true);
  parts.selection->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  lowerLayout->addWidget(parts.selection);
  if (tabsHeader) {
    tabsHeader->setParent(lower);
    lowerLayout->addWidget(tabsHeader);
  }
  tabs->setParent(lower);
  lowerLayout->addWidget(tabs);
  splitter->addWidget(lower);
  splitter->setStretchFactor(0, 3); // the chart is what the page is for
  splitter->setStretchFactor(1, 2);
  layout->addWidget(splitter, 1);
  return parts;
}

QLabel* createErrorLabel(QWidget* parent) {
  auto* label = new QLabel(parent);
  QPalette red = label->palette();
  red.setColor(QPalette::WindowText, QColor(0xd62728));
  label->setPalette(red);
  label->setWordWrap(true);
  return label;
}

void fillIpuBox(QComboBox* box, unsigned numIpus) {
  const QSignalBlocker block(box); // refilling is not the user choosing an IPU
  box->clear();
  box->addItem(QObject::tr("All"), -1);
  for (unsigned i = 0; i < numIpus && numIpus > 1; ++i)
    box->addItem(QObject::tr("IPU %1").arg(i), int(i));
  box->setEnabled(numIpus > 1);
}

} // namespace tessera::viewer
