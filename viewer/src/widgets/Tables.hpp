// One look for the viewer's tables: compact rows, no word wrap (long names elide in the middle,
// where paths differ), the last column stretched.
#pragma once

class QTableView;

namespace tessera::viewer {

void makeCompact(QTableView* view);

} // namespace tessera::viewer
