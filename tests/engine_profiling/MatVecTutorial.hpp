// Graphcore's public Poplar tutorial 6 (optimised matrix-vector product, `./tut6 ROWS COLS`) as
// a program of the same shape written with our own code: the tutorial's planner (the column
// split with the lowest estimated cost), its vertex placement and perf estimates, its host
// streams. The fidelity tests run it on an IPU Model and on simulated hardware and compare the
// figures with those the tutorial's README publishes (docs/fidelity.md).
#pragma once

#include <filesystem>
#include <poplar/Device.hpp>
#include <pva/pva.hpp>
#include <string>

namespace test {

struct MatVecRun {
  unsigned split = 0;
  bool correct = false;
  pva::ExecutionSummary figures;
  std::vector<pva::VertexCycleRule> rules; ///< over the whole graph
  std::string summaryText;                 ///< printProfileSummary
};

/// Runs the tutorial's program on `device` (its reports in `dir`). With `codeletFile` the two
/// vertices come from a codelet source written there and compiled by addCodelets, as the
/// tutorial's own matrix-mul-codelets.cpp (counted, so measurable by execution); without, from
/// vertex classes compiled into the test.
MatVecRun runMatVec(poplar::Device& device, unsigned rows, unsigned cols,
                    const std::filesystem::path& dir, bool codeletFile = false);

/// A Mk2 IPU Model set up as the tutorial sets its IPU Model (no sync delay).
poplar::Device tutorialIpuModel(const char* ipuVersion);

} // namespace test
