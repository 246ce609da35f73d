// The viewer's preferences (memory units, theme, recent files and comparisons), kept with QSettings
// and shared by every page. Changing one emits changed() so pages re-format what they show.
#pragma once

#include "core/Format.hpp"

#include <QList>
#include <QObject>
#include <QStringList>

namespace tessera::viewer {

class Settings : public QObject {
  Q_OBJECT
public:
  /// The one instance (created on first use, on the GUI thread).
  static Settings& instance();

  MemoryUnits memoryUnits() const { return units_; }
  /// `remember`: save it for later sessions (false: this process only).
  void setMemoryUnits(MemoryUnits units, bool remember = true);

  /// Most recent first, at most maxRecent entries; a path added again moves to the front.
  QStringList recentFiles() const { return recent_; }
  void addRecentFile(const QString& path);
  void removeRecentFile(const QString& path);
  static constexpr int maxRecent = 16;
  /// Comparisons opened (base and current), most recent first, at most maxRecent; the same pair
  /// again moves to the front.
  struct Comparison {
    QString base, current;
    bool operator==(const Comparison& o) const { return base == o.base && current == o.current; }
  };
  QList<Comparison> recentComparisons() const { return comparisons_; }
  void addRecentComparison(const QString& base, const QString& current);
  void removeRecentComparison(const Comparison& comparison);

signals:
  void changed();

private:
  Settings();
  void save() const;
  MemoryUnits units_ = MemoryUnits::Binary;
  QStringList recent_;
  QList<Comparison> comparisons_;
};

} // namespace tessera::viewer
