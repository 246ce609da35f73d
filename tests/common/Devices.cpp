#include "common/Devices.hpp"

#include <poplar/IPUModel.hpp>

namespace test {

namespace {
poplar::IPUModel model(unsigned tilesPerIPU, unsigned numIPUs) {
  poplar::IPUModel m;
  m.tilesPerIPU = tilesPerIPU;
  m.numIPUs = numIPUs;
  return m;
}
} // namespace

poplar::Device smallDevice(unsigned tilesPerIPU, unsigned numIPUs) {
  return model(tilesPerIPU, numIPUs).createDevice();
}

poplar::Device tinyDevice(unsigned tilesPerIPU, unsigned numIPUs, unsigned bytesPerTile) {
  poplar::IPUModel m = model(tilesPerIPU, numIPUs);
  m.memoryBytesPerTile = bytesPerTile;
  poplar::Device d = m.createDevice();
  d.attach();
  return d;
}

} // namespace test
