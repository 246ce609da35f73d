// Solving a small symmetric positive definite system A x = b the way public Poplar code does
// with poplin: createCholeskyInput, cholesky (lower), then two triangularSolve calls (L y = b,
// L^T x = y). The host computes the factor and the solution on its own, in double precision.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/Cholesky.hpp>
#include <poplin/TriangularSolve.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

const std::size_t N = 10, K = 2; // two right-hand sides

bool close(double a, double b, double tol) { return std::fabs(a - b) <= tol * (1 + std::fabs(b)); }

} // namespace

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 16;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);

  const OptionFlags options{{"blockSize", "4"}, {"partialsType", "float"}};
  Tensor a = poplin::createCholeskyInput(graph, FLOAT, {N, N}, true, "A", options);
  Tensor b = poplin::createTriangularSolveInputRHS(graph, FLOAT, FLOAT, {N, N}, {N, K}, true, "b",
                                                   options);
  Sequence prog;
  Tensor l = poplin::cholesky(graph, a, true, prog, "cholesky", options);
  Tensor y = poplin::triangularSolve(graph, l, b, true, true, false, prog, "forward", options);
  Tensor x = poplin::triangularSolve(graph, l.transpose(), y, true, false, false, prog, "backward",
                                     options);
  graph.createHostWrite("A", a);
  graph.createHostWrite("b", b);
  graph.createHostRead("L", l);
  graph.createHostRead("x", x);

  // A = M M^T + N I, symmetric positive definite.
  std::vector<double> m(N * N), A(N * N), B(N * K);
  for (std::size_t i = 0; i < N * N; ++i)
    m[i] = std::sin(double(i * 7 + 3));
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < N; ++j) {
      double s = i == j ? double(N) : 0;
      for (std::size_t k = 0; k < N; ++k)
        s += m[i * N + k] * m[j * N + k];
      A[i * N + j] = s;
    }
  for (std::size_t i = 0; i < N * K; ++i)
    B[i] = std::cos(double(i * 3 + 1));
  std::vector<float> aIn(A.begin(), A.end()), bIn(B.begin(), B.end());

  Engine engine(graph, prog);
  engine.load(device);
  engine.writeTensor("A", aIn.data(), aIn.data() + aIn.size());
  engine.writeTensor("b", bIn.data(), bIn.data() + bIn.size());
  engine.run(0);
  std::vector<float> lOut(N * N), xOut(N * K);
  engine.readTensor("L", lOut.data(), lOut.data() + lOut.size());
  engine.readTensor("x", xOut.data(), xOut.data() + xOut.size());

  // The host: Cholesky-Banachiewicz, then forward and backward substitution.
  std::vector<double> L(N * N, 0), Y(N * K), X(N * K);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t k = 0; k <= i; ++k) {
      double s = A[i * N + k];
      for (std::size_t j = 0; j < k; ++j)
        s -= L[i * N + j] * L[k * N + j];
      L[i * N + k] = i == k ? std::sqrt(s) : s / L[k * N + k];
    }
  for (std::size_t c = 0; c < K; ++c) {
    for (std::size_t i = 0; i < N; ++i) {
      double s = B[i * K + c];
      for (std::size_t j = 0; j < i; ++j)
        s -= L[i * N + j] * Y[j * K + c];
      Y[i * K + c] = s / L[i * N + i];
    }
    for (std::size_t i = N; i-- > 0;) {
      double s = Y[i * K + c];
      for (std::size_t j = i + 1; j < N; ++j)
        s -= L[j * N + i] * X[j * K + c];
      X[i * K + c] = s / L[i * N + i];
    }
  }

  bool ok = true;
  auto report = [&](bool good, const char* yes, const char* no) {
    std::cout << (good ? yes : no) << "\n";
    ok = ok && good;
  };
  bool lGood = true, llGood = true, xGood = true, resGood = true;
  for (std::size_t i = 0; i < N * N; ++i)
    lGood = lGood && close(lOut[i], L[i], 1e-4);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < N; ++j) {
      double s = 0;
      for (std::size_t k = 0; k < N; ++k)
        s += double(lOut[i * N + k]) * lOut[j * N + k];
      llGood = llGood && close(s, A[i * N + j], 1e-4);
    }
  for (std::size_t i = 0; i < N * K; ++i)
    xGood = xGood && close(xOut[i], X[i], 1e-4);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t c = 0; c < K; ++c) {
      double s = -B[i * K + c];
      for (std::size_t j = 0; j < N; ++j)
        s += A[i * N + j] * xOut[j * K + c];
      resGood = resGood && std::fabs(s) < 1e-3;
    }
  report(lGood, "factor L matches the host's Cholesky factor", "factor L differs from the host's");
  report(llGood, "L L^T reproduces A", "L L^T does not reproduce A");
  report(xGood, "solution x matches the host's solve", "solution x differs from the host's");
  report(resGood, "residual |A x - b| is small", "residual |A x - b| is large");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
