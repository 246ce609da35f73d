// Helpers of the libpva tests: reports written by the engine into scratch directories.
#pragma once

#include "ReportTestUtil.hpp"

#include <pva/pva.hpp>

namespace test {

/// The RemoteSum example (see tests/report/ReportTestUtil.hpp) compiled, loaded and run `runs`
/// times with every report file, then opened with its debug information.
struct RemoteSumReport {
  ScratchDir dir;
  pva::Report report;
  explicit RemoteSumReport(unsigned runs = 1, poplar::OptionFlags extra = {});
};

/// Runs a sample program with arguments; returns its exit status.
int runProgram(const std::string& command);

/// A report of a sample, written once per test process into the scratch tree and reused.
const std::filesystem::path& sampleReport(const std::string& sample);

} // namespace test
