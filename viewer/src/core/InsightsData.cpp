#include "core/InsightsData.hpp"

#include "core/Format.hpp"
#include "core/Settings.hpp"

namespace tessera::viewer {

QString InsightsData::verdict() const {
  const MemoryUnits units = Settings::instance().memoryUnits();
  const pva::Insights& in = insights;
  if (in.fits)
    return QObject::tr("Fits: the fullest tile has %1 of %2 left")
        .arg(formatBytes(in.headroomBytes, units), formatBytes(in.bytesPerTile, units));
  QString text =
      in.tilesOutOfMemory == 0
          ? QObject::tr("Does not fit: compilation ran out of memory")
          : QObject::tr("Does not fit: %1 tile(s) over their %2, the worst by %3 (%4 over in all)")
                .arg(formatCount(in.tilesOutOfMemory), formatBytes(in.bytesPerTile, units),
                     formatBytes(in.worstOverBytes, units), formatBytes(in.totalOverBytes, units));
  // The model against the device as a whole: a model larger than all its IPUs' memory cannot fit
  // however it is spread, which the tile counts alone do not say.
  const pva::MemorySummary& m = in.memory;
  if (m.capacityBytes > 0 && m.includingGapsBytes > m.capacityBytes)
    text += QObject::tr(". The model takes %1 (including gaps), %2 times the %3 of its IPUs: it "
                        "cannot fit however it is spread")
                .arg(formatBytes(m.includingGapsBytes, units))
                .arg(double(m.includingGapsBytes) / double(m.capacityBytes), 0, 'f', 2)
                .arg(formatBytes(m.capacityBytes, units));
  return text;
}

InsightsData loadInsights(const Document& doc, Progress& progress) {
  InsightsData d;
  const pva::Report& report = doc.report();
  progress.report(0.1);
  d.insights = pva::insights(report);
  const pva::Insights& in = d.insights;
  d.liveness.push_back({QObject::tr("Model (one replica)"), in.model, in.model});
  for (const pva::IpuInsight& i : in.ipus)
    d.liveness.push_back({QObject::tr("IPU %1").arg(i.ipu), i.atModelPeak, i.atIpuPeak});
  for (const pva::TileInsight& t : in.worstTiles)
    d.liveness.push_back(
        {QObject::tr("Tile %1 (IPU %2)").arg(t.tile).arg(t.ipu), t.atModelPeak, t.atTilePeak});
  progress.report(1.0);
  return d;
}

} // namespace tessera::viewer
