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
  // Stored as [base, current, base, current, ...].
  const QStringList pairs = s.value(QStringLiteral("recentComparisons")).toStringList();
  for (int i = 0; i + 1 < pairs.size(); i += 2) m_comparisons.append({pairs[i], pairs[i + 1]});
}

void Settings::save() const {
  QSettings s;
  s.setValue(QStringLiteral("memoryUnits"), memoryUnitsName(m_units));
  s.setValue(QStringLiteral("recentFiles"), m_recent);
  QStringList pairs;
  for (const Comparison& c : m_comparisons) pairs << c.base << c.current;
  s.setValue(QStringLiteral("recentComparisons"), pairs);
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

void Settings::addRecentComparison(const QString& base, const QString& current) {
  const Comparison c{base, current};
  m_comparisons.removeAll(c);
  m_comparisons.prepend(c);
  while (m_comparisons.size() > maxRecent) m_comparisons.removeLast();
  save();
  emit changed();
}

void Settings::removeRecentComparison(const Comparison& comparison) {
  if (m_comparisons.removeAll(comparison) == 0) return;
  save();
  emit changed();
}

} // namespace tessera::viewer
