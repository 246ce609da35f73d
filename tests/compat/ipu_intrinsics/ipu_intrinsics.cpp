// Runs codelets that call IPU builtins (__builtin_ipu_f16tof32, __builtin_ipu_exp, ...) and the
// C++ intrinsics (ipu::clamp, ipu::andc, ipu::load_postinc), precompiled by popc, and checks
// each result against the host's maths.
#include <cmath>
#include <cstdio>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 2;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("activation_codelets.gp");

  const std::vector<float> xs = {-3.0f, -1.5f, -0.5f, 0.0f, 0.25f, 0.75f, 2.0f, 4.0f};
  const unsigned n = xs.size();
  Tensor in = graph.addVariable(HALF, {n}, "in");
  Tensor sig = graph.addVariable(FLOAT, {n}, "sigmoid");
  Tensor sp = graph.addVariable(FLOAT, {n}, "softplus");
  Tensor cl = graph.addVariable(FLOAT, {n}, "clamped");
  Tensor f = graph.addVariable(FLOAT, {n}, "f");
  Tensor absf = graph.addVariable(FLOAT, {n}, "abs");
  for (Tensor t : {in, sig, sp, cl}) graph.setTileMapping(t, 0);
  for (Tensor t : {f, absf}) graph.setTileMapping(t, 1);
  graph.setInitialValue(in, xs); // exact in half
  graph.setInitialValue(f, xs);

  ComputeSet cs = graph.addComputeSet("activations");
  VertexRef a = graph.addVertex(cs, "HalfActivations",
                                {{"in", in}, {"sigmoid", sig}, {"softplus", sp}, {"clamped", cl}});
  graph.setTileMapping(a, 0);
  VertexRef b = graph.addVertex(cs, "AbsPairs", {{"in", f}, {"out", absf}});
  graph.setTileMapping(b, 1);
  graph.createHostRead("sigmoid", sig);
  graph.createHostRead("softplus", sp);
  graph.createHostRead("clamped", cl);
  graph.createHostRead("abs", absf);

  Engine engine(graph, Execute(cs));
  engine.load(device);
  engine.run();

  std::vector<float> s(n), p(n), c(n), ab(n);
  engine.readTensor("sigmoid", s.data(), s.data() + n);
  engine.readTensor("softplus", p.data(), p.data() + n);
  engine.readTensor("clamped", c.data(), c.data() + n);
  engine.readTensor("abs", ab.data(), ab.data() + n);
  unsigned wrong = 0;
  for (unsigned i = 0; i < n; ++i) {
    const float x = xs[i];
    const float wantS = 1.0f / (1.0f + std::exp(-x)), wantP = std::log(1.0f + std::exp(x));
    const float wantC = x < -1.0f ? -1.0f : (x > 1.0f ? 1.0f : x);
    if (std::fabs(s[i] - wantS) > 1e-6f || std::fabs(p[i] - wantP) > 1e-5f || c[i] != wantC ||
        ab[i] != std::fabs(x))
      ++wrong;
  }
  std::printf("sigmoid(2) = %.6f, softplus(2) = %.6f, clamp(-3) = %.1f, |-1.5| = %.2f\n", s[6],
              p[6], c[0], ab[1]);
  std::printf("%u of %u elements differ from the host\n", wrong, n);
  return wrong == 0 ? 0 : 1;
}
