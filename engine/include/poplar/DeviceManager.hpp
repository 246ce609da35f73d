// The device manager: the "find a free IPU, attach, run, detach" flow of programs written for
// IPU hardware. Its devices are simulated Mk2 IPUs (TargetType::IPU) that run exactly like an
// IPU Model device, so such programs run unchanged.
#pragma once

#include <memory>
#include <poplar/Device.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>
#include <vector>

namespace poplar {

/// Simulated IPU-POD: 16 IPUs by default (TESSERA_POD_IPUS changes it), offered as devices of
/// 1, 2, 4, 8 and 16 IPUs. Devices of one manager that share IPUs cannot be attached together.
class DeviceManager {
public:
  static DeviceManager createDeviceManager();
  /// All devices of the given type with exactly numIPUs IPUs.
  std::vector<Device> getDevices(TargetType type, unsigned numIPUs,
                                 const OptionFlags& opts = {}) const;
  /// Every device, whatever its number of IPUs, in id order.
  std::vector<Device> getDevices(const OptionFlags& opts = {}) const;
  Device getDevice(unsigned id, const OptionFlags& opts = {}) const;
  unsigned getNumIPUs() const;

  struct State;

private:
  explicit DeviceManager(std::shared_ptr<State> s) : state_(std::move(s)) {}
  std::shared_ptr<State> state_;
};

} // namespace poplar
