// An image blurred in half precision, prepared the way the public Gaussian blur programs do:
// the host converts each float pixel to the bits of a half with popfloat's singleToHalf,
// streams the uint16_t buffer into a HALF tensor, and converts the result back with
// halfToSingle.
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <popfloat/experimental/CastToHalf.hpp> // for halfToSingle and singleToHalf
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;
namespace pe = popops::expr;

int main() {
  const unsigned height = 3, width = 6;
  std::vector<float> img(height * width);
  for (unsigned y = 0; y < height; ++y)
    for (unsigned x = 0; x < width; ++x)
      img[y * width + x] = float((x * 7 + y * 3) % 10) / 4.0f;

  std::vector<uint16_t> float16DataBuf(img.size());
  for (std::size_t i = 0; i < img.size(); ++i)
    float16DataBuf[i] = popfloat::experimental::singleToHalf(img[i]);

  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  Tensor in = graph.addVariable(HALF, {height, width}, "in");
  Tensor out = graph.addVariable(HALF, {height, width}, "out");
  poputil::mapTensorLinearly(graph, in);
  poputil::mapTensorLinearly(graph, out);
  auto toDevice = graph.addHostToDeviceFIFO(">>img", HALF, img.size());
  auto fromDevice = graph.addDeviceToHostFIFO("<<img", HALF, img.size());

  Sequence prog;
  prog.add(Copy(toDevice, in));
  prog.add(Copy(in, out));
  // A 1-2-1 blur along each row, edges kept.
  Tensor left = in.slice(0, width - 2, 1), mid = in.slice(1, width - 1, 1),
         right = in.slice(2, width, 1);
  Tensor blurred = popops::map(graph, pe::Const(0.25f) * pe::_1 + pe::Const(0.5f) * pe::_2 +
                                          pe::Const(0.25f) * pe::_3,
                               {left, mid, right}, prog, "blur");
  prog.add(Copy(blurred, out.slice(1, width - 1, 1)));
  prog.add(Copy(out, fromDevice));

  Engine engine(graph, prog);
  engine.load(device);
  engine.connectStream(">>img", float16DataBuf.data());
  std::vector<uint16_t> result(img.size());
  engine.connectStream("<<img", result.data());
  engine.run(0);

  std::cout << std::fixed << std::setprecision(4);
  for (unsigned y = 0; y < height; ++y) {
    for (unsigned x = 0; x < width; ++x)
      std::cout << (x ? " " : "") << popfloat::experimental::halfToSingle(result[y * width + x]);
    std::cout << "\n";
  }
  std::cout << "1/3 as half: 0x" << std::hex << popfloat::experimental::singleToHalf(1.0f / 3)
            << ", back: " << std::dec << popfloat::experimental::halfToSingle(0x3555) << "\n";
  return 0;
}
