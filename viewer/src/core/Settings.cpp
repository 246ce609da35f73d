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
  if (parseMemoryUnits(s.value(QStringLiteral("memoryUnits")).toString(), &units)) units_ = units;
  recent_ = s.value(QStringLiteral("recentFiles")).toStringList();
  // Stored as [base, current, base, current, ...].
  const QStringList pairs = s.value(QStringLiteral("recentComparisons")).toStringList();
  for (int i = 0; i + 1 < pairs.size(); i += 2)
    comparisons_.append({pairs[i], pairs[i + 1]});
}

void Settings::save() const {
  QSettings s;
  s.setValue(QStringLiteral("memoryUnits"), memoryUnitsName(units_));
  s.setValue(QStringLiteral("recentFiles"), recent_);
  QStringList pairs;
  for (const Comparison& c : comparisons_)
    pairs << c.base << c.current;
  s.setValue(QStringLiteral("recentComparisons"), pairs);
}

void Settings::setMemoryUnits(MemoryUnits units, bool remember) {
  if (units == units_) return;
  units_ = units;
  if (remember) save();
  emit changed();
}

void Settings::addRecentFile(const QString& path) {
  recent_.removeAll(path);
  recent_.prepend(path);
  while (recent_.size() > maxRecent)
    recent_.removeLast();
  save();
  emit changed();
}

void Settings::removeRecentFile(const QString& path) {
  if (recent_.removeAll(path) == 0) return;
  save();
  emit changed();
}

void Settings::addRecentComparison(const QString& base, const QString& current) {
  const Comparison c{base, current};
  comparisons_.removeAll(c);
  comparisons_.prepend(c);
  while (comparisons_.size() > maxRecent)
    comparisons_.removeLast();
  save();
  emit changed();
}

void Settings::removeRecentComparison(const Comparison& comparison) {
  if (comparisons_.removeAll(comparison) == 0) return;
  save();
  emit changed();
}

} // namespace tessera::viewer
