// Timing helpers the viewer benchmarks share: wall and thread-CPU milliseconds, medians, and
// the load average to print beside results taken on a shared machine.
#pragma once

#include <chrono>
#include <functional>
#include <vector>

namespace tessera::bench {

using Clock = std::chrono::steady_clock;

double ms(Clock::time_point a, Clock::time_point b);
/// CPU time of the calling thread, in ms.
double threadCpuMs();
/// CPU time of the whole process (every thread: the viewer's background loaders too), in ms.
double processCpuMs();
double median(std::vector<double> v);
/// Median wall-clock ms of `reps` calls; *cpu gets the median of this thread's CPU time, which a
/// busy machine disturbs less than wall time.
double timeMedian(int reps, const std::function<void()>& f, double* cpu);
/// The 1-minute load average (-1 when /proc/loadavg cannot be read).
double loadAverage();

} // namespace tessera::bench
