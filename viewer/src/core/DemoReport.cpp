#include "core/DemoReport.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace tessera::viewer {

QString demoReportPath() {
  const QString dir = QDir::cleanPath(QCoreApplication::applicationDirPath() +
                                      QStringLiteral("/../share/tessera/demo/mlp"));
  return QFileInfo(dir + QStringLiteral("/profile.pop")).isFile() ? dir : QString();
}

} // namespace tessera::viewer
