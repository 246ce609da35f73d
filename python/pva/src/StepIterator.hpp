// Python's iterator over execution steps (iter(report.execution.steps)). Each step leaves it by
// move into its Python object, and iteration costs one Python call per step; py::make_iterator
// copies each step and keeps more state per call.
#pragma once

#include <memory>
#include <pva/pva.hpp>
#include <pybind11/pybind11.h>

namespace pvapy {

class StepIterator {
public:
  explicit StepIterator(const pva::ExecutionSteps& steps)
      : steps_(std::make_unique<pva::ExecutionSteps>(steps)), it_(steps_->begin()),
        end_(steps_->end()) {}

  pva::ExecutionStep next() {
    if (it_ == end_) throw pybind11::stop_iteration();
    pva::ExecutionStep step = *it_;
    ++it_;
    return step;
  }

private:
  /// The range the iterators point into: on the heap, so that it stays put when this moves.
  std::unique_ptr<pva::ExecutionSteps> steps_;
  pva::ExecutionSteps::iterator it_, end_;
};

} // namespace pvapy
