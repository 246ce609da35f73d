// FP8 the way public Poplar code uses it (the TensorFlow and PopART FP8 ops): activations cast
// to QUARTER with a metadata tensor, kept as bytes, cast back to HALF; and the PopLibs
// overloads such code calls beside it (map over several expressions, varianceToInvStdDev with a
// result type, gather with options). Results are checked against the host.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/MetadataCreation.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Gather.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/Util.hpp>

#include <cmath>
#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

// F143 on the host, from its definition: 1 sign, 4 exponent bits (bias 8), 3 mantissa bits,
// no infinities; the element stands for its value times 2^scale.
float f143Value(unsigned code, int scale) {
  const int e = (code >> 3) & 15, m = code & 7;
  const float v = e == 0 ? std::ldexp(m / 8.0f, -7) : std::ldexp(1.0f + m / 8.0f, e - 8);
  return std::ldexp((code & 0x80) ? -v : v, scale);
}

// The nearest F143 value by search (ties to the even code).
float f143Nearest(float x, int scale) {
  unsigned best = 0;
  float bestDiff = std::fabs(x);
  for (unsigned c = 1; c < 0x80; ++c) {
    const float d = std::fabs(f143Value(c, scale) - std::fabs(x));
    if (d < bestDiff || (d == bestDiff && c % 2 == 0)) {
      best = c;
      bestDiff = d;
    }
  }
  return x < 0 ? -f143Value(best, scale) : f143Value(best, scale);
}

} // namespace

int main() {
  IPUModel model;
  model.numIPUs = 1;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  const std::size_t n = 16;
  Tensor acts = graph.addVariable(HALF, {n}, "acts");
  poputil::mapTensorLinearly(graph, acts);
  graph.createHostWrite("acts", acts);

  Sequence prog;
  // The scale a TensorFlow FP8 op passes: 2^-2, so values up to 60 fit F143's 240.
  const int scale = -2;
  Tensor metadata = poputil::createVariableMetadataTensor(
      graph, QuarterMetadata::Format::F143, scale);
  Tensor fp8 = popops::cast(graph, acts, QUARTER, metadata, prog, "toFp8");
  Tensor asBytes = fp8.reinterpret(UNSIGNED_CHAR); // how FP8 tensors travel between ops
  Tensor restored = popops::cast(graph, fp8, HALF, prog, "fromFp8");
  graph.createHostRead("bytes", asBytes);
  graph.createHostRead("restored", restored);

  // Statistics as a norm layer keeps them: a float variance to a half inverse std deviation.
  Tensor var = graph.addVariable(FLOAT, {4}, "var");
  poputil::mapTensorLinearly(graph, var);
  graph.createHostWrite("var", var);
  Tensor eps = graph.addConstant(FLOAT, {}, 1e-3f, "eps");
  graph.setTileMapping(eps, 0);
  Tensor invStd = popops::varianceToInvStdDev(graph, var, eps, prog, HALF, "invStd");
  graph.createHostRead("invStd", invStd);

  // Several expressions over the same inputs.
  namespace pe = popops::expr;
  std::vector<Tensor> outs =
      popops::map(graph, {pe::_1 * pe::_1, pe::Add(pe::_1, pe::Const(1.0f))}, {var}, prog);
  graph.createHostRead("square", outs[0]);
  graph.createHostRead("plusOne", outs[1]);

  // A gather with the slice options PopLibs passes on.
  Tensor table = popops::createGatherInput(graph, FLOAT, {4, 2}, 0);
  graph.createHostWrite("table", table);
  Tensor idx = graph.addVariable(UNSIGNED_INT, {3}, "idx");
  graph.setTileMapping(idx, 1);
  graph.createHostWrite("idx", idx);
  Tensor rows = popops::gather(graph, table, idx, 0, prog, popops::GatherParams(), "rows",
                               {{"usedForSlice", "true"}});
  graph.createHostRead("rows", rows);

  Engine engine(graph, prog);
  engine.load(device);

  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i)
    values[i] = (i % 2 ? -1.0f : 1.0f) * 0.37f * float(i * i) / 4.0f;
  std::vector<std::uint16_t> halves(n);
  copyFloatToDeviceHalf(device.getTarget(), values.data(), halves.data(), n);
  engine.writeTensor("acts", halves.data(), halves.data() + n);
  const std::vector<float> variance = {0.25f, 1.0f, 4.0f, 16.0f};
  engine.writeTensor("var", variance.data(), variance.data() + variance.size());
  const std::vector<float> tableValues = {0, 1, 10, 11, 20, 21, 30, 31};
  engine.writeTensor("table", tableValues.data(), tableValues.data() + tableValues.size());
  const std::vector<unsigned> indices = {3, 0, 2};
  engine.writeTensor("idx", indices.data(), indices.data() + indices.size());
  engine.run();

  std::vector<unsigned char> bytes(n);
  engine.readTensor("bytes", bytes.data(), bytes.data() + n);
  std::vector<std::uint16_t> back(n);
  engine.readTensor("restored", back.data(), back.data() + n);
  std::vector<float> restoredValues(n);
  copyDeviceHalfToFloat(device.getTarget(), back.data(), restoredValues.data(), n);
  // The inputs as the device holds them (rounded to half).
  std::vector<float> asHalf(n);
  copyDeviceHalfToFloat(device.getTarget(), halves.data(), asHalf.data(), n);
  unsigned fp8Mismatches = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float hostHalf = asHalf[i];
    const float expected = f143Nearest(hostHalf, scale);
    if (restoredValues[i] != expected || f143Value(bytes[i], scale) != expected) ++fp8Mismatches;
  }
  std::cout << "fp8 F143 round trip of " << n << " halves: " << fp8Mismatches
            << " differ from the host's nearest F143 values\n";
  std::cout << "largest element " << values[n - 1] << " is stored as "
            << restoredValues[n - 1] << "\n";

  std::vector<std::uint16_t> invBits(4);
  engine.readTensor("invStd", invBits.data(), invBits.data() + 4);
  std::vector<float> inv(4);
  copyDeviceHalfToFloat(device.getTarget(), invBits.data(), inv.data(), 4);
  bool invOk = true;
  for (int i = 0; i < 4; ++i) {
    const float expected = 1.0f / std::sqrt(variance[i] + 1e-3f);
    invOk &= std::fabs(inv[i] - expected) <= 1e-3f * expected; // half's precision
  }
  std::cout << "varianceToInvStdDev to half: " << (invOk ? "matches" : "differs from")
            << " the host\n";

  std::vector<float> square(4), plusOne(4);
  engine.readTensor("square", square.data(), square.data() + 4);
  engine.readTensor("plusOne", plusOne.data(), plusOne.data() + 4);
  std::cout << "map of two expressions:";
  for (int i = 0; i < 4; ++i)
    std::cout << " " << square[i] << "/" << plusOne[i];
  std::cout << "\n";

  std::vector<float> picked(6);
  engine.readTensor("rows", picked.data(), picked.data() + 6);
  std::cout << "gathered rows:";
  for (float v : picked)
    std::cout << " " << v;
  std::cout << "\n";
  return 0;
}
