// Remote reports over ssh (issue 37, item 7), with a fake `ssh` on PATH (fake_ssh.sh) serving a
// local folder: only a report's files are copied, into a cache reused while the remote files are
// unchanged, with progress and cancel; every error names the host and the path; the window and
// the command line open "host:/path".
#include "ViewerTestPaths.hpp"
#include "ViewerTestUtil.hpp"
#include "core/RemoteFetch.hpp"
#include "core/RemoteSpec.hpp"
#include "core/Settings.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/Page.hpp"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QProcess>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <algorithm>

using namespace tessera::viewer;

namespace {

QTemporaryDir* gHome = nullptr;

QString servedRoot() {
  return gHome->path() + QStringLiteral("/served");
}
QString cacheRoot() {
  return gHome->path() + QStringLiteral("/cache-root");
}
QString sshLog() {
  return gHome->path() + QStringLiteral("/ssh.log");
}
/// Where the tests' images go (build/tests/viewer/tmp/remote), emptied once per run.
QString shotsDir() {
  static const QString dir = viewer_test::tmpDir(QStringLiteral("remote"));
  return dir;
}
/// The files of the served report a report needs (the sample writes app.json beside it too).
QStringList wantedFiles() {
  QStringList wanted =
      QDir(servedRoot() + QStringLiteral("/runs/mlp"))
          .entryList({QStringLiteral("profile.pop"), QStringLiteral("debug.cbor"),
                      QStringLiteral("serialized_graph.capnp"), QStringLiteral("app.json"),
                      QStringLiteral("framework.json"), QStringLiteral("*.pvti")},
                     QDir::Files);
  wanted.sort();
  return wanted;
}

int copiesLogged() {
  QFile log(sshLog());
  if (!log.open(QIODevice::ReadOnly)) return 0;
  return int(log.readAll().count("\tcat -- "));
}

/// Runs a fetch to its end; returns the signal that ended it ("finished", "failed", "cancelled")
/// and its argument.
std::pair<QString, QString> runFetch(RemoteFetch& fetch, int seconds = 60) {
  std::pair<QString, QString> result;
  QEventLoop loop;
  QObject::connect(&fetch, &RemoteFetch::finished, &loop, [&](const QString& path) {
    result = {QStringLiteral("finished"), path};
    loop.quit();
  });
  QObject::connect(&fetch, &RemoteFetch::failed, &loop, [&](const QString& message) {
    result = {QStringLiteral("failed"), message};
    loop.quit();
  });
  QObject::connect(&fetch, &RemoteFetch::cancelled, &loop, [&] {
    result = {QStringLiteral("cancelled"), {}};
    loop.quit();
  });
  QTimer::singleShot(seconds * 1000, &loop, &QEventLoop::quit);
  fetch.start();
  loop.exec();
  return result;
}

} // namespace

class RemoteTest : public QObject {
  Q_OBJECT
private slots:
  void initTestCase() {
    // The fake ssh first on PATH, and a served folder holding the MLP report with files a
    // report does not need beside it (a large "checkpoint" and the sample's CSV).
    const QString bin = gHome->path() + QStringLiteral("/bin");
    QVERIFY(QDir().mkpath(bin));
    QVERIFY(QFile::copy(QStringLiteral(VIEWER_FAKE_SSH), bin + QStringLiteral("/ssh")));
    QFile(bin + QStringLiteral("/ssh"))
        .setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    qputenv("PATH", (bin + QLatin1Char(':') + qEnvironmentVariable("PATH")).toLocal8Bit());
    qunsetenv("TESSERA_SSH");
    qputenv("FAKE_SSH_ROOT", servedRoot().toLocal8Bit());
    qputenv("FAKE_SSH_LOG", sshLog().toLocal8Bit());
    const QString mlp = servedRoot() + QStringLiteral("/runs/mlp");
    QVERIFY(QDir().mkpath(mlp));
    QVERIFY(QDir().mkpath(servedRoot() + QStringLiteral("/not-a-report")));
    QDir source(viewer_test::mlpReport());
    for (const QString& f : source.entryList(QDir::Files))
      QVERIFY(QFile::copy(source.filePath(f), mlp + QLatin1Char('/') + f));
    QFile checkpoint(mlp + QStringLiteral("/checkpoint.bin"));
    QVERIFY(checkpoint.open(QIODevice::WriteOnly));
    checkpoint.write(QByteArray(4 << 20, 'x'));
    checkpoint.close();
    QFile trace(viewer_test::traceFile());
    QVERIFY(trace.copy(servedRoot() + QStringLiteral("/run.pvti")));
  }

  void remotePathsAreToldFromLocalOnes() {
    const auto spec = RemoteSpec::parse(QStringLiteral("me@ipu-host:/data/reports/mlp"));
    QVERIFY(spec);
    QCOMPARE(spec->host, QStringLiteral("me@ipu-host"));
    QCOMPARE(spec->path, QStringLiteral("/data/reports/mlp"));
    QCOMPARE(spec->text(), QStringLiteral("me@ipu-host:/data/reports/mlp"));
    QVERIFY(RemoteSpec::parse(QStringLiteral("box:reports/mlp"))); // relative to the login dir
    QVERIFY(!RemoteSpec::parse(QStringLiteral("/data/reports/mlp")));
    QVERIFY(!RemoteSpec::parse(QStringLiteral("reports/mlp")));
    QVERIFY(!RemoteSpec::parse(QStringLiteral("C:/reports")));
    QVERIFY(!RemoteSpec::parse(QStringLiteral("./a:b")));
    QVERIFY(!RemoteSpec::parse(QStringLiteral("host:")));
    QVERIFY(!RemoteSpec::parse(QStringLiteral("file:///tmp/x")));
    // A local file whose name looks remote is local.
    const QString odd = gHome->path() + QStringLiteral("/odd:name");
    QFile(odd).open(QIODevice::WriteOnly);
    QDir::setCurrent(gHome->path());
    QVERIFY(!RemoteSpec::parse(QStringLiteral("odd:name")));
    // Recent files keep remote paths as typed.
    QCOMPARE(Settings::absolutePath(QStringLiteral("box:reports/mlp")),
             QStringLiteral("box:reports/mlp"));
  }

  void copiesOnlyTheReportsFilesIntoTheCache() {
    QFile::remove(sshLog());
    RemoteFetch fetch({QStringLiteral("fakehost"), QStringLiteral("runs/mlp")}, cacheRoot());
    QList<int> percents;
    connect(&fetch, &RemoteFetch::progress, this,
            [&percents](int percent, const QString&) { percents << percent; });
    const auto [how, path] = runFetch(fetch);
    QCOMPARE(how, QStringLiteral("finished"));
    QCOMPARE(path, fetch.cacheDir());
    QVERIFY(path.startsWith(cacheRoot()));
    QStringList cached = QDir(path).entryList(QDir::Files);
    cached.removeAll(QStringLiteral(".tessera-remote"));
    cached.sort();
    // What a report needs of the served folder; never the checkpoint nor the CSV.
    const QStringList wanted = wantedFiles();
    QVERIFY(wanted.size() >= 3);
    QCOMPARE(cached, wanted);
    QVERIFY(!cached.contains(QStringLiteral("checkpoint.bin")));
    QVERIFY(!cached.contains(QStringLiteral("training.csv")));
    QCOMPARE(fetch.filesCopied(), int(wanted.size()));
    QCOMPARE(copiesLogged(), int(wanted.size()));
    // The copies are the files.
    for (const QString& f : cached) {
      QFile a(path + QLatin1Char('/') + f), b(servedRoot() + QStringLiteral("/runs/mlp/") + f);
      QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
      QVERIFY2(a.readAll() == b.readAll(), qPrintable(f));
    }
    // Progress rises to 100 %.
    QVERIFY(!percents.isEmpty());
    QCOMPARE(percents.back(), 100);
    QVERIFY(std::is_sorted(percents.begin(), percents.end()));
  }

  void reusesTheCacheWhileUnchanged() {
    QFile::remove(sshLog());
    {
      RemoteFetch fetch({QStringLiteral("fakehost"), QStringLiteral("runs/mlp")}, cacheRoot());
      QCOMPARE(runFetch(fetch).first, QStringLiteral("finished"));
      QCOMPARE(fetch.filesCopied(), 0);
      QCOMPARE(fetch.filesReused(), int(wantedFiles().size()));
      QCOMPARE(copiesLogged(), 0);
    }
    // debug.cbor rewritten on the host (a new mtime): that file alone is copied again.
    QFile debug(servedRoot() + QStringLiteral("/runs/mlp/debug.cbor"));
    QVERIFY(debug.open(QIODevice::ReadWrite));
    QVERIFY(debug.setFileTime(QDateTime::currentDateTime().addSecs(120),
                              QFileDevice::FileModificationTime));
    debug.close();
    RemoteFetch fetch({QStringLiteral("fakehost"), QStringLiteral("runs/mlp")}, cacheRoot());
    QCOMPARE(runFetch(fetch).first, QStringLiteral("finished"));
    QCOMPARE(fetch.filesCopied(), 1);
    QCOMPARE(fetch.filesReused(), int(wantedFiles().size()) - 1);
    QCOMPARE(copiesLogged(), 1);
  }

  void errorsNameTheHostAndThePath() {
    struct Case {
      QString host, path, says;
    };
    const Case cases[] = {
        {QStringLiteral("unreachable.example"), QStringLiteral("/r/mlp"),
         QStringLiteral("cannot reach host unreachable.example")},
        {QStringLiteral("me@denied-host"), QStringLiteral("/r/mlp"),
         QStringLiteral("authentication failed on me@denied-host")},
        {QStringLiteral("fakehost"), QStringLiteral("runs/nothing-here"),
         QStringLiteral("no such file or directory")},
        {QStringLiteral("fakehost"), QStringLiteral("not-a-report"),
         QStringLiteral("is not a report")},
        {QStringLiteral("fakehost"), QStringLiteral("runs/mlp/checkpoint.bin"),
         QStringLiteral("is not a report")},
    };
    for (const Case& c : cases) {
      RemoteFetch fetch({c.host, c.path}, cacheRoot());
      const auto [how, message] = runFetch(fetch);
      QCOMPARE(how, QStringLiteral("failed"));
      QVERIFY2(message.startsWith(c.host + QLatin1Char(':') + c.path + QStringLiteral(": ")),
               qPrintable(message));
      QVERIFY2(message.contains(c.says), qPrintable(message));
    }
    // No ssh at all.
    qputenv("TESSERA_SSH", "/nonexistent/ssh");
    RemoteFetch fetch({QStringLiteral("fakehost"), QStringLiteral("runs/mlp")}, cacheRoot());
    const auto [how, message] = runFetch(fetch);
    qunsetenv("TESSERA_SSH");
    QCOMPARE(how, QStringLiteral("failed"));
    QVERIFY2(message.contains(QLatin1String("cannot run /nonexistent/ssh")), qPrintable(message));
  }

  void aTraceAloneIsOneFile() {
    RemoteFetch fetch({QStringLiteral("fakehost"), QStringLiteral("run.pvti")}, cacheRoot());
    const auto [how, path] = runFetch(fetch);
    QCOMPARE(how, QStringLiteral("finished"));
    QCOMPARE(QFileInfo(path).fileName(), QStringLiteral("run.pvti"));
    QCOMPARE(fetch.filesCopied(), 1);
  }

  void aCopyCanBeCancelled() {
    const QString cache = cacheRoot() + QStringLiteral("-cancel");
    qputenv("FAKE_SSH_DELAY", "3");
    RemoteFetch fetch({QStringLiteral("fakehost"), QStringLiteral("runs/mlp")}, cache);
    connect(&fetch, &RemoteFetch::progress, this, [&fetch](int, const QString& what) {
      if (what.startsWith(QLatin1String("Copying"))) fetch.cancel(); // during the first copy
    });
    const auto [how, path] = runFetch(fetch);
    qunsetenv("FAKE_SSH_DELAY");
    QCOMPARE(how, QStringLiteral("cancelled"));
    QVERIFY(!fetch.isRunning());
    // Nothing half-copied is left to be taken for a file.
    const QStringList left = QDir(fetch.cacheDir()).entryList(QDir::Files);
    QVERIFY2(!left.contains(QStringLiteral("profile.pop")) &&
                 !left.contains(QStringLiteral("profile.pop.part")),
             qPrintable(left.join(QLatin1Char(' '))));
  }

  void theWindowOpensARemoteReport() {
    MainWindow w;
    w.show();
    QSignalSpy opened(&w, &MainWindow::documentOpened);
    qputenv("FAKE_SSH_DELAY", "1");
    QVERIFY(w.openPath(QStringLiteral("fakehost:runs/mlp")));
    QVERIFY(w.remoteProgress() && w.remoteProgress()->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(w.remoteProgress()->labelText().startsWith(QLatin1String("Copying")),
                             10000);
    QVERIFY(w.remoteProgress()->grab().save(shotsDir() + QStringLiteral("/remote-progress.png")));
    qunsetenv("FAKE_SSH_DELAY");
    QVERIFY(opened.wait(60000));
    QVERIFY(w.document() && w.document()->isReport());
    QCOMPARE(w.remoteName(), QStringLiteral("fakehost:runs/mlp"));
    QVERIFY(w.windowTitle().startsWith(QLatin1String("fakehost:runs/mlp")));
    QCOMPARE(Settings::instance().recentFiles().front(), QStringLiteral("fakehost:runs/mlp"));
    QVERIFY(viewer_test::waitReady(w.currentPage()));
    QVERIFY(!w.remoteProgress()); // closed

    // A failure is an error dialog naming host and path; the document stays open.
    QVERIFY(w.openPath(QStringLiteral("unreachable-box:/reports/x")));
    QTRY_VERIFY_WITH_TIMEOUT(w.errorDialog() != nullptr, 30000);
    QVERIFY2(w.errorDialog()->text().contains(QLatin1String("unreachable-box:/reports/x")),
             qPrintable(w.errorDialog()->text()));
    QVERIFY(w.document() && w.remoteName() == QStringLiteral("fakehost:runs/mlp"));
    w.errorDialog()->close();

    // Cancel in the dialog.
    qputenv("FAKE_SSH_DELAY", "3");
    QVERIFY(w.openPath(QStringLiteral("otherhost:runs/mlp")));
    QTRY_VERIFY_WITH_TIMEOUT(
        w.remoteProgress() && w.remoteProgress()->labelText().startsWith(QLatin1String("Copying")),
        10000);
    auto* cancel = w.remoteProgress()->findChild<QPushButton*>();
    QVERIFY(cancel && cancel->text().contains(QLatin1String("Cancel")));
    QTest::mouseClick(cancel, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!w.remoteFetch(), 10000);
    qunsetenv("FAKE_SSH_DELAY");
    QCOMPARE(w.remoteName(), QStringLiteral("fakehost:runs/mlp"));
  }

  void theCommandLineOpensARemoteReport() {
    const QString png = shotsDir() + QStringLiteral("/remote-summary.png");
    QFile::remove(png);
    QProcess p;
    p.start(viewer_test::viewerExecutable(),
            {QStringLiteral("--screenshot"), png, QStringLiteral("fakehost:runs/mlp")});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 0);
    QVERIFY(QFileInfo(png).size() > 0);

    p.start(viewer_test::viewerExecutable(),
            {QStringLiteral("--screenshot"), png, QStringLiteral("me@denied-host:/data/mlp")});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 1);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(QLatin1String("me@denied-host:/data/mlp")) &&
                 err.contains(QLatin1String("authentication failed")),
             qPrintable(err));
  }
};

int main(int argc, char** argv) {
  // Fresh QSettings and cache locations for this run, made before Qt reads them.
  QTemporaryDir home;
  gHome = &home;
  qputenv("XDG_CONFIG_HOME", (home.path() + QStringLiteral("/config")).toLocal8Bit());
  qputenv("XDG_CACHE_HOME", (home.path() + QStringLiteral("/cache")).toLocal8Bit());
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Tessera"));
  QApplication::setApplicationName(QStringLiteral("tessera-viewer"));
  RemoteTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_remote.moc"
