// The main window: opening reports and traces, errors in a dialog instead of a crash, switching
// views, drag and drop, recent files.
#include "ViewerTestUtil.hpp"

#include "core/Settings.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/Page.hpp"

#include <QAbstractButton>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QTest>
#include <QUrl>

using namespace tessera::viewer;

class MainWindowTest : public QObject {
  Q_OBJECT
private slots:
  void opensAReportOnItsPages() {
    MainWindow w;
    w.show();
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    QVERIFY(w.document() && w.document()->isReport());
    QVERIFY(w.currentPage() != nullptr);
    QCOMPARE(w.currentPage()->viewKey(), QStringLiteral("summary"));
    QVERIFY(viewer_test::waitReady(w.currentPage()));
    QVERIFY(w.windowTitle().contains(QStringLiteral("mlp")));
    QCOMPARE(Settings::instance().recentFiles().front(), viewer_test::mlpReport());
    // Every page that takes reports loads.
    for (Page* p : w.pages()) {
      if (!p->accepts(*w.document())) continue;
      QVERIFY2(w.showView(p->viewKey()), qPrintable(p->viewKey()));
      QVERIFY2(viewer_test::waitReady(p), qPrintable(p->viewKey()));
    }
    QVERIFY(!w.showView(QStringLiteral("no-such-view")));
  }
  void badFilesShowAnErrorDialogAndKeepTheOpenReport_data() {
    QTest::addColumn<QString>("path");
    QTest::newRow("missing") << QStringLiteral("/no/such/profile.pop");
    QTest::newRow("random bytes") << viewer_test::testDataDir() + QStringLiteral("/random.pop");
    QTest::newRow("truncated") << viewer_test::testDataDir() + QStringLiteral("/cut.pop");
    QTest::newRow("older version") << viewer_test::testDataDir() + QStringLiteral("/older_major.pop");
  }
  void badFilesShowAnErrorDialogAndKeepTheOpenReport() {
    QFETCH(QString, path);
    MainWindow w;
    w.show();
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    auto before = w.document();
    QVERIFY(!w.openPath(path));
    QMessageBox* box = w.errorDialog();
    QVERIFY(box != nullptr);
    QVERIFY(box->isVisible());
    const QString name = QFileInfo(path).fileName();
    QVERIFY2(box->text().contains(name), qPrintable(box->text()));
    QCOMPARE(w.document(), before);
    box->close();
  }
  void dropOpensAReport() {
    MainWindow w;
    w.show();
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(viewer_test::mlpReport())});
    // As a drag from a file manager arrives: enter (accepted), then drop.
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    QVERIFY(w.document() && w.document()->isReport());
  }
  void aMissingRecentFileCanBeForgotten() {
    const QString gone = viewer_test::tmpDir(QStringLiteral("gone")) + QStringLiteral("/report");
    Settings::instance().addRecentFile(gone);
    MainWindow w;
    w.show();
    QVERIFY(!w.openPath(gone));
    QMessageBox* box = w.errorDialog();
    QVERIFY(box);
    QAbstractButton* forget = nullptr;
    for (QAbstractButton* b : box->buttons())
      if (b->text().contains(QStringLiteral("Remove"))) forget = b;
    QVERIFY(forget);
    forget->click();
    QVERIFY(!Settings::instance().recentFiles().contains(gone));
  }
  void closeReturnsHome() {
    MainWindow w;
    w.show();
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    w.closeDocument();
    QVERIFY(!w.document());
    QVERIFY(w.currentPage() == nullptr);
  }
};

QTEST_MAIN(MainWindowTest)
#include "test_mainwindow.moc"
