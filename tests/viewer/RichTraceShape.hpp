// What viewer_trace_writer writes with the libpvti API, so the Host trace tests can check the
// viewer's index against it. Times are real (sleeps), so only lower bounds are known for them.
#pragma once

namespace rich_trace {

constexpr int steps = 3;       ///< "step" events on the main thread
constexpr int stepSleepMs = 2; ///< each "layer" sleeps this long
// main thread, per step: step > forward > layer0, layer1; step > backward > allreduce; and one
// "tiny" (sub-microsecond) child of the last step.
constexpr int mainEvents = steps * 6 + 1;
constexpr int mainDepths = 3;
constexpr int loads = 4;           ///< "load batch" > "decode" on the loader thread
constexpr int defaultTicks = 1000; ///< back-to-back sub-microsecond "tick" events on the loader
constexpr int loaderEvents = loads * 2 + defaultTicks;
constexpr int mainInstants = 1;         ///< "checkpoint", with metadata
constexpr int loaderInstants = 2;       ///< "queue empty"
constexpr int graphSamples = steps + 1; ///< per series of the "memory" graph ("host", "device")
constexpr int heatmapSamples = steps;   ///< "gradients": edges -2 -1 0 1 2, 8 values a sample
constexpr int heatmapValuesPerSample = 8;

} // namespace rich_trace
