// Parameters shared by PopLibs' recurrent layers (LSTM, GRU): element type, batch, time steps
// and layer sizes {input size, output size}; the sequence tensors' creators and the types of
// PopLibs' generic RNN loop.
// Differs from PopLibs: sequences are not mapped shard by shard (numShards splits the time
// steps into loops, each step spread over all tiles); a variable number of time steps
// (varTimeSteps) is run by Rnn() (both forms) but refused by the LSTM and GRU layers.
#pragma once

#include <cstddef>
#include <functional>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace popnn {
namespace rnn {

struct RnnParams {
  poplar::Type dataType;
  std::size_t batchSize;
  /// The largest number of time steps (equal to timeSteps unless varTimeSteps is given).
  std::size_t maxTimeSteps;
  std::size_t timeSteps;
  /// Per batch entry, the number of steps to run (unset when all run timeSteps).
  poplar::Tensor varTimeSteps;
  /// {input size, output size}.
  std::vector<std::size_t> layerSizes;

  RnnParams(poplar::Type dataType, std::size_t batchSize, std::size_t timeSteps,
            std::vector<std::size_t> layerSizes);
  RnnParams(poplar::Type dataType, std::size_t batchSize, std::size_t maxTimeSteps,
            const poplar::Tensor& varTimeSteps, std::vector<std::size_t> layerSizes);

  /// The most pieces the time loop may be split into (1: Tessera does not shard the loop).
  std::size_t getMaxShards(const poplar::Graph& graph) const;
  /// Bytes of one step's input and output that land on each tile when spread over all tiles.
  std::size_t getInputBytesPerTile(const poplar::Graph& graph) const;
  std::size_t getOutputBytesPerTile(const poplar::Graph& graph) const;
  /// Whether varTimeSteps was given.
  bool variableTimeSteps() const;
  /// Whether varTimeSteps has one entry per batch element.
  bool batchVariableTimeSteps() const;
};

/// A state tensor [multiple, batchSize, size], size the output size (isOutput) or the input
/// size.
poplar::Tensor createInitialState(poplar::Graph& graph, const RnnParams& params, bool isOutput,
                                  unsigned multiple, unsigned numShards,
                                  const poplar::DebugContext& debugContext = {});

/// A sequence [maxTimeSteps, batchSize, size], each step spread over the tiles.
poplar::Tensor createRecurrentTensor(poplar::Graph& graph, const RnnParams& params, unsigned size,
                                     unsigned numShards,
                                     const poplar::DebugContext& debugContext = {});

/// The input sequence [maxTimeSteps, batchSize, inputSize].
poplar::Tensor createInputTensor(poplar::Graph& graph, const RnnParams& params, unsigned numShards,
                                 const poplar::DebugContext& debugContext = {});

/// The output sequence [maxTimeSteps, batchSize, outputSize].
poplar::Tensor createOutputTensor(poplar::Graph& graph, const RnnParams& params, unsigned numShards,
                                  const poplar::DebugContext& debugContext = {});
/// `multiple` output sequences along the first dimension: [multiple * maxTimeSteps, ...].
poplar::Tensor createOutputTensor(poplar::Graph& graph, const RnnParams& params, unsigned multiple,
                                  unsigned numShards,
                                  const poplar::DebugContext& debugContext = {});

/// tBase shifted one step later: step 0 a copy of tSingle (added to `prog`), step n tBase's
/// step n - 1 (a view).
poplar::Tensor shiftRnnTensor(poplar::Graph& graph, const RnnParams& params,
                              const poplar::Tensor& tBase, const poplar::Tensor& tSingle,
                              poplar::program::Sequence& prog, unsigned numShards,
                              const poplar::DebugContext& debugContext = {});

/// The tensors of one time step.
struct RnnSlice {
  std::vector<poplar::Tensor> inputs;
  poplar::Tensor interimIn;
  poplar::Tensor interimOut;
  std::vector<poplar::Tensor> outputs;
};

/// Per batch entry, whether the step is within its number of steps (and the complement).
struct RnnBatchwiseFlags {
  poplar::Tensor mask;
  poplar::Tensor inverse;
  bool valid() const { return mask.valid(); }
};

struct TimeStepState {
  poplar::Tensor begin;
  poplar::Tensor counter;
  poplar::Tensor variableSeqFlag;
};

/// The body of PopLibs' generic RNN loop, called per shard.
using LoopBodyType = std::function<poplar::program::Sequence(
    poplar::Graph& graph, const TimeStepState& time, const RnnBatchwiseFlags&,
    std::vector<poplar::Tensor>&, const RnnSlice& slice, std::vector<poplar::Tensor>&,
    poplar::program::Sequence*, const poplar::DebugNameAndId&)>;

/// The gather body of PopLibs' generic RNN loop.
using GatherBodyType = std::function<poplar::program::Sequence(
    poplar::Graph& graph, const RnnSlice& slice, unsigned stepsPerGather,
    poplar::program::Sequence*, const poplar::DebugNameAndId&)>;

/// Which state to store in `output` at every step.
struct StateSequence {
  poplar::Tensor output;
  std::size_t stateIndex;
};

/// Runs the cell `loopFn` over the params.maxTimeSteps steps (from the last when `reverse`),
/// split into `numShards` contiguous shards, each a Repeat. Each step the cell gets the state
/// (copies of `initState`, updated in place by the cell and returned at the end), the step's
/// slices of `inputs` and `*interimIn` ([B, ...] rows of the [T, B, ...] sequences), new
/// tensors for the step's `outputs` and `*interimOut` to write, and `created` to fill with
/// tensors of one step of each `created` sequence; afterwards these, and the state
/// `stateSequence.stateIndex` when stateSequence.output is valid, are written into the step's
/// row. TimeStepState: `begin` is the shard's first step and `counter` the step within the
/// shard (their sum the step). With params.varTimeSteps (one limit, or one per batch entry,
/// UNSIGNED_INT or INT) steps at or past the largest limit are not run (their rows are left as
/// they were); when the limits differ per batch entry the flags are `mask` [B] of
/// params.dataType, 1 where the step is below the entry's limit, and `inverse` = 1 - mask, and
/// `variableSeqFlag` (BOOL, rank 0) says whether some entry has passed its limit; otherwise the
/// flags are empty. The cell is called once per shard (once in all with option "codeReuse"
/// "true"); `initProg` is the program for the first call only. Wrong shapes, numShards outside
/// [1, T] or unknown options give poputil::poplibs_error / poplar::invalid_option.
std::vector<poplar::Tensor>
Rnn(poplar::Graph& graph, const RnnParams& params, bool reverse,
    const std::vector<poplar::Tensor>& initState, const StateSequence& stateSequence,
    const std::vector<poplar::Tensor>& inputs, const poplar::Tensor* interimIn,
    poplar::Tensor* interimOut, const std::vector<poplar::Tensor>& outputs,
    const std::vector<poplar::Tensor>& created, poplar::program::Sequence& prog,
    const LoopBodyType& loopFn, unsigned numShards, poplar::OptionFlags& options,
    const poplar::DebugContext& debugContext = {});

/// The gathering form: the cell runs from the last step to the first (always reversed), its
/// `slice.interimOut` a new [numTemps, B, outputSize] tensor of params.dataType each step
/// (there are no outputs or created sequences). Each shard's steps are cut into groups of
/// g = min(stepsPerGather, shard length) from the shard's end, and the first
/// (length mod g) steps; after a group's last step runs, gatherFn gets `slice.interimIn` the
/// group's temporaries [steps * numTemps, B, outputSize] (step order ascending) and
/// `slice.inputs` each of `gatherInputs` sliced to the group's steps and flattened
/// [steps * B, ...], with `stepsPerGather` the group's number of steps; gatherFn's program runs
/// there. Variable time steps and codeReuse as the other form. numTemps or stepsPerGather 0,
/// an empty gatherFn or shapes that do not fit give poputil::poplibs_error.
std::vector<poplar::Tensor>
Rnn(poplar::Graph& graph, const RnnParams& params, const std::vector<poplar::Tensor>& initState,
    const StateSequence& stateSequence, const std::vector<poplar::Tensor>& inputs,
    const poplar::Tensor& interimIn, const unsigned numTemps, poplar::program::Sequence& prog,
    const LoopBodyType& loopFn, const std::vector<poplar::Tensor>& gatherInputs,
    const GatherBodyType& gatherFn, unsigned numShards, unsigned stepsPerGather,
    poplar::OptionFlags& options, const poplar::DebugContext& debugContext = {});

} // namespace rnn
} // namespace popnn
