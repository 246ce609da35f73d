// A device a graph runs on: an IPU Model, the CPU, or an IPU of the DeviceManager.
#pragma once

#include <memory>
#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>
#include <vector>

namespace poplar {

class Device {
public:
  Device(); ///< an invalid device
  ~Device();
  Device(Device&&) noexcept;
  Device& operator=(Device&&) noexcept;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  static Device createCPUDevice(unsigned numTiles = 1);

  const Target& getTarget() const;
  /// Whether programs on this device can use remote buffers: every simulated device can.
  bool supportsRemoteBuffers() const;
  /// A device of the same IPUs with only the first tilesPerIPU tiles of each (an IPU Model
  /// device; attaching it does not claim the IPUs of a DeviceManager device).
  Device createVirtualDevice(unsigned tilesPerIPU);
  unsigned getId() const;
  /// IPU Model and CPU devices are always attached; manager devices must attach first.
  bool attach();
  void detach();
  bool isAttached() const;
  explicit operator bool() const { return static_cast<bool>(impl_); }

  struct Impl;
  explicit Device(std::shared_ptr<Impl> impl);
  const Impl* impl() const { return impl_.get(); }

private:
  std::shared_ptr<Impl> impl_;
};

} // namespace poplar
