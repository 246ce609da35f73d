// bench_pvti: the cost of libpvti's hot path against baselines measured in the same run.
//
//   bench_pvti [--pairs N] [--reps R] [--threads T] [--spans S] [--loop L] [--rounds K]
//              [--busy B] [--dir D]
//   (default N = 8,000 begin+end pairs per timed batch (half a thread's ring, so the writer
//    never makes the loop wait), R = 200 batches, T = 4 threads, S = 1,000,000 spans each,
//    L = 10,000,000 spans back to back, K = 3 rounds, B = 1 busy thread,
//    D = $TMPDIR/bench-pvti)
//
// 0. Back to back, as a user's program runs (issue 38): L RAII spans in one tight loop, the
//    writer thread draining as it goes, against L pairs of steady_clock::now() in the same
//    loop, alternating K times, while B other threads spin (other work on the machine). Goal:
//    the spans' loop <= 1.0x the clock reads', in every round. Every span is read back at the
//    end, with any "pvti: waiting for the writer" span (a producer that had to wait says so in
//    the trace). Each round's CPU and page faults are printed for the loop's thread and for the
//    rest of the process (the writer, and the busy threads when B > 0), to show where a round's
//    time went.
// 1. Enabled begin+end pair (static begin/end and an RAII Tracepoint) against two
//    steady_clock::now() calls, the cost of timing a span by hand (goal <= 1.0x: records are
//    stamped from the TSC where it is invariant; TESSERA_PVTI_CLOCK=steady measures the
//    steady_clock fall-back).
// 2. A tracepoint on a disabled channel against an empty loop iteration (goal <= 1 ns).
// 3. Sustained events per second to disk from T threads, closeTrace included, and every span
//    read back with pva::openTrace (goal >= 5M/s, 0 lost: the exit status is 1 if any is lost).
// 4. Loading that trace with a progress callback (pva::openTrace(path, progress), as the viewer
//    does) against a plain openTrace of the same file (goal: within a few percent).
// Medians over R batches; between batches the writer drains (the loop sleeps, untimed).
// --test picks test 0 (loop) or tests 1-4 (hotpath); all (the default) runs each in a process of
// its own, tracing into D/loop and D/hotpath.
//
// PVTI_OPTIONS is read once, when the library loads: unless it is set, bench_pvti sets it and
// runs itself again.
#include "common/CommandLine.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <pva/Trace.hpp>
#include <pvti/pvti.hpp>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

pvti::TraceChannel benchChannel{"bench"};
pvti::TraceChannel offChannel{"bench-off", false};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Median ns per iteration of `body` run n times, over reps batches.
template <class F> double nsPerOp(std::size_t n, std::size_t reps, F&& body, bool drainBetween) {
  std::vector<double> ns;
  for (std::size_t r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    for (std::size_t i = 0; i < n; ++i)
      body();
    const auto t1 = Clock::now();
    ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() /
                 static_cast<double>(n));
    if (drainBetween)
      std::this_thread::sleep_for(std::chrono::milliseconds(60)); // the writer empties the ring
  }
  return median(ns);
}

/// CPU seconds and page faults (minor: first touches) of the process or the calling thread.
struct Usage {
  double cpu = 0;
  long faults = 0;
};
Usage usage(int who) {
  rusage u{};
  getrusage(who, &u);
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  return {seconds(u.ru_utime) + seconds(u.ru_stime), u.ru_minflt + u.ru_majflt};
}
double processCpuSeconds() {
  return usage(RUSAGE_SELF).cpu;
}

volatile std::int64_t sink; // keeps the clock baseline from being optimised away

/// 0. Back to back: `loop` spans in a tight loop against `loop` pairs of clock reads, `rounds`
/// times, with `busy` threads spinning; then closeTrace and every span read back. 0: all there.
int loopTest(std::size_t loop, std::size_t rounds, std::size_t busy) {
  std::atomic<bool> spin{true};
  std::vector<std::thread> spinners;
  for (std::size_t b = 0; b < busy; ++b)
    spinners.emplace_back([&spin] {
      std::uint64_t x = 0;
      while (spin.load(std::memory_order_relaxed))
        sink = static_cast<std::int64_t>(++x);
    });
  std::vector<double> clockLoop, spanLoop;
  std::vector<Usage> loopThread, others; // during each span loop (issue 38: where round 1 goes)
  double spanCpu = 0;
  for (std::size_t r = 0; r < rounds; ++r) {
    auto t0 = Clock::now();
    for (std::size_t i = 0; i < loop; ++i) {
      const auto a = Clock::now();
      const auto b = Clock::now();
      sink = (b - a).count();
    }
    auto t1 = Clock::now();
    clockLoop.push_back(std::chrono::duration<double>(t1 - t0).count());
    const Usage p0 = usage(RUSAGE_SELF), l0 = usage(RUSAGE_THREAD);
    t0 = Clock::now();
    for (std::size_t i = 0; i < loop; ++i)
      pvti::Tracepoint s(&benchChannel, "loop");
    t1 = Clock::now();
    const Usage p1 = usage(RUSAGE_SELF), l1 = usage(RUSAGE_THREAD);
    spanCpu += p1.cpu - p0.cpu;
    loopThread.push_back({l1.cpu - l0.cpu, l1.faults - l0.faults});
    others.push_back(
        {(p1.cpu - p0.cpu) - (l1.cpu - l0.cpu), (p1.faults - p0.faults) - (l1.faults - l0.faults)});
    spanLoop.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  spin.store(false);
  for (auto& t : spinners)
    t.join();
  const double clockS = median(clockLoop), spanS = median(spanLoop);
  std::printf(
      "back to back, %zu spans      %.3f s (%.1f ns a span)   %zu x two steady_clock::now() "
      "%.3f s (%.1f ns)   ratio %.2fx (goal <= 1.0x; %zu busy threads, medians of %zu)\n",
      loop, spanS, spanS / double(loop) * 1e9, loop, clockS, clockS / double(loop) * 1e9,
      spanS / clockS, busy, rounds);
  std::printf("  ratio by round:");
  for (std::size_t r = 0; r < rounds; ++r)
    std::printf(" %.2fx", spanLoop[r] / clockLoop[r]);
  std::printf("   process CPU during the span loops %.1f ns a span (busy threads included)\n",
              spanCpu / double(loop * rounds) * 1e9);
  std::printf(
      "  by round, CPU s and page faults of the loop's thread | of the others (writer, busy):");
  for (std::size_t r = 0; r < rounds; ++r)
    std::printf("%s %.3f s %ld | %.3f s %ld", r ? ";" : "", loopThread[r].cpu, loopThread[r].faults,
                others[r].cpu, others[r].faults);
  std::printf("\n");

  pvti::closeTrace();
  const pva::Trace trace = pva::openTrace(pvti::getCurrentTraceFilename());
  std::size_t looped = 0, waits = 0;
  double waitedS = 0;
  for (const auto& t : trace.processes()[0].threads())
    for (const auto& e : t.events()) {
      const std::string& label = e.label();
      looped += label == "loop" && e.finished();
      if (label == "pvti: waiting for the writer") {
        ++waits;
        waitedS += static_cast<double>(e.endNs() - e.beginNs()) * 1e-9;
      }
    }
  std::printf("  read back %zu of %zu loop spans; the loop waited for the writer %zu times, "
              "%.3f s in all\n",
              looped, loop * rounds, waits, waitedS);
  return looped == loop * rounds ? 0 : 1;
}

/// --test all: each part in a process of its own (PVTI_OPTIONS is read once, at load), tracing
/// into its own directory, one after the other. 0 when both succeed.
int runParts(int argc, char** argv, const std::string& dir) {
  std::vector<std::string> args;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--test") {
      ++i; // and its value
      continue;
    }
    if (arg.rfind("--test=", 0) == 0) continue;
    args.push_back(arg);
  }
  int status = 0;
  for (const char* part : {"loop", "hotpath"}) {
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0) {
      std::perror("bench_pvti: fork");
      return 1;
    }
    if (pid == 0) {
      std::vector<char*> childArgs;
      for (auto& a : args)
        childArgs.push_back(a.data());
      std::string testArg = std::string("--test=") + part;
      childArgs.push_back(testArg.data());
      childArgs.push_back(nullptr);
      const std::string options = R"({"enable":true,"directory":")" + dir + "/" + part + R"("})";
      setenv("PVTI_OPTIONS", options.c_str(), 1);
      execv("/proc/self/exe", childArgs.data());
      std::perror("bench_pvti: cannot run itself again");
      _exit(1);
    }
    int ws = 0;
    waitpid(pid, &ws, 0);
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) status = 1;
  }
  return status;
}

} // namespace

int main(int argc, char** argv) {
  std::size_t n = 8000, reps = 200, threads = 4, spans = 1000000, loop = 10000000, rounds = 3,
              busy = 1;
  std::string dir = (fs::temp_directory_path() / "bench-pvti").string();
  tessera::cli::CommandLine cli(
      "bench_pvti",
      "bench_pvti: the cost of libpvti's tracepoints against a clock read and an empty loop, "
      "and sustained spans per second to disk.",
      "bench_pvti --pairs 1000 --reps 3 --threads 2 --spans 10000 --dir /tmp/bench-pvti");
  const CLI::Validator& positive = tessera::cli::PositiveNumber;
  cli.add_option("--pairs", n, "Begin+end pairs per timed batch")->check(positive);
  cli.add_option("--reps", reps, "Timed batches (medians are reported)")->check(positive);
  cli.add_option("--threads", threads, "Threads in the sustained test")->check(positive);
  cli.add_option("--spans", spans, "Spans per thread in the sustained test")->check(positive);
  cli.add_option("--loop", loop, "Spans back to back in the loop test")->check(positive);
  cli.add_option("--rounds", rounds, "Rounds of the loop test (medians are reported)")
      ->check(positive);
  cli.add_option("--busy", busy, "Threads spinning during the loop test (0: none)");
  std::string test = "all";
  cli.add_option("--test", test, "Which part: loop (back to back), hotpath (1-4) or all")
      ->check(CLI::IsMember({"all", "loop", "hotpath"}));
  cli.add_option("--dir", dir, "Trace directory (emptied first)")->type_name("DIR");
  cli.parseOrExit(argc, argv);
  if (!std::getenv("PVTI_OPTIONS")) {
    fs::remove_all(dir);
    if (test == "all") return runParts(argc, argv, dir);
    const std::string options = R"({"enable":true,"directory":")" + dir + R"("})";
    setenv("PVTI_OPTIONS", options.c_str(), 1);
    execv("/proc/self/exe", argv);
    std::perror("bench_pvti: cannot run itself again");
    return 1;
  }
  if (pvti::getCurrentTraceFilename().empty()) {
    std::fprintf(stderr, "bench_pvti: tracing is off (PVTI_OPTIONS=%s)\n",
                 std::getenv("PVTI_OPTIONS"));
    return 1;
  }
  if (test == "loop") return loopTest(loop, rounds, busy);

  // Warm up: the thread's ring and label cache exist, pages are touched.
  for (int i = 0; i < 2; ++i)
    nsPerOp(
        n, 1,
        [] {
          pvti::Tracepoint::begin(&benchChannel, "bench");
          pvti::Tracepoint::end(&benchChannel, "bench");
        },
        true);

  // 1. enabled pairs against two clock reads
  const double clock2 = nsPerOp(
      n, reps,
      [] {
        const auto a = Clock::now();
        const auto b = Clock::now();
        sink = (b - a).count();
      },
      false);
  const double pair = nsPerOp(
      n, reps,
      [] {
        pvti::Tracepoint::begin(&benchChannel, "bench");
        pvti::Tracepoint::end(&benchChannel, "bench");
      },
      true);
  const double scope = nsPerOp(
      n, reps, [] { pvti::Tracepoint t(&benchChannel, "bench"); }, true);

  // 2. disabled tracepoints against an empty loop iteration
  const std::size_t m = n * 100;
  const double empty = nsPerOp(
      m, reps / 4 + 1,
      [] {
        asm volatile("" ::: "memory");
      },
      false);
  const double disabled = nsPerOp(
      m, reps / 4 + 1,
      [] {
        asm volatile("" ::: "memory");
        pvti::Tracepoint::begin(&offChannel, "off");
      },
      false);

  std::printf("enabled begin+end pair      %7.2f ns   two steady_clock::now() %6.2f ns   ratio "
              "%.2fx (goal <= 1.0x)\n",
              pair, clock2, pair / clock2);
  std::printf("enabled RAII Tracepoint     %7.2f ns   ratio %.2fx (goal <= 1.0x)\n", scope,
              scope / clock2);
  std::printf("disabled tracepoint         %7.3f ns   empty loop iteration    %6.3f ns   cost %.3f "
              "ns (goal <= 1 ns)\n",
              disabled, empty, disabled - empty);

  // 3. sustained throughput to disk, closeTrace included, every span read back
  const double cpu0 = processCpuSeconds();
  const auto t0 = Clock::now();
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < threads; ++t)
    pool.emplace_back([spans] {
      for (std::size_t i = 0; i < spans; ++i)
        pvti::Tracepoint s(&benchChannel, "sustained");
    });
  for (auto& t : pool)
    t.join();
  const auto t1 = Clock::now();
  pvti::closeTrace();
  const auto t2 = Clock::now();
  const double cpuS = processCpuSeconds() - cpu0;
  const double recordS = std::chrono::duration<double>(t1 - t0).count();
  const double totalS = std::chrono::duration<double>(t2 - t0).count();

  const pva::Trace trace = pva::openTrace(pvti::getCurrentTraceFilename());
  std::size_t sustained = 0, all = 0;
  for (const auto& t : trace.processes()[0].threads()) {
    all += t.numEvents();
    // A span counts when it read back whole: its label, and an end.
    for (const auto& e : t.events())
      sustained += e.label() == "sustained" && e.finished();
  }
  const std::size_t expected = threads * spans;
  const double events = static_cast<double>(expected);
  std::printf("sustained, %zu threads       %zu spans in %.2f s recording, %.2f s until closeTrace "
              "returned: "
              "%.2f M spans/s (goal >= 5M/s); read back %zu, lost %zu\n",
              threads, expected, recordS, totalS, events / totalS / 1e6, sustained,
              expected > sustained ? expected - sustained : 0);
  // CPU used by the whole process (producers and writer) while the machine's cores were shared:
  // well under cores x wall time means other processes had the CPU.
  std::printf("  process CPU %.2f s over %.2f s wall on %u cores (%.0f ns CPU a span)\n", cpuS,
              totalS, std::thread::hardware_concurrency(), cpuS / events * 1e9);
  std::printf("trace file %s: %.1f MB, %zu events\n", pvti::getCurrentTraceFilename().c_str(),
              static_cast<double>(fs::file_size(pvti::getCurrentTraceFilename())) / 1e6, all);

  // Loading with progress: the callback runs once per event block. Alternate the two loads so
  // both see the same page cache; keep the fastest of three each.
  double plainS = 1e9, progressS = 1e9;
  std::size_t calls = 0;
  for (int rep = 0; rep < 3; ++rep) {
    auto a = Clock::now();
    pva::openTrace(pvti::getCurrentTraceFilename());
    auto b = Clock::now();
    plainS = std::min(plainS, std::chrono::duration<double>(b - a).count());
    calls = 0;
    a = Clock::now();
    pva::openTrace(pvti::getCurrentTraceFilename(), [&calls](double) { return ++calls > 0; });
    b = Clock::now();
    progressS = std::min(progressS, std::chrono::duration<double>(b - a).count());
  }
  std::printf("load with progress           %.3f s (%zu callbacks)   plain openTrace  %.3f s   "
              "ratio %.2fx\n",
              progressS, calls, plainS, progressS / plainS);
  return sustained == expected ? 0 : 1;
}
