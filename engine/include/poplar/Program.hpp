// Control programs. Programs are values: copying one copies its contents, and adding to a
// Sequence after it was used elsewhere does not change the earlier use.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <poplar/DebugContext.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/PrintTensor.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace poplar {
namespace detail {
struct ProgramNode;
}

namespace program {

class Program {
public:
  Program(); ///< an empty program (runs nothing)
  bool isEmpty() const;
  // Internal: the program's node, read by the engine's compiler.
  std::shared_ptr<const detail::ProgramNode> node() const { return node_; }

protected:
  explicit Program(std::shared_ptr<detail::ProgramNode> n);
  detail::ProgramNode& mutableNode(); ///< copy-on-write
  std::shared_ptr<detail::ProgramNode> node_;
};

namespace sequence_detail {
/// True when every type is a program (C++11: no fold expressions).
template <typename... Ts> struct AllPrograms : std::true_type {};
template <typename T, typename... Ts>
struct AllPrograms<T, Ts...>
    : std::integral_constant<bool, std::is_base_of<Program, typename std::decay<T>::type>::value &&
                                       AllPrograms<Ts...>::value> {};
} // namespace sequence_detail

class Sequence;
namespace sequence_detail {
/// The variadic constructor must not take over copying: Sequence(otherSequence) copies.
template <typename... Ts> struct IsSequenceCopy : std::false_type {};
template <typename T>
struct IsSequenceCopy<T> : std::is_same<typename std::decay<T>::type, Sequence> {};
} // namespace sequence_detail

/// Runs its programs in order.
class Sequence : public Program {
public:
  Sequence(const DebugContext& debugContext = {});
  Sequence(std::initializer_list<Program> programs, const DebugContext& debugContext = {});
  /// Sequence(Execute(a), Copy(x, y), ...): the programs in order.
  template <typename First, typename... Rest,
            typename = typename std::enable_if<
                sequence_detail::AllPrograms<First, Rest...>::value &&
                !sequence_detail::IsSequenceCopy<First, Rest...>::value>::type>
  explicit Sequence(First&& first, Rest&&... rest) : Sequence(DebugContext()) {
    addAll(std::forward<First>(first), std::forward<Rest>(rest)...);
  }
  void add(const Program& p);

private:
  void addAll() {}
  template <typename P, typename... Ps> void addAll(P&& p, Ps&&... ps) {
    add(p);
    addAll(std::forward<Ps>(ps)...);
  }
};

/// One BSP superstep running every vertex of a compute set.
class Execute : public Program {
public:
  Execute(ComputeSet cs, const DebugContext& debugContext = {});
};

/// Copies between tensors, from a host stream to a tensor, from a tensor to a host stream,
/// or between a tensor and a row of a remote buffer.
class Copy : public Program {
public:
  Copy(const Tensor& src, const Tensor& dst, bool dontOutline = false,
       const DebugContext& debugContext = {});
  Copy(const Tensor& src, const Tensor& dst, const char* debugName)
      : Copy(src, dst, false, DebugContext(debugName)) {}
  Copy(const DataStream& stream, const Tensor& dst, bool optimiseMemory = false,
       const DebugContext& debugContext = {});
  Copy(const DataStream& stream, const Tensor& dst, const char* debugName)
      : Copy(stream, dst, false, DebugContext(debugName)) {}
  Copy(const Tensor& src, const DataStream& stream, bool optimiseMemory = false,
       const DebugContext& debugContext = {});
  Copy(const Tensor& src, const DataStream& stream, const char* debugName)
      : Copy(src, stream, false, DebugContext(debugName)) {}
  /// Row 0 of the buffer, or the row given by the scalar integer tensor `offset`.
  Copy(const RemoteBuffer& buffer, const Tensor& dst, const DebugContext& debugContext = {});
  Copy(const RemoteBuffer& buffer, const Tensor& dst, const Tensor& offset,
       const DebugContext& debugContext = {});
  Copy(const Tensor& src, const RemoteBuffer& buffer, const DebugContext& debugContext = {});
  Copy(const Tensor& src, const RemoteBuffer& buffer, const Tensor& offset,
       const DebugContext& debugContext = {});
};

/// Runs `body` count times.
class Repeat : public Program {
public:
  Repeat(unsigned count, const Program& body, const DebugContext& debugContext = {});
};

/// Runs `condition`, then `body` while the scalar `predicate` is non-zero.
class RepeatWhileTrue : public Program {
public:
  RepeatWhileTrue(const Program& condition, const Tensor& predicate, const Program& body,
                  const DebugContext& debugContext = {});
};

/// Runs `condition`, then `body` while the scalar `predicate` is zero.
class RepeatWhileFalse : public Program {
public:
  RepeatWhileFalse(const Program& condition, const Tensor& predicate, const Program& body,
                   const DebugContext& debugContext = {});
};

/// Runs trueBody when the scalar `predicate` is non-zero, otherwise falseBody.
class If : public Program {
public:
  If(const Tensor& predicate, const Program& trueBody, const Program& falseBody = Program(),
     const DebugContext& debugContext = {});
};

/// Runs the case whose value equals the scalar integer `control`, else the default.
class Switch : public Program {
public:
  Switch(const Tensor& control, const DebugContext& debugContext = {});
  Switch(const Tensor& control, const Program& defaultBody, const DebugContext& debugContext = {});
  Switch(const Tensor& control, const std::vector<std::pair<std::int32_t, Program>>& cases,
         const DebugContext& debugContext = {});
  Switch(const Tensor& control, const std::vector<std::pair<std::int32_t, Program>>& cases,
         const Program& defaultBody, const DebugContext& debugContext = {});
  Switch& add(std::int32_t value, const Program& body);
  /// A Switch whose default case aborts with an error naming the out-of-range value.
  static Switch switchWithBoundsChecking(const Tensor& control,
                                         const std::vector<std::pair<std::int32_t, Program>>& cases,
                                         const DebugContext& debugContext = {});
};

/// Runs a Function added with Graph::addFunction.
class Call : public Program {
public:
  Call(Function f, const DebugContext& debugContext = {});
  /// Runs a host function (Graph::addHostFunction): `inputs` go to the host, the callback
  /// connected with Engine::connectHostFunction runs, and its results are written to `outputs`.
  /// Each tensor must match its argument's type and element count.
  Call(HostFunction f, const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs,
       const DebugContext& debugContext = {});
};

/// An explicit synchronisation barrier.
class Sync : public Program {
public:
  Sync(SyncType type, const DebugContext& debugContext = {});
};

/// Marks a tensor's contents as undefined: its value is dead until written again.
class WriteUndef : public Program {
public:
  WriteUndef(const Tensor& t, const DebugContext& debugContext = {});
};

/// Scopes a program for lightweight profiling (profiler.blocks.filter).
class Block : public Program {
public:
  Block(const Program& body, const DebugContext& debugContext);
};

/// Prints a tensor's values on the host as "title: [...]", laid out by a PrintTensorFmt, to
/// standard error as Poplar does (Engine::setPrintTensorStream redirects it).
class PrintTensor : public Program {
public:
  PrintTensor(const Tensor& t, const DebugContext& debugContext = {});
  PrintTensor(const std::string& title, const Tensor& t, const DebugContext& debugContext = {});
  PrintTensor(const std::string& title, const Tensor& t, const PrintTensorFmt& fmt,
              const DebugContext& debugContext = {});
};

/// Copies `src` of each replica to `dst` of another: `replicaMap` maps every source replica to
/// its destination (each replica once as a key and once as a value, none to itself), e.g.
/// {{0, 1}, {1, 2}, {2, 3}, {3, 0}} for a ring of 4. Under poprun the replicas are the job's.
class CrossReplicaCopy : public Program {
public:
  CrossReplicaCopy(Tensor src, Tensor dst, std::map<unsigned, unsigned> replicaMap,
                   const DebugContext& debugContext = {});
};

/// Stops the program with an error when the scalar `predicate` is non-zero.
class AbortOnCondition : public Program {
public:
  AbortOnCondition(const Tensor& predicate, const std::string& message = "",
                   const DebugContext& debugContext = {});
};

} // namespace program
} // namespace poplar
