// The Preferences' theme applied to the whole application: the system's palette, or a light or
// dark one. Charts take their colours from the palette, so they follow.
#pragma once

#include "core/Settings.hpp"

#include <QPalette>

namespace tessera::viewer {

/// The palette of a theme (System: the one the application started with).
QPalette themePalette(Settings::Theme theme);
/// Sets it on the application; every widget repaints.
void applyTheme(Settings::Theme theme);
/// Applies Settings' theme now and whenever it changes (called once, by the main window).
void followThemeSetting();

} // namespace tessera::viewer
