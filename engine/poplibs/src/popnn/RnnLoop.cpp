// popnn::rnn::Rnn: PopLibs' generic recurrent loop around a user cell (loopFn). The time steps
// are split into numShards contiguous shards; each runs as a Repeat whose body slices every
// input sequence at the current step (popops::dynamicSlice), runs the cell, and writes the
// step's outputs, intermediates, created tensors and the chosen state back into their
// sequences (popops::dynamicUpdate). The step is begin + counter: `begin` is the shard's first
// step, `counter` counts up from 0 (or, in reverse, down from the shard's last step).
// Variable time steps wrap the step in an If (step < the largest limit) and give the cell
// per-batch masks. The gathering form (always reversed) stores each step's temporaries in a
// buffer of one group of steps and runs gatherFn after the group: per shard, a Repeat over the
// full groups (each an inner Repeat over its steps, then the gather) and then the remainder.
#include <algorithm>
#include <poplar/Program.hpp>
#include <popnn/Rnn.hpp>
#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace popnn {
namespace rnn {

using namespace poplar;
using poplar::program::Copy;
using poplar::program::If;
using poplar::program::Repeat;
using poplar::program::Sequence;

namespace {

const std::string kOp = "popnn::rnn::Rnn";

bool parseCodeReuse(const OptionFlags& options) {
  bool codeReuse = false;
  for (const auto& kv : options) {
    if (kv.first != "codeReuse")
      throw poplar::invalid_option(kOp + ": unknown option '" + kv.first +
                                   "' (supported: codeReuse)");
    if (kv.second != "true" && kv.second != "false")
      throw poplar::invalid_option(kOp + ": option codeReuse must be true or false, not '" +
                                   kv.second + "'");
    codeReuse = kv.second == "true";
  }
  return codeReuse;
}

void checkSequence(const Tensor& t, std::size_t steps, const std::string& what) {
  if (t.valid() && (t.rank() < 2 || t.dim(0) != steps))
    throw poputil::poplibs_error(kOp + ": " + what + " must be [" + std::to_string(steps) +
                                 ", ...] (a time step per row), not " + t.shapeToString());
}

Tensor constant(Graph& graph, const Type& type, int value, const DebugContext& dc) {
  const Tensor c = type == INT ? graph.addConstant(INT, {1}, value, dc)
                               : graph.addConstant(UNSIGNED_INT, {1}, unsigned(value), dc);
  graph.setTileMapping(c, 0);
  return c;
}

} // namespace

namespace {

/// What the gathering form adds to the loop.
struct Gather {
  unsigned numTemps = 0;
  unsigned stepsPerGather = 0;
  const std::vector<Tensor>* inputs = nullptr;
  const GatherBodyType* fn = nullptr;
};

std::vector<Tensor> rnnLoop(Graph& graph, const RnnParams& params, bool reverse,
                            const std::vector<Tensor>& initState,
                            const StateSequence& stateSequence, const std::vector<Tensor>& inputs,
                            const Tensor* interimIn, Tensor* interimOut,
                            const std::vector<Tensor>& outputs, const std::vector<Tensor>& created,
                            Sequence& prog, const LoopBodyType& loopFn, unsigned numShards,
                            OptionFlags& options, const Gather& gather,
                            const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Rnn");
  const bool codeReuse = parseCodeReuse(options);
  if (!loopFn) throw poputil::poplibs_error(kOp + ": loopFn is empty");
  const bool gathering = gather.fn != nullptr;
  if (params.variableTimeSteps()) {
    const Tensor& v = params.varTimeSteps;
    if (v.rank() != 1 || (v.dim(0) != 1 && v.dim(0) != params.batchSize))
      throw poputil::poplibs_error(kOp + ": varTimeSteps must be [1] or [batchSize], not " +
                                   v.shapeToString());
    if (v.elementType() != UNSIGNED_INT && v.elementType() != INT)
      throw poputil::poplibs_error(kOp + ": varTimeSteps must be UNSIGNED_INT or INT, not " +
                                   v.elementType().toString());
  }
  const std::size_t T = params.maxTimeSteps;
  if (T == 0) throw poputil::poplibs_error(kOp + ": maxTimeSteps must be non-zero");
  if (numShards == 0 || numShards > T)
    throw poputil::poplibs_error(kOp + ": numShards must be between 1 and maxTimeSteps (" +
                                 std::to_string(T) + "), not " + std::to_string(numShards));
  for (std::size_t i = 0; i < inputs.size(); ++i)
    checkSequence(inputs[i], T, "inputs[" + std::to_string(i) + "]");
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i].valid())
      throw poputil::poplibs_error(kOp + ": outputs[" + std::to_string(i) + "] is not a tensor");
    checkSequence(outputs[i], T, "outputs[" + std::to_string(i) + "]");
  }
  for (std::size_t i = 0; i < created.size(); ++i) {
    if (!created[i].valid())
      throw poputil::poplibs_error(kOp + ": created[" + std::to_string(i) + "] is not a tensor");
    checkSequence(created[i], T, "created[" + std::to_string(i) + "]");
  }
  if (interimIn) checkSequence(*interimIn, T, "interimIn");
  if (interimOut) checkSequence(*interimOut, T, "interimOut");
  if (stateSequence.output.valid()) {
    checkSequence(stateSequence.output, T, "stateSequence.output");
    if (stateSequence.stateIndex >= initState.size() ||
        !initState[stateSequence.stateIndex].valid())
      throw poputil::poplibs_error(
          kOp + ": stateSequence.stateIndex " + std::to_string(stateSequence.stateIndex) +
          " names no state tensor (there are " + std::to_string(initState.size()) + ")");
  }

  // The state the cell updates in place, starting from a copy of initState.
  std::vector<Tensor> state;
  for (std::size_t i = 0; i < initState.size(); ++i) {
    if (!initState[i].valid()) {
      state.push_back(initState[i]);
      continue;
    }
    state.push_back(graph.clone(initState[i], {di, "state" + std::to_string(i)}));
    prog.add(Copy(initState[i], state.back(), false, {di, "initState"}));
  }

  // The cell sees unsigned `begin` and `counter`, as PopLibs'; popops adds signed integers, so
  // the step is worked out in INT copies and cast.
  const Tensor begin = graph.addVariable(UNSIGNED_INT, {1}, {di, "shardBegin"});
  const Tensor counter = graph.addVariable(UNSIGNED_INT, {1}, {di, "counter"});
  const Tensor beginInt = graph.addVariable(INT, {1}, {di, "shardBeginInt"});
  const Tensor counterInt = graph.addVariable(INT, {1}, {di, "counterInt"});
  for (const Tensor& t : {begin, counter, beginInt, counterInt})
    graph.setTileMapping(t, 0);
  const Tensor one = constant(graph, INT, 1, {di, "one"});

  // Variable time steps: the limits as INT, their largest (the steps run) and smallest.
  Tensor limits, maxLimit, minLimit;
  if (params.variableTimeSteps()) {
    limits = popops::cast(graph, params.varTimeSteps, INT, prog, {di, "timeStepLimits"});
    maxLimit =
        popops::reduce(graph, limits, {0}, {popops::Operation::MAX}, prog, {di, "maxTimeSteps"})
            .reshape({1});
    minLimit =
        popops::reduce(graph, limits, {0}, {popops::Operation::MIN}, prog, {di, "minTimeSteps"})
            .reshape({1});
  }

  // Gathering: each step's temporaries go into a buffer of one group of steps
  // [g, numTemps, B, outputSize], at `gatherOffset` (counting down from g - 1 in each group).
  Tensor gatherBuffer, gatherOffset;
  std::size_t groupSteps = 0;
  if (gathering) {
    const std::size_t longest = (T + numShards - 1) / numShards;
    groupSteps = std::min<std::size_t>(gather.stepsPerGather, longest);
    gatherBuffer = graph.addVariable(
        params.dataType, {groupSteps, gather.numTemps, params.batchSize, params.layerSizes[1]},
        {di, "gatherBuffer"});
    poputil::mapTensorLinearly(graph, gatherBuffer);
    // Steps past a variable limit write nothing: their part of a group reads as zeros.
    if (params.variableTimeSteps()) popops::zero(graph, gatherBuffer, prog, {di, "gatherBuffer"});
    gatherOffset = graph.addVariable(INT, {1}, {di, "gatherOffset"});
    graph.setTileMapping(gatherOffset, 0);
  }

  // One loop body: slice the step, run the cell, write the step back, move the counter.
  const auto makeBody = [&](unsigned shard, Sequence* initProg) {
    const DebugNameAndId dnai(DebugContext(di, "shard/" + std::to_string(shard)));
    Sequence outer({}, {di, "step"});
    popops::castWithOutput(graph, counterInt, counter, outer, {di, "counter"});
    const Tensor stepInt = popops::add(graph, beginInt, counterInt, outer, {di, "step"});
    // With variable time steps the step runs only below the largest limit.
    Sequence body({}, {di, "stepBody"});
    const Tensor index = popops::cast(graph, stepInt, UNSIGNED_INT, body, {di, "step"});
    RnnBatchwiseFlags flags;
    Tensor variableSeqFlag;
    if (params.variableTimeSteps()) {
      variableSeqFlag =
          popops::gteq(graph, stepInt, minLimit, body, {di, "pastShortest"}).reshape({});
      if (params.batchVariableTimeSteps()) {
        const Tensor within = popops::gt(graph, limits, stepInt, body, {di, "withinLimit"});
        flags.mask = popops::cast(graph, within, params.dataType, body, {di, "mask"});
        flags.inverse =
            popops::cast(graph, popops::logicalNot(graph, within, body, {di, "pastLimit"}),
                         params.dataType, body, {di, "maskInverse"});
      }
    }
    const auto sliced = [&](const Tensor& t, const char* what) {
      if (!t.valid()) return t;
      return popops::dynamicSlice(graph, t, index, {0}, {1}, body, {di, what}).squeeze({0});
    };
    RnnSlice slice;
    for (const Tensor& in : inputs)
      slice.inputs.push_back(sliced(in, "sliceInput"));
    if (interimIn) slice.interimIn = sliced(*interimIn, "sliceInterimIn");
    if (interimOut) slice.interimOut = graph.clone((*interimOut)[0], {di, "interimOutSlice"});
    if (gathering) slice.interimOut = graph.clone(gatherBuffer[0], {di, "interimOutSlice"});
    for (const Tensor& out : outputs)
      slice.outputs.push_back(graph.clone(out[0], {di, "outputSlice"}));
    std::vector<Tensor> createdSlices(created.size());
    const TimeStepState time{begin, counter, variableSeqFlag};
    body.add(loopFn(graph, time, flags, state, slice, createdSlices, initProg, dnai));
    const auto update = [&](const Tensor& t, const Tensor& s, const std::string& what) {
      if (!s.valid() || s.shape() != t[0].shape())
        throw poputil::poplibs_error(kOp + ": the cell's " + what + " must have shape " +
                                     t[0].shapeToString() + ", not " +
                                     (s.valid() ? s.shapeToString() : std::string("(none)")));
      popops::dynamicUpdate(graph, t, s.expand({0}), index, {0}, {1}, body, {di, what});
    };
    if (interimOut) update(*interimOut, slice.interimOut, "interimOut");
    if (stateSequence.output.valid())
      update(stateSequence.output, state[stateSequence.stateIndex], "stateSequence");
    for (std::size_t i = 0; i < outputs.size(); ++i)
      update(outputs[i], slice.outputs[i], "outputs[" + std::to_string(i) + "]");
    for (std::size_t i = 0; i < created.size(); ++i)
      update(created[i], createdSlices[i], "created[" + std::to_string(i) + "]");
    if (gathering) {
      if (!slice.interimOut.valid() || slice.interimOut.shape() != gatherBuffer[0].shape())
        throw poputil::poplibs_error(kOp + ": the cell's interimOut must have shape " +
                                     gatherBuffer[0].shapeToString());
      const Tensor offset =
          popops::cast(graph, gatherOffset, UNSIGNED_INT, body, {di, "gatherOffset"});
      popops::dynamicUpdate(graph, gatherBuffer, slice.interimOut.expand({0}), offset, {0}, {1},
                            body, {di, "gatherBuffer"});
    }
    if (params.variableTimeSteps()) {
      const Tensor run = popops::lt(graph, stepInt, maxLimit, outer, {di, "belowLimit"});
      outer.add(If(run.reshape({}), body, Sequence(), {di, "variableTimeSteps"}));
    } else {
      outer.add(body);
    }
    if (gathering) popops::subInPlace(graph, gatherOffset, one, outer, {di, "gatherOffset"});
    if (reverse)
      popops::subInPlace(graph, counterInt, one, outer, {di, "counter"});
    else
      popops::addInPlace(graph, counterInt, one, outer, {di, "counter"});
    return outer;
  };

  // Calls gatherFn on `steps` steps starting at the step (begin + first) held by `firstStep`,
  // whose temporaries fill the buffer's last `steps` rows (written at offsets g-steps..g-1).
  const auto makeGather = [&](const Tensor& firstStep, std::size_t steps, unsigned shard,
                              Sequence* initProg) {
    Sequence seq({}, {di, "gather"});
    RnnSlice slice;
    for (const Tensor& in : *gather.inputs) {
      if (!in.valid()) {
        slice.inputs.push_back(in);
        continue;
      }
      slice.inputs.push_back(
          popops::dynamicSlice(graph, in, firstStep, {0}, {steps}, seq, {di, "gatherInput"})
              .flatten(0, 2));
    }
    slice.interimIn = gatherBuffer.slice(groupSteps - steps, groupSteps).flatten(0, 2);
    seq.add((*gather.fn)(graph, slice, unsigned(steps), initProg,
                         DebugNameAndId(DebugContext(di, "gather/" + std::to_string(shard)))));
    return seq;
  };
  const Tensor resetOffset =
      gathering ? constant(graph, INT, int(groupSteps) - 1, {di, "g"}) : Tensor();

  Sequence reused;
  for (unsigned n = 0; n < numShards; ++n) {
    // Shards in processing order: the last first when reversed.
    const unsigned shard = reverse ? numShards - 1 - n : n;
    const std::size_t first = T * shard / numShards, last = T * (shard + 1) / numShards;
    const std::size_t length = last - first;
    prog.add(Copy(constant(graph, UNSIGNED_INT, int(first), {di, "begin"}), begin, false,
                  {di, "shardBegin"}));
    prog.add(
        Copy(constant(graph, INT, int(first), {di, "begin"}), beginInt, false, {di, "shardBegin"}));
    prog.add(Copy(constant(graph, INT, reverse ? int(length - 1) : 0, {di, "counterInit"}),
                  counterInt, false, {di, "counterInit"}));
    Sequence stepProg;
    if (!codeReuse || n == 0) {
      stepProg = makeBody(shard, n == 0 ? &prog : nullptr);
      if (codeReuse) reused = stepProg;
    } else {
      stepProg = reused;
    }
    if (!gathering) {
      prog.add(Repeat(unsigned(length), stepProg, {di, "timeSteps"}));
      continue;
    }
    // Reversed: full groups from the shard's end, then the first (length mod g) steps.
    const std::size_t g = std::min<std::size_t>(gather.stepsPerGather, length);
    const std::size_t groups = length / g;
    const std::size_t rest = length % g;
    Sequence* gatherInit = n == 0 ? &prog : nullptr;
    if (groups) {
      // After a group's steps the counter is one below the group's first step.
      Sequence group({}, {di, "gatherGroup"});
      group.add(Copy(resetOffset, gatherOffset, false, {di, "gatherOffset"}));
      group.add(Repeat(unsigned(g), stepProg, {di, "timeSteps"}));
      const Tensor groupFirst = popops::cast(
          graph,
          popops::add(graph, popops::add(graph, beginInt, counterInt, group, {di, "groupStart"}),
                      one, group, {di, "groupStart"}),
          UNSIGNED_INT, group, {di, "groupStart"});
      group.add(makeGather(groupFirst, g, shard, gatherInit));
      prog.add(Repeat(unsigned(groups), group, {di, "gatherGroups"}));
      gatherInit = nullptr;
    }
    if (rest) {
      prog.add(Copy(resetOffset, gatherOffset, false, {di, "gatherOffset"}));
      prog.add(Repeat(unsigned(rest), stepProg, {di, "timeSteps"}));
      prog.add(makeGather(constant(graph, UNSIGNED_INT, int(first), {di, "restStart"}), rest, shard,
                          gatherInit));
    }
  }
  return state;
}

} // namespace

std::vector<Tensor> Rnn(Graph& graph, const RnnParams& params, bool reverse,
                        const std::vector<Tensor>& initState, const StateSequence& stateSequence,
                        const std::vector<Tensor>& inputs, const Tensor* interimIn,
                        Tensor* interimOut, const std::vector<Tensor>& outputs,
                        const std::vector<Tensor>& created, Sequence& prog,
                        const LoopBodyType& loopFn, unsigned numShards, OptionFlags& options,
                        const DebugContext& debugContext) {
  return rnnLoop(graph, params, reverse, initState, stateSequence, inputs, interimIn, interimOut,
                 outputs, created, prog, loopFn, numShards, options, Gather{}, debugContext);
}

std::vector<Tensor> Rnn(Graph& graph, const RnnParams& params, const std::vector<Tensor>& initState,
                        const StateSequence& stateSequence, const std::vector<Tensor>& inputs,
                        const Tensor& interimIn, const unsigned numTemps, Sequence& prog,
                        const LoopBodyType& loopFn, const std::vector<Tensor>& gatherInputs,
                        const GatherBodyType& gatherFn, unsigned numShards, unsigned stepsPerGather,
                        OptionFlags& options, const DebugContext& debugContext) {
  if (!gatherFn) throw poputil::poplibs_error(kOp + ": gatherFn is empty");
  if (numTemps == 0) throw poputil::poplibs_error(kOp + ": numTemps must be non-zero");
  if (stepsPerGather == 0) throw poputil::poplibs_error(kOp + ": stepsPerGather must be non-zero");
  if (params.layerSizes.size() != 2)
    throw poputil::poplibs_error(kOp + ": layerSizes must be {input size, output size}");
  for (std::size_t i = 0; i < gatherInputs.size(); ++i)
    checkSequence(gatherInputs[i], params.maxTimeSteps, "gatherInputs[" + std::to_string(i) + "]");
  const Gather gather{numTemps, stepsPerGather, &gatherInputs, &gatherFn};
  return rnnLoop(graph, params, true, initState, stateSequence, inputs,
                 interimIn.valid() ? &interimIn : nullptr, nullptr, {}, {}, prog, loopFn, numShards,
                 options, gather, debugContext);
}

} // namespace rnn
} // namespace popnn
