// The histogram from popops operations: each element compared with every level at once (a
// broadcast [n, L] comparison), the "below level i" counts summed per level, and the bins as
// differences of consecutive counts. PopLibs runs dedicated histogram vertices; the results
// are the same, the cycles those of the operations used here.
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/GatherStatistics.hpp>
#include <popops/Reduce.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/OptionParsing.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using poplar::program::Sequence;

namespace popops {

namespace {

struct HistogramOptions {
  bool floatWithUnsignedOutput = false;
  bool floatOutput = false;
};

HistogramOptions parseOptions(const OptionFlags& flags) {
  HistogramOptions o;
  using poplibs::OptionHandler;
  const poplibs::OptionSpec spec{
      {"useFloatArithmeticWithUnsignedIntOutput",
       OptionHandler::createWithBool(o.floatWithUnsignedOutput)},
      {"useFloatArithmetic", OptionHandler::createWithBool(o.floatOutput)}};
  for (const auto& kv : flags)
    spec.parse(kv.first, kv.second);
  if (o.floatWithUnsignedOutput && o.floatOutput)
    throw poplar::invalid_option("popops::histogram: the options useFloatArithmetic and "
                                 "useFloatArithmeticWithUnsignedIntOutput cannot both be true");
  return o;
}

/// The levels + 1 bin counts of `input`, of `countType` (FLOAT, or INT: popops' arithmetic
/// has no unsigned forms; the callers cast the counts to UNSIGNED_INT).
Tensor counts(Graph& graph, const Tensor& input, const Tensor& levels, bool absoluteOfInput,
              const Type& countType, Sequence& prog, const DebugNameAndId& di) {
  const std::string op = "popops::histogram";
  if (!input.valid() || !levels.valid())
    throw poputil::poplibs_error(op + ": input and levels must be valid tensors");
  if (input.elementType() != levels.elementType())
    throw poputil::poplibs_error(op + ": levels (" + levels.elementType().toString() +
                                 ") must have the input's type (" + input.elementType().toString() +
                                 ")");
  const std::size_t n = input.numElements(), numLevels = levels.numElements();
  if (numLevels == 0) throw poputil::poplibs_error(op + ": levels is empty");
  Tensor x = input.flatten();
  if (absoluteOfInput) x = popops::abs(graph, x, prog, {di, "abs"});
  // below[i] = number of elements < levels[i].
  const Tensor isBelow = popops::lt(
      graph, x.reshape({n, 1}), levels.flatten().reshape({1, numLevels}), prog, {di, "compare"});
  const Tensor asCounts = popops::cast(graph, isBelow, countType, prog, {di, "toCount"});
  const Tensor below =
      popops::reduce(graph, asCounts, countType, {0}, Operation::ADD, prog, {di, "countBelow"});
  // bin i = below[i] - below[i-1], with below[-1] = 0 and below[L] = n.
  Tensor zero = graph.addConstant(countType, {1}, 0u, {di, "zero"});
  Tensor all = graph.addConstant(countType, {1}, unsigned(n), {di, "all"});
  graph.setTileMapping(zero, 0);
  graph.setTileMapping(all, 0);
  return popops::sub(graph, concat(below, all), concat(zero, below), prog, {di, "bins"});
}

} // namespace

Tensor histogram(Graph& graph, const Tensor& input, const Tensor& levels, bool absoluteOfInput,
                 Sequence& prog, const DebugContext& debugContext, const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input, levels, absoluteOfInput));
  const HistogramOptions o = parseOptions(options);
  if (o.floatOutput) return counts(graph, input, levels, absoluteOfInput, FLOAT, prog, {di});
  const Tensor c = counts(graph, input, levels, absoluteOfInput,
                          o.floatWithUnsignedOutput ? FLOAT : INT, prog, {di});
  return popops::cast(graph, c, UNSIGNED_INT, prog, {di});
}

void histogram(Graph& graph, const Tensor& input, Tensor& output, bool updateOutput,
               const Tensor& levels, bool absoluteOfInput, Sequence& prog,
               const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popops::histogram";
  const poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input, levels, absoluteOfInput));
  const HistogramOptions o = parseOptions(options);
  if (o.floatOutput)
    throw poplar::invalid_option(op + ": the option useFloatArithmetic cannot be used when "
                                      "writing into an output tensor");
  if (!output.valid() || !levels.valid() || output.numElements() != levels.numElements() + 1)
    throw poputil::poplibs_error(op + ": output must have one element more than levels");
  if (output.elementType() != UNSIGNED_INT && output.elementType() != FLOAT)
    throw poputil::poplibs_error(op + ": output must be UNSIGNED_INT or FLOAT, not " +
                                 output.elementType().toString());
  if (o.floatWithUnsignedOutput && output.elementType() != UNSIGNED_INT)
    throw poputil::poplibs_error(op + ": useFloatArithmeticWithUnsignedIntOutput needs an "
                                      "UNSIGNED_INT output");
  // A FLOAT output (deprecated) counts in float, as PopLibs decides from its type.
  const Type countType = o.floatWithUnsignedOutput || output.elementType() == FLOAT ? FLOAT : INT;
  Tensor c = counts(graph, input, levels, absoluteOfInput, countType, prog, {di});
  const Tensor out = output.flatten();
  if (updateOutput) {
    // Accumulate in the counting type (no unsigned arithmetic in popops), then store.
    const Tensor previous = out.elementType() == countType
                                ? out
                                : popops::cast(graph, out, countType, prog, {di, "previous"});
    c = popops::add(graph, previous, c, prog, {di, "accumulate"});
  }
  if (c.elementType() != out.elementType())
    c = popops::cast(graph, c, out.elementType(), prog, {di});
  prog.add(program::Copy(c, out, false, {di}));
}

} // namespace popops
