// Image preprocessing on the device, as vision models feed 8-bit RGB batches: the batch is
// created with popops::createNormaliseImageInput (whole pixels per tile), written as bytes,
// and popops::normaliseImage scales each channel to [0, 1], subtracts the ImageNet mean and
// divides by its standard deviation, padding every pixel to 4 channels of half for the first
// convolution. The result is read back and compared with the same arithmetic on the host.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/NormaliseImage.hpp>
#include <popops/codelets.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  const Target& target = device.getTarget();
  Graph graph(target);
  popops::addCodelets(graph);

  const std::size_t batch = 2, height = 12, width = 10, pixels = batch * height * width;
  Tensor images =
      popops::createNormaliseImageInput(graph, UNSIGNED_CHAR, {batch, height, width, 3}, "images");
  const float mean[3] = {0.485f, 0.456f, 0.406f};
  const float invStd[3] = {1 / 0.229f, 1 / 0.224f, 1 / 0.225f};
  Tensor offsets = graph.addConstant(HALF, {3}, mean, "mean");
  Tensor scales = graph.addConstant(HALF, {3}, invStd, "invStd");
  graph.setTileMapping(offsets, 0);
  graph.setTileMapping(scales, 0);
  graph.createHostWrite("images", images);

  Sequence prog;
  Tensor normalised =
      popops::normaliseImage(graph, prog, images, 1.0f / 255, offsets, scales, "normalise");
  graph.createHostRead("normalised", normalised);

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<unsigned char> host(pixels * 3);
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = (unsigned char)((i * 61 + 17) % 256);
  engine.writeTensor("images", host.data(), host.data() + host.size());
  engine.run(0);
  std::vector<std::uint16_t> raw(pixels * 4);
  engine.readTensor("normalised", raw.data(), raw.data() + raw.size());
  std::vector<float> result(raw.size());
  copyDeviceHalfToFloat(target, raw.data(), result.data(), raw.size());

  double worst = 0;
  bool padZero = true;
  for (std::size_t p = 0; p < pixels; ++p) {
    for (int c = 0; c < 3; ++c) {
      const float want = (host[p * 3 + c] / 255.0f - mean[c]) * invStd[c];
      worst = std::max(worst, double(std::fabs(result[p * 4 + c] - want)));
    }
    padZero = padZero && result[p * 4 + 3] == 0.0f;
  }
  std::cout << "output shape: [" << normalised.dim(0) << "," << normalised.dim(1) << ","
            << normalised.dim(2) << "," << normalised.dim(3) << "] "
            << normalised.elementType().toString() << "\n";
  const bool ok = worst < 2e-2 && padZero;
  std::cout << (ok ? "normalised pixels match the host" : "normalised pixels differ") << "\n";
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
