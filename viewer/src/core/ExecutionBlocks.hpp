// The Execution trace's lightweight-profiling lanes: per IPU, the recording tile's blocks (row 0)
// and the stream copies its I/O tiles recorded (row 1), with the text a block's tooltip and the
// page's status line give. The figures are libpva's (pva::analyseBlocks, in ExecutionHeader).
#pragma once

#include "core/ExecutionIndex.hpp"

#include <QString>
#include <vector>

namespace tessera::viewer {

/// The blocks of one row (0: recording tile, 1: I/O tiles) of an IPU; empty when it has none.
const std::vector<ExecBlockInfo>& blockRow(const ExecutionHeader& h, unsigned ipu, unsigned row);
/// Whether any IPU has blocks in that row (every IPU then shows the row).
bool hasBlockRow(const ExecutionHeader& h, unsigned row);
/// How many block rows each IPU shows (0 to 2).
unsigned blockRowsOf(const ExecutionHeader& h);
/// Rich text: the block's program, kind, cycles, where it was recorded and its program's totals.
QString blockToolTip(const ExecutionHeader& h, const ExecBlockInfo& b, unsigned row);
/// The status line's words on lightweight profiling: "27,268 block records on 1,065 tiles, 9
/// block programs", or "no lightweight-profiling blocks".
QString blocksStatus(const ExecutionHeader& h);
/// Its tooltip: what the lanes show, or which engine options record blocks.
QString blocksStatusTip(const ExecutionHeader& h);

} // namespace tessera::viewer
