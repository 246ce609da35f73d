#include "poplibs_support/TileWork.hpp"

#include <algorithm>
#include <ostream>
#include <popnn/Pooling.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {
namespace pooling {

using namespace poplar;
using poplar::program::Sequence;

namespace {

template <typename T> std::string list(const std::vector<T>& v) {
  std::string s;
  for (const auto& x : v)
    s += (s.empty() ? "" : ",") + std::to_string(x);
  return "{" + s + "}";
}

/// One spatial dimension of a pooling.
struct PoolDim {
  int in, out, kernel, stride, pad;
};

/// The geometry in two dimensions (a 1-D pooling gets a leading dimension of size 1), after
/// checking the parameters; errors name `op` and the offending member.
std::pair<PoolDim, PoolDim> geometry(const PoolParams& p, const std::string& op) {
  const std::size_t n = p.getNumFieldDims();
  if (n == 0 || n > 2)
    throw poputil::poplibs_error(op + ": pooling over " + std::to_string(n) +
                                 " spatial dimensions is not supported (1 or 2 are)");
  const auto checkLen = [&](std::size_t got, const char* member) {
    if (got != n)
      throw poputil::poplibs_error(op + ": params." + member + " has " + std::to_string(got) +
                                   " entries but inputFieldShape " + list(p.inputFieldShape) +
                                   " has " + std::to_string(n));
  };
  checkLen(p.kernelShape.size(), "kernelShape");
  checkLen(p.stride.size(), "stride");
  checkLen(p.inputTruncationOrPaddingLower.size(), "inputTruncationOrPaddingLower");
  checkLen(p.inputTruncationOrPaddingUpper.size(), "inputTruncationOrPaddingUpper");
  if (p.dType != FLOAT && p.dType != HALF)
    throw poputil::poplibs_error(op + ": params.dType is " + p.dType.toString() +
                                 "; supported: float, half");
  if (p.batchSize == 0 || p.numChannels == 0)
    throw poputil::poplibs_error(op + ": params.batchSize and params.numChannels must not be 0");
  std::vector<PoolDim> dims;
  if (n == 1) dims.push_back({1, 1, 1, 1, 0});
  for (std::size_t d = 0; d < n; ++d) {
    const auto dim = "[" + std::to_string(d) + "]";
    if (p.stride[d] == 0) throw poputil::poplibs_error(op + ": params.stride" + dim + " is 0");
    if (p.kernelShape[d] == 0)
      throw poputil::poplibs_error(op + ": params.kernelShape" + dim + " is 0");
    const long padded = long(p.inputFieldShape[d]) + p.inputTruncationOrPaddingLower[d] +
                        p.inputTruncationOrPaddingUpper[d];
    if (padded < long(p.kernelShape[d]))
      throw poputil::poplibs_error(
          op + ": params.kernelShape" + dim + " (" + std::to_string(p.kernelShape[d]) +
          ") is larger than the padded input (" + std::to_string(padded) + ")");
    dims.push_back({int(p.inputFieldShape[d]),
                    int((padded - long(p.kernelShape[d])) / long(p.stride[d]) + 1),
                    int(p.kernelShape[d]), int(p.stride[d]), p.inputTruncationOrPaddingLower[d]});
  }
  return {dims[0], dims[1]};
}

std::vector<std::size_t> shapeOf(const PoolParams& p, const std::vector<std::size_t>& field) {
  std::vector<std::size_t> s = {p.batchSize, p.numChannels};
  s.insert(s.end(), field.begin(), field.end());
  return s;
}

void checkTensor(const Tensor& t, const std::vector<std::size_t>& shape, Type type,
                 const std::string& op, const std::string& name) {
  poplibs_support::checkValid(t, op, name);
  if (t.shape() != shape)
    throw poputil::poplibs_error(op + ": " + name + " has shape " + t.shapeToString() +
                                 " but the pooling parameters give " + list(shape));
  if (t.elementType() != type)
    throw poputil::poplibs_error(op + ": " + name + " has element type " +
                                 t.elementType().toString() + " but params.dType is " +
                                 type.toString());
}

/// A new tensor of planes [B][C][field], whole planes per tile, spread over the tiles.
Tensor newPlanes(Graph& graph, const PoolParams& p, const std::vector<std::size_t>& field,
                 const DebugContext& dc) {
  const Tensor t = graph.addVariable(p.dType, shapeOf(p, field), dc);
  std::size_t plane = 1;
  for (auto d : field)
    plane *= d;
  poputil::mapTensorLinearly(graph, t, 0, unsigned(plane));
  return t;
}

/// Adds one vertex per tile-and-worker chunk of the planes of `driver` (the tensor each vertex
/// writes): every field gets one edge per plane of its tensor.
void addPlaneVertices(Graph& graph, const ComputeSet& cs, const std::string& vertexType,
                      const Tensor& driver,
                      const std::vector<std::pair<std::string, Tensor>>& fields,
                      const std::pair<PoolDim, PoolDim>& g,
                      const std::vector<std::pair<std::string, unsigned>>& flags,
                      const std::string& op) {
  const std::size_t planes = driver.dim(0) * driver.dim(1);
  const Tensor matrix = driver.reshape({planes, driver.numElements() / planes});
  std::vector<Tensor> flat;
  for (const auto& f : fields)
    flat.push_back(f.second.reshape({planes, f.second.numElements() / planes}));
  const auto work = poplibs_support::splitRowsByTile(graph, matrix, op);
  for (unsigned tile = 0; tile < work.size(); ++tile)
    for (const auto& range : work[tile]) {
      const auto v = graph.addVertex(cs, vertexType);
      for (std::size_t i = 0; i < fields.size(); ++i) {
        std::vector<Tensor> edges;
        for (std::size_t r = range.begin(); r < range.end(); ++r)
          edges.push_back(flat[i][r]);
        graph.connect(v[fields[i].first], edges);
      }
      const PoolDim& y = g.first;
      const PoolDim& x = g.second;
      graph.setInitialValue(v["inH"], y.in);
      graph.setInitialValue(v["inW"], x.in);
      graph.setInitialValue(v["outH"], y.out);
      graph.setInitialValue(v["outW"], x.out);
      graph.setInitialValue(v["kernelH"], y.kernel);
      graph.setInitialValue(v["kernelW"], x.kernel);
      graph.setInitialValue(v["strideH"], y.stride);
      graph.setInitialValue(v["strideW"], x.stride);
      graph.setInitialValue(v["padH"], y.pad);
      graph.setInitialValue(v["padW"], x.pad);
      for (const auto& f : flags)
        graph.setInitialValue(v[f.first], f.second);
      graph.setTileMapping(v, tile);
    }
}

std::uint64_t windowElements(const PoolParams& params) {
  const auto g = geometry(params, "popnn::pooling::getFwdFlops");
  std::uint64_t taps = 0;
  for (int oy = 0; oy < g.first.out; ++oy)
    for (int ox = 0; ox < g.second.out; ++ox) {
      const int y = oy * g.first.stride - g.first.pad, x = ox * g.second.stride - g.second.pad;
      const int h = std::min(y + g.first.kernel, g.first.in) - std::max(y, 0);
      const int w = std::min(x + g.second.kernel, g.second.in) - std::max(x, 0);
      taps += std::uint64_t(std::max(h, 0)) * std::max(w, 0);
    }
  return taps * params.batchSize * params.numChannels;
}

Tensor sumPoolGradient(Graph& graph, const PoolParams& params, const Tensor& pooledGradient,
                       Sequence& prog, const DebugContext& di, const std::string& op) {
  const auto g = geometry(params, op);
  checkTensor(pooledGradient, shapeOf(params, params.getOutputFieldShape()), params.dType, op,
              "pooledGradient");
  const Tensor inGrad = newPlanes(graph, params, params.inputFieldShape, {di, "inputGradient"});
  const ComputeSet cs = graph.addComputeSet({di, "SumPoolingGrad"});
  addPlaneVertices(graph, cs, poputil::templateVertex("popnn::SumPoolingGrad", params.dType),
                   inGrad, {{"pooledGrad", pooledGradient}, {"inGrad", inGrad}}, g,
                   {{"avg", params.poolingType == PoolingType::AVG ? 1u : 0u}}, op);
  prog.add(program::Execute(cs, {di, "SumPoolingGrad"}));
  return inGrad;
}

void checkOptions(const OptionFlags& options, const std::string& op) {
  poplibs_support::checkOptions(options, {"poolUseIntrospectiveMapping"}, op);
}

} // namespace

const char* asString(const PoolingType& method) {
  switch (method) {
  case PoolingType::MAX:
    return "MAX";
  case PoolingType::AVG:
    return "AVG";
  case PoolingType::SUM:
    return "SUM";
  }
  return "?";
}

std::vector<std::size_t> PoolParams::getOutputFieldShape() const {
  const auto g = geometry(*this, "popnn::pooling::PoolParams::getOutputFieldShape");
  if (getNumFieldDims() == 1) return {std::size_t(g.second.out)};
  return {std::size_t(g.first.out), std::size_t(g.second.out)};
}

std::vector<std::size_t> getOutputFieldShape(const PoolParams& params) {
  return params.getOutputFieldShape();
}

std::ostream& operator<<(std::ostream& o, const PoolParams& p) {
  return o << "Pool params: type " << asString(p.poolingType) << ", inputFieldShape "
           << list(p.inputFieldShape) << ", kernelShape " << list(p.kernelShape) << ", stride "
           << list(p.stride) << ", inputTruncationOrPaddingLower "
           << list(p.inputTruncationOrPaddingLower) << ", inputTruncationOrPaddingUpper "
           << list(p.inputTruncationOrPaddingUpper) << ", numChannels " << p.numChannels
           << ", batchSize " << p.batchSize << ", dType " << p.dType;
}

std::uint64_t getFwdFlops(const PoolParams& params) {
  std::uint64_t flops = windowElements(params);
  if (params.poolingType == PoolingType::AVG) {
    const auto out = params.getOutputFieldShape();
    std::uint64_t outputs = params.batchSize * params.numChannels;
    for (auto d : out)
      outputs *= d;
    flops += outputs;
  }
  return flops;
}

std::uint64_t getBwdFlops(const PoolParams& params) {
  return params.poolingType == PoolingType::MAX ? 2 * windowElements(params) : getFwdFlops(params);
}

double getFwdPerfectCycleCount(const Graph& graph, const PoolParams& params) {
  const unsigned width = graph.getTarget().getVectorWidth(params.dType);
  return double(getFwdFlops(params)) / width / graph.getTarget().getNumTiles();
}

double getBwdPerfectCycleCount(const Graph& graph, const PoolParams& params) {
  const unsigned width = graph.getTarget().getVectorWidth(params.dType);
  return double(getBwdFlops(params)) / width / graph.getTarget().getNumTiles();
}

Tensor pool(Graph& graph, const PoolParams& params, const Tensor& in, Sequence& prog,
            const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::pooling::pool";
  const poputil::PoplibsOpDebugInfo di(debugContext, {},
                                       std::string(asString(params.poolingType)) + "Pool");
  checkOptions(options, op);
  const auto g = geometry(params, op);
  checkTensor(in, shapeOf(params, params.inputFieldShape), params.dType, op, "in");
  const Tensor out = newPlanes(graph, params, params.getOutputFieldShape(), {di, "output"});
  const bool max = params.poolingType == PoolingType::MAX;
  const std::string name = max ? "popnn::MaxPooling" : "popnn::SumPooling";
  const ComputeSet cs = graph.addComputeSet({di, max ? "MaxPooling" : "SumPooling"});
  std::vector<std::pair<std::string, unsigned>> flags;
  if (!max) flags.push_back({"avg", params.poolingType == PoolingType::AVG ? 1u : 0u});
  addPlaneVertices(graph, cs, poputil::templateVertex(name, params.dType), out,
                   {{"in", in}, {"out", out}}, g, flags, op);
  prog.add(program::Execute(cs, {di, "Pool"}));
  return out;
}

Tensor poolInputGradient(Graph& graph, const PoolParams& params, const Tensor& in,
                         const Tensor& pooled, const Tensor& pooledGradient, bool useScaledGradient,
                         Sequence& prog, const DebugContext& debugContext,
                         const OptionFlags& options) {
  const std::string op = "popnn::pooling::poolInputGradient";
  const poputil::PoplibsOpDebugInfo di(debugContext, {},
                                       std::string(asString(params.poolingType)) + "PoolGrad");
  checkOptions(options, op);
  if (params.poolingType != PoolingType::MAX)
    return sumPoolGradient(graph, params, pooledGradient, prog, di, op);
  const auto g = geometry(params, op);
  const auto outShape = shapeOf(params, params.getOutputFieldShape());
  checkTensor(in, shapeOf(params, params.inputFieldShape), params.dType, op, "in");
  checkTensor(pooled, outShape, params.dType, op, "pooled");
  checkTensor(pooledGradient, outShape, params.dType, op, "pooledGradient");
  const Tensor inGrad = newPlanes(graph, params, params.inputFieldShape, {di, "inputGradient"});
  const ComputeSet cs = graph.addComputeSet({di, "MaxPoolingGrad"});
  addPlaneVertices(
      graph, cs, poputil::templateVertex("popnn::MaxPoolingGrad", params.dType), inGrad,
      {{"in", in}, {"pooled", pooled}, {"pooledGrad", pooledGradient}, {"inGrad", inGrad}}, g,
      {{"scaled", useScaledGradient ? 1u : 0u}}, op);
  prog.add(program::Execute(cs, {di, "MaxPoolingGrad"}));
  return inGrad;
}

Tensor poolInputGradient(Graph& graph, const PoolParams& params, const unsigned fwdChansPerGroup,
                         const Tensor& pooledGradient, Sequence& prog,
                         const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::pooling::poolInputGradient";
  const poputil::PoplibsOpDebugInfo di(debugContext, {},
                                       std::string(asString(params.poolingType)) + "PoolGrad");
  checkOptions(options, op);
  if (params.poolingType == PoolingType::MAX)
    throw poputil::poplibs_error(op + ": params.poolingType is MAX, whose gradient needs the "
                                      "forward input and output; use the overload taking them");
  if (fwdChansPerGroup == 0 || params.numChannels % fwdChansPerGroup != 0)
    throw poputil::poplibs_error(op + ": fwdChansPerGroup (" + std::to_string(fwdChansPerGroup) +
                                 ") must divide params.numChannels (" +
                                 std::to_string(params.numChannels) + ")");
  return sumPoolGradient(graph, params, pooledGradient, prog, di, op);
}

} // namespace pooling
} // namespace popnn
