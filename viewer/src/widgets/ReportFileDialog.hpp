// File > Open's dialog: picks a profile.pop, a debug.cbor or a .pvti as any file dialog does, and
// also a report directory: "Open" on a directory holding a profile.pop opens that report instead
// of entering the directory (other directories are entered as usual). Qt's own dialog (not the
// desktop's), so that choosing a directory behaves the same everywhere.
#pragma once

#include <QFileDialog>

namespace tessera::viewer {

class ReportFileDialog : public QFileDialog {
  Q_OBJECT
public:
  explicit ReportFileDialog(QWidget* parent = nullptr);
  /// What was chosen: a file, or a report directory.
  QString chosenPath() const { return chosen_; }
  /// A directory the viewer opens as a report (it holds a profile.pop).
  static bool isReportDirectory(const QString& path);

public slots:
  void accept() override;

private:
  QString chosen_;
};

} // namespace tessera::viewer
