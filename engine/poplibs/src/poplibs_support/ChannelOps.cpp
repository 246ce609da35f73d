#include "poplibs_support/ChannelOps.hpp"

#include "poplibs_support/TileWork.hpp"

#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace poplibs_support {

void channelOpInPlace(poplar::Graph& graph, ChannelOp kind, const poplar::Tensor& acts,
                      const poplar::Tensor& param, float scale, poplar::program::Sequence& prog,
                      const poplar::DebugContext& dc, const std::string& op) {
  checkValid(acts, op, "the activations");
  checkValid(param, op, "the per-channel parameter");
  if (acts.rank() < 2)
    throw poputil::poplibs_error(op + ": the activations have shape " + acts.shapeToString() +
                                 "; expected [batch][channels][field...]");
  const std::size_t channels = acts.dim(1);
  if (param.rank() != 1 || param.dim(0) != channels)
    throw poputil::poplibs_error(op + ": the per-channel parameter has shape " +
                                 param.shapeToString() + " but the activations " +
                                 acts.shapeToString() + " have " + std::to_string(channels) +
                                 " channels");
  if (param.elementType() != acts.elementType())
    throw poputil::poplibs_error(op + ": the per-channel parameter is " +
                                 param.elementType().toString() + " but the activations are " +
                                 acts.elementType().toString());
  checkType(acts.elementType(), {poplar::FLOAT, poplar::HALF}, op, "the activations");
  if (acts.containsAliases())
    throw poputil::poplibs_error(op + ": the activations of shape " + acts.shapeToString() +
                                 " contain aliased elements; they are written in place");
  if (acts.numElements() == 0) return;
  const std::size_t rows = acts.dim(0) * channels;
  const std::size_t rowLen = acts.numElements() / rows;
  const poplar::Tensor matrix = acts.reshape({rows, rowLen});
  const poplar::Tensor flat = acts.flatten();
  const char* name = kind == ChannelOp::ADD          ? "popops::AddToChannel"
                     : kind == ChannelOp::SCALED_ADD ? "popops::ScaledAddToChannel"
                                                     : "popops::ChannelMulInPlace";
  const std::string vertex = poputil::templateVertex(name, acts.elementType());
  const poplar::ComputeSet cs = graph.addComputeSet(dc);
  const auto work = splitRowsByTile(graph, matrix, op);
  for (unsigned tile = 0; tile < work.size(); ++tile)
    for (const auto& range : work[tile])
      for (std::size_t r = range.begin(); r < range.end();) {
        // A run of consecutive channels of one batch element.
        const std::size_t c0 = r % channels;
        const std::size_t n = std::min(range.end() - r, channels - c0);
        const auto v = graph.addVertex(cs, vertex);
        graph.connect(v[kind == ChannelOp::MUL ? "actsOut" : "acts"],
                      flat.slice(r * rowLen, (r + n) * rowLen));
        graph.connect(v[kind == ChannelOp::MUL ? "scale" : "addend"], param.slice(c0, c0 + n));
        if (kind == ChannelOp::SCALED_ADD) graph.setInitialValue(v["scaleB"], scale);
        graph.setTileMapping(v, tile);
        r += n;
      }
  prog.add(poplar::program::Execute(cs, dc));
}

} // namespace poplibs_support
