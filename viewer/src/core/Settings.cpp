// Preferences persisted with QSettings (organisation "Tessera", application "tessera-viewer").
#include "core/Settings.hpp"

#include <QSettings>

namespace tessera::viewer {

Settings& Settings::instance() {
  static Settings* settings = new Settings; // lives as long as the application
  return *settings;
}

Settings::Settings() {
  QSettings s;
  MemoryUnits units;
  if (parseMemoryUnits(s.value(QStringLiteral("memoryUnits")).toString(), &units)) m_units = units;
  m_recent = s.value(QStringLiteral("recentFiles")).toStringList();
}

void Settings::save() const {
  QSettings s;
  s.setValue(QStringLiteral("memoryUnits"), memoryUnitsName(m_units));
  s.setValue(QStringLiteral("recentFiles"), m_recent);
}

void Settings::setMemoryUnits(MemoryUnits units, bool remember) {
  if (units == m_units) return;
  m_units = units;
  if (remember) save();
  emit changed();
}

void Settings::addRecentFile(const QString& path) {
  m_recent.removeAll(path);
  m_recent.prepend(path);
  while (m_recent.size() > maxRecent) m_recent.removeLast();
  save();
  emit changed();
}

void Settings::removeRecentFile(const QString& path) {
  if (m_recent.removeAll(path) == 0) return;
  save();
  emit changed();
}

} // namespace tessera::viewer
