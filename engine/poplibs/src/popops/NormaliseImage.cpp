// createNormaliseImageInput and normaliseImage as PopLibs builds them: the input mapped linearly
// in grains of whole pixels (and whole 32-bit words), and on every tile holding pixels one
// NormaliseImage MultiVertex writing the tile's 4-channel pixels, which stay on that tile.
#include "poplibs_support/TileWork.hpp"

#include <poplar/HalfFloat.hpp>
#include <popops/NormaliseImage.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;

namespace {

std::string shapeString(ArrayRef<std::size_t> shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

/// `typeOperand` and `shapeOperand` name the arguments giving the image's type and shape.
void checkImage(const std::string& op, const std::string& typeOperand, const std::string& operand,
                const Type& type, ArrayRef<std::size_t> shape) {
  poplibs_support::checkType(type, {UNSIGNED_CHAR, HALF, FLOAT}, op, typeOperand);
  if (shape.size() < 2 || shape[shape.size() - 1] != 3)
    throw poputil::poplibs_error(
        op + ": " + operand + (operand == "shape" ? " is " : " has shape ") + shapeString(shape) +
        "; it needs at least 2 dimensions, the innermost 3 channels");
}

void checkChannelParams(const std::string& op, const std::string& operand, const Tensor& t,
                        const Type& outType) {
  poplibs_support::checkValid(t, op, operand);
  if (t.elementType() != outType)
    throw poputil::poplibs_error(op + ": " + operand + " has element type " +
                                 t.elementType().toString() + "; it must be " + outType.toString() +
                                 ", the output's type");
  if (t.rank() != 1 || t.dim(0) != 3)
    throw poputil::poplibs_error(op + ": " + operand + " has shape " + t.shapeToString() +
                                 "; it must be [3], one value per channel");
}

} // namespace

Tensor createNormaliseImageInput(Graph& graph, const Type& type, const ArrayRef<std::size_t> shape,
                                 const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createNormaliseImageInput");
  checkImage("popops::createNormaliseImageInput", "type", "shape", type, shape);
  Tensor t = graph.addVariable(type, shape, {di, "createNormaliseImageInput"});
  // Grains of whole pixels that also fill whole 32-bit words (4 pixels of bytes, 2 of halves),
  // so no pixel is split between tiles and no vertex writes part of a word; a tile takes at
  // least a grain per worker context.
  const unsigned grain = 3 * (4 / unsigned(type.size()));
  poputil::mapTensorLinearly(graph, t, grain * graph.getTarget().getNumWorkerContexts(), grain);
  return t;
}

Tensor normaliseImage(Graph& graph, program::Sequence& seq, Tensor tIn, float inScale,
                      Tensor offsets, Tensor scales, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "normaliseImage");
  const std::string op = "popops::normaliseImage";
  poplibs_support::checkValid(tIn, op, "tIn");
  const Type inType = tIn.elementType();
  checkImage(op, "tIn", "tIn", inType, tIn.shape());
  const Type outType = inType == UNSIGNED_CHAR ? HALF : inType;
  checkChannelParams(op, "offsets", offsets, outType);
  checkChannelParams(op, "scales", scales, outType);
  if (inScale == 0.0f) throw poputil::poplibs_error(op + ": inScale must not be 0");

  std::vector<std::size_t> outShape = tIn.shape();
  outShape.back() = 4;
  Tensor out = graph.addVariable(outType, outShape, {di, "normalise"});
  const Tensor inFlat = tIn.flatten(), outFlat = out.flatten();
  // Regions of the input contiguous in memory, per tile, uncut.
  const auto work = poplibs_support::splitTileWork(graph, inFlat, inFlat.numElements(), op);
  Graph::TileToTensorMapping outMapping(work.size());
  const ComputeSet cs = graph.addComputeSet({di, "normaliseImage"});
  const std::string vertexType = poputil::templateVertex("popops::NormaliseImage", inType, outType);
  const unsigned workers = MultiVertex::numWorkers(); // as the engine runs a MultiVertex
  for (unsigned tile = 0; tile < work.size(); ++tile)
    for (const Interval& piece : work[tile]) {
      if (piece.begin() % 3 != 0 || piece.end() % 3 != 0)
        throw poputil::poplibs_error(
            op + ": tIn splits a pixel between tiles or memory regions (elements [" +
            std::to_string(piece.begin()) + ", " + std::to_string(piece.end()) + ") on tile " +
            std::to_string(tile) + "); create it with createNormaliseImageInput");
      const Interval outPiece(piece.begin() / 3 * 4, piece.end() / 3 * 4);
      outMapping[tile].push_back(outPiece);
      auto v = graph.addVertex(cs, vertexType,
                               {{"in", inFlat.slice(piece)},
                                {"out", outFlat.slice(outPiece)},
                                {"scales", scales},
                                {"offsets", offsets}});
      if (outType == HALF)
        graph.setInitialValue(v["inScale"], half(inScale));
      else
        graph.setInitialValue(v["inScale"], inScale);
      const std::size_t pixels = piece.size() / 3;
      graph.setInitialValue(v["packedNPixels"],
                            unsigned(((pixels / workers) << 3) | (pixels % workers)));
      graph.setTileMapping(v, tile);
    }
  graph.setTileMapping(out, outMapping);
  seq.add(program::Execute(cs, di));
  return out;
}

} // namespace popops
