// Helpers of the libpva tests: reports written by the engine into scratch directories; the
// helpers other suites share too come from tests/common.
#pragma once

#include "common/Exceptions.hpp"
#include "common/RemoteSum.hpp"
#include "common/ReportFiles.hpp"
#include "common/RunProgram.hpp"
#include "common/ScratchDir.hpp"

#include <poplar/Engine.hpp>
#include <pva/pva.hpp>

namespace test {

/// The RemoteSum example (tests/common/RemoteSum.hpp) compiled, loaded and run `runs`
/// times with every report file, then opened with its debug information.
struct RemoteSumReport {
  ScratchDir dir;
  pva::Report report;
  explicit RemoteSumReport(unsigned runs = 1, poplar::OptionFlags extra = {});
};

/// A report of a sample ("mlp", "mlp-big": mlp with --batch 64, "pipeline", "oom"), written once
/// per build into the build tree (TESSERA_SAMPLE_REPORTS_DIR) and shared by the suite's
/// processes; written again when the sample program is rebuilt. Read it; change only copies.
const std::filesystem::path& sampleReport(const std::string& sample);

/// Checks that the stream-copy totals `report` stores (format 1.7) are read without a pass over
/// the steps and equal those of a pass over the steps of `again` (the same file opened on its
/// own, so nothing is shared), run by run and over all runs; returns all runs' total
/// (test_stored_totals.cpp).
std::uint64_t checkStoredEqualsPass(const pva::Report& report, const pva::Report& again);

} // namespace test
