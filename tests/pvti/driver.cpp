// pvti_driver <scenario> [args]: records a known set of events with libpvti in a fresh process
// (PVTI_OPTIONS is read once per process, so every configuration needs its own). The tests in
// this folder run it with the environment they want and read back what it wrote. Checks that
// only the process itself can make (API return values) fail with exit code 1 and a message.
#include "Scenario.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <pvti/pvti.hpp>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <vector>

namespace {

pvti::TraceChannel testChannel{scenario::kChannel};

#define EXPECT(cond)                                                                               \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "pvti_driver: check failed: %s (line %d)\n", #cond, __LINE__);          \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

void sleepMs(int ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

// Every overload of the API on the main thread, with nesting across RAII and begin/end.
int basic() {
  pvti::TraceChannel* ch = &testChannel;
  pvti::ThreadName name("main thread");
  pvti::Metadata meta = pvti::createJsonMetadata(scenario::kMetadataJson);
  const char notTerminated[] = {'s', 'l', 'i', 'c', 'e', 'X', 'Y', 'Z'}; // the label is "slice"
  for (int i = 0; i < scenario::kOuterLoops; ++i) {
    pvti::Tracepoint outer(ch, "outer " + std::to_string(i));   // std::string
    pvti::Tracepoint::begin(ch, "inner");                       // const char*
    pvti::Tracepoint::event(ch, "tick");                        // instant
    { pvti::Tracepoint leaf(ch, notTerminated, 5); }            // pointer + length
    { pvti::Tracepoint withMeta(ch, notTerminated, 5, &meta); } // with metadata
    pvti::Tracepoint::end(ch, std::string("inner"));            // std::string end
  }
  pvti::Tracepoint::event(ch, std::string("instant with metadata"), &meta);
  pvti::Tracepoint::end(ch, "nothing open"); // unmatched: recorded, not fatal
  pvti::Tracepoint::begin(ch, "a");
  pvti::Tracepoint::end(ch, "b"); // mismatched: closes "a"

  std::vector<std::thread> workers;
  for (int w = 0; w < scenario::kWorkers; ++w)
    workers.emplace_back([w, ch] {
      pvti::ThreadName threadName("worker " + std::to_string(w));
      for (int i = 0; i < scenario::kWorkerSpans; ++i) {
        pvti::Tracepoint span(ch, "work");
        pvti::Tracepoint::begin(ch, "step");
        pvti::Tracepoint::end(ch, "step");
      }
    });
  for (auto& t : workers)
    t.join();

  pvti::Graph loss("Loss", "");
  pvti::Series train = loss.addSeries("Training Loss");
  pvti::Series validation = loss.addSeries("Validation Loss");
  train.add(1.5);
  train.add(0.75);
  validation.add(2.5);
  pvti::Graph memory("Memory", "MiB", /*enable=*/false);
  memory.addSeries("ignored").add(1);

  pvti::HeatmapDouble weights("weights", {0.0, 1.0, 2.0}, "2^x");
  weights.add({-1.0, 0.5, 1.5, 1.75, 5.0, std::nan("")}); // bins 1,1,2,1
  weights.add({});                                        // bins 0,0,0,0
  pvti::HeatmapInt64 sizes("sizes", {0, 10});
  sizes.add({-5, 0, 9, 10, 100}); // bins 1,2,2
  bool threw = false;
  try {
    pvti::HeatmapDouble bad("bad", {1.0, 1.0});
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  EXPECT(threw);
  threw = false;
  try {
    pvti::createJsonMetadata("{not json");
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  EXPECT(threw);
  std::printf("%s\n", pvti::getCurrentTraceFilename().c_str());
  return 0;
}

// PVTI_OPTIONS names only "Keep"; the scenario also switches channels at run time.
int channels() {
  pvti::TraceChannel keep{"Keep"};
  pvti::TraceChannel drop{"Drop"};
  EXPECT(pvti::checkTraceChannel(&keep));
  EXPECT(!pvti::checkTraceChannel(&drop));
  const auto list = pvti::listTraceChannel();
  std::vector<std::string> names;
  for (auto* c : list)
    names.push_back(c->name);
  for (const char* n : {"Drivers", "Poplar", "Framework", "Test", "Keep", "Drop"})
    EXPECT(std::find(names.begin(), names.end(), n) != names.end());
  pvti::Tracepoint::event(&keep, "keep 1");
  pvti::Tracepoint::event(&drop, "drop 1");
  { pvti::Tracepoint t(&drop, "drop span"); }
  pvti::enableTraceChannel(&drop);
  EXPECT(pvti::checkTraceChannel(&drop));
  pvti::Tracepoint::event(&drop, "drop 2");
  pvti::disableTraceChannel(&keep);
  EXPECT(!pvti::checkTraceChannel(&keep));
  pvti::Tracepoint::event(&keep, "keep 2");
  {
    // Disabled while open: the scope still ends, so nesting stays right.
    pvti::Tracepoint t(&drop, "drop scope");
    pvti::disableTraceChannel(&drop);
    pvti::Tracepoint::event(&drop, "drop 3");
  }
  pvti::enableTraceChannel(&keep);
  pvti::Tracepoint::event(&keep, "keep 3");
  return 0;
}

// PVTI_OPTIONS duration is 0.3 s.
int duration() {
  pvti::Tracepoint::event(&testChannel, "early");
  { pvti::Tracepoint t(&testChannel, "early span"); }
  sleepMs(700);
  pvti::Tracepoint::event(&testChannel, "late");
  { pvti::Tracepoint t(&testChannel, "late span"); }
  return 0;
}

// No PVTI_OPTIONS: everything works and nothing is written.
int off() {
  EXPECT(pvti::getCurrentTraceFilename().empty());
  EXPECT(pvti::checkTraceChannel(&testChannel));
  { pvti::Tracepoint t(&testChannel, "nothing"); }
  pvti::Tracepoint::begin(&testChannel, "x");
  pvti::Tracepoint::end(&testChannel, "x");
  pvti::Tracepoint::event(&testChannel, "x");
  pvti::Graph g("g", "u");
  g.addSeries("s").add(1);
  pvti::HeatmapDouble h("h", {1, 2});
  h.add({1.5});
  pvti::ThreadName n("n");
  pvti::closeTrace();
  std::printf("no trace\n");
  return 0;
}

// Records, waits past the flush interval, says "ready", then keeps recording until killed.
int crash() {
  for (int i = 0; i < scenario::kCrashEvents; ++i)
    pvti::Tracepoint t(&testChannel, "e" + std::to_string(i));
  pvti::Tracepoint::begin(&testChannel, "open at kill");
  pvti::Tracepoint::event(&testChannel, "inside");
  sleepMs(400); // > 100 ms: everything above is in the file now
  std::printf("ready %d\n", scenario::kCrashEvents);
  std::fflush(stdout);
  for (int i = 0;; ++i) {
    pvti::Tracepoint t(&testChannel, "after");
    if (i % 1000 == 0) sleepMs(1);
  }
}

// load <threads> <spans per thread>: groups of one "outer" with kLoadGroup-1 "inner" inside.
int load(int threads, int spans) {
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([spans] {
      for (int i = 0; i < spans / scenario::kLoadGroup; ++i) {
        pvti::Tracepoint::begin(&testChannel, "outer");
        for (int k = 1; k < scenario::kLoadGroup; ++k)
          pvti::Tracepoint inner(&testChannel, "inner");
        pvti::Tracepoint::end(&testChannel, "outer");
      }
    });
  for (auto& t : pool)
    t.join();
  return 0;
}

// soak <threads>: each thread records kSoakGroups groups like load's, about one a millisecond,
// so that a reader can open the file again and again while every thread records; says "ready"
// once the file has events and exits when a file named "stop" appears in the working directory
// (after the threads are done).
int soak(int threads) {
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([] {
      for (int g = 0; g < scenario::kSoakGroups; ++g) {
        pvti::Tracepoint::begin(&testChannel, "outer");
        for (int k = 1; k < scenario::kLoadGroup; ++k)
          pvti::Tracepoint inner(&testChannel, "inner");
        pvti::Tracepoint::end(&testChannel, "outer");
        // Spread over seconds: the file grows while it is read, and stays small enough that
        // reading all of it again and again is quick (also under the sanitizers).
        sleepMs(1);
      }
    });
  sleepMs(300); // past the flush interval: the file has events
  std::printf("ready\n");
  std::fflush(stdout);
  for (auto& t : pool)
    t.join();
  while (!std::filesystem::exists("stop"))
    sleepMs(5);
  return 0;
}

// diskfull <bytes>: the process may write files of at most <bytes> (RLIMIT_FSIZE; SIGXFSZ
// ignored, so a write past it fails with EFBIG as on a full disk). Records numbered events until
// well past the limit, then checks it still runs and says how many it recorded.
int diskfull(long bytes) {
  std::signal(SIGXFSZ, SIG_IGN);
  // The trace file exists already (the session starts before main): limit what it may grow to.
  const rlimit limit{static_cast<rlim_t>(bytes), static_cast<rlim_t>(bytes)};
  EXPECT(setrlimit(RLIMIT_FSIZE, &limit) == 0);
  int n = 0;
  for (int round = 0; round < scenario::kDiskFullRounds; ++round) {
    for (int i = 0; i < scenario::kDiskFullEventsPerRound; ++i, ++n)
      pvti::Tracepoint t(&testChannel, "e" + std::to_string(n)); // distinct labels: the file grows
    sleepMs(20);                                                 // let the writer flush this round
  }
  pvti::closeTrace();
  std::printf("still running after %d events\n", n);
  return 0;
}

// `spans` spans back to back on one thread, labelled "b", as fast as the thread can record.
int burst(long spans) {
  for (long i = 0; i < spans; ++i)
    pvti::Tracepoint t(&testChannel, "b");
  return 0;
}

} // namespace

// Two spans around sleeps, each timed by steady_clock as well: prints the steady ns of each
// span's begin and end, so the test can check the trace's clock conversion against them.
int clockCheck() {
  using Clock = std::chrono::steady_clock;
  auto ns = [] { return static_cast<long long>(Clock::now().time_since_epoch().count()); };
  long long times[4];
  for (int i = 0; i < 2; ++i) {
    pvti::Tracepoint::begin(&testChannel, "timed");
    times[2 * i] = ns();
    sleepMs(40);
    times[2 * i + 1] = ns();
    pvti::Tracepoint::end(&testChannel, "timed");
    sleepMs(20);
  }
  std::printf("%lld %lld %lld %lld\n", times[0], times[1], times[2], times[3]);
  return 0;
}

int main(int argc, char** argv) {
  const std::string s = argc > 1 ? argv[1] : "";
  if (s == "basic") return basic();
  if (s == "channels") return channels();
  if (s == "duration") return duration();
  if (s == "off") return off();
  if (s == "crash") return crash();
  if (s == "load" && argc == 4) return load(std::atoi(argv[2]), std::atoi(argv[3]));
  if (s == "soak" && argc == 3) return soak(std::atoi(argv[2]));
  if (s == "diskfull" && argc == 3) return diskfull(std::atol(argv[2]));
  if (s == "clock") return clockCheck();
  if (s == "burst" && argc == 3) return burst(std::atol(argv[2]));
  if (s == "name") return std::printf("%s\n", pvti::getCurrentTraceFilename().c_str()) < 0;
  std::fprintf(stderr, "usage: pvti_driver basic|clock|channels|duration|off|crash|name|load "
                       "<threads> <spans>|soak <threads>|diskfull <bytes>|burst <spans>\n");
  return 2;
}
