// Reading the tiles' cycle counters from a program, as on the IPU. In Tessera the counters are
// the simulated ones: the same cycles the execution profile shows (docs/engine.md).
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/SyncType.hpp>
#include <poplar/Tensor.hpp>
#include <vector>

namespace poplar {

/// Times `prog`: it becomes a sync, a counter read on `tile`, the original program, a sync and a
/// second read. Returns an UNSIGNED_INT tensor of 2 elements mapped to `tile`: the cycles
/// between the two reads, lower 32 bits first.
Tensor cycleCount(Graph& graph, program::Sequence& prog, unsigned tile, SyncType syncType,
                  const DebugContext& debugContext = {});
/// The form of older SDKs, which synchronises the tiles of each IPU (SyncType::INTERNAL).
Tensor cycleCount(Graph& graph, program::Sequence& prog, unsigned tile,
                  const DebugContext& debugContext = {});

/// Adds a sync then a read of `tile`'s cycle counter to `prog`. Returns an UNSIGNED_INT tensor of
/// 2 elements mapped to `tile`: the counter's 64-bit value, lower 32 bits first.
Tensor cycleStamp(Graph& graph, program::Sequence& prog, unsigned tile, SyncType syncType,
                  const DebugContext& debugContext = {});
/// One sync, then a read on each of `tiles` (one compute step): one tensor per tile.
std::vector<Tensor> cycleStamp(Graph& graph, program::Sequence& prog,
                               const std::vector<unsigned>& tiles, SyncType syncType,
                               const DebugContext& debugContext = {});
/// The forms of older SDKs (SyncType::INTERNAL).
Tensor cycleStamp(Graph& graph, program::Sequence& prog, unsigned tile,
                  const DebugContext& debugContext = {});
std::vector<Tensor> cycleStamp(Graph& graph, program::Sequence& prog,
                               const std::vector<unsigned>& tiles,
                               const DebugContext& debugContext = {});

} // namespace poplar
