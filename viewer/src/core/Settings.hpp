// The viewer's preferences and remembered session, kept with QSettings (organisation "Tessera",
// application "tessera-viewer") and shared by every page: the one place any of them is read.
// Changing one emits changed() so pages re-format what they show at once.
//
// Threads: GUI thread, except thousandsSeparators() and cycleUnits(), which formatting on pool
// threads reads.
#pragma once

#include "core/Format.hpp"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QStringList>

namespace tessera::viewer {

class Settings : public QObject {
  Q_OBJECT
public:
  /// The one instance (created on first use, on the GUI thread).
  static Settings& instance();
  /// Reads everything again from QSettings, as a new process would (tests; "Reset").
  void reload();

  MemoryUnits memoryUnits() const { return units_; }
  /// `remember`: save it for later sessions (false: this process only).
  void setMemoryUnits(MemoryUnits units, bool remember = true);

  // ---- Preferences (Edit > Preferences) ----
  enum class Theme { System, Light, Dark };
  Theme theme() const { return theme_; }
  void setTheme(Theme theme);
  /// Cycle figures as cycles ("1,234,567") or as time at the report's clock ("928 µs").
  enum class CycleUnits { Cycles, Time };
  /// Any thread (formatting on pool threads reads it).
  static CycleUnits cycleUnits();
  void setCycleUnits(CycleUnits units);
  /// Whether counts are grouped by thousands ("1,234,567" or "1234567"). Any thread.
  static bool thousandsSeparators();
  void setThousandsSeparators(bool on);
  /// The view a report opens on (a --view key) when none is remembered for it.
  QString defaultView() const { return defaultView_; }
  void setDefaultView(const QString& viewKey);
  /// Whether the Graph view lays the graph out as soon as it is shown (off: on request).
  bool graphLayoutOnOpen() const { return graphLayoutOnOpen_; }
  void setGraphLayoutOnOpen(bool on);
  /// Whether window geometry, each report's last view and the last session are restored.
  bool restoreSession() const { return restore_ && !restoreOff_; }
  bool restoreSessionPreference() const { return restore_; }
  void setRestoreSession(bool on);
  /// This process only (--no-restore): nothing is restored, whatever the preference says.
  void disableRestoreForThisRun() { restoreOff_ = true; }

  static QString themeName(Theme theme);
  static bool parseTheme(const QString& text, Theme* out);

  // ---- Recent files and comparisons (absolute paths; remote ones as user@host:/path) ----
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
  /// A local path made absolute ("reports/mlp" -> "/home/me/reports/mlp"); a remote one as is.
  static QString absolutePath(const QString& path);

  // ---- The session ----
  /// The last view shown for a document (its absolute path, or "base|current"); empty: none.
  QString lastView(const QString& documentKey) const;
  void setLastView(const QString& documentKey, const QString& viewKey);
  /// What was open when the viewer last closed (or last opened something).
  struct LastSession {
    QStringList paths; ///< one path, or base and current of a comparison
    bool compare = false;
    QString view;
    bool isEmpty() const { return paths.isEmpty(); }
  };
  LastSession lastSession() const;
  void setLastSession(const LastSession& session);
  QByteArray windowGeometry() const;
  QByteArray windowState() const;
  void setWindow(const QByteArray& geometry, const QByteArray& state);

signals:
  void changed();

private:
  Settings();
  void save() const;
  MemoryUnits units_ = MemoryUnits::Binary;
  Theme theme_ = Theme::System;
  QString defaultView_ = QStringLiteral("summary");
  bool graphLayoutOnOpen_ = true;
  bool restore_ = true;
  bool restoreOff_ = false;
  QStringList recent_;
  QList<Comparison> comparisons_;
};

/// Cycles as the Preferences' cycle units say: a count ("1,234,567") or, given the report's
/// clock, the time they take ("928 µs"); without a clock always a count. Any thread.
QString formatCycles(std::uint64_t cycles, double clockHz);

} // namespace tessera::viewer
