// The message step of a SplineConv layer (PyTorch Geometric), as a PopTorch custom op builds it
// with PopLibs: each edge's pseudo-coordinates give B-spline coefficients and kernel indices
// (splineBasis), which weight the edge's source features through the spline kernel
// (splineWeighting). Degrees 1 and 2 over a 2-D kernel of 3 x 4 positions, open splines,
// checked against the B-spline formulas on the host.
#include <cmath>
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/SplineBasis.hpp>
#include <popops/SplineWeighting.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {

const std::size_t numEdges = 24, dims = 2, inChans = 5, outChans = 3;
const int kernelSize[dims] = {3, 4};

/// Weight of knot kMod at fraction v for an open uniform B-spline of `degree` (1 or 2).
float basisAt(unsigned degree, float v, unsigned kMod) {
  if (degree == 1) return kMod == 0 ? 1 - v : v;
  if (kMod == 0) return 0.5f * (1 - v) * (1 - v);
  if (kMod == 1) return 0.5f + v - v * v;
  return 0.5f * v * v;
}

} // namespace

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();

  std::vector<float> pseudo(numEdges * dims), features(numEdges * inChans);
  for (std::size_t i = 0; i < pseudo.size(); ++i)
    pseudo[i] = float((i * 7) % 23) / 23.0f;
  for (std::size_t i = 0; i < features.size(); ++i)
    features[i] = float((i * 5) % 11) / 11.0f - 0.5f;
  const std::size_t numWeights = std::size_t(kernelSize[0] * kernelSize[1]);
  std::vector<float> kernel(numWeights * inChans * outChans);
  for (std::size_t i = 0; i < kernel.size(); ++i)
    kernel[i] = float((i * 13) % 29) / 29.0f - 0.5f;

  bool ok = true;
  for (unsigned degree = 1; degree <= 2; ++degree) {
    Graph g(device.getTarget());
    popops::addCodelets(g);
    const std::size_t numSplines = (degree + 1) * (degree + 1);
    Tensor p = g.addVariable(FLOAT, {numEdges, dims}, "pseudo");
    Tensor x = g.addVariable(FLOAT, {numEdges, inChans}, "x");
    Tensor w = g.addVariable(FLOAT, {numWeights, inChans, outChans}, "weight");
    Tensor basis = g.addVariable(FLOAT, {numEdges, numSplines}, "basis");
    Tensor index = g.addVariable(INT, {numEdges, numSplines}, "weightIndex");
    for (const Tensor& t : {p, x, w, basis, index})
      poputil::mapTensorLinearly(g, t);
    Tensor ks = g.addConstant(INT, {dims}, kernelSize, "kernelSize");
    const unsigned char open[dims] = {1, 1};
    Tensor isOpen = g.addConstant(UNSIGNED_CHAR, {dims}, open, "isOpenSpline");
    g.setTileMapping(ks, 0);
    g.setTileMapping(isOpen, 0);

    Sequence prog;
    prog.add(Copy(g.addHostToDeviceFIFO("pseudo", FLOAT, p.numElements()), p));
    prog.add(Copy(g.addHostToDeviceFIFO("x", FLOAT, x.numElements()), x));
    prog.add(Copy(g.addHostToDeviceFIFO("w", FLOAT, w.numElements()), w));
    popops::splineBasis(g, p, ks, isOpen, basis, index, degree, prog, "basis");
    Tensor out = popops::splineWeighting(g, x, w, basis, index, prog, "weighting");
    prog.add(Copy(out, g.addDeviceToHostFIFO("out", FLOAT, out.numElements())));

    Engine engine(g, prog);
    engine.load(device);
    std::vector<float> devOut(numEdges * outChans);
    engine.connectStream("pseudo", pseudo.data());
    engine.connectStream("x", features.data());
    engine.connectStream("w", kernel.data());
    engine.connectStream("out", devOut.data());
    engine.run(0);

    float maxErr = 0;
    for (std::size_t e = 0; e < numEdges; ++e)
      for (std::size_t o = 0; o < outChans; ++o) {
        double acc = 0;
        for (std::size_t s = 0; s < numSplines; ++s) {
          double b = 1;
          std::size_t wi = 0, stride = 1, k = s;
          for (std::size_t d = 0; d < dims; ++d) {
            const unsigned kMod = unsigned(k % (degree + 1));
            k /= degree + 1;
            const float v = pseudo[e * dims + d] * float(kernelSize[d] - int(degree));
            b *= basisAt(degree, v - std::floor(v), kMod);
            wi += ((std::size_t(v) + kMod) % std::size_t(kernelSize[d])) * stride;
            stride *= std::size_t(kernelSize[d]);
          }
          for (std::size_t c = 0; c < inChans; ++c)
            acc += b * features[e * inChans + c] * kernel[(wi * inChans + c) * outChans + o];
        }
        maxErr = std::max(maxErr, std::fabs(float(acc) - devOut[e * outChans + o]));
      }
    std::cout << "degree " << degree << ": " << numSplines << " splines per edge, output "
              << out.dim(0) << "x" << out.dim(1)
              << (maxErr < 1e-4f ? ", matches the host\n" : ", DIFFERS from the host\n");
    if (!(maxErr < 1e-4f)) {
      std::cerr << "degree " << degree << ": max error " << maxErr << "\n";
      ok = false;
    }
  }
  return ok ? 0 : 1;
}
