// A gfloat cast round trip the way popfloat's users write it: a FormatConfig for bfloat16
// (7 mantissa bits, 8 exponent bits, bias 127), round to nearest, the parameter tensor, then
// castNativeToGfloat into packed 16-bit storage and castGfloatToNative back to float. The host
// rounds each float to bfloat16 with the usual bit trick (add 0x7FFF plus the kept LSB).
#include <cstdint>
#include <cstring>
#include <iostream>
#include <popfloat/experimental/CastToGfloat.hpp>
#include <popfloat/experimental/codelets.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using namespace popfloat::experimental;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popfloat::experimental::addCodelets(graph);

  const std::size_t n = 64;
  GfloatCast::FormatConfig format(7, 8, 127, true, true, FLOAT);
  GfloatCast::RoundConfig rounding(RoundType::RN, 0, FLOAT);
  GfloatCast cast(format, rounding, true);

  Tensor in = graph.addVariable(FLOAT, {n}, "in");
  for (unsigned t = 0; t < 4; ++t)
    graph.setTileMapping(in.slice(t * n / 4, (t + 1) * n / 4), t);
  Sequence prog;
  cast.createCastOpParamsTensor(graph, prog, "params");
  Tensor packed = cast.castNativeToGfloat(graph, in, prog, "toBf16");
  Tensor out = cast.castGfloatToNative(graph, packed, prog, "fromBf16");
  graph.createHostWrite("in", in);
  graph.createHostRead("packed", packed);
  graph.createHostRead("out", out);

  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = float((double(i) - 31.5) * 0.731 * (1.0 + double(i % 7) / 3.0));
  Engine engine(graph, prog);
  engine.load(device);
  engine.writeTensor("in", x.data(), x.data() + n);
  engine.run(0);
  std::vector<std::int16_t> bits(n);
  std::vector<float> y(n);
  engine.readTensor("packed", bits.data(), bits.data() + n);
  engine.readTensor("out", y.data(), y.data() + n);

  bool bitsOk = true, valuesOk = true;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t u;
    std::memcpy(&u, &x[i], 4);
    const std::uint32_t top = (u + 0x7FFF + ((u >> 16) & 1)) >> 16;
    const std::uint32_t full = top << 16;
    float expected;
    std::memcpy(&expected, &full, 4);
    bitsOk = bitsOk && std::uint16_t(bits[i]) == top;
    valuesOk = valuesOk && y[i] == expected;
  }
  std::cout << "storage type " << cast.getGFStorageType() << ", format "
            << formatTypeToString(format.getFormatType()) << "\n";
  std::cout << (bitsOk ? "packed bits are the rounded floats' top 16 bits"
                       : "packed bits differ from the host's bfloat16")
            << "\n";
  std::cout << (valuesOk ? "round trip gives the host's bfloat16 values"
                         : "round trip differs from the host's bfloat16 values")
            << "\n";
  return bitsOk && valuesOk ? 0 : 1;
}
