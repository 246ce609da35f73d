// Histograms of tensors: how many elements fall between consecutive levels.
//
// Options:
//   useFloatArithmeticWithUnsignedIntOutput (true, false) [=false]: count in float, then give
//     UNSIGNED_INT counts (exact up to 2^24 elements a bin).
//   useFloatArithmetic (true, false) [=false]: deprecated; count in float and return FLOAT
//     counts. Not with the option above, nor with the form writing into `output`.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <string>

namespace popops {

/// levels.numElements() + 1 counts: bin 0 holds the elements below levels[0], bin i those in
/// [levels[i-1], levels[i]), the last those at or above the last level. `levels` (ascending, of
/// the input's type) is a tensor so it can change between runs; absoluteOfInput takes |x|.
/// UNSIGNED_INT counts (FLOAT with useFloatArithmetic).
poplar::Tensor histogram(poplar::Graph& graph, const poplar::Tensor& input,
                         const poplar::Tensor& levels, bool absoluteOfInput,
                         poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext = {},
                         const poplar::OptionFlags& options = {});

/// The same into `output` (levels + 1 elements, UNSIGNED_INT or, deprecated, FLOAT); with
/// updateOutput the counts are added to what `output` holds, to accumulate over several calls.
void histogram(poplar::Graph& graph, const poplar::Tensor& input, poplar::Tensor& output,
               bool updateOutput, const poplar::Tensor& levels, bool absoluteOfInput,
               poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
               const poplar::OptionFlags& options = {});

} // namespace popops
