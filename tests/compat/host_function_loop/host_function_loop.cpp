// A program written the way research codes on Poplar are (a solver library's runtime layer, an
// Advent-of-Code style counter): engine options read from POPLAR_ENGINE_OPTIONS and written
// back, host functions called from the device (one returning results, one only observing),
// remote memory read back through gccs::ArrayRef, a stream callback kept as a handle,
// a data-dependent loop (RepeatWhileTrue) holding an If, a cycle count around the loop, windowed
// sums built from slices, concat and broadcast and reduced as INT, compileGraph with a progress
// callback, and an Engine made from the executable. Every result is checked.
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <poplar/CycleCount.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/StreamCallback.hpp>
#include <poplar/SyncType.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {
int failures = 0;
void check(bool ok, const std::string& what) {
  std::cout << (ok ? "ok: " : "FAILED: ") << what << "\n";
  if (!ok) ++failures;
}

// A callback object, as libraries wrap their own callables (poplar::HostCallback).
class Doubler : public HostCallback {
public:
  void operator()(ArrayRef<const void*> inputs, ArrayRef<void*> outputs) override {
    const float* in = static_cast<const float*>(inputs[0]);
    float* out = static_cast<float*>(outputs[0]);
    for (int k = 0; k < 4; ++k)
      out[k] = 2 * in[k];
    ++calls;
  }
  int calls = 0;
};
} // namespace

int main() {
  // The runtime layer's habit: take what the user put in the environment, add its own, and
  // write the result back for the engine to read.
  setenv("POPLAR_ENGINE_OPTIONS", "{\"debug.instrument\": \"true\"}", 1);
  OptionFlags envOptions;
  readJSONFromEnv("POPLAR_ENGINE_OPTIONS", envOptions);
  envOptions.set("debug.retainDebugInformation", "true");
  std::stringstream written;
  written << envOptions;
  setenv("POPLAR_ENGINE_OPTIONS", written.str().c_str(), 1);
  OptionFlags readBack;
  readJSONFromEnv("POPLAR_ENGINE_OPTIONS", readBack);
  check(readBack.at("debug.instrument") == "true" &&
            readBack.at("debug.retainDebugInformation") == "true",
        "options survive the environment round trip");
  OptionFlags untouched;
  untouched.set("a", "b");
  unsetenv("TESSERA_COMPAT_UNSET_OPTIONS");
  readJSONFromEnv("TESSERA_COMPAT_UNSET_OPTIONS", untouched);
  check(untouched.at("a") == "b", "an unset variable leaves the options alone");

  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  // Windowed sums of three: rows (a, b, c), (b, c, d), ..., padded with zeros, summed as INT,
  // then how many sums grew from one row to the next.
  const std::size_t n = 8;
  Tensor window = graph.addVariable(INT, {n, 3}, "window");
  for (unsigned row = 0; row < n; ++row)
    graph.setTileMapping(window[row], row / 2);
  Tensor zero = graph.addConstant<int>(INT, {1}, {0}, "zero");
  graph.setTileMapping(zero, 0);
  check(zero.containsConstant() && !window.containsConstant() &&
            concat(window[0], zero).containsConstant(),
        "containsConstant tells constants from variables");

  Sequence body;
  Tensor first = window.slice(0, 1, 1).flatten();
  body.add(Copy(concat(first.slice(1, n, 0), zero), window.slice(1, 2, 1).flatten()));
  body.add(Copy(concat(first.slice(2, n, 0), zero.broadcast(2, 0)),
                window.slice(2, 3, 1).flatten()));
  Tensor sums = popops::reduce(graph, window, INT, {1}, {popops::Operation::ADD}, body, "sums");
  Tensor previous = concat(sums.slice(0, 1, 0), sums.slice(0, n - 1, 0));
  Tensor grew = popops::gt(graph, popops::sub(graph, sums, previous, body, "diff"), zero, body,
                           "grew");
  Tensor grewCount = popops::reduce(graph, popops::cast(graph, grew, INT, body, "asInt"), INT,
                                    {0}, {popops::Operation::ADD}, body, "count");

  // A host function returning results: four floats go to the host and come back doubled.
  Tensor floats = graph.addVariable(FLOAT, {4}, "floats");
  poputil::mapTensorLinearly(graph, floats);
  Tensor doubled = graph.clone(floats, "doubled");
  graph.setInitialValue(floats, std::vector<float>{0.5f, 1.5f, -2.0f, 8.0f});
  HostFunction doubler = graph.addHostFunction("doubler", {{FLOAT, 4}}, {{FLOAT, 4}});
  body.add(Call(doubler, {floats}, {doubled}, "callDoubler"));
  // The doubled values are also kept in remote memory, read back row by row after the run.
  RemoteBuffer spill = graph.addRemoteBuffer("spill", FLOAT, 4);
  body.add(Copy(doubled, spill, "spill"));

  // A loop whose trip count the device decides: i runs 0..4; odd values are counted by an If,
  // and each i is shown to an observing host function (no outputs).
  Tensor i = graph.addVariable(INT, {}, "i");
  Tensor odd = graph.addVariable(INT, {}, "odd");
  graph.setTileMapping(i, 1);
  graph.setTileMapping(odd, 1);
  Tensor one = graph.addConstant<int>(INT, {}, 1, "one");
  Tensor limit = graph.addConstant<int>(INT, {}, 5, "limit");
  graph.setTileMapping(one, 1);
  graph.setTileMapping(limit, 1);
  HostFunction observe = graph.addHostFunction("observe", {{INT, 1}}, {});

  Sequence condition;
  Tensor more = popops::lt(graph, i, limit, condition, "more");
  Sequence step;
  step.add(Call(observe, {i.reshape({1})}, {}, "observeI"));
  Tensor isOdd = popops::map(graph,
                             popops::expr::Equal(popops::expr::Rem(popops::expr::_1,
                                                                   popops::expr::Const(2)),
                                                 popops::expr::Const(1)),
                             {i}, step, "isOdd");
  Sequence countOdd;
  popops::addInPlace(graph, odd, one, countOdd, "countOdd");
  step.add(If(isOdd, countOdd, Sequence(), "ifOdd"));
  popops::addInPlace(graph, i, one, step, "next");
  Sequence loop({Copy(zero.reshape({}), i), Copy(zero.reshape({}), odd),
                 RepeatWhileTrue(condition, more, step, "whileMore")});
  Tensor cycles = cycleCount(graph, loop, 0, SyncType::GLOBAL, "loopCycles");
  body.add(loop);

  DataStream in = graph.addHostToDeviceFIFO("measurements", INT, n);
  DataStream out = graph.addDeviceToHostFIFO("grewCount", INT, 1);
  graph.createHostRead("sums", sums);
  graph.createHostRead("doubled", doubled);
  graph.createHostRead("odd", odd);
  graph.createHostRead("cycles", cycles.slice(0, 1));
  Sequence top({Copy(in, first), body, Copy(grewCount, out)});

  int progressCalls = 0;
  Executable exe = compileGraph(graph, {top}, OptionFlags(),
                                [&progressCalls](int, int) { ++progressCalls; });
  Engine engine(std::move(exe), OptionFlags());
  engine.load(device);
  check(progressCalls > 0, "compileGraph reported progress");

  std::vector<int> measurements = {3, 1, 4, 1, 5, 9, 2, 6};
  std::vector<int> counted(1, -1);
  engine.connectStream("measurements", measurements.data());
  // The device-to-host result through a callback kept as a handle first.
  std::function<void(void*)> takeCount = [&counted](void* p) {
    counted[0] = *static_cast<const int*>(p);
  };
  StreamCallbackHandle countHandle(takeCount);
  engine.connectStreamToCallback("grewCount", std::move(countHandle));
  std::unique_ptr<Doubler> owned(new Doubler);
  Doubler* doublerCallback = owned.get();
  engine.connectHostFunction("doubler", 0, std::unique_ptr<HostCallback>(std::move(owned)));
  std::vector<int> seen;
  engine.connectHostFunction("observe", 0,
                             [&seen](ArrayRef<const void*> ins, ArrayRef<void*> outs) {
                               seen.push_back(*static_cast<const int*>(ins[0]));
                               if (!outs.empty()) seen.push_back(-1000);
                             });

  auto t0 = engine.getTimeStamp();
  engine.run(0);
  auto t1 = engine.getTimeStamp();
  check(!engine.reportTiming(t0, t1).empty(), "reportTiming describes the run");

  // The windowed sums of 3 1 4 1 5 9 2 6 (zeros past the end) and how many grew.
  std::vector<int> expectSums(n);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t k = r; k < r + 3 && k < n; ++k)
      expectSums[r] += measurements[k];
  int expectGrew = 0;
  for (std::size_t r = 1; r < n; ++r)
    expectGrew += expectSums[r] > expectSums[r - 1];
  std::vector<int> gotSums(n);
  engine.readTensor("sums", gotSums.data(), gotSums.data() + n);
  check(gotSums == expectSums, "windowed sums reduced along dimension 1");
  std::cout << "sums increased " << counted[0] << " times\n";
  check(counted[0] == expectGrew, "gt against a broadcast constant, cast and reduced");

  std::vector<float> gotDoubled(4);
  engine.readTensor("doubled", gotDoubled.data(), gotDoubled.data() + 4);
  check(gotDoubled == std::vector<float>({1.0f, 3.0f, -4.0f, 16.0f}) &&
            doublerCallback->calls == 1,
        "host function results written back to the device");
  check(seen == std::vector<int>({0, 1, 2, 3, 4}), "observing host function saw i = 0..4");
  std::vector<float> spilled(4, 0.0f);
  gccs::ArrayRef<float> spillView(spilled.data(), spilled.size());
  engine.copyFromRemoteBuffer<float>("spill", spillView, 0);
  check(spilled == gotDoubled, "copyFromRemoteBuffer<T> into a gccs::ArrayRef");
  int oddCount = -1;
  engine.readTensor("odd", &oddCount, &oddCount + 1);
  check(oddCount == 2, "If inside RepeatWhileTrue counted the odd values");
  unsigned loopCycles = 0;
  engine.readTensor("cycles", &loopCycles, &loopCycles + 1);
  check(loopCycles > 0, "cycleCount around the loop");

  // A second run calls the host functions again.
  engine.run(0);
  check(doublerCallback->calls == 2 && seen.size() == 10, "host functions run on every call");

  if (failures) {
    std::cout << failures << " check(s) failed\n";
    return 1;
  }
  std::cout << "all checks passed\n";
  return 0;
}
