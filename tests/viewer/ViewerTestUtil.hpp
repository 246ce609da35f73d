// Shared by the viewer tests: where the fixture's reports are, and waiting for pages to load.
#pragma once

#include <QAbstractItemModelTester>
#include <QImage>
#include <QJsonDocument>
#include <QString>
#include <QStringList>
#include <memory>

namespace tessera::viewer {
class Page;
}

namespace viewer_test {

/// The fixture's reports (directories) and host trace.
QString mlpReport();       ///< two runs of the MLP sample, with debug.cbor
QString mlpBigReport();    ///< the same with --batch 64
QString mlp4RunsReport();  ///< the MLP sample in four runs (64 steps, default batch)
QString mlpBlocksReport(); ///< the MLP sample with lightweight-profiling blocks
QString pipelineReport();  ///< four IPUs
QString oomReport();       ///< out of memory, no execution
QString traceFile();       ///< a .pvti of the MLP run
QString testDataDir();     ///< tests/data: broken files
/// A fresh empty directory for this test's output.
QString tmpDir(const QString& name);
QString viewerExecutable();

/// Processes events until the page is ready (QVERIFY-friendly); false after `seconds`.
bool waitReady(tessera::viewer::Page* page, int seconds = 60);

/// Runs QAbstractItemModelTester on `model` while the result lives; a broken invariant fails the
/// running Qt test.
std::unique_ptr<QAbstractItemModelTester> checkModel(QAbstractItemModel* model);

/// Runs `script` with Debian's python3, the build's `pva` module on its path (`pythonDir`) and
/// `args` as sys.argv[1:], and parses what it prints as JSON. A failure (no exit within
/// `seconds`, a non-zero exit with python's stderr, output that is not JSON) fails the running Qt
/// test and returns a null document.
QJsonDocument runPythonJson(const QString& pythonDir, const QString& script,
                            const QStringList& args, int seconds = 60);

/// Distinct colours in an image (up to `limit`): a rendered view has many, a blank one has 1.
int distinctColors(const QImage& image, int limit = 64);

} // namespace viewer_test
