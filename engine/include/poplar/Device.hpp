// Devices and the device manager: the usual "find a free device, attach, run, detach" flow.
#pragma once

#include <memory>
#include <vector>

#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>

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

/// Simulated IPU-POD: 16 IPUs by default (TESSERA_POD_IPUS changes it), offered as devices of
/// 1, 2, 4, 8 and 16 IPUs. Devices of one manager that share IPUs cannot be attached together.
class DeviceManager {
public:
  static DeviceManager createDeviceManager();
  /// All devices of the given type with exactly numIPUs IPUs.
  std::vector<Device> getDevices(TargetType type, unsigned numIPUs,
                                 const OptionFlags& opts = {}) const;
  Device getDevice(unsigned id, const OptionFlags& opts = {}) const;
  unsigned getNumIPUs() const;

  struct State;

private:
  explicit DeviceManager(std::shared_ptr<State> s) : state_(std::move(s)) {}
  std::shared_ptr<State> state_;
};

} // namespace poplar
