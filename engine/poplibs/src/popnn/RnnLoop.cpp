// popnn::rnn::Rnn: PopLibs' generic recurrent loop around a user cell (loopFn). The time steps
// are split into numShards contiguous shards; each runs as a Repeat whose body slices every
// input sequence at the current step (popops::dynamicSlice), runs the cell, and writes the
// step's outputs, intermediates, created tensors and the chosen state back into their
// sequences (popops::dynamicUpdate). The step is begin + counter: `begin` is the shard's first
// step, `counter` counts up from 0 (or, in reverse, down from the shard's last step).
#include <poplar/Program.hpp>
#include <popnn/Rnn.hpp>
#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace popnn {
namespace rnn {

using namespace poplar;
using poplar::program::Copy;
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

std::vector<Tensor> Rnn(Graph& graph, const RnnParams& params, bool reverse,
                        const std::vector<Tensor>& initState, const StateSequence& stateSequence,
                        const std::vector<Tensor>& inputs, const Tensor* interimIn,
                        Tensor* interimOut, const std::vector<Tensor>& outputs,
                        const std::vector<Tensor>& created, Sequence& prog,
                        const LoopBodyType& loopFn, unsigned numShards, OptionFlags& options,
                        const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Rnn");
  const bool codeReuse = parseCodeReuse(options);
  if (!loopFn) throw poputil::poplibs_error(kOp + ": loopFn is empty");
  if (params.variableTimeSteps())
    throw poputil::poplibs_error(kOp + ": a variable number of time steps (varTimeSteps) is "
                                       "not supported");
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

  // One loop body: slice the step, run the cell, write the step back, move the counter.
  const auto makeBody = [&](unsigned shard, Sequence* initProg) {
    const DebugNameAndId dnai(DebugContext(di, "shard/" + std::to_string(shard)));
    Sequence body({}, {di, "step"});
    popops::castWithOutput(graph, counterInt, counter, body, {di, "counter"});
    const Tensor index =
        popops::cast(graph, popops::add(graph, beginInt, counterInt, body, {di, "step"}),
                     UNSIGNED_INT, body, {di, "step"});
    const auto sliced = [&](const Tensor& t, const char* what) {
      if (!t.valid()) return t;
      return popops::dynamicSlice(graph, t, index, {0}, {1}, body, {di, what}).squeeze({0});
    };
    RnnSlice slice;
    for (const Tensor& in : inputs)
      slice.inputs.push_back(sliced(in, "sliceInput"));
    if (interimIn) slice.interimIn = sliced(*interimIn, "sliceInterimIn");
    if (interimOut) slice.interimOut = graph.clone((*interimOut)[0], {di, "interimOutSlice"});
    for (const Tensor& out : outputs)
      slice.outputs.push_back(graph.clone(out[0], {di, "outputSlice"}));
    std::vector<Tensor> createdSlices(created.size());
    const TimeStepState time{begin, counter, Tensor()};
    body.add(loopFn(graph, time, RnnBatchwiseFlags{}, state, slice, createdSlices, initProg, dnai));
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
    if (reverse)
      popops::subInPlace(graph, counterInt, one, body, {di, "counter"});
    else
      popops::addInPlace(graph, counterInt, one, body, {di, "counter"});
    return body;
  };

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
    if (!codeReuse || n == 0) {
      Sequence body = makeBody(shard, n == 0 ? &prog : nullptr);
      if (codeReuse) reused = body;
      prog.add(Repeat(unsigned(length), body, {di, "timeSteps"}));
    } else {
      prog.add(Repeat(unsigned(length), reused, {di, "timeSteps"}));
    }
  }
  return state;
}

} // namespace rnn
} // namespace popnn
