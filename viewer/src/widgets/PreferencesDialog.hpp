// Edit > Preferences: theme, memory and cycle units, thousands separators, the view a report
// opens on, whether the Graph view lays out on open, whether the session is restored. Each
// control writes its Settings preference as soon as it changes (applied live, kept with
// QSettings); there is nothing to confirm.
#pragma once

#include <QDialog>
#include <QString>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;

namespace tessera::viewer {

class PreferencesDialog : public QDialog {
  Q_OBJECT
public:
  /// `views`: the views a report can open on, as (--view key, title).
  explicit PreferencesDialog(const std::vector<std::pair<QString, QString>>& views,
                             QWidget* parent = nullptr);

private:
  /// Shows Settings' values (also when they change elsewhere, e.g. View > Memory units).
  void refresh();
  QComboBox *theme_, *memoryUnits_, *cycleUnits_, *defaultView_;
  QCheckBox *thousands_, *graphLayout_, *restore_;
};

} // namespace tessera::viewer
