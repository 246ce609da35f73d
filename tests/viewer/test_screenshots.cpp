// The headless mode a CI job uses: `tessera-viewer --screenshot OUT.png --view V DOC` renders
// each view of the samples' reports and trace to PNG. The images are kept in the build tree
// (tests/viewer/tmp/screenshots) to be looked at, and checked here for content: the right size,
// and many colours (a blank or failed render has one or two).
#include "ViewerTestUtil.hpp"

#include <QDirIterator>
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTest>

class ScreenshotTest : public QObject {
  Q_OBJECT
private:
  QString dir_;

  static int
  run(const QStringList& args, QString* errors, QString* output = nullptr,
      const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(environment);
    p.start(viewer_test::viewerExecutable(), args);
    if (!p.waitForFinished(300000)) return -1;
    *errors = QString::fromUtf8(p.readAllStandardError());
    if (output) *output = QString::fromUtf8(p.readAllStandardOutput());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  }

private slots:
  void initTestCase() { dir_ = viewer_test::tmpDir(QStringLiteral("screenshots")); }

  void everyViewRenders_data() {
    QTest::addColumn<QString>("view");
    QTest::addColumn<QStringList>("documents");
    const QStringList mlp{viewer_test::mlpReport()};
    QTest::newRow("summary-mlp") << QStringLiteral("summary") << mlp;
    QTest::newRow("summary-oom") << QStringLiteral("summary")
                                 << QStringList{viewer_test::oomReport()};
    QTest::newRow("trace-mlp") << QStringLiteral("trace") << QStringList{viewer_test::traceFile()};
    QTest::newRow("trace-rich") << QStringLiteral("trace")
                                << QStringList{QStringLiteral(VIEWER_FIXTURES_DIR "/rich.pvti")};
    QTest::newRow("programs-mlp") << QStringLiteral("programs") << mlp;
    QTest::newRow("memory-mlp") << QStringLiteral("memory") << mlp;
    QTest::newRow("memory-pipeline")
        << QStringLiteral("memory") << QStringList{viewer_test::pipelineReport()};
    QTest::newRow("memory-oom") << QStringLiteral("memory")
                                << QStringList{viewer_test::oomReport()};
    QTest::newRow("memory-compare")
        << QStringLiteral("memory")
        << QStringList{viewer_test::mlpReport(), viewer_test::mlpBigReport()};
    QTest::newRow("liveness-mlp") << QStringLiteral("liveness") << mlp;
    QTest::newRow("liveness-compare")
        << QStringLiteral("liveness")
        << QStringList{viewer_test::mlpReport(), viewer_test::mlpBigReport()};
    QTest::newRow("operations-mlp") << QStringLiteral("operations") << mlp;
    QTest::newRow("compare-mlp") << QStringLiteral("compare")
                                 << QStringList{viewer_test::mlpReport(),
                                                viewer_test::mlpBigReport()};
    QTest::newRow("execution-mlp") << QStringLiteral("execution") << mlp;
    QTest::newRow("execution-pipeline")
        << QStringLiteral("execution") << QStringList{viewer_test::pipelineReport()};
    QTest::newRow("execution-oom")
        << QStringLiteral("execution") << QStringList{viewer_test::oomReport()};
    // Options ahead of the report ride in the documents list (three entries: not a comparison).
    QTest::newRow("execution-flame-mlp")
        << QStringLiteral("execution")
        << QStringList{QStringLiteral("--execution-mode"), QStringLiteral("flame"),
                       viewer_test::mlpReport()};
    QTest::newRow("execution-bsp-mlp")
        << QStringLiteral("execution")
        << QStringList{QStringLiteral("--execution-mode"), QStringLiteral("bsp"),
                       viewer_test::mlpReport()};
    QTest::newRow("execution-compare")
        << QStringLiteral("execution")
        << QStringList{viewer_test::mlpReport(), viewer_test::mlpBigReport()};
    // --compare with the views not listed above: each renders with both reports open.
    for (const char* v : {"summary", "programs", "operations"})
      QTest::newRow(qPrintable(QStringLiteral("%1-compare").arg(QLatin1String(v))))
          << QString::fromLatin1(v)
          << QStringList{viewer_test::mlpReport(), viewer_test::mlpBigReport()};
    // Insights, the page an out-of-memory user opens first, and the Tile map.
    QTest::newRow("insights-oom") << QStringLiteral("insights")
                                  << QStringList{viewer_test::oomReport()};
    QTest::newRow("insights-mlp") << QStringLiteral("insights") << mlp;
    QTest::newRow("tilemap-mlp") << QStringLiteral("tilemap") << mlp;
    QTest::newRow("tilemap-pipeline")
        << QStringLiteral("tilemap") << QStringList{viewer_test::pipelineReport()};
    for (const char* v : {"insights", "tilemap"})
      QTest::newRow(qPrintable(QStringLiteral("%1-compare").arg(QLatin1String(v))))
          << QString::fromLatin1(v)
          << QStringList{viewer_test::mlpReport(), viewer_test::mlpBigReport()};
    QTest::newRow("graph-mlp") << QStringLiteral("graph") << mlp;
    QTest::newRow("graph-pipeline")
        << QStringLiteral("graph") << QStringList{viewer_test::pipelineReport()};
    QTest::newRow("graph-oom") << QStringLiteral("graph") << QStringList{viewer_test::oomReport()};
    QTest::newRow("graph-compare")
        << QStringLiteral("graph")
        << QStringList{viewer_test::mlpReport(), viewer_test::mlpBigReport()};
    // Unrelated reports (another program on two IPUs): every view still renders both.
    for (const char* v : {"summary", "insights", "memory", "liveness", "tilemap", "programs",
                          "operations", "execution", "graph", "compare"})
      QTest::newRow(qPrintable(QStringLiteral("%1-compare-unrelated").arg(QLatin1String(v))))
          << QString::fromLatin1(v)
          << QStringList{viewer_test::mlpReport(), viewer_test::pipelineReport()};
  }
  void everyViewRenders() {
    QFETCH(QString, view);
    QFETCH(QStringList, documents);
    const QString out = dir_ + QLatin1Char('/') + QString::fromLatin1(QTest::currentDataTag()) +
                        QStringLiteral(".png");
    QStringList args{QStringLiteral("--screenshot"), out,
                     QStringLiteral("--view"),       view,
                     QStringLiteral("--size"),       QStringLiteral("1200x800")};
    if (documents.size() == 2) args << QStringLiteral("--compare");
    args << documents;
    QString errors;
    QCOMPARE(run(args, &errors), 0);
    QVERIFY2(errors.isEmpty(), qPrintable(errors));
    const QImage image(out);
    QVERIFY2(!image.isNull(), qPrintable(out));
    QCOMPARE(image.size(), QSize(1200, 800));
    QVERIFY2(viewer_test::distinctColors(image) >= 8, qPrintable(out));
  }

  void badInputExitsNonZeroWithAMessage() {
    QString errors;
    QCOMPARE(run({QStringLiteral("--screenshot"), dir_ + QStringLiteral("/x.png"),
                  viewer_test::testDataDir() + QStringLiteral("/random.pop")},
                 &errors),
             1);
    QVERIFY2(errors.contains(QStringLiteral("random.pop")), qPrintable(errors));
    QCOMPARE(run({QStringLiteral("--screenshot"), dir_ + QStringLiteral("/x.png"),
                  QStringLiteral("--view"), QStringLiteral("nonsense"), viewer_test::mlpReport()},
                 &errors),
             2);
    QVERIFY2(errors.contains(QStringLiteral("nonsense")), qPrintable(errors));
    QCOMPARE(run({QStringLiteral("--screenshot"), dir_ + QStringLiteral("/x.png"),
                  QStringLiteral("--size"), QStringLiteral("big"), viewer_test::mlpReport()},
                 &errors),
             2);
    QVERIFY(!QFile::exists(dir_ + QStringLiteral("/x.png")));
  }

  void runPicksTheExecutionRun() {
    // --run NAME renders that run of the execution trace (the view it implies); the image differs
    // from the other run's. An unknown name is a usage error listing the runs.
    QString errors;
    const QString first = dir_ + QStringLiteral("/run-train0.png"),
                  second = dir_ + QStringLiteral("/run-train1.png");
    QCOMPARE(run({QStringLiteral("--screenshot"), first, QStringLiteral("--run"),
                  QStringLiteral("train0"), viewer_test::mlpReport()},
                 &errors),
             0);
    QVERIFY2(errors.isEmpty(), qPrintable(errors));
    QCOMPARE(run({QStringLiteral("--screenshot"), second, QStringLiteral("--view"),
                  QStringLiteral("execution"), QStringLiteral("--run"), QStringLiteral("train1"),
                  viewer_test::mlpReport()},
                 &errors),
             0);
    QVERIFY2(errors.isEmpty(), qPrintable(errors));
    QVERIFY(QImage(first) != QImage(second));
    QVERIFY(viewer_test::distinctColors(QImage(second)) >= 8);
    QCOMPARE(run({QStringLiteral("--screenshot"), dir_ + QStringLiteral("/run-cmp.png"),
                  QStringLiteral("--run"), QStringLiteral("train1"), QStringLiteral("--compare"),
                  viewer_test::mlpReport(), viewer_test::mlpBigReport()},
                 &errors),
             0);
    QCOMPARE(run({QStringLiteral("--screenshot"), dir_ + QStringLiteral("/x.png"),
                  QStringLiteral("--run"), QStringLiteral("nosuch"), viewer_test::mlpReport()},
                 &errors),
             2);
    QVERIFY2(errors.contains(QStringLiteral("nosuch")) &&
                 errors.contains(QStringLiteral("train0, train1")),
             qPrintable(errors));
    QCOMPARE(run({QStringLiteral("--screenshot"), dir_ + QStringLiteral("/x.png"),
                  QStringLiteral("--run"), QStringLiteral("train0"), QStringLiteral("--view"),
                  QStringLiteral("memory"), viewer_test::mlpReport()},
                 &errors),
             2);
    QVERIFY(!QFile::exists(dir_ + QStringLiteral("/x.png")));
  }

  void usageErrorsSayWhatIsWrong() {
    const QString out = dir_ + QStringLiteral("/usage.png");
    QString errors;
    // --view without a name is a usage error (2), as every other one; QCommandLineParser's own
    // handling exited 1.
    QCOMPARE(run({QStringLiteral("--screenshot"), out, QStringLiteral("--view")}, &errors), 2);
    QVERIFY2(errors.contains(QStringLiteral("--view")), qPrintable(errors));
    QCOMPARE(run({QStringLiteral("--no-such-option"), viewer_test::mlpReport()}, &errors), 2);
    // The view name left out: the report's path took its place. Said so, not "needs a report".
    QCOMPARE(run({QStringLiteral("--screenshot"), out, QStringLiteral("--view"),
                  viewer_test::mlpReport()},
                 &errors),
             2);
    QVERIFY2(errors.contains(QStringLiteral("is a path")) &&
                 errors.contains(QStringLiteral("view name")),
             qPrintable(errors));
    QVERIFY2(!errors.contains(QStringLiteral("needs a report")), qPrintable(errors));
    // The compare view on one report points at --compare.
    QCOMPARE(run({QStringLiteral("--screenshot"), out, QStringLiteral("--view"),
                  QStringLiteral("compare"), viewer_test::mlpReport()},
                 &errors),
             2);
    QVERIFY2(errors.contains(QStringLiteral("--compare")), qPrintable(errors));
    QVERIFY(!QFile::exists(out));
  }

  // A terminal without a display (ssh, CI): --help and --version still answer, and opening a
  // report says what to do instead of Qt's abort about platform plugins.
  void withoutADisplayHelpWorksAndTheWindowSaysWhy() {
    QProcessEnvironment bare = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
      bare.remove(QString::fromLatin1(name));
    QString errors, output;
    QCOMPARE(run({QStringLiteral("--help")}, &errors, &output, bare), 0);
    QVERIFY2(output.contains(QStringLiteral("--screenshot")), qPrintable(output + errors));
    QCOMPARE(run({QStringLiteral("--version")}, &errors, &output, bare), 0);
    QVERIFY2(output.contains(QStringLiteral("tessera-viewer")), qPrintable(output + errors));
    QCOMPARE(run({viewer_test::mlpReport()}, &errors, nullptr, bare), 1);
    QVERIFY2(errors.contains(QStringLiteral("no display")) &&
                 errors.contains(QStringLiteral("--screenshot")),
             qPrintable(errors));
  }

  void aTruncatedTraceSaysSoWithoutSql() {
    QFile in(viewer_test::traceFile());
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray bytes = in.readAll();
    for (qsizetype keep : {qsizetype(100), qsizetype(5000), bytes.size() / 2}) {
      const QString cut = dir_ + QStringLiteral("/cut.pvti");
      QFile out(cut);
      QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
      out.write(bytes.left(keep));
      out.close();
      QString errors;
      QCOMPARE(
          run({QStringLiteral("--screenshot"), dir_ + QStringLiteral("/cut.png"), cut}, &errors),
          1);
      QVERIFY2(errors.contains(QStringLiteral("cut.pvti")) &&
                   errors.contains(QStringLiteral("truncated")),
               qPrintable(errors));
      QVERIFY2(!errors.contains(QStringLiteral("SELECT")) &&
                   !errors.contains(QStringLiteral("prepare")),
               qPrintable(errors));
    }
  }

  void withoutAViewATraceShowsItsTimeline() {
    // Summary has nothing for a .pvti: the default is the view the window opens it on.
    const QString out = dir_ + QStringLiteral("/default-trace.png");
    QString errors;
    QCOMPARE(run({QStringLiteral("--screenshot"), out, viewer_test::traceFile()}, &errors), 0);
    QVERIFY2(errors.isEmpty(), qPrintable(errors));
    QVERIFY(viewer_test::distinctColors(QImage(out)) >= 8);
  }

  void unitsOfAHeadlessRunAreNotRemembered() {
    // A CI screenshot with --units must not change the desktop preference.
    const QString config = dir_ + QStringLiteral("/config");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config);
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(viewer_test::viewerExecutable(),
            {QStringLiteral("--screenshot"), dir_ + QStringLiteral("/units.png"),
             QStringLiteral("--units"), QStringLiteral("decimal"), viewer_test::mlpReport()});
    QVERIFY(p.waitForFinished(300000));
    QCOMPARE(p.exitCode(), 0);
    QVERIFY(QFile::exists(dir_ + QStringLiteral("/units.png")));
    // Without the fix this wrote memoryUnits=decimal to
    // $XDG_CONFIG_HOME/Tessera/tessera-viewer.conf.
    for (QDirIterator it(config, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
      QFile f(it.next());
      QVERIFY(f.open(QIODevice::ReadOnly));
      QVERIFY2(!f.readAll().contains("decimal"), qPrintable(f.fileName()));
    }
  }
};

QTEST_GUILESS_MAIN(ScreenshotTest)
#include "test_screenshots.moc"
