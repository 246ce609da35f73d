// viewer_core without widgets: formatting, downsampling, resolving documents, background tasks and
// their progress.
#include "ViewerTestUtil.hpp"
#include "core/AxisWindow.hpp"
#include "core/Background.hpp"
#include "core/Document.hpp"
#include "core/Downsample.hpp"
#include "core/Format.hpp"
#include "core/ItemRangeText.hpp"
#include "core/MemoryData.hpp"
#include "core/NameTerms.hpp"
#include "core/TraceIndex.hpp"

#include <QFile>
#include <QTest>
#include <algorithm>
#include <cmath>

using namespace tessera::viewer;

class CoreTest : public QObject {
  Q_OBJECT
private slots:
  void typedRangesParse() {
    QString error;
    auto r = parseItemRange(QStringLiteral(" 100 - 200 "), 0, 1472, QStringLiteral("tile"), &error);
    QVERIFY(r && r->first == 100 && r->last == 200 && !r->single);
    r = parseItemRange(QStringLiteral("5..9"), 0, 10, QStringLiteral("step"), &error);
    QVERIFY(r && r->first == 5 && r->last == 9);
    r = parseItemRange(QStringLiteral("7"), 0, 10, QStringLiteral("step"), &error);
    QVERIFY(r && r->first == 7 && r->last == 7 && r->single);
    QVERIFY(!parseItemRange(QStringLiteral("200-100"), 0, 1472, QStringLiteral("tile"), &error));
    QVERIFY(error.contains(QStringLiteral("comes before")));
    QVERIFY(!parseItemRange(QStringLiteral("0-1472"), 0, 1472, QStringLiteral("tile"), &error));
    QCOMPARE(error, QStringLiteral("tiles 0-1471 are shown here"));
    QVERIFY(!parseItemRange(QStringLiteral("10-20"), 100, 200, QStringLiteral("tile"),
                            &error)); // another IPU's tiles
    QVERIFY(!parseItemRange(QStringLiteral("abc"), 0, 10, QStringLiteral("step"), &error));
    QVERIFY(!parseItemRange(QStringLiteral("-3"), 0, 10, QStringLiteral("step"), &error));
    QCOMPARE(formatItemRange(100, 201), QStringLiteral("100-200"));
    QCOMPARE(formatItemRange(99.5, 200.2), QStringLiteral("99-200"));
  }

  void nameTermsSplitAtSemicolons() {
    QCOMPARE(nameTerms(QStringLiteral(" a/b ; C;;c ; d ")),
             (QStringList{QStringLiteral("a/b"), QStringLiteral("C"), QStringLiteral("d")}));
    QVERIFY(nameTerms(QStringLiteral(" ; ")).isEmpty());
    const QStringList terms{QStringLiteral("w.1"),
                            QStringLiteral("x(y")}; // regex characters are plain text
    QVERIFY(matchesAnyTerm(QStringLiteral("layer/W.1"), terms));
    QVERIFY(!matchesAnyTerm(QStringLiteral("layer/wx1"), terms));
    QVERIFY(nameTermsPattern(terms).match(QStringLiteral("ax(yb")).hasMatch());
    QVERIFY(!nameTermsPattern(terms).match(QStringLiteral("wa1")).hasMatch());
    QVERIFY(matchesAnyTerm(QStringLiteral("anything"), {}));
  }

  // Every memory category, shared bytes and gaps: colours a reader tells apart (no two yellows,
  // stack not the grey of gaps).
  void memoryColoursAreDistinct() {
    std::vector<std::pair<QString, QColor>> colours;
    for (int c = 0; c < int(pva::MemoryCategories::names().size()); ++c)
      colours.push_back({QString::fromStdString(pva::MemoryCategories::names()[std::size_t(c)]),
                         categoryColor(c)});
    colours.push_back({QStringLiteral("shared"), sharedBytesColor()});
    colours.push_back({QStringLiteral("gaps"), gapsColor()});
    for (std::size_t i = 0; i < colours.size(); ++i)
      for (std::size_t j = i + 1; j < colours.size(); ++j) {
        const QColor &a = colours[i].second, &b = colours[j].second;
        const double d =
            std::sqrt(std::pow(a.red() - b.red(), 2) + std::pow(a.green() - b.green(), 2) +
                      std::pow(a.blue() - b.blue(), 2));
        QVERIFY2(d > 40, qPrintable(QStringLiteral("%1 and %2 look alike (%3)")
                                        .arg(colours[i].first, colours[j].first)
                                        .arg(d)));
      }
  }
  void formatsBytesInEachUnit() {
    QCOMPARE(formatBytes(0, MemoryUnits::Binary), QStringLiteral("0 B"));
    QCOMPARE(formatBytes(1023, MemoryUnits::Binary), QStringLiteral("1,023 B"));
    QCOMPARE(formatBytes(1024, MemoryUnits::Binary), QStringLiteral("1.00 KiB"));
    QCOMPARE(formatBytes(638976, MemoryUnits::Binary), QStringLiteral("624 KiB"));
    QCOMPARE(formatBytes(638976, MemoryUnits::Decimal), QStringLiteral("639 kB"));
    QCOMPARE(formatBytes(638976, MemoryUnits::Bytes), QStringLiteral("638,976 B"));
    QCOMPARE(formatBytes(918552576ull, MemoryUnits::Binary), QStringLiteral("876 MiB"));
    QCOMPARE(formatBytesDelta(-2048, MemoryUnits::Binary), QStringLiteral("-2.00 KiB"));
    QCOMPARE(formatBytesDelta(0, MemoryUnits::Binary), QStringLiteral("0 B"));
  }
  void formatsCountsAndDurations() {
    QCOMPARE(formatCount(0), QStringLiteral("0"));
    QCOMPARE(formatCount(1234567), QStringLiteral("1,234,567"));
    QCOMPARE(formatCountDelta(-1000), QStringLiteral("-1,000"));
    QCOMPARE(formatCyclesShort(950), QStringLiteral("950"));
    QCOMPARE(formatCyclesShort(12500), QStringLiteral("12.5 k"));
    QCOMPARE(formatDurationNs(850), QStringLiteral("850 ns"));
    QCOMPARE(formatDurationNs(4.56e6), QStringLiteral("4.56 ms"));
    QCOMPARE(formatPercent(0.123), QStringLiteral("12.3 %"));
    MemoryUnits u;
    QVERIFY(parseMemoryUnits(QStringLiteral("SI"), &u) && u == MemoryUnits::Decimal);
    QVERIFY(!parseMemoryUnits(QStringLiteral("furlongs"), &u));
  }
  void downsampleKeepsSpikesAndCoversEveryValue() {
    std::vector<int> v(1000, 1);
    v[501] = 99;
    const auto buckets = downsampleMinMax(v, 10);
    QCOMPARE(buckets.size(), std::size_t(10));
    QCOMPARE(buckets[5].max, 99.0);
    QCOMPARE(buckets[4].max, 1.0);
    std::size_t covered = 0;
    for (std::size_t i = 0; i < buckets.size(); ++i) {
      covered += buckets[i].last - buckets[i].first;
      if (i > 0) QCOMPARE(buckets[i].first, buckets[i - 1].last);
    }
    QCOMPARE(covered, v.size());
    QCOMPARE(downsampleMinMax(v.data(), 0, 3, 10).size(),
             std::size_t(3)); // fewer values than pixels
    QVERIFY(downsampleMinMax(v.data(), 5, 5, 10).empty());
  }
  void resolvesReportsAndTraces() {
    auto dir = Document::resolve(viewer_test::mlpReport());
    QVERIFY(dir->isReport());
    QVERIFY(dir->profilePath().endsWith(QStringLiteral("profile.pop")));
    QVERIFY(dir->debugPath().endsWith(QStringLiteral("debug.cbor")));
    auto file = Document::resolve(dir->profilePath());
    QCOMPARE(file->debugPath(), dir->debugPath());
    auto fromDebug = Document::resolve(dir->debugPath());
    QCOMPARE(fromDebug->profilePath(), dir->profilePath());
    auto trace = Document::resolve(viewer_test::traceFile());
    QVERIFY(trace->isTrace());
    auto cmp = Document::comparison(viewer_test::mlpReport(), viewer_test::mlpBigReport());
    QVERIFY(cmp->base() != nullptr);
    QVERIFY(cmp->profilePath().contains(QStringLiteral("mlp-big")));
    QVERIFY(cmp->base()->profilePath().contains(QStringLiteral("/mlp/")));
  }
  void badPathsNameTheFileAndTheProblem_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("problem");
    QTest::newRow("missing") << QStringLiteral("/no/such/report") << QStringLiteral("no such file");
    QTest::newRow("empty dir") << viewer_test::tmpDir(QStringLiteral("empty"))
                               << QStringLiteral("no profile.pop");
    QTest::newRow("text") << viewer_test::testDataDir() + QStringLiteral("/text.pop")
                          << QStringLiteral("text.pop");
    QTest::newRow("truncated") << viewer_test::testDataDir() + QStringLiteral("/cut.pop")
                               << QStringLiteral("cut.pop");
    QTest::newRow("newer") << viewer_test::testDataDir() + QStringLiteral("/newer_major.pop")
                           << QStringLiteral("newer");
  }
  void badPathsNameTheFileAndTheProblem() {
    QFETCH(QString, path);
    QFETCH(QString, problem);
    try {
      Document::resolve(path);
      QFAIL("no error");
    } catch (const DocumentError& e) {
      const QString message = QString::fromUtf8(e.what());
      QVERIFY2(message.contains(problem, Qt::CaseInsensitive), qPrintable(message));
    }
  }
  void comparingATraceIsAnError() {
    QVERIFY_THROWS_EXCEPTION(
        DocumentError, Document::comparison(viewer_test::traceFile(), viewer_test::mlpReport()));
  }
  void backgroundTasksDeliverFailAndCancel() {
    QObject context;
    int delivered = 0;
    QString failure;
    TaskHandle ok = runInBackground<int>(
        &context, QStringLiteral("t1"),
        [](Progress& p) {
          p.report(0.5);
          return 42;
        },
        [&](std::shared_ptr<const int> v) { delivered = *v; },
        [&](const QString& e) { failure = e; });
    QTRY_COMPARE(delivered, 42);
    TaskHandle bad = runInBackground<int>(
        &context, QStringLiteral("t2"),
        [](Progress&) -> int { throw std::runtime_error("x.pop: broken"); },
        [&](std::shared_ptr<const int>) { delivered = -1; },
        [&](const QString& e) { failure = e; });
    QTRY_COMPARE(failure, QStringLiteral("x.pop: broken"));
    // A dropped handle: the result never arrives.
    std::atomic<bool> release{false};
    int late = 0;
    {
      TaskHandle dropped = runInBackground<int>(
          &context, QStringLiteral("t3"),
          [&](Progress&) {
            while (!release.load())
              QThread::msleep(1);
            return 7;
          },
          [&](std::shared_ptr<const int> v) { late = *v; }, {});
    }
    release = true;
    QTRY_COMPARE(ProgressHub::instance().running(), 0);
    QTest::qWait(50);
    QCOMPARE(late, 0);
  }
  void axisWindowStaysInsideItsRange() {
    AxisWindow w(10);
    w.setRange(0, 1000);
    QVERIFY(w.fit());
    QCOMPARE(w.from(), 0.0);
    QCOMPARE(w.to(), 1000.0);
    QVERIFY(!w.fit()); // nothing changed
    // Zooming keeps the anchor where it is on screen: 250 stays a quarter of the way across.
    QVERIFY(w.zoom(0.5, 250));
    QCOMPARE(w.span(), 500.0);
    QCOMPARE((250 - w.from()) / w.span(), 0.25);
    // Panning stops at the ends, keeping the span.
    QVERIFY(w.pan(-1));
    QCOMPARE(w.from(), 0.0);
    QVERIFY(!w.pan(-0.1));
    w.pan(10);
    QCOMPARE(w.to(), 1000.0);
    QCOMPARE(w.span(), 500.0);
    // Never narrower than the minimum span, never wider than the range.
    for (int i = 0; i < 20; ++i)
      w.zoomAtCentre(AxisWindow::kKeyZoom);
    QCOMPARE(w.span(), 10.0);
    for (int i = 0; i < 20; ++i)
      w.zoomAtCentre(1 / AxisWindow::kKeyZoom);
    QCOMPARE(w.span(), 1000.0);
    QVERIFY(w.show(-50, 40)); // moved inside
    QCOMPARE(w.from(), 0.0);
    QCOMPARE(w.to(), 90.0);
    QVERIFY(w.show(500, 500)); // widened to the minimum
    QCOMPARE(w.span(), 10.0);
    QVERIFY(!w.zoom(0, 500)); // nonsense factors change nothing
    QVERIFY(!w.show(std::nan(""), 3));
    // A smaller range pulls the window in; an empty one still has a width to draw.
    w.setRange(0, 100);
    QVERIFY(w.from() >= 0 && w.to() <= 100);
    w.setRange(7, 7);
    QCOMPARE(w.rangeTo(), 17.0);
    QVERIFY(w.span() > 0);
  }

  void init() { percents_.clear(); }
  void cleanup() { disconnect(recording_); }

  void progressStagesShowAsPartsOfTheTask() {
    const std::vector<int>& percents = recordPercents(QStringLiteral("staged"));
    Progress p = Progress::standalone(QStringLiteral("staged"));
    p.setStage(0.0, 0.5);
    p.report(0.5); // halfway through reading: a quarter of the task
    p.report(1.0);
    p.setStage(0.5, 1.0);
    p.report(0.5); // halfway through indexing
    p.report(1.0);
    QCOMPARE(percents, (std::vector<int>{25, 50, 75, 100}));
  }
  void traceLoadingReportsProgressFromTheFirstStage() {
    // Reading the file is the first half of loading a trace: its progress shows before indexing.
    const std::vector<int>& percents = recordPercents(QStringLiteral("trace"));
    Progress p = Progress::standalone(QStringLiteral("trace"));
    const TraceIndex index = loadTraceIndex(viewer_test::traceFile(), p);
    QVERIFY(!index.threads.empty());
    QVERIFY(std::any_of(percents.begin(), percents.end(), [](int v) { return v > 0 && v <= 50; }));
    QCOMPARE(percents.back(), 100);
    // A cancelled load stops with Cancelled, not an error dialog.
    Progress cancelled = Progress::standalone(QStringLiteral("trace"), true);
    QVERIFY_THROWS_EXCEPTION(Cancelled, loadTraceIndex(viewer_test::traceFile(), cancelled));
  }

private:
  /// The percentages ProgressHub announces for `task` until the test function ends.
  const std::vector<int>& recordPercents(const QString& task) {
    recording_ = connect(&ProgressHub::instance(), &ProgressHub::progress, this,
                         [this, task](const QString& t, int percent) {
                           if (t == task) percents_.push_back(percent);
                         });
    return percents_;
  }
  std::vector<int> percents_;
  QMetaObject::Connection recording_;
};

QTEST_GUILESS_MAIN(CoreTest)
#include "test_core.moc"
