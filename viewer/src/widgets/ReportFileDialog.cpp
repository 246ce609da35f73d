#include "widgets/ReportFileDialog.hpp"

#include <QDir>
#include <QFileInfo>
#include <QLineEdit>

namespace tessera::viewer {

ReportFileDialog::ReportFileDialog(QWidget* parent)
    : QFileDialog(parent, tr("Open a report, report directory or trace")) {
  setObjectName(QStringLiteral("reportFileDialog"));
  setOption(QFileDialog::DontUseNativeDialog);
  setFileMode(QFileDialog::AnyFile); // lets a directory be the selection
  setAcceptMode(QFileDialog::AcceptOpen);
  setNameFilters({tr("Reports and traces (*.pop *.cbor *.pvti)"), tr("All files (*)")});
  setLabelText(QFileDialog::Accept, tr("Open"));
}

bool ReportFileDialog::isReportDirectory(const QString& path) {
  return QFileInfo(path).isDir() &&
         QFileInfo(QDir(path).filePath(QStringLiteral("profile.pop"))).isFile();
}

void ReportFileDialog::accept() {
  const QStringList files = selectedFiles();
  const QString path = files.isEmpty() ? QString() : files.front();
  if (path.isEmpty()) return;
  const QFileInfo info(path);
  if (info.isDir()) {
    if (isReportDirectory(path)) {
      chosen_ = QDir::cleanPath(path);
      done(QDialog::Accepted);
      return;
    }
    // Not a report: enter it, as any file dialog does.
    setDirectory(path);
    if (auto* name = findChild<QLineEdit*>()) name->clear();
    return;
  }
  if (!info.exists()) return; // AnyFile would accept a name that does not exist: opening needs one
  chosen_ = path;
  done(QDialog::Accepted);
}

} // namespace tessera::viewer
