// The Execution page's figures of a run or of all runs (cycles, parallel efficiency, tile
// balance, tile cycles by kind and bytes in/out per IPU): libpva's pva::analyseExecution, read
// once per report in the background. The viewer derives none of these figures itself.
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"

#include <QString>
#include <memory>
#include <pva/Analysis.hpp>

namespace tessera::viewer {

struct ExecutionFigures {
  /// The sessions' analyses (Session::execution), shared with every other page: never null.
  std::shared_ptr<const pva::ExecutionAnalysis> current;
  std::shared_ptr<const pva::ExecutionAnalysis> base; ///< compare mode: the base report's

  /// The figures of run `run` (-1: all runs) of `analysis`; null when it has no such run.
  static const pva::SpanFigures* span(const pva::ExecutionAnalysis& analysis, int run);
  /// What a span covers, for a heading: "run 'train0'", "all runs".
  static QString describe(const pva::SpanFigures& span);
};

/// The document's (and in compare mode its base's) Session::execution; cancellable.
ExecutionFigures loadExecutionFigures(const Document& doc, Progress& progress);

} // namespace tessera::viewer
