// The Execution trace's time axis labels: cycles, and the time at the report's clock. Short
// forms ("1.50 M · 1.13 ms") while they tell the ticks apart; zoomed in until two neighbouring
// ticks would read the same ("1.00 M" twice, issue 37), the cycles are written in full
// ("1,000,020") and the time is left out when it too would repeat. GUI-free (tested alone).
#pragma once

#include <QStringList>
#include <vector>

namespace tessera::viewer {

/// Labels of ticks at `cycles` (increasing), `clockHz` 0 for none: neighbours always differ.
QStringList timelineTickLabels(const std::vector<double>& cycles, double clockHz);

} // namespace tessera::viewer
