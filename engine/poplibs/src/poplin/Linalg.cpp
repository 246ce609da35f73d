// Shared pieces of poplin's Cholesky factorisation and triangular solve (Linalg.hpp).
#include "Linalg.hpp"

#include <poplar/exceptions.hpp>
#include <poplin/MatMul.hpp>
#include <poputil/exceptions.hpp>

namespace poplin {
namespace linalg {

using namespace poplar;

Options parseOptions(const OptionFlags& options, std::size_t defaultBlockSize,
                     const std::string& op) {
  Options parsed{defaultBlockSize, {}};
  for (const auto& kv : options) {
    if (kv.first == "blockSize") {
      const std::string& v = kv.second;
      if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos ||
          std::stoull(v) == 0)
        throw poplar::invalid_option(op + ": option 'blockSize' = '" + v +
                                     "': expected a positive integer");
      parsed.blockSize = std::stoull(v);
    } else {
      parsed.matmul.set(kv.first, kv.second);
    }
  }
  matmulValidateOptions(parsed.matmul);
  return parsed;
}

std::size_t batchOf(const std::vector<std::size_t>& shape, bool square, const std::string& op,
                    const std::string& what) {
  std::string s;
  for (auto d : shape)
    s += (s.empty() ? "" : ",") + std::to_string(d);
  if (shape.size() < 2 || !shape[shape.size() - 1] || !shape[shape.size() - 2] ||
      (square && shape[shape.size() - 1] != shape[shape.size() - 2]))
    throw poputil::poplibs_error(op + ": " + what + " must have shape [..., " +
                                 (square ? "N, N" : "R, C") + "] (non-empty), not [" + s + "]");
  std::size_t G = 1;
  for (std::size_t i = 0; i + 2 < shape.size(); ++i)
    G *= shape[i];
  if (!G) throw poputil::poplibs_error(op + ": " + what + " [" + s + "] is empty");
  return G;
}

Tensor asBatch(const Tensor& t) {
  const auto& s = t.shape();
  std::size_t G = 1;
  for (std::size_t i = 0; i + 2 < s.size(); ++i)
    G *= s[i];
  return t.reshape({G, s[s.size() - 2], s[s.size() - 1]});
}

void checkFloat(const Tensor& t, const std::string& op, const std::string& what) {
  if (!t.valid()) throw poputil::poplibs_error(op + ": " + what + " is an empty tensor");
  if (t.elementType() != FLOAT && t.elementType() != HALF)
    throw poputil::poplibs_error(op + ": " + what + " must be float or half, not " +
                                 t.elementType().toString());
}

namespace {
Tensor squareConstant(Graph& graph, const Type& type, std::size_t G, std::size_t N,
                      const std::vector<float>& values, const DebugContext& dc) {
  Tensor c = graph.addConstant<float>(type, {N, N}, values.data(), dc);
  graph.setTileMapping(c, 0);
  return c.expand({0}).broadcast(unsigned(G), 0);
}
} // namespace

Tensor triangleConstant(Graph& graph, const Type& type, std::size_t G, std::size_t N, bool lower,
                        bool withDiagonal, const DebugContext& dc) {
  std::vector<float> v(N * N);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < N; ++j)
      v[i * N + j] = (i == j) ? (withDiagonal ? 1.0f : 0.0f) : ((lower ? j < i : j > i) ? 1 : 0);
  return squareConstant(graph, type, G, N, v, {dc, "triangle"});
}

Tensor identityConstant(Graph& graph, const Type& type, std::size_t G, std::size_t N,
                        const DebugContext& dc) {
  std::vector<float> v(N * N);
  for (std::size_t i = 0; i < N; ++i)
    v[i * N + i] = 1;
  return squareConstant(graph, type, G, N, v, {dc, "identity"});
}

unsigned tileOfBatch(const Graph& graph, std::size_t g, std::size_t G) {
  return unsigned(std::uint64_t(g) * graph.getTarget().getNumTiles() / G);
}

Tensor contiguousCopy(Graph& graph, const Tensor& blocks, program::Sequence& prog,
                      const DebugContext& dc) {
  const std::size_t G = blocks.dim(0);
  Tensor buf = graph.addVariable(blocks.elementType(), {G, blocks.dim(1) * blocks.dim(2)}, dc);
  for (std::size_t g = 0; g < G; ++g)
    graph.setTileMapping(buf[g], tileOfBatch(graph, g, G));
  prog.add(program::Copy(blocks.reshape(buf.shape()), buf, false, dc));
  return buf;
}

} // namespace linalg
} // namespace poplin
