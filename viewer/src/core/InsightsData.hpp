// The Insights page's content: pva::insights of the document's report, read off the GUI thread.
// The page only lays out these figures; `pva insights` and Python show the same value.
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"

#include <QString>
#include <pva/Insights.hpp>

namespace tessera::viewer {

/// One row of the liveness table: whose bytes, at the model's peak step and at its own.
struct LivenessRow {
  QString scope; ///< "Model (one replica)", "IPU 0", "Tile 17 (IPU 0)"
  pva::LivenessSplit atModelPeak, atOwnPeak;
};

struct InsightsData {
  pva::Insights insights;
  /// The model, each IPU and each worst tile.
  std::vector<LivenessRow> liveness;
  /// One line: "Does not fit: 1,456 tiles over their memory, the worst by 261.4 KiB".
  QString verdict() const;
};

/// Cost: as pva::insights (tile memory columns, liveness steps, vertex types, exchange code);
/// no execution step is read.
InsightsData loadInsights(const Document& doc, Progress& progress);

} // namespace tessera::viewer
