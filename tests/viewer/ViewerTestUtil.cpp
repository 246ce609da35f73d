// Fixture paths and waiting helpers for the viewer tests.
#include "ViewerTestUtil.hpp"

#include "widgets/Page.hpp"

#include <QDir>
#include <QImage>
#include <QSet>
#include <QTest>

namespace viewer_test {

static QString fixture(const char* name) { return QDir(QStringLiteral(VIEWER_FIXTURES_DIR)).filePath(QString::fromLatin1(name)); }

QString mlpReport() { return fixture("mlp"); }
QString mlpBigReport() { return fixture("mlp-big"); }
QString pipelineReport() { return fixture("pipeline"); }
QString oomReport() { return fixture("oom"); }
QString traceFile() { return fixture("trace.pvti"); }
QString testDataDir() { return QStringLiteral(VIEWER_TEST_DATA_DIR); }
QString viewerExecutable() { return QStringLiteral(VIEWER_EXECUTABLE); }

QString tmpDir(const QString& name) {
  QDir dir(QDir(QStringLiteral(VIEWER_TMP_DIR)).filePath(name));
  dir.removeRecursively();
  dir.mkpath(QStringLiteral("."));
  return dir.absolutePath();
}

std::unique_ptr<QAbstractItemModelTester> checkModel(QAbstractItemModel* model) {
  return std::make_unique<QAbstractItemModelTester>(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
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

} // namespace viewer_test
