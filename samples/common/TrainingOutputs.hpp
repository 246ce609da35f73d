// The end of a training sample's output (tessera-mlp, tessera-cnn): the profile summary as
// Poplar's printProfileSummary lays it out, then where the sample wrote its files.
#pragma once

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <poplar/Engine.hpp>

namespace tessera::samples {

/// `profiled`: the run wrote reports (the summary reads them). `csvPath`: the loss and accuracy
/// per run the sample wrote.
inline void printSummaryAndOutputs(poplar::Engine& engine, bool profiled,
                                   const std::filesystem::path& csvPath) {
  if (profiled) {
    std::printf("\nProfile summary\n\n");
    std::fflush(stdout); // the summary goes through std::cout: keep the order of the two streams
    engine.printProfileSummary(std::cout);
    std::cout << std::endl;
  }
  std::printf("Outputs: %s (loss and accuracy per run)\n",
              std::filesystem::absolute(csvPath).c_str());
  if (!engine.getReportDirectory().empty())
    std::printf("         %s/{profile.pop,debug.cbor} (profile reports)\n",
                std::filesystem::absolute(engine.getReportDirectory()).c_str());
}

} // namespace tessera::samples
