// libpva: the reader of Tessera's profile reports (profile.pop, debug.cbor) and host traces.
//
//   #include <pva/pva.hpp>
//   pva::Report report = pva::openReport("reports/mlp/profile.pop", "reports/mlp/debug.cbor");
//   std::cout << report.compilation().target().numTiles() << " tiles, "
//             << report.execution().totalCycles().total() << " cycles\n";
//
// Objects are cheap handles onto the open report; lists are read on first use and cached.
// Reading is thread-safe.
#pragma once

#include <pva/Analysis.hpp>
#include <pva/Blocks.hpp>
#include <pva/Compare.hpp>
#include <pva/Compilation.hpp>
#include <pva/Debug.hpp>
#include <pva/Exception.hpp>
#include <pva/Execution.hpp>
#include <pva/Insights.hpp>
#include <pva/Job.hpp>
#include <pva/OperationTiles.hpp>
#include <pva/OptionalCount.hpp>
#include <pva/Program.hpp>
#include <pva/Report.hpp>
#include <pva/SerializedGraph.hpp>
#include <pva/StepCycleKind.hpp>
#include <pva/Trace.hpp>
#include <pva/TraceAlignment.hpp>
