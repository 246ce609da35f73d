// Lightweight-profiling rows of the Execution trace: lookups and texts over libpva's figures.
#include "core/ExecutionBlocks.hpp"

#include "core/Format.hpp"

#include <QCoreApplication>

namespace tessera::viewer {
namespace {

QString tr(const char* text) {
  return QCoreApplication::translate("ExecutionBlocks", text);
}

QString kindName(ExecBlockInfo::Kind k) {
  switch (k) {
  case ExecBlockInfo::StreamCopy:
    return tr("stream copy");
  case ExecBlockInfo::BlockFlush:
    return tr("buffer flush");
  case ExecBlockInfo::Overflow:
    return tr("overflow (records lost)");
  default:
    return tr("block");
  }
}

} // namespace

const std::vector<ExecBlockInfo>& blockRow(const ExecutionHeader& h, unsigned ipu, unsigned row) {
  static const std::vector<ExecBlockInfo> none;
  const auto& rows = row == 0 ? h.blocks : h.ioBlocks;
  return ipu < rows.size() ? rows[ipu] : none;
}

bool hasBlockRow(const ExecutionHeader& h, unsigned row) {
  for (unsigned ipu = 0; ipu < h.numIpus; ++ipu)
    if (!blockRow(h, ipu, row).empty()) return true;
  return false;
}

unsigned blockRowsOf(const ExecutionHeader& h) {
  return unsigned(hasBlockRow(h, 0)) + unsigned(hasBlockRow(h, 1));
}

QString blockToolTip(const ExecutionHeader& h, const ExecBlockInfo& b, unsigned row) {
  const QString name =
      b.program < h.programs.size() ? h.programs[b.program].name.toHtmlEscaped() : tr("(unknown)");
  QString text = QStringLiteral("<b>%1</b> (%2)<br>%3 cycles, from %4 to %5")
                     .arg(name, kindName(b.kind), formatCount(b.cycles), formatCount(b.from),
                          formatCount(b.to));
  if (row == 0)
    text += tr("<br>recorded by tile %1").arg(h.blocksTile);
  else
    text += tr("<br>recorded by %1 I/O tiles").arg(formatCount(b.tiles));
  if (b.figures < h.blockPrograms.size()) {
    const pva::BlockProgramFigures& f = h.blockPrograms[b.figures];
    text += tr("<br>%1: %2 executions, %3 cycles in all (%4 to %5 each)")
                .arg(name, formatCount(f.count), formatCount(f.cycles), formatCount(f.minCycles),
                     formatCount(f.maxCycles));
  }
  return text;
}

QString blocksStatus(const ExecutionHeader& h) {
  if (!h.hasBlocks()) return tr("no lightweight-profiling blocks");
  return tr("%1 block records on %2 tiles, %3 block programs")
      .arg(formatCount(h.blockRecords), formatCount(h.blockTiles),
           formatCount(h.blockPrograms.size()));
}

QString blocksStatusTip(const ExecutionHeader& h) {
  if (!h.hasBlocks())
    return tr("This report has no lightweight-profiling blocks: the engine options "
              "profiler.blocks.filter (Block programs) or profiler.programs.filter (any program) "
              "record them, with debug.instrumentExternalExchange for stream copies.");
  return tr("Under each IPU: the blocks of its recording tile (profiler.blocks.tile) and, when "
            "stream copies are instrumented, one block per copy its I/O tiles recorded.");
}

} // namespace tessera::viewer
