// Light and dark palettes. Qt 6.4 cannot ask the desktop for its colour scheme, so "System"
// is the palette the application was started with (the platform theme's).
#include "widgets/Theme.hpp"

#include <QApplication>
#include <QStyle>

namespace tessera::viewer {

namespace {

QPalette startupPalette() {
  static const QPalette palette = QApplication::palette(); // before any theme was applied
  return palette;
}

QPalette darkPalette() {
  QPalette p;
  const QColor window(45, 45, 48), base(30, 30, 32), text(225, 225, 225), disabled(128, 128, 128);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, QColor(40, 40, 43));
  p.setColor(QPalette::ToolTipBase, QColor(60, 60, 64));
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, disabled);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, window);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, QColor(255, 80, 80));
  p.setColor(QPalette::Light, QColor(75, 75, 80));
  p.setColor(QPalette::Midlight, QColor(60, 60, 64));
  p.setColor(QPalette::Mid, QColor(35, 35, 38));
  p.setColor(QPalette::Dark, QColor(20, 20, 22));
  p.setColor(QPalette::Shadow, Qt::black);
  p.setColor(QPalette::Highlight, QColor(42, 130, 218));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(100, 170, 255));
  p.setColor(QPalette::LinkVisited, QColor(170, 140, 255));
  for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, disabled);
  return p;
}

} // namespace

QPalette themePalette(Settings::Theme theme) {
  switch (theme) {
  case Settings::Theme::System:
    return startupPalette();
  case Settings::Theme::Light:
    return QApplication::style()->standardPalette();
  case Settings::Theme::Dark:
    return darkPalette();
  }
  return startupPalette();
}

void applyTheme(Settings::Theme theme) {
  startupPalette(); // captured before the first change
  QApplication::setPalette(themePalette(theme));
}

void followThemeSetting() {
  static bool following = false;
  if (following) return;
  following = true;
  startupPalette();
  static Settings::Theme applied = Settings::Theme::System;
  auto apply = [] {
    const Settings::Theme theme = Settings::instance().theme();
    if (theme == applied) return; // changed() also fires for other preferences
    applied = theme;
    applyTheme(theme);
  };
  QObject::connect(&Settings::instance(), &Settings::changed, qApp, apply);
  apply();
}

} // namespace tessera::viewer
