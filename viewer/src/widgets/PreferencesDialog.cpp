// The Preferences dialog: a form over Settings.
#include "widgets/PreferencesDialog.hpp"

#include "core/Settings.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace tessera::viewer {

PreferencesDialog::PreferencesDialog(const std::vector<std::pair<QString, QString>>& views,
                                     QWidget* parent)
    : QDialog(parent), theme_(new QComboBox(this)), memoryUnits_(new QComboBox(this)),
      cycleUnits_(new QComboBox(this)), defaultView_(new QComboBox(this)),
      thousands_(new QCheckBox(tr("Group digits by thousands (1,234,567)"), this)),
      graphLayout_(new QCheckBox(tr("Lay out the Graph view as soon as it is shown"), this)),
      restore_(new QCheckBox(tr("Restore the last session, window and views on start"), this)) {
  setWindowTitle(tr("Preferences"));
  setObjectName(QStringLiteral("preferencesDialog"));
  theme_->setObjectName(QStringLiteral("theme"));
  memoryUnits_->setObjectName(QStringLiteral("memoryUnits"));
  cycleUnits_->setObjectName(QStringLiteral("cycleUnits"));
  defaultView_->setObjectName(QStringLiteral("defaultView"));
  thousands_->setObjectName(QStringLiteral("thousandsSeparators"));
  graphLayout_->setObjectName(QStringLiteral("graphLayoutOnOpen"));
  restore_->setObjectName(QStringLiteral("restoreSession"));

  theme_->addItem(tr("System"), Settings::themeName(Settings::Theme::System));
  theme_->addItem(tr("Light"), Settings::themeName(Settings::Theme::Light));
  theme_->addItem(tr("Dark"), Settings::themeName(Settings::Theme::Dark));
  memoryUnits_->addItem(tr("Bytes"), memoryUnitsName(MemoryUnits::Bytes));
  memoryUnits_->addItem(tr("Binary (KiB, MiB)"), memoryUnitsName(MemoryUnits::Binary));
  memoryUnits_->addItem(tr("Decimal (kB, MB)"), memoryUnitsName(MemoryUnits::Decimal));
  cycleUnits_->addItem(tr("Cycles"), QStringLiteral("cycles"));
  cycleUnits_->addItem(tr("Time at the report's clock"), QStringLiteral("time"));
  for (const auto& [key, title] : views)
    defaultView_->addItem(title, key);

  auto* look = new QGroupBox(tr("Appearance and numbers"), this);
  auto* lookForm = new QFormLayout(look);
  lookForm->addRow(tr("&Theme:"), theme_);
  lookForm->addRow(tr("&Memory units:"), memoryUnits_);
  lookForm->addRow(tr("C&ycles shown as:"), cycleUnits_);
  lookForm->addRow(QString(), thousands_);
  auto* open = new QGroupBox(tr("Opening reports"), this);
  auto* openForm = new QFormLayout(open);
  openForm->addRow(tr("&Default view:"), defaultView_);
  auto* note = new QLabel(tr("An out-of-memory report opens on Insights; with the session "
                             "restored, a report opens on the view it was last shown in."),
                          this);
  note->setWordWrap(true);
  openForm->addRow(QString(), note);
  openForm->addRow(QString(), graphLayout_);
  openForm->addRow(QString(), restore_);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(look);
  layout->addWidget(open);
  layout->addStretch();
  layout->addWidget(buttons);

  // Applied live: each change goes to Settings at once, and every page re-formats.
  Settings& s = Settings::instance();
  connect(theme_, &QComboBox::currentIndexChanged, this, [this, &s] {
    Settings::Theme t;
    if (Settings::parseTheme(theme_->currentData().toString(), &t)) s.setTheme(t);
  });
  connect(memoryUnits_, &QComboBox::currentIndexChanged, this, [this, &s] {
    MemoryUnits u;
    if (parseMemoryUnits(memoryUnits_->currentData().toString(), &u)) s.setMemoryUnits(u);
  });
  connect(cycleUnits_, &QComboBox::currentIndexChanged, this, [this, &s] {
    s.setCycleUnits(cycleUnits_->currentData().toString() == QLatin1String("time")
                        ? Settings::CycleUnits::Time
                        : Settings::CycleUnits::Cycles);
  });
  connect(defaultView_, &QComboBox::currentIndexChanged, this,
          [this, &s] { s.setDefaultView(defaultView_->currentData().toString()); });
  connect(thousands_, &QCheckBox::toggled, this, [&s](bool on) { s.setThousandsSeparators(on); });
  connect(graphLayout_, &QCheckBox::toggled, this, [&s](bool on) { s.setGraphLayoutOnOpen(on); });
  connect(restore_, &QCheckBox::toggled, this, [&s](bool on) { s.setRestoreSession(on); });
  connect(&s, &Settings::changed, this, &PreferencesDialog::refresh);
  refresh();
}

void PreferencesDialog::refresh() {
  const Settings& s = Settings::instance();
  const auto select = [](QComboBox* box, const QString& value) {
    const QSignalBlocker block(box);
    const int i = box->findData(value);
    if (i >= 0) box->setCurrentIndex(i);
  };
  select(theme_, Settings::themeName(s.theme()));
  select(memoryUnits_, memoryUnitsName(s.memoryUnits()));
  select(cycleUnits_, Settings::cycleUnits() == Settings::CycleUnits::Time
                          ? QStringLiteral("time")
                          : QStringLiteral("cycles"));
  select(defaultView_, s.defaultView());
  for (auto [box, on] : {std::pair{thousands_, Settings::thousandsSeparators()},
                         std::pair{graphLayout_, s.graphLayoutOnOpen()},
                         std::pair{restore_, s.restoreSessionPreference()}}) {
    const QSignalBlocker block(box);
    box->setChecked(on);
  }
}

} // namespace tessera::viewer
