// Several host traces on one time axis, as System Analyser shows the traces of a job's
// processes: each trace is read and indexed on its own (TraceIndex, its level-of-detail rows
// unchanged), libpva's pva::alignTraces says where each starts on the common axis (by the steady
// clock when the traces share one host, else by the wall clock), and the indices are joined into
// one, a lane group per trace.
//
// Threads: off the GUI thread (the Host trace page's background task). Cost: reading and
// indexing each trace, plus one O(events) pass to shift and join them.
#pragma once

#include "core/Document.hpp"
#include "core/TraceIndex.hpp"

#include <pva/TraceAlignment.hpp>

namespace tessera::viewer {

/// Joins indices built by buildTraceIndex, one per trace (parts[i].traces holds trace i), into
/// one on the axis `alignment` gives; groups[i] names part i's lane group.
TraceIndex mergeTraceIndices(std::vector<TraceIndex> parts, const std::vector<QString>& groups,
                             const pva::TraceAlignment& alignment);

/// Reads every trace of `traces`, aligns and joins them (one trace: loadTraceIndex). Progress:
/// reading the files the first half, indexing them the second. Throws pva::Exception naming
/// the file, and Cancelled.
TraceIndex loadTraceIndices(const std::vector<HostTrace>& traces, Progress& progress);

} // namespace tessera::viewer
