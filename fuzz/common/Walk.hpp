// Reads everything a client can reach from a report or a trace, as the viewer, the CLI and
// the Python bindings do, so that damage found lazily (blobs, rows read on first use) is found.
#pragma once

#include <pva/pva.hpp>

namespace fuzz {

/// Every accessor of compilation and execution, a ProgramVisitor over all programs, liveness,
/// lowered variables, blocks, debug contexts and operations; and compare() both ways against
/// `valid` when given.
void walkReport(const pva::Report& report, const pva::Report* valid);

/// Processes, threads, events and their children, instant events, graphs, heatmaps, and the
/// Chrome export.
void walkTrace(const pva::Trace& trace);

} // namespace fuzz
