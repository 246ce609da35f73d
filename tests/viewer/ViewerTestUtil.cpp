// Fixture paths and waiting helpers for the viewer tests.
#include "ViewerTestUtil.hpp"

#include "widgets/Page.hpp"

#include <QDir>
#include <QImage>
#include <QJsonParseError>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSet>
#include <QTest>

namespace viewer_test {

static QString fixture(const char* name) {
  return QDir(QStringLiteral(VIEWER_FIXTURES_DIR)).filePath(QString::fromLatin1(name));
}

QString mlpReport() {
  return fixture("mlp");
}
QString mlpBigReport() {
  return fixture("mlp-big");
}
QString mlp4RunsReport() {
  return fixture("mlp-4runs");
}
QString mlpBlocksReport() {
  return fixture("mlp-blocks");
}
QString pipelineReport() {
  return fixture("pipeline");
}
QString oomReport() {
  return fixture("oom");
}
QString traceFile() {
  return fixture("trace.pvti");
}
QString testDataDir() {
  return QStringLiteral(VIEWER_TEST_DATA_DIR);
}
QString viewerExecutable() {
  return QStringLiteral(VIEWER_EXECUTABLE);
}

QString tmpDir(const QString& name) {
  QDir dir(QDir(QStringLiteral(VIEWER_TMP_DIR)).filePath(name));
  dir.removeRecursively();
  dir.mkpath(QStringLiteral("."));
  return dir.absolutePath();
}

std::unique_ptr<QAbstractItemModelTester> checkModel(QAbstractItemModel* model) {
  return std::make_unique<QAbstractItemModelTester>(
      model, QAbstractItemModelTester::FailureReportingMode::QtTest);
}

bool waitReady(tessera::viewer::Page* page, int seconds) {
  return QTest::qWaitFor([page] { return page->isReady(); }, seconds * 1000);
}

int distinctColors(const QImage& image, int limit) {
  QSet<QRgb> colors;
  const QImage img = image.convertToFormat(QImage::Format_RGB32);
  for (int y = 0; y < img.height(); y += 2) {
    const auto* line = reinterpret_cast<const QRgb*>(img.constScanLine(y));
    for (int x = 0; x < img.width(); x += 2) {
      colors.insert(line[x]);
      if (colors.size() >= limit) return limit;
    }
  }
  return int(colors.size());
}

QJsonDocument runPythonJson(const QString& pythonDir, const QString& script,
                            const QStringList& args, int seconds) {
  QProcess python;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("PYTHONPATH"), pythonDir);
  python.setProcessEnvironment(env);
  python.start(QStringLiteral("/usr/bin/python3"),
               QStringList{QStringLiteral("-c"), script} + args);
  if (!python.waitForFinished(seconds * 1000)) {
    QTest::qFail("python3 did not finish", __FILE__, __LINE__);
    return {};
  }
  if (python.exitStatus() != QProcess::NormalExit || python.exitCode() != 0) {
    QTest::qFail(python.readAllStandardError().constData(), __FILE__, __LINE__);
    return {};
  }
  QJsonParseError error;
  QJsonDocument doc = QJsonDocument::fromJson(python.readAllStandardOutput(), &error);
  if (doc.isNull())
    QTest::qFail(qPrintable(QStringLiteral("python3 printed no JSON: ") + error.errorString()),
                 __FILE__, __LINE__);
  return doc;
}

} // namespace viewer_test
