// Preferences and the remembered session, persisted with QSettings. Every key is spelled here
// once; pages ask Settings, never QSettings.
#include "core/Settings.hpp"

#include "core/RemoteSpec.hpp"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <atomic>

namespace tessera::viewer {

namespace {

// Formatting runs on pool threads too: these two are read there, so they live in atomics.
std::atomic<bool> gThousands{true};
std::atomic<int> gCycleUnits{int(Settings::CycleUnits::Cycles)};

const QString kUnits = QStringLiteral("memoryUnits");
const QString kTheme = QStringLiteral("preferences/theme");
const QString kCycleUnits = QStringLiteral("preferences/cycleUnits");
const QString kThousands = QStringLiteral("preferences/thousandsSeparators");
const QString kDefaultView = QStringLiteral("preferences/defaultView");
const QString kGraphLayout = QStringLiteral("preferences/graphLayoutOnOpen");
const QString kRestore = QStringLiteral("preferences/restoreSession");
const QString kRecent = QStringLiteral("recentFiles");
const QString kComparisons = QStringLiteral("recentComparisons");
const QString kLastViews = QStringLiteral("session/lastViews");
const QString kLastPaths = QStringLiteral("session/lastPaths");
const QString kLastCompare = QStringLiteral("session/lastCompare");
const QString kLastView = QStringLiteral("session/lastView");
const QString kGeometry = QStringLiteral("session/windowGeometry");
const QString kState = QStringLiteral("session/windowState");

/// QSettings keys may not hold '/' or '\\' meaningfully: a document key is stored by its hash.
QString documentKeyName(const QString& documentKey) {
  return QString::fromLatin1(
      QCryptographicHash::hash(documentKey.toUtf8(), QCryptographicHash::Sha1).toHex());
}

} // namespace

Settings& Settings::instance() {
  static Settings* settings = new Settings; // lives as long as the application
  return *settings;
}

Settings::Settings() {
  reload();
}

void Settings::reload() {
  QSettings s;
  MemoryUnits units;
  units_ = parseMemoryUnits(s.value(kUnits).toString(), &units) ? units : MemoryUnits::Binary;
  Theme theme;
  theme_ = parseTheme(s.value(kTheme).toString(), &theme) ? theme : Theme::System;
  gCycleUnits = s.value(kCycleUnits).toString() == QLatin1String("time") ? int(CycleUnits::Time)
                                                                         : int(CycleUnits::Cycles);
  gThousands = s.value(kThousands, true).toBool();
  defaultView_ = s.value(kDefaultView, QStringLiteral("summary")).toString();
  graphLayoutOnOpen_ = s.value(kGraphLayout, true).toBool();
  restore_ = s.value(kRestore, true).toBool();
  recent_ = s.value(kRecent).toStringList();
  // Stored as [base, current, base, current, ...].
  comparisons_.clear();
  const QStringList pairs = s.value(kComparisons).toStringList();
  for (int i = 0; i + 1 < pairs.size(); i += 2)
    comparisons_.append({pairs[i], pairs[i + 1]});
  emit changed();
}

void Settings::save() const {
  QSettings s;
  s.setValue(kUnits, memoryUnitsName(units_));
  s.setValue(kTheme, themeName(theme_));
  s.setValue(kCycleUnits,
             cycleUnits() == CycleUnits::Time ? QStringLiteral("time") : QStringLiteral("cycles"));
  s.setValue(kThousands, thousandsSeparators());
  s.setValue(kDefaultView, defaultView_);
  s.setValue(kGraphLayout, graphLayoutOnOpen_);
  s.setValue(kRestore, restore_);
  s.setValue(kRecent, recent_);
  QStringList pairs;
  for (const Comparison& c : comparisons_)
    pairs << c.base << c.current;
  s.setValue(kComparisons, pairs);
}

void Settings::setMemoryUnits(MemoryUnits units, bool remember) {
  if (units == units_) return;
  units_ = units;
  if (remember) save();
  emit changed();
}

void Settings::setTheme(Theme theme) {
  if (theme == theme_) return;
  theme_ = theme;
  save();
  emit changed();
}

Settings::CycleUnits Settings::cycleUnits() {
  return CycleUnits(gCycleUnits.load());
}

void Settings::setCycleUnits(CycleUnits units) {
  if (units == cycleUnits()) return;
  gCycleUnits = int(units);
  save();
  emit changed();
}

bool Settings::thousandsSeparators() {
  return gThousands.load();
}

void Settings::setThousandsSeparators(bool on) {
  if (on == thousandsSeparators()) return;
  gThousands = on;
  save();
  emit changed();
}

void Settings::setDefaultView(const QString& viewKey) {
  if (viewKey == defaultView_) return;
  defaultView_ = viewKey;
  save();
  emit changed();
}

void Settings::setGraphLayoutOnOpen(bool on) {
  if (on == graphLayoutOnOpen_) return;
  graphLayoutOnOpen_ = on;
  save();
  emit changed();
}

void Settings::setRestoreSession(bool on) {
  if (on == restore_) return;
  restore_ = on;
  save();
  emit changed();
}

QString Settings::themeName(Theme theme) {
  switch (theme) {
  case Theme::System:
    return QStringLiteral("system");
  case Theme::Light:
    return QStringLiteral("light");
  case Theme::Dark:
    return QStringLiteral("dark");
  }
  return {};
}

bool Settings::parseTheme(const QString& text, Theme* out) {
  for (Theme t : {Theme::System, Theme::Light, Theme::Dark})
    if (text == themeName(t)) {
      *out = t;
      return true;
    }
  return false;
}

QString Settings::absolutePath(const QString& path) {
  if (path.isEmpty() || RemoteSpec::parse(path)) return path;
  return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

void Settings::addRecentFile(const QString& path) {
  const QString absolute = absolutePath(path);
  recent_.removeAll(absolute);
  recent_.prepend(absolute);
  while (recent_.size() > maxRecent)
    recent_.removeLast();
  save();
  emit changed();
}

void Settings::removeRecentFile(const QString& path) {
  if (recent_.removeAll(path) + recent_.removeAll(absolutePath(path)) == 0) return;
  save();
  emit changed();
}

void Settings::addRecentComparison(const QString& base, const QString& current) {
  const Comparison c{absolutePath(base), absolutePath(current)};
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

QString Settings::lastView(const QString& documentKey) const {
  return QSettings().value(kLastViews + QLatin1Char('/') + documentKeyName(documentKey)).toString();
}

void Settings::setLastView(const QString& documentKey, const QString& viewKey) {
  QSettings().setValue(kLastViews + QLatin1Char('/') + documentKeyName(documentKey), viewKey);
}

Settings::LastSession Settings::lastSession() const {
  QSettings s;
  LastSession last;
  last.paths = s.value(kLastPaths).toStringList();
  last.compare = s.value(kLastCompare, false).toBool() && last.paths.size() == 2;
  last.view = s.value(kLastView).toString();
  return last;
}

void Settings::setLastSession(const LastSession& session) {
  QSettings s;
  s.setValue(kLastPaths, session.paths);
  s.setValue(kLastCompare, session.compare);
  s.setValue(kLastView, session.view);
}

QByteArray Settings::windowGeometry() const {
  return QSettings().value(kGeometry).toByteArray();
}

QByteArray Settings::windowState() const {
  return QSettings().value(kState).toByteArray();
}

void Settings::setWindow(const QByteArray& geometry, const QByteArray& state) {
  QSettings s;
  s.setValue(kGeometry, geometry);
  s.setValue(kState, state);
}

} // namespace tessera::viewer
