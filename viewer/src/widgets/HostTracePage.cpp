// The Host trace page: loads the trace index in the background, wires the timeline to the search
// box, the view options and the selected event's details.
#include "widgets/HostTracePage.hpp"

#include "charts/TraceTimeline.hpp"
#include "core/Format.hpp"
#include "core/TraceTime.hpp"
#include "models/TraceCallTreeModel.hpp"

#include <QCheckBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace tessera::viewer {

HostTracePage::HostTracePage(QWidget* parent)
    : Page(parent), m_timeline(new TraceTimeline(this)), m_search(new QLineEdit(this)), m_matchLabel(new QLabel(this)),
      m_merge(new QCheckBox(tr("Merge all charts"), this)), m_filled(new QCheckBox(tr("Filled graphs"), this)),
      m_absolute(new QCheckBox(tr("Absolute time"), this)), m_tabs(new QTabWidget(this)), m_summary(new QLabel(this)),
      m_callTreeModel(new TraceCallTreeModel(this)), m_callTreeView(new QTreeView(this)),
      m_metadata(new QPlainTextEdit(this)) {
  m_search->setPlaceholderText(tr("Search events by label (Enter / F3: next, Shift+Enter / Shift+F3: previous)"));
  m_search->setClearButtonEnabled(true);
  auto* previous = new QToolButton(this);
  previous->setText(QStringLiteral("▲"));
  previous->setToolTip(tr("Previous match (Shift+F3)"));
  auto* next = new QToolButton(this);
  next->setText(QStringLiteral("▼"));
  next->setToolTip(tr("Next match (Enter, F3)"));
  m_merge->setToolTip(tr("All threads of a process in one row, so flame graphs line up with the line graphs"));
  auto* fit = new QPushButton(tr("Fit"), this);
  fit->setToolTip(tr("Show the whole trace (0, Home)"));
  auto* collapse = new QPushButton(tr("Collapse all"), this);
  auto* expand = new QPushButton(tr("Expand all"), this);

  auto* bar = new QHBoxLayout;
  bar->addWidget(m_search, 3);
  bar->addWidget(previous);
  bar->addWidget(next);
  bar->addWidget(m_matchLabel, 1);
  bar->addWidget(m_merge);
  bar->addWidget(m_filled);
  bar->addWidget(m_absolute);
  bar->addWidget(fit);
  bar->addWidget(collapse);
  bar->addWidget(expand);

  m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_summary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_summary->setMargin(8);
  m_callTreeView->setModel(m_callTreeModel);
  m_callTreeView->setUniformRowHeights(true);
  m_callTreeView->setAlternatingRowColors(true);
  m_callTreeView->header()->setStretchLastSection(false);
  m_callTreeView->header()->setSectionResizeMode(TraceCallTreeModel::LabelColumn, QHeaderView::Stretch);
  m_metadata->setReadOnly(true);
  m_metadata->setLineWrapMode(QPlainTextEdit::NoWrap);
  // The summary scrolls when the details panel is short.
  auto* summaryScroll = new QScrollArea(this);
  summaryScroll->setWidget(m_summary);
  summaryScroll->setWidgetResizable(true);
  summaryScroll->setFrameShape(QFrame::NoFrame);
  m_tabs->addTab(summaryScroll, tr("Summary"));
  m_tabs->addTab(m_callTreeView, tr("Call tree"));
  m_tabs->addTab(m_metadata, tr("Metadata"));

  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(m_timeline);
  split->addWidget(m_tabs);
  split->setStretchFactor(0, 4);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(split, 1);

  connect(m_search, &QLineEdit::returnPressed, this, [this] {
    if (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier) findPrevious();
    else findNext();
  });
  connect(m_search, &QLineEdit::textChanged, this, [this] { updateMatches(); });
  connect(next, &QToolButton::clicked, this, &HostTracePage::findNext);
  connect(previous, &QToolButton::clicked, this, &HostTracePage::findPrevious);
  auto* f3 = new QShortcut(QKeySequence(Qt::Key_F3), this, this, &HostTracePage::findNext);
  f3->setContext(Qt::WidgetWithChildrenShortcut);
  auto* shiftF3 = new QShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3), this, this, &HostTracePage::findPrevious);
  shiftF3->setContext(Qt::WidgetWithChildrenShortcut);
  connect(m_merge, &QCheckBox::toggled, m_timeline, &TraceTimeline::setMerged);
  connect(m_filled, &QCheckBox::toggled, m_timeline, &TraceTimeline::setFilledGraphs);
  connect(m_absolute, &QCheckBox::toggled, m_timeline, &TraceTimeline::setAbsoluteTime);
  connect(fit, &QPushButton::clicked, m_timeline, &TraceTimeline::fit);
  connect(collapse, &QPushButton::clicked, m_timeline, &TraceTimeline::collapseAll);
  connect(expand, &QPushButton::clicked, m_timeline, &TraceTimeline::expandAll);
  connect(m_timeline, &TraceTimeline::selectionChanged, this, &HostTracePage::showSelection);
  showSelection({});
}

QWidget* HostTracePage::imageWidget() { return m_timeline; }

void HostTracePage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  m_task = TaskHandle();
  showIndex(nullptr);
  if (!doc) return;
  const QString path = doc->tracePath();
  m_task = runInBackground<TraceIndex>(
      this, tr("Reading the host trace"), [path](Progress& p) { return loadTraceIndex(path, p); },
      [this](std::shared_ptr<const TraceIndex> index) {
        showIndex(std::move(index));
        setReady(true);
      },
      reportError());
}

void HostTracePage::showIndex(std::shared_ptr<const TraceIndex> index) {
  m_index = std::move(index);
  m_timeline->setIndex(m_index);
  m_matchesFor.clear();
  updateMatches();
  showSelection({});
}

void HostTracePage::showSelection(TraceEventRef ref) {
  m_callTreeModel->setEvent(m_index, ref);
  if (!m_index || !ref.valid()) {
    m_summary->setText(m_index ? tr("Click an event or an instant marker to see its details here.") : QString());
    m_metadata->clear();
    return;
  }
  const auto row = [](const QString& name, const QString& value) {
    return QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>").arg(name, value.toHtmlEscaped());
  };
  const TraceThreadIndex& thread = m_index->threads[std::size_t(ref.thread)];
  const TraceProcessIndex& process = m_index->processes[std::size_t(thread.process)];
  QString html = QStringLiteral("<table>");
  const std::string* metadata = nullptr;
  if (ref.instant) {
    const TraceInstant& e = m_index->instant(ref);
    html += row(tr("Label"), m_index->labels[e.label]);
    html += row(tr("Kind"), e.kind == pva::InstantEvent::Kind::Instant ? tr("Instant event")
                            : e.kind == pva::InstantEvent::Kind::UnmatchedEnd ? tr("end() with nothing open")
                                                                              : tr("end() of a different label"));
    html += row(tr("Channel"), m_index->channels[e.channel]);
    html += row(tr("Thread"), m_index->threadTitle(ref.thread));
    html += row(tr("Time"), formatTraceTime(double(e.time), 1));
    metadata = e.metadata;
  } else {
    const TraceEventRecord& e = m_index->event(ref);
    html += row(tr("Label"), m_index->labels[e.label]);
    html += row(tr("Channel"), m_index->channels[e.channel]);
    html += row(tr("Thread"), m_index->threadTitle(ref.thread));
    html += row(tr("Process"), QStringLiteral("%1 (pid %2)").arg(process.name).arg(process.pid));
    html += row(tr("Begin"), formatTraceTime(double(e.begin), 1));
    html += row(tr("Duration"), formatDurationNs(double(e.duration())) + (e.finished ? QString() : tr(" (unfinished: the trace has no end for it)")));
    html += row(tr("Self time"), formatDurationNs(double(e.self)));
    html += row(tr("Depth"), QString::number(e.depth));
    html += row(tr("Children"), formatCount(e.childCount));
    metadata = e.metadata;
  }
  m_summary->setText(html + QStringLiteral("</table>"));
  m_callTreeView->expandToDepth(0);
  if (metadata && !metadata->empty()) {
    const QByteArray raw = QByteArray::fromStdString(*metadata);
    QJsonParseError error{};
    const QJsonDocument json = QJsonDocument::fromJson(raw, &error);
    m_metadata->setPlainText(error.error == QJsonParseError::NoError ? QString::fromUtf8(json.toJson(QJsonDocument::Indented))
                                                                     : QString::fromUtf8(raw));
  } else {
    m_metadata->setPlainText(tr("(no metadata)"));
  }
}

void HostTracePage::updateMatches() {
  const QString text = m_search->text();
  if (text != m_matchesFor) {
    m_matchesFor = text;
    m_matches = m_index ? m_index->search(text) : std::vector<TraceEventRef>{};
    m_currentMatch = -1;
  }
  if (text.isEmpty()) m_matchLabel->clear();
  else if (m_matches.empty()) m_matchLabel->setText(tr("no match"));
  else if (m_currentMatch < 0) m_matchLabel->setText(tr("%1 matches").arg(formatCount(m_matches.size())));
  else m_matchLabel->setText(tr("%1 of %2").arg(formatCount(std::size_t(m_currentMatch) + 1), formatCount(m_matches.size())));
}

void HostTracePage::findNext() { step(+1); }
void HostTracePage::findPrevious() { step(-1); }

void HostTracePage::step(int direction) {
  updateMatches();
  if (m_matches.empty()) return;
  const int n = int(m_matches.size());
  m_currentMatch = m_currentMatch < 0 ? (direction > 0 ? 0 : n - 1) : ((m_currentMatch + direction) % n + n) % n;
  updateMatches();
  m_timeline->reveal(m_matches[std::size_t(m_currentMatch)]);
}

} // namespace tessera::viewer
