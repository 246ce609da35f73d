// A least-squares fit the way public Poplar code uses poplin's QR factorisation: the matrices
// from createQRFactorizationMatrices, Q written as the identity, QRFactorization in place; the
// host then solves R x = Q^T b and compares with its own normal-equations solution.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/codelets.hpp>
#include <poplin/experimental/QRFactorization.hpp>
#include <popops/codelets.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

const std::size_t M = 12, N = 4;

bool close(double a, double b, double tol) { return std::fabs(a - b) <= tol * (1 + std::fabs(b)); }

} // namespace

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);

  auto matrices = poplin::experimental::createQRFactorizationMatrices(graph, FLOAT, M, N, "qr");
  Tensor a = matrices[0], q = matrices[1];
  Sequence prog;
  poplin::experimental::QRFactorization(graph, a, q, prog, "qr", {{"rowsPerIteration", "8"}});
  graph.createHostWrite("A", a);
  graph.createHostWrite("Q", q);
  graph.createHostRead("R", a);
  graph.createHostRead("Qout", q);

  // A polynomial design matrix (columns 1, t, t^2, t^3) and noisy observations b.
  std::vector<double> A(M * N), B(M);
  for (std::size_t i = 0; i < M; ++i) {
    const double t = double(i) / double(M - 1);
    for (std::size_t j = 0; j < N; ++j)
      A[i * N + j] = std::pow(t, double(j));
    B[i] = 1.0 - 2.0 * t + 0.5 * t * t * t + 0.01 * std::sin(double(i * 5));
  }
  std::vector<float> aIn(A.begin(), A.end()), eye(M * M, 0.0f);
  for (std::size_t i = 0; i < M; ++i)
    eye[i * M + i] = 1.0f;

  Engine engine(graph, prog);
  engine.load(device);
  engine.writeTensor("A", aIn.data(), aIn.data() + aIn.size());
  engine.writeTensor("Q", eye.data(), eye.data() + eye.size());
  engine.run(0);
  std::vector<float> R(M * N), Q(M * M);
  engine.readTensor("R", R.data(), R.data() + R.size());
  engine.readTensor("Qout", Q.data(), Q.data() + Q.size());

  bool upper = true, orthogonal = true, product = true, fit = true;
  for (std::size_t i = 0; i < M; ++i)
    for (std::size_t j = 0; j < N && j < i; ++j)
      upper = upper && std::fabs(R[i * N + j]) < 1e-5;
  for (std::size_t i = 0; i < M; ++i)
    for (std::size_t j = 0; j < M; ++j) {
      double s = 0;
      for (std::size_t k = 0; k < M; ++k)
        s += double(Q[k * M + i]) * Q[k * M + j];
      orthogonal = orthogonal && std::fabs(s - (i == j ? 1.0 : 0.0)) < 1e-5;
    }
  for (std::size_t i = 0; i < M; ++i)
    for (std::size_t j = 0; j < N; ++j) {
      double s = 0;
      for (std::size_t k = 0; k < M; ++k)
        s += double(Q[i * M + k]) * R[k * N + j];
      product = product && close(s, A[i * N + j], 1e-5);
    }
  // Least squares from the factors: R[:N] x = (Q^T b)[:N], back substitution.
  std::vector<double> qtb(N, 0), x(N, 0);
  for (std::size_t j = 0; j < N; ++j)
    for (std::size_t i = 0; i < M; ++i)
      qtb[j] += double(Q[i * M + j]) * B[i];
  for (std::size_t i = N; i-- > 0;) {
    double s = qtb[i];
    for (std::size_t j = i + 1; j < N; ++j)
      s -= R[i * N + j] * x[j];
    x[i] = s / R[i * N + i];
  }
  // The host's own: the normal equations A^T A x = A^T b, by Gaussian elimination.
  std::vector<double> G(N * (N + 1), 0);
  for (std::size_t r = 0; r < N; ++r) {
    for (std::size_t c = 0; c < N; ++c)
      for (std::size_t i = 0; i < M; ++i)
        G[r * (N + 1) + c] += A[i * N + r] * A[i * N + c];
    for (std::size_t i = 0; i < M; ++i)
      G[r * (N + 1) + N] += A[i * N + r] * B[i];
  }
  for (std::size_t p = 0; p < N; ++p)
    for (std::size_t r = p + 1; r < N; ++r) {
      const double f = G[r * (N + 1) + p] / G[p * (N + 1) + p];
      for (std::size_t c = p; c <= N; ++c)
        G[r * (N + 1) + c] -= f * G[p * (N + 1) + c];
    }
  std::vector<double> xh(N, 0);
  for (std::size_t i = N; i-- > 0;) {
    double s = G[i * (N + 1) + N];
    for (std::size_t j = i + 1; j < N; ++j)
      s -= G[i * (N + 1) + j] * xh[j];
    xh[i] = s / G[i * (N + 1) + i];
  }
  for (std::size_t j = 0; j < N; ++j)
    fit = fit && close(x[j], xh[j], 1e-2);

  bool ok = true;
  auto report = [&](bool good, const char* yes, const char* no) {
    std::cout << (good ? yes : no) << "\n";
    ok = ok && good;
  };
  report(upper, "R is upper triangular", "R is not upper triangular");
  report(orthogonal, "Q^T Q is the identity", "Q is not orthogonal");
  report(product, "Q R reproduces A", "Q R does not reproduce A");
  report(fit, "least-squares fit matches the host's", "least-squares fit differs from the host's");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
