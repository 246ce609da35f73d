#include "poplibs_support/TileWork.hpp"

#include <popops/Loop.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;

namespace {

void checkCounter(const Tensor& t, const std::string& op, const std::string& name) {
  poplibs_support::checkValid(t, op, name);
  poplibs_support::checkType(t.elementType(), {INT, UNSIGNED_INT}, op, name);
  if (t.numElements() != 1)
    throw poputil::poplibs_error(op + ": " + name + " has shape " + t.shapeToString() +
                                 "; it must be a scalar");
}

/// The tile holding the scalar `t` (tile 0 when it is not mapped yet).
unsigned tileOf(const Graph& graph, const Tensor& t) {
  const auto mapping = graph.getTileMapping(t, false);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    if (!mapping[tile].empty()) return tile;
  return 0;
}

Tensor scalarConstant(Graph& graph, Type type, long long value, unsigned tile,
                      const DebugContext& di) {
  const Tensor c = type == INT ? graph.addConstant(INT, {}, int(value), di)
                               : graph.addConstant(UNSIGNED_INT, {}, unsigned(value), di);
  graph.setTileMapping(c, tile);
  return c;
}

} // namespace

Tensor addForLoopCounterVertex(Graph& graph, const Tensor& count, const Tensor& countLimit,
                               int countStep, unsigned tile, program::Sequence& prog,
                               const DebugContext& di) {
  const std::string op = "popops::addForLoopCounterVertex";
  checkCounter(count, op, "count");
  checkCounter(countLimit, op, "countLimit");
  if (count.elementType() != countLimit.elementType())
    throw poputil::poplibs_error(op + ": count is " + count.elementType().toString() +
                                 " but countLimit is " + countLimit.elementType().toString());
  if (tile >= graph.getTarget().getNumTiles())
    throw poputil::poplibs_error(op + ": tile " + std::to_string(tile) + " is not in the graph");
  const Tensor result = graph.addVariable(UNSIGNED_INT, {}, {di, "loopPredicate"});
  graph.setTileMapping(result, tile);
  const ComputeSet cs = graph.addComputeSet(di);
  auto v =
      graph.addVertex(cs, poputil::templateVertex("popops::ForLoopCounter", count.elementType()));
  graph.connect(v["count"], count.reshape({}));
  graph.connect(v["limit"], countLimit.reshape({}));
  graph.connect(v["comparisonResult"], result);
  graph.setInitialValue(v["increment"], countStep);
  graph.setTileMapping(v, tile);
  prog.add(program::Execute(cs, di));
  return result;
}

program::Sequence countedForLoop(Graph& graph, const Tensor& count, int initialCount,
                                 const Tensor& countLimit, int countStep,
                                 const program::Program& body, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "countedForLoop");
  const std::string op = "popops::countedForLoop";
  checkCounter(count, op, "count");
  checkCounter(countLimit, op, "countLimit");
  if (countStep == 0) throw poputil::poplibs_error(op + ": countStep is 0");
  const unsigned tile = tileOf(graph, count);
  // The condition steps the counter before each test, so it starts one step early.
  program::Sequence prog({}, di);
  prog.add(
      program::Copy(scalarConstant(graph, count.elementType(), (long long)initialCount - countStep,
                                   tile, {di, "initialCount"}),
                    count.reshape({}), false, di));
  program::Sequence condition({}, di);
  const Tensor predicate =
      addForLoopCounterVertex(graph, count, countLimit, countStep, tile, condition, di);
  prog.add(program::RepeatWhileTrue(condition, predicate, body, di));
  return prog;
}

program::Sequence countedForLoop(Graph& graph, int initialCount, const Tensor& countLimit,
                                 int countStep, const program::Program& body,
                                 const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "countedForLoop");
  checkCounter(countLimit, "popops::countedForLoop", "countLimit");
  const Tensor count = graph.addVariable(countLimit.elementType(), {}, {di, "count"});
  graph.setTileMapping(count, tileOf(graph, countLimit));
  return countedForLoop(graph, count, initialCount, countLimit, countStep, body, di);
}

program::Sequence countedLoop(Graph& graph, std::size_t begin, std::size_t end, size_t step,
                              const CountedLoopBodyType& body, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "countedLoop");
  const std::string op = "popops::countedLoop";
  if (step == 0) throw poputil::poplibs_error(op + ": step is 0; it must be greater than zero");
  if (end < begin || (end - begin) % step != 0)
    throw poputil::poplibs_error(op + ": the counter never equals end " + std::to_string(end) +
                                 " going from begin " + std::to_string(begin) + " in steps of " +
                                 std::to_string(step));
  if (!body) throw poputil::poplibs_error(op + ": body is empty");
  const Tensor count = graph.addVariable(UNSIGNED_INT, {}, {di, "count"});
  graph.setTileMapping(count, 0);
  program::Sequence prog({}, di);
  prog.add(program::Copy(scalarConstant(graph, UNSIGNED_INT, (long long)begin, 0, {di, "begin"}),
                         count, false, di));
  program::Sequence pass({}, di);
  pass.add(body(count));
  addForLoopCounterVertex(graph, count,
                          scalarConstant(graph, UNSIGNED_INT, (long long)end, 0, {di, "end"}),
                          int(step), 0, pass, di);
  prog.add(program::Repeat(unsigned((end - begin) / step), pass, di));
  return prog;
}

program::Sequence countedLoop(Graph& graph, std::size_t count, const CountedLoopBodyType& body,
                              const DebugContext& debugContext) {
  return countedLoop(graph, 0, count, 1, body, debugContext);
}

} // namespace popops
