// Programs of the compiled control program (report.compilation().programs()), one class per
// program type, and ProgramVisitor to dispatch on the type.
//
//   struct CountExchanges : pva::ProgramVisitor {
//     unsigned n = 0;
//     void visitDoExchange(const pva::DoExchangeProgram&) override { ++n; }
//   };
//   CountExchanges v;
//   for (const auto& p : report.compilation().programs()) p->accept(v);
#pragma once

#include <pva/Fwd.hpp>
#include <string>

namespace pva {

class ProgramVisitor;

/// A variable a program reads or writes.
class ProgramVariable {
public:
  enum class Access { Read, Write, ReadWrite };
  /// As stored in the report: "read", "write", "readWrite".
  static const std::string& accessName(Access a);
  std::uint64_t _id() const { return id_; }
  const std::string& name() const { return name_; }
  std::uint64_t bytes() const { return bytes_; }
  bool alwaysLive() const { return alwaysLive_; }
  Access access() const { return access_; }

private:
  friend struct detail::Access;
  std::uint64_t id_ = 0, bytes_ = 0;
  std::string name_;
  bool alwaysLive_ = false;
  Access access_ = Access::Read;
};

class Program {
public:
  /// The same members, in the same order, as the report format's program types.
  enum class Type {
    Sequence,
    Repeat,
    RepeatWhileTrue,
    RepeatWhileFalse,
    If,
    Switch,
    Call,
    OnEveryTileSwitch,
    OnTileExecute,
    DoExchange,
    GlobalExchange,
    StreamCopyBegin,
    StreamCopyMid,
    StreamCopyEnd,
    Sync,
    WriteUndef,
    Block,
    Abort,
  };
  static constexpr std::size_t numTypes = 18;
  /// "OnTileExecute", ...
  static const std::string& typeName(Type t);

  virtual ~Program();
  std::uint64_t _id() const { return id_; }
  const std::string& name() const { return name_; }
  Type type() const { return type_; }
  std::vector<ProgramPtr> children() const;
  // The ...ByTile arrays hold one entry per tile of one replica (Target::tilesPerReplica()),
  // zeros included, whatever the program's type (see Target).

  /// Control code bytes on each tile, children included.
  std::vector<std::uint64_t> controlCodeByTile() const;
  std::vector<ProgramVariable> vars() const;
  /// Needs debug information; null otherwise.
  std::shared_ptr<const DebugContext> debugContext() const;
  /// Dispatches to the visitor's visit<Type>; does not visit the children.
  virtual void accept(ProgramVisitor& v) const = 0;

  /// Steps (programs that take cycles): their compile-time cycles on each tile. All zeros for
  /// control programs (isStep() tells them apart).
  std::vector<std::uint64_t> estimatedCyclesByTile() const;
  /// Exchange code bytes on each tile: exchanges and stream copies; all zeros for programs
  /// without exchange code (including exchanges whose data never leaves its tiles).
  std::vector<std::uint64_t> codeBytesByTile() const;
  /// Bytes moved by exchanges and stream copies.
  std::uint64_t dataBytes() const { return dataBytes_; }
  /// INTERNAL, EXTERNAL or GLOBAL for syncs, global exchanges and stream copies; empty otherwise.
  const std::string& syncType() const { return syncType_; }
  /// Steps are the programs an execution records.
  bool isStep() const;

  /// What a stream copy (StreamCopyBegin/Mid/End) moves data to or from: host streams (and
  /// PrintTensor), remote buffers, or both (Mixed). None for other programs; Unknown for stream
  /// copies of reports older than format 1.3, which did not record it.
  enum class StreamCopyDestination { None, Host, RemoteBuffer, Mixed, Unknown };
  StreamCopyDestination streamCopyDestination() const { return streamCopyDestination_; }
  /// "none", "host", "remoteBuffer", "mixed", "unknown".
  static const std::string& streamCopyDestinationName(StreamCopyDestination d);

  bool operator==(const Program& o) const { return id_ == o.id_ && s_ == o.s_; }
  bool operator!=(const Program& o) const { return !(*this == o); }

protected:
  Program() = default;

private:
  friend struct detail::Access;
  // Programs live in the report's cache and are handed out as ProgramPtr sharing ownership of
  // the whole report, so a plain pointer back to it cannot dangle.
  const detail::ReportState* s_ = nullptr;
  std::uint64_t id_ = 0, dataBytes_ = 0;
  std::int64_t debug_ = -1, computeSet_ = -1, repeatCount_ = -1;
  Type type_ = Type::Sequence;
  std::string name_, syncType_;
  StreamCopyDestination streamCopyDestination_ = StreamCopyDestination::None;

protected:
  std::int64_t computeSetId() const { return computeSet_; }
  std::int64_t repeatCountValue() const { return repeatCount_; }
};

#define PVA_PROGRAM_CLASS(TYPE)                                                                    \
  class TYPE##Program : public Program {                                                           \
  public:                                                                                          \
    void accept(ProgramVisitor& v) const override;                                                 \
  }

PVA_PROGRAM_CLASS(Sequence);
PVA_PROGRAM_CLASS(RepeatWhileTrue);
PVA_PROGRAM_CLASS(RepeatWhileFalse);
PVA_PROGRAM_CLASS(If);
PVA_PROGRAM_CLASS(Switch);
PVA_PROGRAM_CLASS(Call);
PVA_PROGRAM_CLASS(OnEveryTileSwitch);
PVA_PROGRAM_CLASS(DoExchange);
PVA_PROGRAM_CLASS(GlobalExchange);
PVA_PROGRAM_CLASS(StreamCopyBegin);
PVA_PROGRAM_CLASS(StreamCopyMid);
PVA_PROGRAM_CLASS(StreamCopyEnd);
PVA_PROGRAM_CLASS(Sync);
PVA_PROGRAM_CLASS(WriteUndef);
PVA_PROGRAM_CLASS(Block);
PVA_PROGRAM_CLASS(Abort);
#undef PVA_PROGRAM_CLASS

class RepeatProgram : public Program {
public:
  void accept(ProgramVisitor& v) const override;
  std::uint64_t repeatCount() const { return static_cast<std::uint64_t>(repeatCountValue()); }
};

class OnTileExecuteProgram : public Program {
public:
  void accept(ProgramVisitor& v) const override;
  /// The compute set it runs (Poplar's spelling; computeSet() is the same).
  ComputeSet computeset() const;
  ComputeSet computeSet() const;
};

/// Visit methods do nothing unless overridden.
class ProgramVisitor {
public:
  virtual ~ProgramVisitor();
  virtual void visitSequence(const SequenceProgram&) {}
  virtual void visitRepeat(const RepeatProgram&) {}
  virtual void visitRepeatWhileTrue(const RepeatWhileTrueProgram&) {}
  virtual void visitRepeatWhileFalse(const RepeatWhileFalseProgram&) {}
  virtual void visitIf(const IfProgram&) {}
  virtual void visitSwitch(const SwitchProgram&) {}
  virtual void visitCall(const CallProgram&) {}
  virtual void visitOnEveryTileSwitch(const OnEveryTileSwitchProgram&) {}
  virtual void visitOnTileExecute(const OnTileExecuteProgram&) {}
  virtual void visitDoExchange(const DoExchangeProgram&) {}
  virtual void visitGlobalExchange(const GlobalExchangeProgram&) {}
  virtual void visitStreamCopyBegin(const StreamCopyBeginProgram&) {}
  virtual void visitStreamCopyMid(const StreamCopyMidProgram&) {}
  virtual void visitStreamCopyEnd(const StreamCopyEndProgram&) {}
  virtual void visitSync(const SyncProgram&) {}
  virtual void visitWriteUndef(const WriteUndefProgram&) {}
  virtual void visitBlock(const BlockProgram&) {}
  virtual void visitAbort(const AbortProgram&) {}
};

} // namespace pva
