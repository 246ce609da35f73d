// Targets, the IPU Model and the device manager's attach flow.
#include "TestUtil.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <poplar/DeviceManager.hpp>
#include <poplar/exceptions.hpp>

using namespace poplar;

TEST_CASE("the IPU Model defaults to a Mk2 IPU", "[device]") {
  IPUModel model;
  auto device = model.createDevice();
  const auto& t = device.getTarget();
  CHECK(t.getTargetType() == TargetType::IPU_MODEL);
  CHECK(t.getNumIPUs() == 1);
  CHECK(t.getTilesPerIPU() == 1472);
  CHECK(t.getNumTiles() == 1472);
  CHECK(t.getBytesPerTile() == 638976);
  CHECK(t.getMemoryBytes() == 638976ull * 1472);
  CHECK(t.getNumWorkerContexts() == 6);
  CHECK(t.getTileClockFrequency() == Approx(1.33e9));
  CHECK(t.getTargetArchString() == "ipu2");
  CHECK(t.getFloatVectorWidth() == 2);
  CHECK(t.getHalfVectorWidth() == 4);
  CHECK(t.getMemoryElementOffsets().front() == 0);
  CHECK(t.getMemoryElementOffsets().back() < t.getBytesPerTile());
  CHECK(device.isAttached());
}

TEST_CASE("IPU Model fields configure the target", "[device]") {
  IPUModel bow("bow");
  CHECK(bow.createTarget().getTileClockFrequency() == Approx(1.85e9));
  IPUModel mk1("ipu1");
  CHECK(mk1.createTarget().getTilesPerIPU() == 1216);
  CHECK(mk1.createTarget().getBytesPerTile() == 256 * 1024);
  IPUModel m;
  m.numIPUs = 4;
  m.tilesPerIPU = 16;
  m.memoryBytesPerTile = 1024;
  m.exchangeBytesPerCycle = 8;
  const auto t = m.createTarget();
  CHECK(t.getNumTiles() == 64);
  CHECK(t.getBytesPerTile() == 1024);
  CHECK(t.getExchangeBytesPerCycle() == 8);
  CHECK(t.getIPUForTile(33) == 2);
  CHECK_THROWS_AS(IPUModel("ipu9"), invalid_machine_model);
  m.tilesPerIPU = 0;
  CHECK_THROWS_AS(m.createTarget(), invalid_machine_model);
}

TEST_CASE("IPU Model rates that would make cycles undefined are refused", "[device][errors]") {
  // Each rate divides bytes into cycles (issue 40: a negative host link rate read from an
  // executable made a float-to-integer conversion out of range).
  auto refuses = [](auto&& edit, const char* what) {
    IPUModel m;
    edit(m);
    CHECK_THROWS_MATCHES(m.createTarget(), invalid_machine_model,
                         test::What(Catch::Contains(what)));
  };
  refuses([](IPUModel& m) { m.memcpyBytesPerCycle = 0; }, "memcpyBytesPerCycle");
  refuses([](IPUModel& m) { m.instructionBytes = 0; }, "instructionBytes");
  refuses([](IPUModel& m) { m.tilesPerSuperTile = 0; }, "tilesPerSuperTile");
  refuses([](IPUModel& m) { m.tileClockFrequency = std::nan(""); }, "tileClockFrequency");
  refuses([](IPUModel& m) { m.tileClockFrequency = HUGE_VAL; }, "tileClockFrequency");
  Target::Params p = IPUModel().createTarget().params();
  p.hostLinkBytesPerCycle = -0.5;
  CHECK_THROWS_MATCHES(Target(p), invalid_machine_model,
                       test::What(Catch::Contains("hostLinkBytesPerCycle")));
  p.hostLinkBytesPerCycle = 6;
  p.ipuLinkBytesPerCycle = 0;
  CHECK_THROWS_MATCHES(Target(p), invalid_machine_model,
                       test::What(Catch::Contains("ipuLinkBytesPerCycle")));
}

TEST_CASE("the device manager attaches, refuses overlapping devices and detaches", "[device]") {
  auto manager = DeviceManager::createDeviceManager();
  CHECK(manager.getNumIPUs() == 16);
  auto singles = manager.getDevices(TargetType::IPU, 1);
  auto pairs = manager.getDevices(TargetType::IPU, 2);
  CHECK(singles.size() == 16);
  CHECK(pairs.size() == 8);
  CHECK(manager.getDevices(TargetType::IPU, 3).empty());
  CHECK(pairs[0].getTarget().getNumIPUs() == 2);
  CHECK(pairs[0].getTarget().getTargetType() == TargetType::IPU);

  // The usual flow: take the first device that attaches.
  Device* chosen = nullptr;
  for (auto& d : pairs)
    if (d.attach()) {
      chosen = &d;
      break;
    }
  REQUIRE(chosen);
  CHECK(chosen->isAttached());
  CHECK_FALSE(singles[0].attach()); // IPU 0 belongs to the attached pair
  CHECK(singles[2].attach());
  chosen->detach();
  CHECK(singles[0].attach());
  CHECK_THROWS_AS(manager.getDevice(1000), invalid_machine_model);
}

TEST_CASE("TESSERA_POD_IPUS sizes the device manager and is checked", "[device]") {
  setenv("TESSERA_POD_IPUS", "4", 1);
  CHECK(DeviceManager::createDeviceManager().getNumIPUs() == 4);
  setenv("TESSERA_POD_IPUS", "many", 1);
  CHECK_THROWS_MATCHES(DeviceManager::createDeviceManager(), invalid_machine_model,
                       test::What(Catch::Contains("TESSERA_POD_IPUS")));
  unsetenv("TESSERA_POD_IPUS");
}

TEST_CASE("an engine loads only on an attached device matching its target", "[device][errors]") {
  auto device = test::smallDevice(8);
  Graph g(device.getTarget());
  Engine e(g, program::Sequence());
  CHECK_THROWS_AS(e.load(test::smallDevice(16)), poplar::runtime_error);
  CHECK_THROWS_AS(e.load(Device()), poplar::runtime_error);
  auto manager = DeviceManager::createDeviceManager();
  auto hw = manager.getDevices(TargetType::IPU, 1);
  Graph hg(hw[0].getTarget());
  Engine he(hg, program::Sequence());
  CHECK_THROWS_MATCHES(he.load(hw[0]), poplar::runtime_error,
                       test::What(Catch::Contains("not attached")));
  REQUIRE(hw[0].attach());
  he.load(hw[0]);
  CHECK(he.isLoaded());
  e.load(device);
  CHECK(e.isLoaded());
}
