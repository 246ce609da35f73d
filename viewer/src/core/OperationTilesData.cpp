#include "core/OperationTilesData.hpp"

#include <QCoreApplication>
#include <pva/OperationTiles.hpp>

namespace tessera::viewer {

QString OperationTilesData::figureName(Figure f) {
  switch (f) {
  case CodeBytes:
    return QCoreApplication::translate("OperationTiles", "Code (control and exchange)");
  case Vertices:
    return QCoreApplication::translate("OperationTiles", "Vertices");
  case EstimatedCycles:
    return QCoreApplication::translate("OperationTiles", "Estimated cycles (each step once)");
  case EstimatedFlops:
    return QCoreApplication::translate("OperationTiles", "Estimated FLOPs (each compute set once)");
  case ExecutedCycles:
    return QCoreApplication::translate("OperationTiles", "Executed cycles (all runs)");
  case FigureCount:
    break;
  }
  return {};
}

OperationTilesData loadOperationTiles(const Document& doc, std::size_t index, Progress& progress) {
  const pva::Report& report = doc.report();
  const std::vector<pva::Operation> ops = pva::OperationAnalysis(report).operations();
  if (index >= ops.size())
    throw pva::InvalidArgumentError("no operation " + std::to_string(index) + " in " +
                                    report.profilePath());
  if (progress.cancelled()) throw Cancelled{};
  progress.report(0.1);
  const pva::OperationTileFigures f = pva::operationTileFigures(report, ops[index]);
  OperationTilesData d;
  d.operation = QString::fromStdString(ops[index].name());
  d.index = index;
  d.tilesPerIpu = report.compilation().target().tilesPerIpu();
  d.profiled = f.profiled;
  d.executedSteps = f.executedSteps;
  d.values[OperationTilesData::CodeBytes] = f.codeBytes;
  d.values[OperationTilesData::Vertices] = f.vertices;
  d.values[OperationTilesData::EstimatedCycles] = f.estimatedCycles;
  d.values[OperationTilesData::ExecutedCycles] = f.cycles;
  d.hasFlops = !f.estimatedFlops.empty();
  d.values[OperationTilesData::EstimatedFlops] = f.estimatedFlops;
  if (d.hasFlops)
    d.verticesWithoutFlopEstimate = pva::operationFigures(ops[index]).verticesWithoutFlopEstimate;
  return d;
}

} // namespace tessera::viewer
