// What a program::Program holds: a tree of nodes, read by the engine's compiler.
#pragma once

#include "runtime/CrossReplica.hpp"

#include <poplar/Program.hpp>

namespace poplar::detail {

struct ProgramNode {
  enum class Kind {
    Sequence,
    Execute,
    Copy,
    StreamToDevice,
    StreamFromDevice,
    RemoteToDevice,
    RemoteFromDevice,
    Repeat,
    RepeatWhileTrue,
    RepeatWhileFalse,
    If,
    Switch,
    Call,
    Sync,
    WriteUndef,
    Block,
    PrintTensor,
    Abort,
    CrossReplica,
  };
  Kind kind = Kind::Sequence;
  DebugContext debug;
  std::vector<program::Program> children; ///< bodies; Switch: cases then the default
  ComputeSet computeSet;
  Tensor src, dst; ///< Copy and stream/remote copies
  Tensor scalar;   ///< predicate, control value or remote-buffer row offset
  DataStream stream;
  RemoteBuffer remoteBuffer;
  Function function;
  unsigned count = 0;
  std::vector<std::int32_t> caseValues;
  bool boundsChecked = false; ///< Switch: the default aborts
  SyncType syncType = SyncType::INTERNAL;
  std::string text; ///< PrintTensor title, Abort message
  PrintTensorFmt printFormat;
  runtime::CollectiveSpec collective; ///< CrossReplica: what it computes, over which replicas
};

} // namespace poplar::detail
