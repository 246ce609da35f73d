// Small IPU Model devices, quick to compile for and with per-tile arrays short enough to spell out.
#pragma once

#include <poplar/Device.hpp>

namespace test {

/// A small IPU Model device (tiles per IPU and IPUs configurable), not attached.
poplar::Device smallDevice(unsigned tilesPerIPU = 8, unsigned numIPUs = 1);

/// An attached IPU Model device with few tiles and a chosen memory per tile (the report tests'
/// hand-computed examples).
poplar::Device tinyDevice(unsigned tilesPerIPU = 4, unsigned numIPUs = 1,
                          unsigned bytesPerTile = 638976);

} // namespace test
