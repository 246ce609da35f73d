#include "Timing.hpp"

#include <algorithm>
#include <ctime>
#include <fstream>

namespace tessera::bench {

double ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

double processCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double timeMedian(int reps, const std::function<void()>& f, double* cpu) {
  std::vector<double> t, c;
  for (int r = 0; r < reps; ++r) {
    const auto a = Clock::now();
    const double ca = threadCpuMs();
    f();
    c.push_back(threadCpuMs() - ca);
    t.push_back(ms(a, Clock::now()));
  }
  *cpu = median(c);
  return median(t);
}

double loadAverage() {
  std::ifstream in("/proc/loadavg");
  double load = -1;
  return in >> load ? load : -1;
}

} // namespace tessera::bench
