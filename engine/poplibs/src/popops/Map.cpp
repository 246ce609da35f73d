// popops::map, mapInPlace and mapWithOutput, and the named element-wise operations built on
// them: the expression is compiled once (types checked), the operands are broadcast to the
// result's shape, and one compute set evaluates the whole expression, one fused vertex per
// worker-sized piece of each tile's elements of the result.
#include "poplibs_support/TileWork.hpp"
#include "popops/expr/ExprNames.hpp"
#include "popops/expr/MapProgram.hpp"
#include "popops/expr/MapVertex.hpp"

#include <cctype>
#include <popops/ElementWise.hpp>
#include <poputil/Broadcast.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace popops {
namespace {

using namespace poplar;
using poplar::program::Sequence;

enum class Form { New, InPlace, WithOutput };

/// Below this many elements a tile's piece is not split further between workers.
constexpr std::size_t kMinElementsPerVertex = 32;

/// The numpy broadcast of all operand shapes; throws naming the operand that does not fit.
std::vector<std::size_t> broadcastShape(const std::vector<Tensor>& ts, const std::string& op) {
  std::vector<std::size_t> shape;
  for (const auto& t : ts)
    if (t.rank() > shape.size()) shape.insert(shape.begin(), t.rank() - shape.size(), 1);
  for (std::size_t i = 0; i < ts.size(); ++i) {
    const auto& s = ts[i].shape();
    const std::size_t off = shape.size() - s.size();
    for (std::size_t d = 0; d < s.size(); ++d) {
      auto& r = shape[off + d];
      if (s[d] == r || s[d] == 1) continue;
      if (r == 1) {
        r = s[d];
        continue;
      }
      throw poputil::poplibs_error(
          op + ": tensor " + std::to_string(i + 1) + " of shape " + ts[i].shapeToString() +
          " cannot be broadcast with the other operands (dimension " + std::to_string(d) + " is " +
          std::to_string(s[d]) + ", the others need " + std::to_string(r) + ")");
    }
  }
  return shape;
}

std::string shapeString(const std::vector<std::size_t>& s) {
  std::string r = "[";
  for (std::size_t i = 0; i < s.size(); ++i)
    r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

bool completelyMapped(const Graph& graph, const Tensor& t) {
  std::size_t mapped = 0;
  for (const auto& tile : graph.getTileMapping(t, false))
    for (const auto& iv : tile)
      mapped += iv.size();
  return mapped == t.numElements();
}

/// The result tensor of map: laid out like the first operand that has the result's shape and
/// no aliases (so the work stays where the data is), else spread linearly over the tiles.
Tensor createOutput(Graph& graph, const std::vector<Tensor>& ts,
                    const std::vector<std::size_t>& shape, const Type& type,
                    const DebugContext& di) {
  for (const auto& t : ts)
    if (t.shape() == shape && !t.containsAliases() && completelyMapped(graph, t))
      return graph.clone(type, t, {di, "output"});
  Tensor out = graph.addVariable(type, shape, {di, "output"});
  poputil::mapTensorLinearly(graph, out);
  return out;
}

/// PopLibs' name for the vertex of a named operation applied to whole tensors of one type
/// ("popops::BinaryOp1D<popops::expr::BinaryOpType::EQUAL,float>"), or "" when the expression
/// is not one operator over the placeholders _1 (, _2) in order, none of them one element.
std::string popLibsVertexName(const expr::Expr& e, const std::vector<Tensor>& ts, bool inPlace) {
  const auto isPlaceholder = [&](const expr::Expr& x, unsigned i) {
    const auto* p = x.getAs<expr::PlaceHolder>();
    return p && p->getIndex() == i && i <= ts.size() && ts[i - 1].numElements() > 1;
  };
  if (ts.empty()) return "";
  const std::string type = ts[0].elementType().toString();
  const std::string suffix = inPlace ? "1DInPlace<" : "1D<";
  if (const auto* u = e.getAs<expr::UnaryOp>()) {
    if (ts.size() != 1 || !isPlaceholder(u->getArg(), 1)) return "";
    return "popops::UnaryOp" + suffix +
           "popops::expr::UnaryOpType::" + expr::opName(u->getOpType()) + "," + type + ">";
  }
  if (const auto* b = e.getAs<expr::BinaryOp>()) {
    if (ts.size() != 2 || !isPlaceholder(b->getLHS(), 1) || !isPlaceholder(b->getRHS(), 2) ||
        ts[1].elementType() != ts[0].elementType())
      return "";
    return "popops::BinaryOp" + suffix +
           "popops::expr::BinaryOpType::" + expr::opName(b->getOpType()) + "," + type + ">";
  }
  return "";
}

void mapImpl(Graph& graph, const std::string& op, const expr::Expr& e,
             const std::vector<Tensor>& ts, Tensor* out, Form form, Sequence& prog,
             const poputil::PoplibsOpDebugInfo& di, const OptionFlags& options,
             bool popLibsName = false) {
  poplibs_support::checkOptions(options, {"enableGenerateCodelet", "enableExpressionOptimizations"},
                                op);
  if (ts.empty()) throw poputil::poplibs_error(op + ": no tensors given (ts is empty)");
  for (std::size_t i = 0; i < ts.size(); ++i)
    poplibs_support::checkValid(ts[i], op, "tensor " + std::to_string(i + 1) + " of ts");
  mapexpr::Program p = mapexpr::compile(e, ts, form == Form::InPlace, op);
  if (popLibsName) {
    // The named operations on whole tensors run under PopLibs' vertex names, so that
    // profiles read like Poplar's; the program is the same one-operation expression.
    const std::string name = popLibsVertexName(e, ts, form == Form::InPlace);
    if (!name.empty()) p.name = name;
  }
  const auto shape = broadcastShape(ts, op);

  Tensor result;
  if (form == Form::InPlace) {
    result = ts[0];
    if (result.shape() != shape)
      throw poputil::poplibs_error(op + ": the first tensor, of shape " + result.shapeToString() +
                                   ", is written in place but the result has shape " +
                                   shapeString(shape));
    if (result.elementType() != p.outType)
      throw poputil::poplibs_error(op + ": the first tensor is " + result.elementType().toString() +
                                   " but the expression gives " + p.outType.toString() +
                                   " (Cast the expression)");
    if (result.containsAliases())
      throw poputil::poplibs_error(op + ": the first tensor, of shape " + result.shapeToString() +
                                   ", contains aliased or constant elements; an in-place "
                                   "operation needs each element once and writable");
  } else if (form == Form::WithOutput) {
    poplibs_support::checkValid(*out, op, "out");
    result = *out;
    if (result.shape() != shape)
      throw poputil::poplibs_error(op + ": out has shape " + result.shapeToString() +
                                   " but the result has shape " + shapeString(shape));
    if (result.elementType() != p.outType)
      throw poputil::poplibs_error(op + ": out is " + result.elementType().toString() +
                                   " but the expression gives " + p.outType.toString());
    if (result.containsAliases())
      throw poputil::poplibs_error(op + ": out contains aliased or constant elements");
  } else {
    result = createOutput(graph, ts, shape, p.outType, di);
    *out = result;
  }

  const unsigned id = mapexpr::intern(p);
  const mapexpr::Program& prog0 = mapexpr::program(id);
  mapexpr::ensureVertexType(prog0);

  // The operands, viewed with the result's shape and flattened (scalars stay one element).
  std::vector<Tensor> flat(prog0.inputs.size());
  for (std::size_t s = 0; s < prog0.inputs.size(); ++s) {
    const auto& slot = prog0.inputs[s];
    if (slot.isOutput) continue;
    Tensor t = ts[slot.placeholder - 1];
    if (slot.scalar) {
      flat[s] = t.flatten();
      continue;
    }
    poputil::broadcastToMatch(t, shape);
    flat[s] = t.flatten();
  }
  const Tensor outFlat = result.flatten();
  const ComputeSet cs = graph.addComputeSet(di);
  const char* outField = prog0.inPlace ? "in1" : "out";
  const auto work = poplibs_support::splitTileWork(graph, result, kMinElementsPerVertex, op);
  for (unsigned tile = 0; tile < work.size(); ++tile)
    for (const auto& piece : work[tile]) {
      VertexRef v = graph.addVertex(cs, prog0.name);
      std::vector<Tensor> byType[5];
      for (std::size_t s = 0; s < prog0.inputs.size(); ++s) {
        const auto& slot = prog0.inputs[s];
        if (slot.isOutput) continue;
        const Tensor edge = slot.scalar ? flat[s] : flat[s].slice(piece);
        const auto& t = slot.type;
        const int k = t == FLOAT ? 0 : t == HALF ? 1 : t == INT ? 2 : t == UNSIGNED_INT ? 3 : 4;
        byType[k].push_back(edge);
      }
      graph.connect(v["inFloat"], byType[0]);
      graph.connect(v["inHalf"], byType[1]);
      graph.connect(v["inInt"], byType[2]);
      graph.connect(v["inUnsigned"], byType[3]);
      graph.connect(v["inBool"], byType[4]);
      graph.connect(v[outField], outFlat.slice(piece));
      graph.setInitialValue(v["program"], id);
      graph.setInitialValue(v["flopsPerElement"], prog0.flopsPerElement);
      graph.setTileMapping(v, tile);
    }
  prog.add(program::Execute(cs, di));
}

/// "eq" -> "Eq": the debug context's op type, as the one-operation ops name theirs.
std::string opType(const std::string& api) {
  std::string s = api;
  if (!s.empty()) s[0] = char(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

} // namespace

Tensor map(Graph& graph, const expr::Expr& expr, const std::vector<Tensor>& ts, Sequence& prog,
           const DebugContext& debugContext, const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Map");
  Tensor out;
  mapImpl(graph, "popops::map", expr, ts, &out, Form::New, prog, di, options);
  return out;
}

void mapInPlace(Graph& graph, const expr::Expr& expr, const std::vector<Tensor>& ts, Sequence& prog,
                const DebugContext& debugContext, const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "MapInPlace");
  mapImpl(graph, "popops::mapInPlace", expr, ts, nullptr, Form::InPlace, prog, di, options);
}

void mapWithOutput(Graph& graph, const expr::Expr& expr, const std::vector<Tensor>& ts,
                   const Tensor& out, Sequence& prog, const DebugContext& debugContext,
                   const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "MapWithOutput");
  Tensor o = out;
  mapImpl(graph, "popops::mapWithOutput", expr, ts, &o, Form::WithOutput, prog, di, options);
}

namespace detail {

Tensor namedMap(Graph& graph, const char* api, const expr::Expr& e, const std::vector<Tensor>& ts,
                Sequence& prog, const DebugContext& debugContext, const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, opType(api));
  poplibs_support::checkOptions(options, {}, std::string("popops::") + api);
  Tensor out;
  mapImpl(graph, std::string("popops::") + api, e, ts, &out, Form::New, prog, di, {}, true);
  return out;
}

void namedMapInPlace(Graph& graph, const char* api, const expr::Expr& e,
                     const std::vector<Tensor>& ts, Sequence& prog,
                     const DebugContext& debugContext, const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, opType(api));
  poplibs_support::checkOptions(options, {}, std::string("popops::") + api);
  mapImpl(graph, std::string("popops::") + api, e, ts, nullptr, Form::InPlace, prog, di, {}, true);
}

void namedMapWithOutput(Graph& graph, const char* api, const expr::Expr& e,
                        const std::vector<Tensor>& ts, const Tensor& out, Sequence& prog,
                        const DebugContext& debugContext, const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, opType(api));
  poplibs_support::checkOptions(options, {}, std::string("popops::") + api);
  Tensor o = out;
  mapImpl(graph, std::string("popops::") + api, e, ts, &o, Form::WithOutput, prog, di, {}, true);
}

void checkConstantType(const Type& tensorType, const Type& constType, bool isFloatingPointConst,
                       const char* api, const char* operand) {
  const bool ok = isFloatingPointConst ? tensorType.isFloatingPoint()
                                       : (tensorType == constType ||
                                          (constType == INT && tensorType == UNSIGNED_INT) ||
                                          (constType == UNSIGNED_INT && tensorType == INT) ||
                                          (constType == BOOL && tensorType == BOOL));
  if (!ok)
    throw poputil::poplibs_error(std::string("popops::") + api + ": " + operand + " is a " +
                                 (isFloatingPointConst ? "floating-point" : constType.toString()) +
                                 " number but the tensor operand is " + tensorType.toString());
}

} // namespace detail
} // namespace popops
