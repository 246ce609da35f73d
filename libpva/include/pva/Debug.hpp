// Debug information (needs openReport(profile, debug.cbor)): the debug context of each program,
// compute set and variable, and the operations that made them.
#pragma once

#include <cstdint>
#include <memory>
#include <pva/Compilation.hpp> // Variable: Operation::vars() holds them by value
#include <pva/Fwd.hpp>
#include <string>
#include <vector>

namespace pva {

class SourceLocation {
public:
  const std::string& fileName() const { return file_; }
  const std::string& functionName() const { return function_; }
  unsigned lineNumber() const { return line_; }

private:
  friend struct detail::Access;
  std::string file_, function_;
  unsigned line_ = 0;
};

class DebugContext {
public:
  std::uint64_t id() const { return id_; }
  const std::string& name() const { return name_; }
  /// Names from the root, joined by '/'.
  const std::string& path() const { return path_; }
  /// The context as a JSON object: {"name", "path", "layer", "opType", "location"}.
  std::string json() const;
  /// {"layer": "user" | "poplibs" | ...} as JSON text.
  std::string layer() const;
  /// The layer's name alone.
  const std::string& layerName() const { return layer_; }
  const std::string& opType() const { return opType_; }
  const SourceLocation& location() const { return location_; }
  /// The enclosing contexts, nearest first.
  std::vector<std::shared_ptr<const DebugContext>> parents() const;

private:
  friend struct detail::Access;
  const detail::ReportState* s_ = nullptr; // cached in the report, handed out sharing its ownership
  std::uint64_t id_ = 0;
  std::int64_t parent_ = -1;
  std::string name_, path_, layer_, opType_;
  SourceLocation location_;
};

/// A liveness step index, or none: what Operation::firstStepIndex() and lastStepIndex() give.
/// Shaped like std::optional<std::uint64_t> (public headers stay C++11): test it before use;
/// value() and `*` throw InvalidArgumentError when there is none. Python sees an int or None.
class StepIndex {
public:
  StepIndex() = default;
  explicit StepIndex(std::uint64_t index) : index_(index), has_(true) {}
  bool has_value() const { return has_; }
  explicit operator bool() const { return has_; }
  std::uint64_t value() const;
  std::uint64_t operator*() const { return value(); }
  std::uint64_t value_or(std::uint64_t none) const { return has_ ? index_ : none; }
  bool operator==(const StepIndex& o) const {
    return has_ == o.has_ && (!has_ || index_ == o.index_);
  }
  bool operator!=(const StepIndex& o) const { return !(*this == o); }

private:
  std::uint64_t index_ = 0;
  bool has_ = false;
};

/// An operation (a PopLibs op call, or a user context that owns programs) and what it made.
class Operation {
public:
  const std::string& name() const { return name_; }
  std::shared_ptr<const DebugContext> debugContext() const { return context_; }
  const std::string& type() const { return context_->opType(); }
  std::vector<ProgramPtr> programs() const;
  std::vector<Variable> vars() const { return vars_; }
  /// First and last liveness steps its programs execute: indices into
  /// CompilationReport::livenessProgramSteps(), both included (first <= last). A control
  /// program (Sequence, Repeat, Switch, Call...) executes the steps of the programs inside it,
  /// so an operation made of control programs spans those steps. None (an empty StepIndex;
  /// None in Python) only for an operation that executes no step, such as the debug context of
  /// a variable: no number is given that could pass for a step.
  StepIndex firstStepIndex() const { return first_; }
  StepIndex lastStepIndex() const { return last_; }
  /// Compile-time cycles of its steps (max over tiles, summed) and bytes of its variables.
  std::uint64_t estimatedCycles() const { return cycles_; }
  std::uint64_t variableBytes() const;
  /// Its report carries FLOP estimates (Report::hasFlopEstimates): operationFigures gives a
  /// FLOP figure, 0 for an operation without compute sets.
  bool hasFlopEstimates() const;

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
  std::string name_;
  std::shared_ptr<const DebugContext> context_;
  std::vector<std::uint64_t> programs_;
  std::vector<Variable> vars_;
  StepIndex first_, last_;
  std::uint64_t cycles_ = 0;
};

class OperationAnalysis {
public:
  /// Throws InvalidArgumentError when the report was opened without debug information.
  explicit OperationAnalysis(const class Report& report);
  std::vector<Operation> operations() const { return operations_; }
  /// The operation owning each program, by program id (CompilationReport::programs()): its
  /// position in operations(), or -1 when no operation owns the program (it has no debug
  /// context). This is the grouping operations() is made from, as a lookup for a step's program.
  const std::vector<std::int64_t>& operationOfProgram() const { return operationOfProgram_; }

private:
  std::vector<Operation> operations_;
  std::vector<std::int64_t> operationOfProgram_;
};

} // namespace pva
