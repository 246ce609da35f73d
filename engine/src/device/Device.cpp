#include <cstdlib>
#include <mutex>
#include <poplar/DeviceManager.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

namespace poplar {

struct DeviceManager::State {
  unsigned numIPUs;
  std::mutex mutex;
  std::vector<bool> busy; // per IPU
  struct Slot {
    unsigned firstIPU, count;
  };
  std::vector<Slot> slots; // device id -> IPUs
};

struct Device::Impl {
  Target target;
  unsigned id = 0;
  std::shared_ptr<DeviceManager::State> manager; // null: always attached
  bool attached = false;
};

Device::Device() = default;
Device::~Device() {
  detach();
}
Device::Device(Device&&) noexcept = default;
Device& Device::operator=(Device&& o) noexcept {
  if (this != &o) {
    detach();
    impl_ = std::move(o.impl_);
  }
  return *this;
}
Device::Device(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

Device Device::createCPUDevice(unsigned numTiles) {
  auto impl = std::make_shared<Impl>();
  Target::Params p = Target::createCPUTarget().params();
  p.tilesPerIPU = numTiles;
  impl->target = Target(p);
  return Device(impl);
}

const Target& Device::getTarget() const {
  if (!impl_) throw invalid_machine_model("getTarget() on an invalid Device");
  return impl_->target;
}

bool Device::supportsRemoteBuffers() const {
  if (!impl_) throw invalid_machine_model("supportsRemoteBuffers() on an invalid Device");
  return true;
}

Device Device::createVirtualDevice(unsigned tilesPerIPU) {
  const Target& t = getTarget();
  if (tilesPerIPU == 0 || tilesPerIPU > t.getTilesPerIPU())
    throw invalid_machine_model("createVirtualDevice(" + std::to_string(tilesPerIPU) +
                                "): the device has 1 to " + std::to_string(t.getTilesPerIPU()) +
                                " tiles per IPU");
  auto impl = std::make_shared<Impl>();
  impl->target = t.createVirtualTarget(t.getNumIPUs(), tilesPerIPU);
  impl->id = impl_->id;
  return Device(impl);
}

unsigned Device::getId() const {
  return impl_ ? impl_->id : 0;
}

bool Device::attach() {
  if (!impl_) throw invalid_machine_model("attach() on an invalid Device");
  if (!impl_->manager || impl_->attached) return impl_->attached = true;
  auto& m = *impl_->manager;
  std::lock_guard<std::mutex> lock(m.mutex);
  const auto& slot = m.slots.at(impl_->id);
  for (unsigned i = 0; i < slot.count; ++i)
    if (m.busy[slot.firstIPU + i]) return false;
  for (unsigned i = 0; i < slot.count; ++i)
    m.busy[slot.firstIPU + i] = true;
  return impl_->attached = true;
}

void Device::detach() {
  if (!impl_ || !impl_->manager || !impl_->attached) return;
  auto& m = *impl_->manager;
  std::lock_guard<std::mutex> lock(m.mutex);
  const auto& slot = m.slots.at(impl_->id);
  for (unsigned i = 0; i < slot.count; ++i)
    m.busy[slot.firstIPU + i] = false;
  impl_->attached = false;
}

bool Device::isAttached() const {
  return impl_ && (!impl_->manager || impl_->attached);
}

Device IPUModel::createDevice(OptionFlags, bool, unsigned) const {
  auto impl = std::make_shared<Device::Impl>();
  impl->target = createTarget();
  return Device(impl);
}

DeviceManager DeviceManager::createDeviceManager() {
  auto s = std::make_shared<State>();
  s->numIPUs = 16;
  if (const char* env = std::getenv("TESSERA_POD_IPUS")) {
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end == env || *end != '\0' || n < 1 || n > 1024)
      throw invalid_machine_model("TESSERA_POD_IPUS='" + std::string(env) +
                                  "': expected a number of IPUs between 1 and 1024");
    s->numIPUs = static_cast<unsigned>(n);
  }
  s->busy.assign(s->numIPUs, false);
  // Ids as on an IPU-POD: single IPUs first, then aligned groups of 2, 4, 8 ...
  for (unsigned count = 1; count <= s->numIPUs; count *= 2)
    for (unsigned first = 0; first + count <= s->numIPUs; first += count)
      s->slots.push_back({first, count});
  return DeviceManager(s);
}

unsigned DeviceManager::getNumIPUs() const {
  return state_->numIPUs;
}

Device DeviceManager::getDevice(unsigned id, const OptionFlags&) const {
  if (id >= state_->slots.size())
    throw invalid_machine_model("no device with id " + std::to_string(id) + " (this machine has " +
                                std::to_string(state_->slots.size()) + " device ids)");
  auto impl = std::make_shared<Device::Impl>();
  impl->target = Target::createIPUTarget(state_->slots[id].count);
  impl->id = id;
  impl->manager = state_;
  return Device(impl);
}

std::vector<Device> DeviceManager::getDevices(TargetType type, unsigned numIPUs,
                                              const OptionFlags& opts) const {
  std::vector<Device> devices;
  if (type != TargetType::IPU) return devices;
  for (unsigned id = 0; id < state_->slots.size(); ++id)
    if (state_->slots[id].count == numIPUs) devices.push_back(getDevice(id, opts));
  return devices;
}

std::vector<Device> DeviceManager::getDevices(const OptionFlags& opts) const {
  std::vector<Device> devices;
  for (unsigned id = 0; id < state_->slots.size(); ++id)
    devices.push_back(getDevice(id, opts));
  return devices;
}

} // namespace poplar
