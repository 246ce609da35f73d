// bench_report_writer: writing an execution profile through tessera::profiler::ReportWriter
// against raw SQLite, timed in one run.
//
//   bench_report_writer [--steps N] [--tiles T] [--batch B] [--reps R] [--pool P] [--dir D] [--only
//   W] (default N = 1,000,000 steps, T = 1472 tiles, B = 10,000 rows per transaction, R = 3
//    alternating runs of each, P = 509 distinct steps cycled through, D = $TMPDIR; W = direct,
//    background, raw or encode runs that one alone, R times, to profile it)
//
// Tessera: per step, encode the step's cycles_by_tile (TileValues) and ipus (StepIpus) blobs
// and insert a `steps` row through the writer, committing every B rows, then publish().
// Baseline: the sqlite3 C API with the same pragmas, a table of the same shape (and index), one
// prepared statement, binding blobs that were encoded before the clock started; same batches,
// and the file is closed and fsynced like publish() does. Both use the same pool of step data,
// so blob sizes are identical. The ratio baseline-time / Tessera-time is what we track (goal:
// Tessera reaches at least 80% of raw SQLite's rows/s). Peak RSS growth is measured too: it
// must stay flat as N grows (no per-row memory is kept).
//
// Batches: 10k rows (~10 MB of blobs) per transaction amortise the commit while keeping the page
// cache and journal bounded; one transaction per run is what the engine does for a whole run,
// and costs the same here, because SQLite journals only pages that existed before it.
#include "common/CommandLine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <profiler/Blob.hpp>
#include <profiler/ReportWriter.hpp>
#include <random>
#include <sqlite3.h>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
namespace tp = tessera::profiler;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// CPU time of the whole process so far (user + system, all threads), seconds. On a machine shared
// with other work the wall-clock time depends on what else runs; CPU time shows the work itself.
double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// Peak resident set so far (ru_maxrss, KiB on Linux).
long peakRssKiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// Current resident set, KiB: sampled during a phase to get that phase's own peak.
long currentRssKiB() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

// CPU time of each of this process's threads so far (ns, /proc/self/task/<tid>/schedstat), and
// (waitingNs) how long each waited, ready to run, for a core.
std::map<long, double> threadCpuNs(std::map<long, double>* waitingNs = nullptr) {
  std::map<long, double> out;
  for (const auto& e : fs::directory_iterator("/proc/self/task")) {
    std::ifstream in(e.path() / "schedstat");
    double ns = 0, waiting = 0;
    if (in >> ns >> waiting) {
      out[std::stol(e.path().filename().string())] = ns;
      if (waitingNs) (*waitingNs)[std::stol(e.path().filename().string())] = waiting;
    }
  }
  return out;
}

struct StepData {
  std::vector<std::uint64_t> cycles; // per tile
  tp::StepIpu ipu;
};

// Execution steps as the engine produces them: a few hundred busy tiles (hundreds to thousands
// of cycles), the rest idle, different on every step.
std::vector<StepData> makePool(std::size_t count, std::size_t tiles) {
  std::mt19937_64 rng(2024);
  std::vector<StepData> pool(count);
  std::uint64_t clock = 0;
  for (StepData& s : pool) {
    s.cycles.assign(tiles, 0);
    const std::size_t active = std::max<std::size_t>(1, tiles / 8 + rng() % (tiles / 4 + 1));
    std::uint64_t maxCycles = 0, sum = 0;
    for (std::size_t k = 0; k < active; ++k) {
      const std::uint64_t c = 100 + rng() % 3000;
      s.cycles[rng() % tiles] = c;
    }
    std::uint32_t nonZero = 0;
    for (auto c : s.cycles) {
      maxCycles = std::max(maxCycles, c);
      sum += c;
      nonZero += c != 0;
    }
    s.ipu.ipu = 0;
    s.ipu.cycles = maxCycles + 30;
    s.ipu.activeTiles = nonZero;
    s.ipu.activeFromMin = s.ipu.allFromMin = clock;
    s.ipu.activeFromMax = s.ipu.allFromMax = clock + 15;
    s.ipu.activeToMin = clock + 120;
    s.ipu.activeToMax = s.ipu.allToMax = clock + maxCycles + 30;
    s.ipu.allToMin = clock + 15;
    s.ipu.dataIn = rng() % 2 ? 4096 : 0;
    s.ipu.dataOut = 0;
    s.ipu.tileBalance = static_cast<float>(double(sum) / double(tiles) / double(maxCycles));
    s.ipu.activeTileBalance = static_cast<float>(double(sum) / double(nonZero) / double(maxCycles));
    clock += maxCycles + 30;
  }
  return pool;
}

struct Result {
  double seconds = 0;
  double cpuSeconds = 0; ///< process CPU time (user + system, all threads) during the phase
  std::uintmax_t fileBytes = 0;
  long rssGrowthKiB = 0;  ///< peak current RSS during the phase minus RSS at its start
  long rssAtTenthKiB = 0; ///< RSS after 10% of the rows, to compare with the end
  long rssAtEndKiB = 0;
  double busiestThreadSeconds =
      0; ///< CPU time of the thread that worked most (writer thread included)
  double publishSeconds =
      0; ///< wall time of the last commit and publish (waiting for the queue, the fsync)
  double callerThreadSeconds = 0;
  double waitingForCoreSeconds =
      0; ///< time the threads were ready to run but had no core (all threads)  ///< CPU time of the
         ///< thread that called the writer (encoding, and SQLite unless in background)
};

void fsyncFile(const fs::path& p) {
  const int fd = ::open(p.c_str(), O_RDONLY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

// Tracks the phase's RSS at each batch boundary.
struct RssProbe {
  long start = currentRssKiB(), peak = start, tenth = 0;
  void sample(std::size_t row, std::size_t rows) {
    const long now = currentRssKiB();
    peak = std::max(peak, now);
    if (!tenth && row >= rows / 10) tenth = now;
  }
  void finish(Result& r) {
    r.rssAtEndKiB = currentRssKiB();
    peak = std::max(peak, r.rssAtEndKiB);
    r.rssGrowthKiB = peak - start;
    r.rssAtTenthKiB = tenth ? tenth : r.rssAtEndKiB;
  }
};

Result runTessera(const fs::path& path, const std::vector<StepData>& pool, std::size_t steps,
                  std::size_t batch, bool background) {
  Result r;
  RssProbe rss;
  const double c0 = cpuSeconds();
  std::map<long, double> waiting0, waiting1;
  const auto threads0 = threadCpuNs(&waiting0);
  const auto t0 = Clock::now();
  {
    tp::ReportWriter writer(path);
    writer.writeInBackground(background);
    auto rows = writer.inserter<tp::schema::Steps>();
    std::string cycles, ipus; // reused: no allocation per row once grown
    writer.begin();
    for (std::size_t i = 0; i < steps; ++i) {
      const StepData& s = pool[i % pool.size()];
      tp::encodeTileValues(s.cycles.data(), s.cycles.size(), cycles);
      tp::encodeStepIpus(&s.ipu, 1, ipus);
      rows.row(i, i / 1000, 10 + i % 40, tp::blob(cycles), tp::blob(ipus));
      if ((i + 1) % batch == 0) {
        writer.commit();
        rss.sample(i + 1, steps);
        writer.begin();
      }
    }
    const auto p0 = Clock::now();
    writer.commit();
    writer.publish();
    r.publishSeconds = seconds(p0, Clock::now());
    for (const auto& [tid, w] : (threadCpuNs(&waiting1), waiting1))
      r.waitingForCoreSeconds += 1e-9 * (w - (waiting0.count(tid) ? waiting0[tid] : 0));
    for (const auto& [tid, ns] : threadCpuNs()) { // before the writer (and its thread) goes
      const auto it = threads0.find(tid);
      const double used = 1e-9 * (ns - (it == threads0.end() ? 0 : it->second));
      r.busiestThreadSeconds = std::max(r.busiestThreadSeconds, used);
      if (tid == static_cast<long>(::gettid())) r.callerThreadSeconds = used;
    }
  }
  r.seconds = seconds(t0, Clock::now());
  r.cpuSeconds = cpuSeconds() - c0;
  rss.finish(r);
  r.fileBytes = fs::file_size(path);
  return r;
}

void check(int rc, sqlite3* db, const char* what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE) {
    std::fprintf(stderr, "bench_report_writer: baseline: %s: %s\n", what, sqlite3_errmsg(db));
    std::exit(1);
  }
}

Result runRawSqlite(const fs::path& path, const std::vector<std::string>& cyclesBlobs,
                    const std::vector<std::string>& ipusBlobs, std::size_t steps,
                    std::size_t batch) {
  fs::remove(path);
  Result r;
  RssProbe rss;
  std::map<long, double> waiting0, waiting1;
  threadCpuNs(&waiting0);
  const double c0 = cpuSeconds();
  const auto t0 = Clock::now();
  sqlite3* db = nullptr;
  check(sqlite3_open_v2(path.c_str(), &db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr),
        db, "open");
  // The writer's pragmas for a report being built.
  check(
      sqlite3_exec(db,
                   "PRAGMA page_size=65536; PRAGMA journal_mode=TRUNCATE; PRAGMA synchronous=OFF; "
                   "PRAGMA cache_size=-16384;"
                   "CREATE TABLE steps (id INTEGER PRIMARY KEY, run INTEGER NOT NULL, program "
                   "INTEGER NOT NULL, "
                   "cycles_by_tile BLOB NOT NULL, ipus BLOB NOT NULL);"
                   "CREATE INDEX steps_by_run ON steps (run);",
                   nullptr, nullptr, nullptr),
      db, "create");
  sqlite3_stmt* st = nullptr;
  check(sqlite3_prepare_v2(db, "INSERT INTO steps VALUES (?,?,?,?,?)", -1, &st, nullptr), db,
        "prepare");
  check(sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr), db, "begin");
  for (std::size_t i = 0; i < steps; ++i) {
    const std::string& cycles = cyclesBlobs[i % cyclesBlobs.size()];
    const std::string& ipus = ipusBlobs[i % ipusBlobs.size()];
    sqlite3_bind_int64(st, 1, static_cast<sqlite3_int64>(i));
    sqlite3_bind_int64(st, 2, static_cast<sqlite3_int64>(i / 1000));
    sqlite3_bind_int64(st, 3, static_cast<sqlite3_int64>(10 + i % 40));
    sqlite3_bind_blob(st, 4, cycles.data(), static_cast<int>(cycles.size()), SQLITE_STATIC);
    sqlite3_bind_blob(st, 5, ipus.data(), static_cast<int>(ipus.size()), SQLITE_STATIC);
    check(sqlite3_step(st), db, "insert");
    sqlite3_reset(st);
    if ((i + 1) % batch == 0) {
      check(sqlite3_exec(db, "COMMIT; BEGIN", nullptr, nullptr, nullptr), db, "commit");
      rss.sample(i + 1, steps);
    }
  }
  check(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr), db, "commit");
  sqlite3_finalize(st);
  sqlite3_close(db);
  fsyncFile(path);
  r.seconds = seconds(t0, Clock::now());
  threadCpuNs(&waiting1);
  for (const auto& [tid, w] : waiting1)
    r.waitingForCoreSeconds += 1e-9 * (w - (waiting0.count(tid) ? waiting0[tid] : 0));
  r.cpuSeconds = cpuSeconds() - c0;
  rss.finish(r);
  r.fileBytes = fs::file_size(path);
  return r;
}

Result median(std::vector<Result> runs) {
  std::sort(runs.begin(), runs.end(),
            [](const Result& a, const Result& b) { return a.seconds < b.seconds; });
  return runs[runs.size() / 2];
}

double mib(double bytes) {
  return bytes / (1024.0 * 1024.0);
}

void print(const char* name, const Result& r, std::size_t steps) {
  std::printf("  %-22s %8.2f s  %10.0f rows/s  CPU %6.2f s  waited for a core %5.2f s  file %8.1f "
              "MiB  RSS growth %6.1f MiB "
              "(RSS at 10%% %6.1f, at end %6.1f MiB)\n",
              name, r.seconds, double(steps) / r.seconds, r.cpuSeconds, r.waitingForCoreSeconds,
              mib(double(r.fileBytes)), r.rssGrowthKiB / 1024.0, r.rssAtTenthKiB / 1024.0,
              r.rssAtEndKiB / 1024.0);
}

} // namespace

int main(int argc, char** argv) {
  // 509 distinct steps by default (a prime, so the pool does not line up with batches or run ids).
  std::size_t steps = 1000000, tiles = 1472, batch = 10000, reps = 3, poolSize = 509;
  std::string parent = fs::temp_directory_path().string();
  tessera::cli::CommandLine cli(
      "bench_report_writer",
      "bench_report_writer: writing execution steps to profile.pop through "
      "ReportWriter against raw SQLite inserts.",
      "bench_report_writer --steps 2000 --tiles 64 --batch 500 --reps 1");
  const CLI::Validator& positive = tessera::cli::PositiveNumber;
  cli.add_option("--steps", steps, "Execution steps written")->check(positive);
  cli.add_option("--tiles", tiles, "Tiles per step")->check(positive);
  cli.add_option("--batch", batch, "Rows per transaction")->check(positive);
  cli.add_option("--reps", reps, "Alternating runs of each (medians are reported)")
      ->check(positive);
  cli.add_option("--pool", poolSize, "Distinct steps cycled through")->check(positive);
  cli.add_option("--dir", parent, "Directory for the scratch files")->type_name("DIR");
  std::string only;
  cli.add_option("--only", only,
                 "Run one writer only, for profiling it: direct, background or raw (no ratios); or "
                 "encode: the "
                 "blobs alone, no SQLite")
      ->check(CLI::IsMember({"direct", "background", "raw", "encode"}));
  cli.parseOrExit(argc, argv);
  const fs::path dir = fs::path(parent) / ("tessera-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);

  const std::vector<StepData> pool = makePool(poolSize, tiles);
  std::vector<std::string> cyclesBlobs, ipusBlobs;
  std::size_t blobBytes = 0;
  for (const StepData& s : pool) {
    cyclesBlobs.push_back(tp::encodeTileValues(s.cycles));
    ipusBlobs.emplace_back();
    tp::encodeStepIpus(&s.ipu, 1, ipusBlobs.back());
    blobBytes += cyclesBlobs.back().size() + ipusBlobs.back().size();
  }
  std::printf("bench_report_writer: %zu steps x %zu tiles, %zu rows per transaction, %.0f blob "
              "bytes per row on average\n",
              steps, tiles, batch, double(blobBytes) / double(pool.size()));

  // The first file written in a process pays extra (the kernel grows the page cache), so an
  // untimed warm-up comes first; then the two alternate, and the median of each is reported.
  if (only == "encode") { // what encoding the two blobs costs, without SQLite
    for (std::size_t r = 0; r < reps; ++r) {
      std::string cycles, ipus;
      std::size_t bytes = 0;
      const double c0 = cpuSeconds();
      const auto t0 = Clock::now();
      for (std::size_t i = 0; i < steps; ++i) {
        const StepData& s = pool[i % pool.size()];
        tp::encodeTileValues(s.cycles.data(), s.cycles.size(), cycles);
        tp::encodeStepIpus(&s.ipu, 1, ipus);
        bytes += cycles.size() + ipus.size();
      }
      const double wall = seconds(t0, Clock::now()), cpu = cpuSeconds() - c0;
      std::printf("  encode %8.3f s  %6.3f us a step  CPU %6.3f s  (%zu bytes)\n", wall,
                  1e6 * wall / double(steps), cpu, bytes);
    }
    fs::remove_all(dir);
    return 0;
  }
  if (!only.empty()) { // one writer, reps times, for a profiler to watch
    for (std::size_t r = 0; r < reps; ++r) {
      const fs::path file = dir / "only.db";
      const Result res = only == "raw" ? runRawSqlite(file, cyclesBlobs, ipusBlobs, steps, batch)
                                       : runTessera(file, pool, steps, batch, only == "background");
      fs::remove(file);
      print(only.c_str(), res, steps);
      std::printf("  busiest thread %.2f s, calling thread %.2f s, last commit and publish %.2f s, "
                  "threads waited "
                  "%.2f s for a core\n",
                  res.busiestThreadSeconds, res.callerThreadSeconds, res.publishSeconds,
                  res.waitingForCoreSeconds);
    }
    fs::remove_all(dir);
    return 0;
  }
  const long peakBefore = peakRssKiB();
  runRawSqlite(dir / "warmup.db", cyclesBlobs, ipusBlobs, steps, batch);
  fs::remove(dir / "warmup.db");
  std::vector<Result> tessera, background, raw;
  for (std::size_t r = 0; r < reps; ++r) {
    tessera.push_back(runTessera(dir / "profile.pop", pool, steps, batch, false));
    fs::remove(dir / "profile.pop"); // drops its dirty pages before the next write
    background.push_back(runTessera(dir / "profile.pop", pool, steps, batch, true));
    fs::remove(dir / "profile.pop");
    raw.push_back(runRawSqlite(dir / "raw.db", cyclesBlobs, ipusBlobs, steps, batch));
    fs::remove(dir / "raw.db");
  }
  const long peakAfter = peakRssKiB();
  fs::remove_all(dir);

  const Result t = median(tessera), g = median(background), b = median(raw);
  print("tessera ReportWriter", t, steps);
  print("  in background", g, steps);
  print("raw SQLite (baseline)", b, steps);
  std::printf("  peak RSS (ru_maxrss): %.1f MiB before writing, %.1f MiB after all runs\n",
              peakBefore / 1024.0, peakAfter / 1024.0);
  std::printf("ratio Tessera / raw SQLite rows/s: %.2f, writing in background %.2f (goal >= 0.80; "
              "median of %zu "
              "alternating runs each)\n",
              b.seconds / t.seconds, b.seconds / g.seconds, reps);
  std::printf("ratio of CPU time raw SQLite / Tessera: %.2f, writing in background %.2f (all "
              "threads; the medians' runs)\n",
              b.cpuSeconds / t.cpuSeconds, b.cpuSeconds / g.cpuSeconds);
  std::printf("writing in background, busiest thread %.2f s of %.2f s CPU: raw SQLite's CPU / that "
              "= %.2f (the ratio "
              "a free core for the writer thread would allow)\n",
              g.busiestThreadSeconds, g.cpuSeconds, b.cpuSeconds / g.busiestThreadSeconds);
  return 0;
}
