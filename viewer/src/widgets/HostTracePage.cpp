// The Host trace page: loads the trace index in the background, wires the timeline to the search
// box, the view options and the selected event's details.
#include "widgets/HostTracePage.hpp"

#include "charts/TraceTimeline.hpp"
#include "core/Format.hpp"
#include "core/TraceMerge.hpp"
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
#include <algorithm>

namespace tessera::viewer {

HostTracePage::HostTracePage(QWidget* parent)
    : Page(parent), timeline_(new TraceTimeline(this)), search_(new QLineEdit(this)),
      matchLabel_(new QLabel(this)), merge_(new QCheckBox(tr("Merge all charts"), this)),
      filled_(new QCheckBox(tr("Filled graphs"), this)),
      absolute_(new QCheckBox(tr("Absolute time"), this)), alignment_(new QLabel(this)),
      tabs_(new QTabWidget(this)), summary_(new QLabel(this)),
      callTreeModel_(new TraceCallTreeModel(this)), callTreeView_(new QTreeView(this)),
      metadata_(new QPlainTextEdit(this)) {
  search_->setPlaceholderText(
      tr("Search events by label (Enter / F3: next, Shift+Enter / Shift+F3: previous)"));
  search_->setClearButtonEnabled(true);
  auto* previous = new QToolButton(this);
  previous->setText(QStringLiteral("▲"));
  previous->setToolTip(tr("Previous match (Shift+F3)"));
  auto* next = new QToolButton(this);
  next->setText(QStringLiteral("▼"));
  next->setToolTip(tr("Next match (Enter, F3)"));
  merge_->setToolTip(
      tr("All threads of a process in one row, so flame graphs line up with the line graphs"));
  auto* fit = new QPushButton(tr("Fit"), this);
  fit->setToolTip(tr("Show the whole trace (0, Home)"));
  auto* collapse = new QPushButton(tr("Collapse all"), this);
  auto* expand = new QPushButton(tr("Expand all"), this);

  auto* bar = new QHBoxLayout;
  bar->addWidget(search_, 3);
  bar->addWidget(previous);
  bar->addWidget(next);
  bar->addWidget(matchLabel_, 1);
  bar->addWidget(merge_);
  bar->addWidget(filled_);
  bar->addWidget(absolute_);
  bar->addWidget(fit);
  bar->addWidget(collapse);
  bar->addWidget(expand);

  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  summary_->setMargin(8);
  callTreeView_->setModel(callTreeModel_);
  callTreeView_->setUniformRowHeights(true);
  callTreeView_->setAlternatingRowColors(true);
  callTreeView_->header()->setStretchLastSection(false);
  callTreeView_->header()->setSectionResizeMode(TraceCallTreeModel::LabelColumn,
                                                QHeaderView::Stretch);
  metadata_->setReadOnly(true);
  metadata_->setLineWrapMode(QPlainTextEdit::NoWrap);
  // The summary scrolls when the details panel is short.
  auto* summaryScroll = new QScrollArea(this);
  summaryScroll->setWidget(summary_);
  summaryScroll->setWidgetResizable(true);
  summaryScroll->setFrameShape(QFrame::NoFrame);
  tabs_->addTab(summaryScroll, tr("Summary"));
  tabs_->addTab(callTreeView_, tr("Call tree"));
  tabs_->addTab(metadata_, tr("Metadata"));

  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(timeline_);
  split->addWidget(tabs_);
  split->setStretchFactor(0, 4);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);

  alignment_->setObjectName(QStringLiteral("traceAlignment"));
  alignment_->setWordWrap(true);
  alignment_->hide();

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(alignment_);
  layout->addWidget(split, 1);

  connect(search_, &QLineEdit::returnPressed, this, [this] {
    if (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier)
      findPrevious();
    else
      findNext();
  });
  connect(search_, &QLineEdit::textChanged, this, [this] { updateMatches(); });
  connect(next, &QToolButton::clicked, this, &HostTracePage::findNext);
  connect(previous, &QToolButton::clicked, this, &HostTracePage::findPrevious);
  auto* f3 = new QShortcut(QKeySequence(Qt::Key_F3), this, this, &HostTracePage::findNext);
  f3->setContext(Qt::WidgetWithChildrenShortcut);
  auto* shiftF3 =
      new QShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3), this, this, &HostTracePage::findPrevious);
  shiftF3->setContext(Qt::WidgetWithChildrenShortcut);
  connect(merge_, &QCheckBox::toggled, timeline_, &TraceTimeline::setMerged);
  connect(filled_, &QCheckBox::toggled, timeline_, &TraceTimeline::setFilledGraphs);
  connect(absolute_, &QCheckBox::toggled, timeline_, &TraceTimeline::setAbsoluteTime);
  connect(fit, &QPushButton::clicked, timeline_, &TraceTimeline::fit);
  connect(collapse, &QPushButton::clicked, timeline_, &TraceTimeline::collapseAll);
  connect(expand, &QPushButton::clicked, timeline_, &TraceTimeline::expandAll);
  connect(timeline_, &TraceTimeline::selectionChanged, this, &HostTracePage::showSelection);
  showSelection({});
}

QWidget* HostTracePage::imageWidget() {
  return timeline_;
}

namespace {

bool sameTraces(const std::vector<HostTrace>& a, const std::vector<HostTrace>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const HostTrace& x, const HostTrace& y) {
                      return x.path == y.path && x.group == y.group;
                    });
}

} // namespace

void HostTracePage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  task_ = TaskHandle();
  if (doc && cached_ && sameTraces(doc->hostTraces(), cachedTraces_)) {
    // Another instance of the same job: the same traces, read once.
    if (index_ != cached_) showIndex(cached_);
    setReady(true);
    return;
  }
  showIndex(nullptr);
  if (!doc || doc->hostTraces().empty()) return;
  const std::vector<HostTrace> traces = doc->hostTraces();
  task_ = runInBackground<TraceIndex>(
      this,
      traces.size() > 1 ? tr("Reading %1 host traces").arg(traces.size())
                        : tr("Reading the host trace"),
      [traces](Progress& p) { return loadTraceIndices(traces, p); },
      [this, traces](std::shared_ptr<const TraceIndex> index) {
        cached_ = index;
        cachedTraces_ = traces;
        showIndex(std::move(index));
        setReady(true);
      },
      reportError());
}

void HostTracePage::showIndex(std::shared_ptr<const TraceIndex> index) {
  index_ = std::move(index);
  timeline_->setIndex(index_);
  const bool several = index_ && index_->files.size() > 1;
  alignment_->setVisible(several);
  alignment_->setText(several ? tr("%1 traces on one time axis, a lane group each: %2.")
                                    .arg(index_->files.size())
                                    .arg(index_->alignment)
                              : QString());
  matchesFor_.clear();
  updateMatches();
  showSelection({});
}

void HostTracePage::showSelection(TraceEventRef ref) {
  callTreeModel_->setEvent(index_, ref);
  if (!index_ || !ref.valid()) {
    summary_->setText(index_ ? tr("Click an event or an instant marker to see its details here.")
                             : QString());
    metadata_->clear();
    return;
  }
  const auto row = [](const QString& name, const QString& value) {
    return QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>")
        .arg(name, value.toHtmlEscaped());
  };
  const TraceThreadIndex& thread = index_->threads[std::size_t(ref.thread)];
  const TraceProcessIndex& process = index_->processes[std::size_t(thread.process)];
  QString html = QStringLiteral("<table>");
  const std::string* metadata = nullptr;
  if (ref.instant) {
    const TraceInstant& e = index_->instant(ref);
    html += row(tr("Label"), index_->labels[e.label]);
    html += row(tr("Kind"), e.kind == pva::InstantEvent::Kind::Instant ? tr("Instant event")
                            : e.kind == pva::InstantEvent::Kind::UnmatchedEnd
                                ? tr("end() with nothing open")
                                : tr("end() of a different label"));
    html += row(tr("Channel"), index_->channels[e.channel]);
    html += row(tr("Thread"), index_->threadTitle(ref.thread));
    html += row(tr("Time"), formatTraceTime(double(e.time), 1));
    metadata = e.metadata;
  } else {
    const TraceEventRecord& e = index_->event(ref);
    html += row(tr("Label"), index_->labels[e.label]);
    html += row(tr("Channel"), index_->channels[e.channel]);
    html += row(tr("Thread"), index_->threadTitle(ref.thread));
    html += row(tr("Process"), QStringLiteral("%1 (pid %2)").arg(process.name).arg(process.pid));
    if (index_->files.size() > 1) {
      const TraceFileInfo& file = index_->files[std::size_t(process.file)];
      html +=
          row(tr("Trace"), file.group + QStringLiteral(" (") + file.fileName + QStringLiteral(")"));
    }
    html += row(tr("Begin"), formatTraceTime(double(e.begin), 1));
    html += row(tr("Duration"),
                formatDurationNs(double(e.duration())) +
                    (e.finished ? QString() : tr(" (unfinished: the trace has no end for it)")));
    html += row(tr("Self time"), formatDurationNs(double(e.self)));
    html += row(tr("Depth"), QString::number(e.depth));
    html += row(tr("Children"), formatCount(e.childCount));
    metadata = e.metadata;
  }
  summary_->setText(html + QStringLiteral("</table>"));
  callTreeView_->expandToDepth(0);
  if (metadata && !metadata->empty()) {
    const QByteArray raw = QByteArray::fromStdString(*metadata);
    QJsonParseError error{};
    const QJsonDocument json = QJsonDocument::fromJson(raw, &error);
    metadata_->setPlainText(error.error == QJsonParseError::NoError
                                ? QString::fromUtf8(json.toJson(QJsonDocument::Indented))
                                : QString::fromUtf8(raw));
  } else {
    metadata_->setPlainText(tr("(no metadata)"));
  }
}

void HostTracePage::updateMatches() {
  const QString text = search_->text();
  if (text != matchesFor_) {
    matchesFor_ = text;
    matches_ = index_ ? index_->search(text) : std::vector<TraceEventRef>{};
    currentMatch_ = -1;
  }
  if (text.isEmpty())
    matchLabel_->clear();
  else if (matches_.empty())
    matchLabel_->setText(tr("no match"));
  else if (currentMatch_ < 0)
    matchLabel_->setText(tr("%1 matches").arg(formatCount(matches_.size())));
  else
    matchLabel_->setText(
        tr("%1 of %2")
            .arg(formatCount(std::size_t(currentMatch_) + 1), formatCount(matches_.size())));
}

void HostTracePage::findNext() {
  step(+1);
}
void HostTracePage::findPrevious() {
  step(-1);
}

void HostTracePage::step(int direction) {
  updateMatches();
  if (matches_.empty()) return;
  const int n = int(matches_.size());
  currentMatch_ =
      currentMatch_ < 0 ? (direction > 0 ? 0 : n - 1) : ((currentMatch_ + direction) % n + n) % n;
  updateMatches();
  timeline_->reveal(matches_[std::size_t(currentMatch_)]);
}

} // namespace tessera::viewer
